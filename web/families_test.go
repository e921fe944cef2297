package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardhouse/sdk"

	"github.com/chromedp/chromedp"
)

// The families' fixtures (testdata/families): views of the trick, bidding, team and meld parts
// as Hearts, Spades and Gin Rummy will send them, drawn by the generic client before those
// variants exist.
var familyFixtures = []string{"hearts-trick", "hearts-pass", "spades-bid", "gin-knock", "gin-draw"}

// readFixture reads a fixture and checks it is a view the server could send: every member known
// to sdk.View, and its JSON the view's own (AppendJSON) as a JSON value.
func readFixture(t *testing.T, name string) (sdk.View, []byte) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "families", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var v sdk.View
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if c, w := canonical(t, v.AppendJSON(nil)), canonical(t, raw); c != w {
		t.Fatalf("%s is not as the view writes it:\n got %s\nwant %s", name, c, w)
	}
	return v, raw
}

// axeJS is axe-core's script: $CARDHOUSE_AXE_JS, or where `npm install -g axe-core` puts it
// (.ci/run installs it there).
func axeJS(t *testing.T) string {
	t.Helper()
	path := os.Getenv("CARDHOUSE_AXE_JS")
	if path == "" {
		path = "/usr/lib/node_modules/axe-core/axe.min.js"
	}
	b, err := os.ReadFile(path)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("axe-core: %v (npm install -g axe-core)", err)
		}
		t.Skipf("axe-core is not installed (npm install -g axe-core): %v", err)
	}
	return string(b)
}

// checkAxe runs axe-core on the page and fails on any violation, but for the rules about a whole
// page's landmarks and headings (the preview page is a bare table, not one of the app's pages)
// and label-content-name-mismatch: a card's face has letters drawn in its SVG ("Q", "Q") that
// its name ("Queen of hearts") does not repeat, on every card of every variant (cards.js).
func checkAxe(t *testing.T, pg context.Context, axe, what string) {
	t.Helper()
	if !evalJS[bool](t, pg, `typeof window.axe === "object"`) {
		evalJS[bool](t, pg, axe+"\n;true")
	}
	got := evalJS[[]string](t, pg, `(async () => {
		const off = { enabled: false };
		const r = await axe.run(document, { resultTypes: ["violations"], rules: { "landmark-one-main": off, "page-has-heading-one": off, region: off, "label-content-name-mismatch": off } });
		return r.violations.map((v) => v.id + ": " + v.help + " [" + v.nodes.slice(0, 3).map((n) => n.target.join(" ") + " " + n.failureSummary + " " + n.html.slice(0, 200)).join(" | ") + "]");
	})()`)
	for _, v := range got {
		t.Errorf("%s: axe-core: %s", what, v)
	}
}

// showFixture renders a family fixture on the preview page (with the ruleset's Info info, JSON)
// and waits for the table.
func showFixture(t *testing.T, pg context.Context, base, name, info string) {
	t.Helper()
	run(t, pg, chromedp.Navigate(base+"/preview.html"))
	waitJS(t, pg, `window.preview`)
	evalJS[bool](t, pg, fmt.Sprintf(`(async () => { const v = await (await fetch("/testdata/families/%s.json")).json(); window.cardhouse.sent.length = 0; return window.preview(v, { ruleset_info: %s }); })()`, name, info))
	waitJS(t, pg, `document.querySelector(".felt")`)
}

func lastSent(t *testing.T, pg context.Context) map[string]any {
	t.Helper()
	waitJS(t, pg, `window.cardhouse.sent.length > 0`)
	return evalJS[map[string]any](t, pg, `window.cardhouse.sent[window.cardhouse.sent.length - 1]`)
}

func sentJSON(t *testing.T, pg context.Context) string {
	t.Helper()
	b, _ := json.Marshal(lastSent(t, pg))
	return string(b)
}

