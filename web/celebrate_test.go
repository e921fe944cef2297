package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// The browser tests of a table that feels finished (issue 18, item 11): the sounds and their mute
// switch, DRUGS' burn moment, the winner's celebration and the summary at a round's or a game's
// end. Views are fed to the preview page (static/preview.html); the whole games are in
// browser_test.go (TestPlayThroughUI, TestLastCardRounds).

// sounds is what the page's sound module played (window.__cardhouseSounds), by name, in order.
func sounds(t *testing.T, ctx context.Context) []string {
	t.Helper()
	return evalJS[[]string](t, ctx, `(window.__cardhouseSounds || []).map((s) => s.name)`)
}

// motion sets the page's prefers-reduced-motion ("reduce" or "no-preference").
func motion(t *testing.T, ctx context.Context, v string) {
	t.Helper()
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: v}}}); err != nil {
		t.Fatal(err)
	}
}

// soundSteps are views that each make one sound, in order: the edits of a recorded view (JS on v)
// and the sound wanted. Each starts from the previous view shown (window.cardhouse.table.view).
var soundSteps = []struct{ name, view, edit, want string }{
	{"your turn", "hotspot-start", `v.turn = 0;`, "turn"},
	{"a LAST CARD call", "hotspot-start", `v.turn = 1; v.actions = []; v.events = [{ name: "last_card", seat: 1 }];`, "last_card"},
	{"caught", "lastcard-start", `v.turn = 1; v.actions = []; v.events = [{ name: "caught", seat: 1, data: { by: "0" } }, { name: "drew", seat: 1, count: 2 }];`, "caught"},
	{"a burn", "drugs-start", `v.turn = 1; v.actions = []; v.events = [{ name: "burned", seat: 1, cards: ["4S", "10H"] }];`, "burn"},
	{"a win", "hotspot-over", `v.events = [{ name: "won", seat: v.winner }];`, "win"},
}

// feedSounds shows each of soundSteps after a first view where it is another's turn, and
// returns the sounds played after each.
func feedSounds(t *testing.T, pg context.Context, base string) [][]string {
	t.Helper()
	var out [][]string
	for _, st := range soundSteps {
		evalJS[bool](t, pg, fmt.Sprintf(`(async () => { const before = window.cardhouse.table.view; const v = await (await fetch("/testdata/views/%s.json")).json();
			if (before) { v.turn = before.turn; } %s return window.preview(v); })()`, st.view, st.edit))
		out = append(out, sounds(t, pg))
	}
	return out
}

// TestSounds: each moment makes its one sound, never before the player's first tap (browsers
// allow none), and none while muted; the mute switch in the top bar takes a real tap at a phone's
// and a desktop's size and is remembered after a reload.
func TestSounds(t *testing.T) {
	base := previewServer(t)
	b := browser(t)
	for _, sz := range []screen{{"phone", phoneW, phoneH}, {"desktop", desktopW, desktopH}} {
		t.Run(sz.name, func(t *testing.T) {
			pg := newPage(t, b, sz.w, sz.h)
			// Another's turn first, so that the first step brings the viewer's turn.
			showView(t, pg, base, "hotspot-start", `v.turn = 1; v.actions = [];`, 0)
			if on := evalJS[string](t, pg, `document.querySelector("#sound-switch").getAttribute("aria-pressed")`); on != "true" {
				t.Errorf("sound is %q at first, want on", on)
			}
			// Before any tap: no sound, though the table wanted one.
			evalJS[bool](t, pg, `(() => { const v = structuredClone(window.cardhouse.table.view); v.turn = 0; return window.preview(v); })()`)
			if got := sounds(t, pg); len(got) != 0 {
				t.Errorf("sounds before the player's first tap: %v", got)
			}
			// A first tap (on the table's title) lets the page make sound.
			click(t, pg, `.topbar .brand`)
			evalJS[bool](t, pg, `(() => { const v = structuredClone(window.cardhouse.table.view); v.turn = 1; v.actions = []; return window.preview(v); })()`)
			got := feedSounds(t, pg, base)
			for i, st := range soundSteps {
				want := make([]string, i+1)
				for k := range want {
					want[k] = soundSteps[k].want
				}
				if strings.Join(got[i], " ") != strings.Join(want, " ") {
					t.Errorf("after %s the sounds played are %v, want %v", st.name, got[i], want)
				}
			}
			// Muted by a tap: nothing plays, and the page says so.
			tap(t, pg, `#sound-switch`)
			if on := evalJS[string](t, pg, `document.querySelector("#sound-switch").getAttribute("aria-pressed")`); on != "false" {
				t.Fatalf("after a tap on the switch, sound pressed %q, want false", on)
			}
			showView(t, pg, base, "hotspot-start", `v.turn = 1; v.actions = [];`, 0)
			click(t, pg, `.topbar .brand`)
			if got := feedSounds(t, pg, base); len(got[len(got)-1]) != 0 {
				t.Errorf("muted, the page played %v", got[len(got)-1])
			}
			shot(t, pg, "sound-muted-"+sz.name)
			// A reload keeps the switch off, and the table quiet.
			run(t, pg, chromedp.Reload())
			waitJS(t, pg, `window.preview && document.querySelector("#sound-switch")`)
			if on := evalJS[string](t, pg, `document.querySelector("#sound-switch").getAttribute("aria-pressed")`); on != "false" {
				t.Errorf("after a reload the switch says sound %q, want off", on)
			}
			showView(t, pg, base, "hotspot-start", `v.turn = 1; v.actions = [];`, 0)
			click(t, pg, `.topbar .brand`)
			if got := feedSounds(t, pg, base); len(got[len(got)-1]) != 0 {
				t.Errorf("muted after a reload, the page played %v", got[len(got)-1])
			}
			// Unmuted by a tap: the sounds come back.
			tap(t, pg, `#sound-switch`)
			showView(t, pg, base, "hotspot-start", `v.turn = 1; v.actions = [];`, 0)
			click(t, pg, `.topbar .brand`)
			if got := feedSounds(t, pg, base); len(got[len(got)-1]) != len(soundSteps) {
				t.Errorf("unmuted, the page played %v, want one sound for each of the %d moments", got[len(got)-1], len(soundSteps))
			}
		})
	}
}

