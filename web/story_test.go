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
	// The move log and its toasts say the cards in words, never in codes ("R7", "W+4").
	logged := func(loc string) []string {
		t.Helper()
		return evalJS[[]string](t, ctx, `(async () => {
			const { setLocale } = await import("/js/i18n.js");
			await setLocale("`+loc+`");
			const { Table } = await import("/js/table.js");
			const info = (await (await fetch("/api/rulesets")).json()).rulesets.find((r) => r.id === "lastcard");
			const root = document.createElement("div");
			const t = new Table(root, { player: (s) => ({ name: ["Rosie", "Mia"][s] }), rulesetInfo: () => info });
			t.view = { phase: "playing", viewer: 1 };
			root.append(Object.assign(document.createElement("div"), { className: "log" }));
			t.toastLayer = document.createElement("div");
			t.announce([{ name: "played", seat: 0, cards: ["R7"] }, { name: "played", seat: 0, cards: ["W+4"] }, { name: "played", seat: 0, cards: ["BS"] }], {});
			return [...root.querySelectorAll(".log div")].map((d) => d.textContent).reverse();
		})()`)
	}
	for _, tc := range []struct {
		locale string
		want   []string
	}{
		{"en", []string{"Rosie played red 7", "Rosie played Joker Draw Four", "Rosie played blue skip"}},
		{"fr", []string{"7 rouge", "Joker +4", "passe (bleu)"}},
	} {
		got := logged(tc.locale)
		if len(got) != len(tc.want) {
			t.Fatalf("%s: the log says %q, want %d lines", tc.locale, got, len(tc.want))
		}
		for i := range got {
			if !strings.Contains(got[i], tc.want[i]) || strings.ContainsAny(got[i], "♠♥") || strings.Contains(got[i], "W+4") {
				t.Errorf("%s: log line %d is %q, want it to say %q", tc.locale, i, got[i], tc.want[i])
			}
		}
	}
}