// TestFamilyParts: the trick, the pass of exactly three, the bidding with teams and a score
// sheet, the melds with a layoff and the draws from the stock or the discard, each drawn from a
// fixed view at both sizes and played with real pointer events; axe-core finds nothing wrong.
func TestFamilyParts(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	b := browser(t)
	axe := axeJS(t)
	base := previewServer(t)
	views := map[string]sdk.View{}
	for _, name := range familyFixtures {
		views[name], _ = readFixture(t, name)
	}
	for _, sz := range []struct {
		name string
		w, h int64
	}{{"desktop", desktopW, desktopH}, {"phone", phoneW, phoneH}} {
		t.Run(sz.name, func(t *testing.T) {
			pg := newPage(t, b, sz.w, sz.h)

			// Hearts mid-trick: each card toward its player's seat (the viewer, seat 0, at the
			// bottom; seats 1, 2, 3 left, top, right), the leader marked; the last trick on demand.
			showFixture(t, pg, base, "hearts-trick", `{}`)
			v := views["hearts-trick"]
			type placed struct {
				Seat   int
				DX, DY float64
				Led    bool
			}
			where := `[...document.querySelectorAll(".trick .card[data-trick-seat]")].map((c) => { const b = c.closest(".trick").getBoundingClientRect(), r = c.getBoundingClientRect();
				return { Seat: Number(c.dataset.trickSeat), DX: (r.left + r.width / 2) - (b.left + b.width / 2), DY: (r.top + r.height / 2) - (b.top + b.height / 2), Led: c.classList.contains("led") }; })`
			want := map[int][2]int{0: {0, 1}, 1: {-1, 0}, 2: {0, -1}, 3: {1, 0}} // direction (x, y) on screen
			check := func(tr *sdk.Trick, what string) {
				got := evalJS[[]placed](t, pg, where)
				if len(got) != len(tr.Plays) {
					t.Fatalf("%s: %d cards drawn, %d played", what, len(got), len(tr.Plays))
				}
				for _, p := range got {
					d := want[p.Seat]
					ok := func(off float64, dir int) bool {
						switch dir {
						case 0:
							return off > -8 && off < 8
						case 1:
							return off > 15
						}
						return off < -15
					}
					if !ok(p.DX, d[0]) || !ok(p.DY, d[1]) {
						t.Errorf("%s: seat %d's card lies at (%.0f, %.0f) from the centre, want toward (%d, %d)", what, p.Seat, p.DX, p.DY, d[0], d[1])
					}
					if p.Led != (p.Seat == tr.Leader) {
						t.Errorf("%s: seat %d's card marked led %v, leader %d", what, p.Seat, p.Led, tr.Leader)
					}
				}
			}
			check(v.Trick, "trick")
			// Each seat's tricks taken, by the seat.
			if got := evalJS[string](t, pg, `document.querySelector('.seat[data-seat="3"] [data-tricks]')?.textContent || ""`); got != "1 trick" {
				t.Errorf("seat 3's tricks chip %q, want \"1 trick\"", got)
			}
			checkAxe(t, pg, axe, "hearts trick")
			shot(t, pg, "families-hearts-trick-"+sz.name)
			tap(t, pg, `[data-action="last-trick"]`)
			waitJS(t, pg, `document.querySelector(".trick.last")`)
			check(v.LastTrick, "last trick")
			if got := evalJS[string](t, pg, `document.querySelector("[data-trick-caption]").textContent`); !strings.Contains(got, "Dev") {
				t.Errorf("last trick's caption %q does not name its winner, Dev", got)
			}
			shot(t, pg, "families-hearts-last-trick-"+sz.name)
			tap(t, pg, `[data-action="last-trick"]`)
			waitJS(t, pg, `document.querySelector(".trick:not(.last)")`)
			// The sheet opens at any time, lowest total first marked (the lowest wins).
			tap(t, pg, `[data-action="sheet"]`)
			waitJS(t, pg, `document.querySelector("dialog .sheet")`)
			if n := evalJS[int](t, pg, `document.querySelectorAll("dialog .sheet tbody tr").length`); n != 2 {
				t.Errorf("the sheet shows %d hands, want 2", n)
			}
			if got := evalJS[string](t, pg, `document.querySelector("dialog .sheet tfoot td.best")?.textContent || ""`); got != "4" {
				t.Errorf("the sheet marks %q as the best total, want 4 (the lowest wins)", got)
			}
			if got := evalJS[string](t, pg, `document.querySelector("dialog .sheet tbody tr .note")?.textContent || ""`); !strings.Contains(got, "moon") {
				t.Errorf("the sheet's first hand's note %q, want moon", got)
			}
			checkAxe(t, pg, axe, "score sheet")
			shot(t, pg, "families-hearts-sheet-"+sz.name)
			tap(t, pg, `[data-action="close-sheet"]`)
			waitJS(t, pg, `!document.querySelector("dialog")`)

			// Hearts' pass: exactly three cards, the count shown, a chosen card tapped again unchosen.
			showFixture(t, pg, base, "hearts-pass", `{}`)
			status := func(want string, enabled bool) {
				t.Helper()
				waitJS(t, pg, fmt.Sprintf(`document.querySelector(".count-status")?.textContent === %q`, want))
				if got := evalJS[bool](t, pg, `!document.querySelector('[data-action="pass_cards"]').disabled`); got != enabled {
					t.Errorf("at %q the pass button is enabled: %v, want %v", want, got, enabled)
				}
			}
			card := func(code string) string { return fmt.Sprintf(`.hand .card[data-code=%q]`, code) }
			status("0 of 3 chosen", false)
			tap(t, pg, card("QC"))
			status("1 of 3 chosen", false)
			tap(t, pg, card("AS"))
			status("2 of 3 chosen", false)
			tap(t, pg, card("QC")) // again: unchosen
			status("1 of 3 chosen", false)
			tap(t, pg, card("KC"))
			tap(t, pg, card("QH"))
			status("3 of 3 chosen", true)
			if n := evalJS[int](t, pg, `window.cardhouse.sent.length`); n != 0 {
				t.Errorf("%d actions sent before the pass button", n)
			}
			checkAxe(t, pg, axe, "hearts pass")
			shot(t, pg, "families-hearts-pass-"+sz.name)
			tap(t, pg, `[data-action="pass_cards"]`)
			if got := sentJSON(t, pg); got != `{"cards":["AS","KC","QH"],"type":"pass_cards"}` {
				t.Errorf("sent %s, want the three cards chosen", got)
			}

			// Spades' bidding: teams by the seats and in their panel, each bid by its seat, the
			// bid's labels in a picker.
			showFixture(t, pg, base, "spades-bid", `{}`)
			if got := evalJS[[]string](t, pg, `[0, 1, 2, 3].map((s) => document.querySelector('.seat[data-seat="' + s + '"] .chip.team')?.textContent || "")`); strings.Join(got, ",") != "North–South,East–West,North–South,East–West" {
				t.Errorf("team chips by seat %v", got)
			}
			if got := evalJS[[]string](t, pg, `[...document.querySelectorAll(".teams-panel tbody tr")].map((r) => r.textContent)`); len(got) != 2 || !strings.Contains(got[0], "142") || !strings.Contains(got[1], "87") {
				t.Errorf("team panel rows %q", got)
			}
			if got := evalJS[string](t, pg, `document.querySelector('.seat[data-seat="0"] [data-bid]')?.textContent || ""`); got != "Bid 4" {
				t.Errorf("seat 0's bid chip %q, want \"Bid 4\"", got)
			}
			checkAxe(t, pg, axe, "spades bidding")
			shot(t, pg, "families-spades-bid-"+sz.name)
			tap(t, pg, `.actions [data-action="bid"]`)
			waitJS(t, pg, `document.querySelector("dialog .picker")`)
			if got := evalJS[[]string](t, pg, `[...document.querySelectorAll("dialog .picker button")].map((b) => b.textContent)`); len(got) != 15 || got[0] != "Nil" || got[14] != "Blind nil" {
				t.Errorf("bid picker %v", got)
			}
			checkAxe(t, pg, axe, "bid picker")
			shot(t, pg, "families-spades-bid-picker-"+sz.name)
			tap(t, pg, `dialog [data-choice="blind_nil"]`)
			if got := sentJSON(t, pg); got != `{"args":{"choice":"blind_nil"},"type":"bid"}` {
				t.Errorf("sent %s, want a blind nil bid", got)
			}
			tap(t, pg, `[data-action="sheet"]`)
			waitJS(t, pg, `document.querySelector("dialog .sheet[data-sheet-by=team]")`)
			if n := evalJS[int](t, pg, `document.querySelectorAll("dialog .sheet tbody tr").length`); n != 3 {
				t.Errorf("the team sheet shows %d hands, want 3", n)
			}
			tap(t, pg, `[data-action="close-sheet"]`)

			// Gin: melds by owner, deadwood apart; a card picked, then a meld tapped: a layoff
			// carrying the meld's owner and number.
			showFixture(t, pg, base, "gin-knock", `{}`)
			if got := evalJS[[]string](t, pg, `[...document.querySelectorAll('[data-melds="1"] .meld[data-zone]')].map((z) => z.dataset.zone)`); strings.Join(got, ",") != "meld.1.0,meld.1.1" {
				t.Errorf("seat 1's melds %v", got)
			}
			if n := evalJS[int](t, pg, `document.querySelectorAll('[data-melds="1"] .deadwood .card').length`); n != 2 {
				t.Errorf("seat 1's deadwood shows %d cards, want 2", n)
			}
			checkAxe(t, pg, axe, "gin knock")
			tap(t, pg, card("7C"))
			waitJS(t, pg, `document.querySelector('.meld.target[data-zone="meld.1.1"]')`)
			checkAxe(t, pg, axe, "gin layoff targets")
			shot(t, pg, "families-gin-layoff-"+sz.name)
			tap(t, pg, `.meld.target[data-zone="meld.1.1"]`)
			if got := sentJSON(t, pg); got != `{"cards":["7C"],"index":1,"target":1,"type":"layoff"}` {
				t.Errorf("sent %s, want a layoff onto seat 1's meld 1", got)
			}

			// Gin's draw: from the discard or the stock, by tapping that pile.
			showFixture(t, pg, base, "gin-draw", `{"card_back": "color"}`)
			// The ruleset's card back (Info.CardBack), whatever its cards.
			if got := evalJS[string](t, pg, `document.querySelector('.deck[data-zone="stock"] .card')?.dataset.back || ""`); got != "color" {
				t.Errorf("the stock's back is %q, want the ruleset's color", got)
			}
			checkAxe(t, pg, axe, "gin draw")
			shot(t, pg, "families-gin-draw-"+sz.name)
			tap(t, pg, `.pile[data-zone="discard"]`)
			if got := sentJSON(t, pg); got != `{"from":"discard","type":"draw"}` {
				t.Errorf("sent %s, want a draw from the discard", got)
			}
			showFixture(t, pg, base, "gin-draw", `{}`)
			tap(t, pg, `.deck[data-zone="stock"]`)
			if got := sentJSON(t, pg); got != `{"from":"stock","type":"draw"}` {
				t.Errorf("sent %s, want a draw from the stock", got)
			}
			if rec := record(t, pg); len(rec.CSP) > 0 {
				t.Errorf("content security policy violations: %v", rec.CSP)
			}
		})
	}
}

