package web_test

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"cardhouse/web"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// previewServer serves the client's static files and testdata/ (the recorded views), for the
// table preview page (static/preview.html).
func previewServer(t *testing.T) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServerFS(web.Static()))
	mux.Handle("/testdata/", http.StripPrefix("/testdata/", http.FileServer(http.Dir("testdata"))))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

// Edits of recorded views (JS statements on the view v) that make the tables the issue found
// broken: long hands, many seats.
const (
	// bigHand gives the viewer a hand of n cards of a 52-card deck, the clubs and the nines lit.
	bigHand = `const deck = []; for (const s of "SHDC") for (const r of ["2","3","4","5","6","7","8","9","10","J","Q","K","A"]) deck.push(r + s);
		const hz = v.zones.find((z) => z.kind === "hand" && z.owner === v.viewer);
		hz.cards = deck.slice(0, n); hz.count = n; v.players.find((p) => p.seat === v.viewer).hand_count = n;
		v.actions[0].cards = hz.cards.filter((c) => c.endsWith("C") || c.startsWith("9"));`
	// moreSeats adds hidden-hand seats up to n (with DRUGS rows when the view has them).
	moreSeats = `const rows = v.zones.some((z) => z.id.startsWith("face_down."));
		for (let s = v.players.length; s < n; s++) {
			v.players.push({ seat: s, hand_count: 7 });
			v.zones.push({ id: "hand." + s, kind: "hand", owner: s, count: 7, hidden: true });
			if (rows) {
				v.zones.push({ id: "face_up." + s, kind: "row", owner: s, label: "face up", cards: ["8S", "QD", "4H"], count: 3 });
				v.zones.push({ id: "face_down." + s, kind: "row", owner: s, label: "face down", count: 3, hidden: true, slots: [true, true, true] });
			}
		}`
)

// showView renders the recorded view name on the preview page after the edit (JS statements on
// v, with n in scope; an edit may change n for the next), and waits for the table.
func showView(t *testing.T, pg context.Context, base, name, edit string, n int) {
	t.Helper()
	run(t, pg, chromedp.Navigate(base+"/preview.html"))
	waitJS(t, pg, `window.preview`)
	evalJS[bool](t, pg, fmt.Sprintf(`(async () => { const v = await (await fetch("/testdata/views/%s.json")).json(); let n = %d; %s; window.cardhouse.sent.length = 0; return window.preview(v); })()`, name, n, edit))
	waitJS(t, pg, `document.querySelector(".felt")`)
}

// audit fails the test for every action the table offers that a person could not reach
// (testdata/harness.js, audit: off-screen, or covered where a pointer would land), and when it
// found nothing to check.
func audit(t *testing.T, pg context.Context, what string) {
	t.Helper()
	a := evalJS[struct {
		Problems []string
		Checked  int
	}](t, pg, `__ch.audit()`)
	if a.Checked == 0 {
		t.Errorf("%s: the audit found no offered action to check", what)
	}
	if len(a.Problems) > 0 {
		t.Errorf("%s: offered actions a person cannot reach:\n  %s", what, strings.Join(a.Problems, "\n  "))
	}
}

// sent is what the preview's table sent (window.cardhouse.sent), as JSON.
func sent(t *testing.T, pg context.Context) string {
	t.Helper()
	return evalJS[string](t, pg, `JSON.stringify(window.cardhouse.sent)`)
}