// animsUnder lists the running animations of the elements under sel: their names, whether they
// repeat, and how many times a second they change and come back (a flash). A single entrance (a
// banner scaling in once) repeats nothing, so it is no flash.
const animsUnder = `((sel) => document.getAnimations().filter((a) => a.playState === "running" && a.effect && a.effect.target && a.effect.target.closest && a.effect.target.closest(sel)).map((a) => { const t = a.effect.getComputedTiming(); const period = Number(t.duration) * (String(t.direction).startsWith("alternate") ? 2 : 1); return { name: a.animationName || "", repeats: t.iterations > 1, perSecond: 1000 / period }; }))`

type animInfo struct {
	Name      string
	Repeats   bool
	PerSecond float64
}

// TestBurnMoment: a burn in DRUGS shows a moment over the table that names who burned the pile
// and why (a 10; an Overdose of four of a rank), over no control a person needs; its flame sways
// under three times a second, and with reduced motion nothing in it moves.
func TestBurnMoment(t *testing.T) {
	base := previewServer(t)
	b := browser(t)
	for _, sz := range []screen{{"phone", phoneW, phoneH}, {"desktop", desktopW, desktopH}} {
		t.Run(sz.name, func(t *testing.T) {
			pg := newPage(t, b, sz.w, sz.h)
			motion(t, pg, "no-preference")
			cases := []struct{ name, edit, want string }{
				{"ten", `v.events = [{ name: "burned", seat: 0, cards: ["4S", "9H", "10H"] }];`, "Ada burned the pile: a 10 burns the pile."},
				{"overdose", `v.events = [{ name: "overdose", seat: 1, cards: ["5S", "7S", "7H", "7D", "7C"] }];`, "You burned the pile: Overdose: four 7s in a row.You play again."},
			}
			for _, c := range cases {
				// The player's turn (the table offers moves) before and after the burn.
				showView(t, pg, base, "drugs-multi", ``, 0)
				evalJS[bool](t, pg, fmt.Sprintf(`(() => { const v = structuredClone(window.cardhouse.table.view); %s return window.preview(v); })()`, c.edit))
				got := text(t, pg, ".burn-moment")
				if !strings.Contains(got, c.want) {
					t.Errorf("%s: the burn moment says %q, want %q", c.name, got, c.want)
				}
				audit(t, pg, c.name+", the burn moment shown")
				as := evalJS[[]animInfo](t, pg, animsUnder+`(".burn-moment")`)
				if len(as) == 0 {
					t.Errorf("%s: nothing moves in the burn moment", c.name)
				}
				for _, a := range as {
					if a.Repeats && a.PerSecond >= 3 {
						t.Errorf("%s: animation %s flashes %.1f times a second; want under 3", c.name, a.Name, a.PerSecond)
					}
				}
				waitJS(t, pg, animsUnder+`(".burn-moment").every((a) => a.repeats)`) // in, before the picture
				shot(t, pg, fmt.Sprintf("burn-%s-%s", c.name, sz.name))
			}
			motion(t, pg, "reduce")
			showView(t, pg, base, "drugs-multi", ``, 0)
			evalJS[bool](t, pg, fmt.Sprintf(`(() => { const v = structuredClone(window.cardhouse.table.view); %s return window.preview(v); })()`, cases[1].edit))
			waitJS(t, pg, `!!document.querySelector(".burn-moment")`)
			waitJS(t, pg, animsUnder+`(".burn-moment").length === 0`)
			if got := text(t, pg, ".burn-moment"); !strings.Contains(got, "OVERDOSE") {
				t.Errorf("with reduced motion the burn moment says %q, want the Overdose named", got)
			}
		})
	}
}

