package web_test

import (
	"context"
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

// verdictSeen is what a summary's verdict line says (summary.js, verdict) beside what the view
// says it should: the expected margin and leader worked out here from the view's scores.
type verdictSeen struct {
	Text       string `json:"text"`
	Margin     int    `json:"margin"`
	WantMargin int    `json:"wantMargin"`
	First      string `json:"first"`
	WantFirst  string `json:"wantFirst"`
	Want       string `json:"want"` // "team", "players" or "" (no verdict line)
	LowWins    bool   `json:"lowWins"`
	Title      string `json:"title"`
	Names      string `json:"names"`
	GreenPts   int    `json:"greenPts"`
	WinnerPts  string `json:"winnerPts"`
}

// checkVerdict checks that the summary on pg says who won and by how much as the view's scores
// have it: a partnership's score against the other team's (the title naming both partners), the
// lowest total first where the lowest wins, and no points chip that reads as a gain for a loser
// or "0 pts" beside the winner.
func checkVerdict(t *testing.T, pg context.Context, what string) verdictSeen {
	t.Helper()
	v := evalJS[verdictSeen](t, pg, `(() => {
		const tb = window.cardhouse.state?.room?.table || window.cardhouse.table;
		const v = tb.view, s = document.querySelector("#summary"), el = s.querySelector(".verdict");
		const low = !!v.low_wins, over = v.phase === "game_over";
		const out = { text: el ? el.textContent : "", margin: el ? Number(el.dataset.margin) : -1, first: el ? (el.dataset.first ?? el.dataset.winnerTeam) : "",
			lowWins: low, title: s.querySelector("h2").textContent, greenPts: s.querySelectorAll(".chip.green[data-points]").length,
			winnerPts: s.querySelector('[data-hand-left="' + v.winner + '"] [data-points]')?.textContent || "" };
		const teams = (v.teams || []).filter((x) => x.score !== undefined && x.score !== null);
		const scored = (v.players || []).filter((p) => p.score !== undefined && p.score !== null);
		if (over && v.winner >= 0 && teams.length > 1) {
			const win = teams.find((x) => (x.seats || []).includes(v.winner));
			const others = teams.filter((x) => x !== win).map((x) => x.score);
			const other = low ? Math.min(...others) : Math.max(...others);
			Object.assign(out, { want: "team", wantMargin: Math.abs(win.score - other), wantFirst: String(win.id), names: win.seats.map((x) => tb.player(x).name).join(" & ") });
		} else if (scored.length > 1) {
			const best = [...scored].sort((a, b) => (low ? a.score - b.score : b.score - a.score) || a.seat - b.seat);
			const first = over && v.winner >= 0 ? scored.find((p) => p.seat === v.winner) : best[0];
			const next = best.find((p) => p !== first);
			Object.assign(out, { want: "players", wantMargin: Math.abs(first.score - next.score), wantFirst: String(first.seat), names: tb.player(first.seat).name });
		} else out.want = "";
		return out;
	})()`)
	switch v.Want {
	case "":
		if v.Text != "" {
			t.Errorf("%s: a game without running scores has a verdict %q", what, v.Text)
		}
	default:
		if v.Text == "" || v.Margin != v.WantMargin || v.First != v.WantFirst {
			t.Errorf("%s: the verdict %q says %s by %d, want %s by %d", what, v.Text, v.First, v.Margin, v.WantFirst, v.WantMargin)
		}
		if v.Want == "team" && !strings.Contains(v.Title, v.Names) && !strings.Contains(v.Title, "Your team") {
			t.Errorf("%s: the title %q does not name the winning partners %q", what, v.Title, v.Names)
		}
		if v.Want == "players" && v.LowWins != strings.Contains(v.Text, "fewer") {
			t.Errorf("%s: the verdict %q (lowest wins: %v) gets the direction wrong", what, v.Text, v.LowWins)
		}
	}
	if v.GreenPts > 0 {
		t.Errorf("%s: %d points chips read as gains (green)", what, v.GreenPts)
	}
	if strings.HasPrefix(v.WinnerPts, "0 ") {
		t.Errorf("%s: the winner reads %q", what, v.WinnerPts)
	}
	return v
}