// TestTableReach renders the tables the issue found unplayable on the preview page, at a desktop
// and a phone size, and checks that every action offered can be reached: the dock (hand and
// buttons) stays on the screen with many seats and long hands, no card lies under the room
// panel, and a face-down card in the blind phase of DRUGS is flipped by a real tap.
func TestTableReach(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	base := previewServer(t)
	b := browser(t)
	sizes := []struct {
		name string
		w, h int64
	}{{"desktop", desktopW, desktopH}, {"phone", phoneW, phoneH}}
	cases := []struct {
		name, view, edit string
		n                int
	}{
		{"hotspot-8-seats", "hotspot-start", moreSeats, 8},
		{"hotspot-hand-16", "hotspot-start", bigHand, 16},
		{"hotspot-hand-20-all-lit", "hotspot-start", bigHand + "; v.actions[0].cards = hz.cards.slice();", 20},
		{"hotspot-hand-40", "hotspot-start", bigHand, 40},
		{"hotspot-8-seats-hand-24", "hotspot-start", moreSeats + "; n = 24; " + bigHand, 8},
		{"lastcard-4-seats", "lastcard-call", moreSeats, 4},
		{"drugs-5-seats", "drugs-faceup", moreSeats, 5},
		{"drugs-8-seats", "drugs-multi", moreSeats, 8},
		{"drugs-blind-5-seats", "drugs-blind", moreSeats, 5},
	}
	for _, sz := range sizes {
		pg := newPage(t, b, sz.w, sz.h)
		for _, c := range cases {
			t.Run(sz.name+"/"+c.name, func(t *testing.T) {
				showView(t, pg, base, c.view, c.edit, c.n)
				audit(t, pg, c.name)
				// With a card picked (it rises), every other card can still be reached.
				if evalJS[bool](t, pg, `!!document.querySelector(".my-area .hand .card.legal")`) {
					click(t, pg, `.my-area .hand .card.legal`)
					waitJS(t, pg, `document.querySelector(".my-area .card.selected")`)
					audit(t, pg, c.name+", a card picked")
				}
				// Nothing of the table lies under the room panel, or outside the page.
				if out := evalJS[[]string](t, pg, `(() => {
					const side = document.querySelector(".side").getBoundingClientRect(), host = document.querySelector(".table-host").getBoundingClientRect();
					const out = [];
					for (const el of document.querySelectorAll(".my-area .card, .my-area .actions button")) {
						const r = el.getBoundingClientRect();
						if (r.right > host.right + 1 || r.left < host.left - 1 || r.bottom > host.bottom + 1) out.push((el.dataset.code || el.textContent) + " outside the table");
						if (innerWidth > 760 && r.right > side.left) out.push((el.dataset.code || el.textContent) + " under the room panel");
					}
					return out; })()`); len(out) > 0 {
					t.Errorf("%s", strings.Join(out, "; "))
				}
				shot(t, pg, "reach-"+sz.name+"-"+c.name)
			})
		}
		// DRUGS' blind phase: the face-down cards take a real tap (the empty face-up row lying on
		// them used to take it), and the tap flips the card tapped.
		t.Run(sz.name+"/drugs-blind-flip", func(t *testing.T) {
			showView(t, pg, base, "drugs-blind", "", 0)
			audit(t, pg, "blind phase")
			click(t, pg, `.my-area .flip-target[data-index="1"]`)
			if got := sent(t, pg); got != `[{"type":"flip","index":1}]` {
				t.Errorf("tapping the second face-down card sent %s, want one flip of index 1", got)
			}
		})
	}
}

// TestOneTap: a tap on a picked card plays it, whatever else the hand holds: the same with a
// move that may take several cards (a Queen, three of a kind in hand) as with one that takes one.
func TestOneTap(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	base := previewServer(t)
	b := browser(t)
	for _, sz := range []struct {
		name string
		w, h int64
	}{{"desktop", desktopW, desktopH}, {"phone", phoneW, phoneH}} {
		pg := newPage(t, b, sz.w, sz.h)
		for _, c := range []struct{ view, card string }{{"hotspot-start", "3C"}, {"hotspot-multi", "4C"}, {"drugs-multi", ""}} {
			t.Run(sz.name+"/"+c.view, func(t *testing.T) {
				showView(t, pg, base, c.view, "", 0)
				card := c.card
				if card == "" {
					card = evalJS[string](t, pg, `document.querySelector(".my-area .card.legal").dataset.code`)
				}
				multi := evalJS[bool](t, pg, `(window.cardhouse.table.view.actions || []).some((a) => a.multi)`)
				sel := fmt.Sprintf(`.my-area .card.legal[data-code=%q]`, card)
				click(t, pg, sel)
				waitJS(t, pg, `document.querySelector(".my-area .card.selected")`)
				if got := sent(t, pg); got != `[]` {
					t.Fatalf("the first tap on %s sent %s; it only picks the card", card, got)
				}
				click(t, pg, sel)
				waitJS(t, pg, `window.cardhouse.sent.length > 0 || !document.querySelector(".my-area .card.selected")`)
				if got, want := sent(t, pg), fmt.Sprintf(`[{"type":"play","cards":[%q]}]`, card); got != want {
					t.Errorf("a second tap on %s (multi %v) sent %s, want %s", card, multi, got, want)
				}
			})
		}
	}
}