// TestCelebration: at a game's end in every variant the winner is celebrated (confetti falling,
// nothing flashing three times a second or more; with reduced motion no motion at all, the
// message still there), and the summary fits the table at a phone's and a desktop's size:
// every hand left, and its buttons where a tap reaches them.
func TestCelebration(t *testing.T) {
	base := previewServer(t)
	b := browser(t)
	for _, sz := range []screen{{"phone", phoneW, phoneH}, {"desktop", desktopW, desktopH}} {
		for _, view := range []string{"hotspot-over", "drugs-over", "lastcard-over"} {
			t.Run(sz.name+"/"+view, func(t *testing.T) {
				pg := newPage(t, b, sz.w, sz.h)
				for _, m := range []string{"no-preference", "reduce"} {
					motion(t, pg, m)
					// A Last Card round that ends the game: the recorded view is a round's end.
					showView(t, pg, base, view, `v.phase = "game_over";`, 0)
					waitJS(t, pg, `!!document.querySelector("#summary")`)
					if got := text(t, pg, "#summary h2"); !strings.Contains(got, "win") {
						t.Errorf("%s: the summary's title is %q, want the winner named", m, got)
					}
					if !evalJS[bool](t, pg, `!!document.querySelector(".felt > .celebration")`) {
						t.Errorf("%s: no celebration on the felt", m)
					}
					if m == "reduce" {
						waitJS(t, pg, animsUnder+`(".felt").length === 0`)
						if n := evalJS[int](t, pg, `document.querySelectorAll(".celebration .confetti").length`); n > 0 {
							t.Errorf("with reduced motion, %d pieces of confetti", n)
						}
					} else {
						as := evalJS[[]animInfo](t, pg, animsUnder+`(".felt")`)
						if evalJS[int](t, pg, `document.querySelectorAll(".celebration .confetti").length`) == 0 || len(as) == 0 {
							t.Errorf("no confetti falls for the winner")
						}
						for _, a := range as {
							if a.Repeats && a.PerSecond >= 3 {
								t.Errorf("animation %s flashes %.1f times a second; want under 3", a.Name, a.PerSecond)
							}
						}
					}
					checkSummary(t, pg, view)
					click(t, pg, `#summary [data-action=deal]`)
					if got := sent(t, pg); got != `[{"type":"deal"}]` {
						t.Errorf("the host's Rematch sent %s, want one deal", got)
					}
					shot(t, pg, fmt.Sprintf("celebrate-%s-%s-%s", view, sz.name, map[string]string{"reduce": "still", "no-preference": "moving"}[m]))
				}
			})
		}
	}
}

// checkSummary checks the summary a page shows: inside the felt and the screen (scrolling
// inside when long), one entry for each seat with the cards the view shows it still held, and
// its buttons reachable by a tap.
func checkSummary(t *testing.T, pg context.Context, what string) {
	t.Helper()
	r := evalJS[struct {
		Fits     bool
		Seats    int
		Entries  int
		Mismatch []string
		Buttons  []string
	}](t, pg, `(() => {
		const s = document.querySelector("#summary"), felt = document.querySelector(".felt");
		const r = s.getBoundingClientRect(), f = felt.getBoundingClientRect();
		const v = (window.cardhouse.state?.room?.table || window.cardhouse.table).view;
		const mismatch = [];
		for (const p of v.players) {
			const li = s.querySelector('[data-hand-left="' + p.seat + '"]');
			if (!li) { mismatch.push("seat " + p.seat + ": no entry"); continue; }
			const want = v.zones.filter((z) => z.owner === p.seat && (z.kind === "hand" || z.kind === "row")).flatMap((z) => z.cards || []).join(" ");
			const shown = [...li.querySelectorAll(".card")].map((c) => c.dataset.code || "?").join(" ");
			if (want !== shown) mismatch.push("seat " + p.seat + ": shows [" + shown + "], holds [" + want + "]");
		}
		const buttons = [];
		for (const b of s.querySelectorAll("button")) {
			b.scrollIntoView({ block: "nearest" });
			const br = b.getBoundingClientRect();
			if (!__ch.hitPoint(b) || br.bottom > innerHeight || br.top < 0) buttons.push(b.textContent + " cannot be tapped");
		}
		return { fits: r.top >= f.top - 1 && r.bottom <= f.bottom + 1 && r.left >= 0 && r.right <= innerWidth + 1 && r.bottom <= innerHeight + 1,
			seats: v.players.length, entries: s.querySelectorAll("[data-hand-left]").length, mismatch, buttons };
	})()`)
	if !r.Fits {
		t.Errorf("%s: the summary does not fit the table on the screen", what)
	}
	if r.Entries != r.Seats {
		t.Errorf("%s: the summary lists %d hands left, the table has %d seats", what, r.Entries, r.Seats)
	}
	for _, m := range append(r.Mismatch, r.Buttons...) {
		t.Errorf("%s: %s", what, m)
	}
}
