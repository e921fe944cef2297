package web_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The browser tests of a table that tells the story (issue 32 item 5): cards named in words, the
// move log on a phone, summaries that say who won and by how much, the invite's landing page, a
// game against the computer that starts at once, the ratings beside names and the replay's names.

// TestCardWords: every kind of card has its name in words, in English and in French, as the log,
// the toasts, the summary and the replay say it.
func TestCardWords(t *testing.T) {
	t.Parallel()
	base, _ := startServer(t)
	ctx := newPage(t, browser(t), desktopW, desktopH)
	run(t, ctx, chromedp.Navigate(base+"/"))
	codes := `["R7", "GS", "BR", "Y+2", "W", "W+4", "QS", "10H", "AD", "JC", "KH", "2S", "JK", "??"]`
	words := func(loc string) []string {
		t.Helper()
		return evalJS[[]string](t, ctx, `(async () => {
			const { setLocale } = await import("/js/i18n.js");
			const { cardWords } = await import("/js/cards.js");
			await setLocale("`+loc+`");
			return `+codes+`.map(cardWords);
		})()`)
	}
	for _, tc := range []struct {
		locale string
		want   []string
	}{
		{"en", []string{"red 7", "green skip", "blue reverse", "yellow draw two", "Joker", "Joker Draw Four", "queen of spades", "10 of hearts", "ace of diamonds", "jack of clubs", "king of hearts", "2 of spades", "joker", "??"}},
		{"fr", []string{"7 rouge", "passe (vert)", "inversion (bleu)", "+2 jaune", "Joker", "Joker +4", "dame de pique", "10 de cœur", "as de carreau", "valet de trèfle", "roi de cœur", "2 de pique", "joker", "??"}},
	} {
		if got := words(tc.locale); strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s: cardWords = %q, want %q", tc.locale, got, tc.want)
		}
	}
}