// TestFire: DRUGS' fire on the pile shows (the glow used to be painted under the felt), the red
// fire flashes under three times a second, and with prefers-reduced-motion nothing on the pile
// moves.
func TestFire(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	base := previewServer(t)
	b := browser(t)
	pg := newPage(t, b, desktopW, desktopH)
	for _, val := range []string{"fire", "red"} {
		t.Run(val, func(t *testing.T) {
			showView(t, pg, base, "drugs-fire", fmt.Sprintf(`v.indicators.find((i) => i.id === "fire").value = %q`, val), 0)
			// The glow fades in (a transition): measured until it shows, for up to 5 s of a loaded machine.
			measure := func() (hot, all int) {
				r := evalJS[struct{ X, Y, W, H float64 }](t, pg, `(() => { const r = document.querySelector(".pile").getBoundingClientRect(); return {x: r.left, y: r.top, w: r.width, h: r.height}; })()`)
				// The strips at the pile's sides, 10 px wide, where none of its cards reaches (a card is
				// 1/1.7 of the pile's width, turned at most 14 degrees and moved at most 5 px): flame
				// colours there, not felt.
				res, err := chromedp.Call(pg, page.CaptureScreenshot, page.CaptureScreenshotParams{Clip: &page.Viewport{X: r.X, Y: r.Y, Width: r.W, Height: r.H, Scale: 1}})
				if err != nil {
					t.Fatal(err)
				}
				img, err := png.Decode(bytes.NewReader(res.Data))
				if err != nil {
					t.Fatal(err)
				}
				bd := img.Bounds()
				for y := bd.Min.Y + bd.Dy()*45/100; y < bd.Min.Y+bd.Dy()*85/100; y++ {
					for _, x0 := range []int{bd.Min.X + 1, bd.Max.X - 11} {
						for x := x0; x < x0+10; x++ {
							cr, cg, cb, _ := img.At(x, y).RGBA()
							r8, g8, b8 := int(cr>>8), int(cg>>8), int(cb>>8)
							all++
							if r8 > 150 && r8 > 2*b8 && r8 > g8+50 {
								hot++
							}
						}
					}
				}
				return hot, all
			}
			hot, all := measure()
			for i := 0; hot*4 < all && i < 50; i++ {
				time.Sleep(100 * time.Millisecond)
				hot, all = measure()
			}
			if hot*4 < all {
				t.Errorf("the %s on the pile does not show: %d of %d pixels beside the pile are flame-coloured", val, hot, all)
			}
			shot(t, pg, "fire-"+val)
		})
	}
	// The pile's animations without reduced motion: each a sway or a pulse under three flashes a
	// second (a flash is a change and its return: one iteration there and back, or two alternate
	// iterations). With reduced motion, none runs on.
	anims := `document.getAnimations().filter((a) => a.effect && a.effect.target === document.querySelector(".pile")).map((a) => { const t = a.effect.getComputedTiming(); return { name: a.animationName, duration: Number(t.duration), iterations: t.iterations === Infinity ? -1 : t.iterations, direction: t.direction }; })`
	type anim struct {
		Name       string
		Duration   float64
		Iterations float64
		Direction  string
	}
	media := func(v string) {
		if _, err := chromedp.Call(pg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: v}}}); err != nil {
			t.Fatal(err)
		}
	}
	media("no-preference")
	for _, val := range []string{"fire", "red"} {
		showView(t, pg, base, "drugs-fire", fmt.Sprintf(`v.indicators.find((i) => i.id === "fire").value = %q`, val), 0)
		as := evalJS[[]anim](t, pg, anims)
		if len(as) == 0 {
			t.Errorf("%s: no animation on the pile", val)
		}
		for _, a := range as {
			period := a.Duration // ms from a change to its return
			if strings.HasPrefix(a.Direction, "alternate") {
				period *= 2
			}
			if perSecond := 1000 / period; perSecond >= 3 {
				t.Errorf("%s: animation %s flashes %.1f times a second (%+v); want under 3", val, a.Name, perSecond, a)
			}
		}
	}
	media("reduce")
	showView(t, pg, base, "drugs-fire", `v.indicators.find((i) => i.id === "fire").value = "red"`, 0)
	waitJS(t, pg, `!document.getAnimations().some((a) => a.effect && a.effect.target === document.querySelector(".pile") && a.playState === "running")`)
}