// TestFamilyEventTextsAndLowWins: the move log words an event as the ruleset's Info.EventTexts
// say, and a game where the lowest wins ranks its standings lowest first.
func TestFamilyEventTextsAndLowWins(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	b := browser(t)
	base := previewServer(t)
	pg := newPage(t, b, desktopW, desktopH)
	showFixture(t, pg, base, "spades-bid", `{"event_texts": {"bid": "{seat} bid {bid}", "played": "{seat} played {cards} to {target}", "dealt": "New deal"}}`)
	evalJS[bool](t, pg, `(() => { const v = structuredClone(window.cardhouse.table.view);
		v.events = [{ name: "bid", seat: 1, data: { bid: "blind_nil" } }, { name: "played", seat: 2, cards: ["QS"], data: { target: "3" } }, { name: "dealt", seat: -1 }];
		return window.preview(v); })()`)
	got := evalJS[[]string](t, pg, `[...document.querySelectorAll(".log div")].map((d) => d.textContent)`)
	if want := []string{"New deal", "Chloé played queen of spades to Dev", "Bruno bid blind nil"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("log %q, want %q", got, want)
	}
	// Hearts' game over: the lowest total first, and the summary names the winner.
	showFixture(t, pg, base, "hearts-trick", `{}`)
	evalJS[bool](t, pg, `(() => { const v = structuredClone(window.cardhouse.table.view); v.phase = "game_over"; v.winner = 3; v.actions = []; v.trick = undefined; return window.preview(v); })()`)
	waitJS(t, pg, `document.querySelector(".standings")`)
	if got := evalJS[[]string](t, pg, `[...document.querySelectorAll(".standings [data-standing]")].map((r) => r.dataset.standing)`); strings.Join(got, ",") != "3,1,2,0" {
		t.Errorf("standings by seat %v, want lowest first: 3,1,2,0", got)
	}
	if got := evalJS[string](t, pg, `document.querySelector("#summary h2").textContent`); !strings.Contains(got, "Dev wins") {
		t.Errorf("summary title %q, want Dev wins", got)
	}
	if n := evalJS[int](t, pg, `document.querySelectorAll("#summary .sheet tbody tr").length`); n != 2 {
		t.Errorf("the summary's sheet shows %d hands, want 2", n)
	}
	shot(t, pg, "families-hearts-over-desktop")
}