// TestLogPlace: the event log lies beside the pile, over no seat, with three or more opponents.
func TestLogPlace(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	base := previewServer(t)
	b := browser(t)
	pg := newPage(t, b, desktopW, desktopH)
	for _, n := range []int{4, 6, 8} {
		t.Run(fmt.Sprint(n, "-seats"), func(t *testing.T) {
			showView(t, pg, base, "hotspot-start", moreSeats, n)
			evalJS[bool](t, pg, `(() => { const t = window.cardhouse.table; t.logLines = Array.from({ length: 12 }, (_, i) => "Seat " + (i % 8 + 1) + " played a long line of cards " + i); t.render(); return true; })()`)
			over := evalJS[[]string](t, pg, `(() => {
				const log = document.querySelector(".log").getBoundingClientRect();
				if (!log.width || !log.height) return ["the log does not show"];
				const out = [];
				for (const s of document.querySelectorAll(".seat, .my-area, .pile-zone, .deck-zone")) {
					const r = s.getBoundingClientRect();
					if (r.left < log.right && log.left < r.right && r.top < log.bottom && log.top < r.bottom) out.push((s.dataset.seat !== undefined ? "seat " + s.dataset.seat : s.className) + " under the log");
				}
				return out; })()`)
			if len(over) > 0 {
				t.Errorf("%s", strings.Join(over, "; "))
			}
			shot(t, pg, fmt.Sprintf("log-%d-seats", n))
		})
	}
}

// TestTurnCue: on the player's turn the dock lights up and says "Your turn"; not on another's
// turn, nor for a spectator.
func TestTurnCue(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	base := previewServer(t)
	b := browser(t)
	pg := newPage(t, b, phoneW, phoneH)
	cue := `(() => { const c = document.querySelector("[data-cue=turn]"); return !!c && !!__ch.hitPoint(c) && document.querySelector(".my-area").classList.contains("my-turn"); })()`
	showView(t, pg, base, "hotspot-start", "", 0)
	if !evalJS[bool](t, pg, cue) {
		t.Error("the player's turn: no visible \"Your turn\" cue on the dock")
	}
	showView(t, pg, base, "hotspot-start", `v.turn = 1; v.actions = [];`, 0)
	if evalJS[bool](t, pg, `!!document.querySelector("[data-cue=turn], .my-area.my-turn")`) {
		t.Error("another player's turn shows the \"Your turn\" cue")
	}
	showView(t, pg, base, "hotspot-spectator", "", 0)
	if evalJS[bool](t, pg, `!!document.querySelector("[data-cue=turn], .my-area.my-turn")`) {
		t.Error("the spectator's table shows the \"Your turn\" cue")
	}
}
