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
	t.Parallel() // one browser context and one server of its own (browser_test.go)
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
	t.Parallel() // one browser context and one server of its own (browser_test.go)
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
	t.Parallel() // one browser context and one server of its own (browser_test.go)
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
			const zs = v.zones.filter((z) => z.owner === p.seat && (z.kind === "hand" || z.kind === "row" || z.kind === "deadwood"));
			for (const z of zs) if ((z.cards || []).length !== z.count) mismatch.push(z.id + ": the view shows " + (z.cards || []).length + " of its " + z.count + " cards at the end");
			const want = zs.flatMap((z) => z.cards || []).join(" ");
			const shown = [...li.querySelectorAll("[data-zone-left] .card")].map((c) => c.dataset.code || "?").join(" ");
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
	checkVerdict(t, pg, what)
}

// atGameEnd checks what every page at the table shows when a game played by taps has ended:
// the summary (every hand left with its cards, the points counted in Last Card), the winner's
// celebration without motion (the pages prefer reduced motion) and its message, and the sounds
// the game made (one win; the players' turns).
func atGameEnd(t *testing.T, id string, pages map[string]context.Context) {
	t.Helper()
	for who, pg := range pages {
		waitJS(t, pg, `!!document.querySelector("#summary")`)
		checkSummary(t, pg, id+", "+who)
		v := evalJS[struct {
			Winner int
			Phase  string
		}](t, pg, `window.cardhouse.state.room.table.view`)
		if v.Phase != "game_over" {
			t.Errorf("%s: phase %s at the end, want game_over", who, v.Phase)
		}
		if id == "lastcard" {
			got := evalJS[[]int](t, pg, `(() => { const v = window.cardhouse.state.room.table.view; const w = v.players.find((p) => p.seat === v.winner); return [Number(document.querySelector(".how-counted")?.dataset.total ?? -1), w ? w.score : -2]; })()`)
			if got[0] != got[1] {
				t.Errorf("%s: the summary counts %d points for the winner, who scored %d", who, got[0], got[1])
			}
		}
		if v.Winner >= 0 {
			if title := text(t, pg, "#summary h2"); !strings.Contains(title, "win") {
				t.Errorf("%s: the summary's title %q does not name the winner", who, title)
			}
			if !evalJS[bool](t, pg, `document.querySelector(".felt > .celebration")?.dataset.motion === "none" && !document.querySelector(".confetti")`) {
				t.Errorf("%s: with reduced motion the celebration should be there and still", who)
			}
		}
		played := sounds(t, pg)
		count := map[string]int{}
		for _, s := range played {
			count[s]++
		}
		if v.Winner >= 0 && count["win"] != 1 {
			t.Errorf("%s: %d win sounds at the end of the game (sounds %v), want one", who, count["win"], count)
		}
		if who != "watcher" && count["turn"] == 0 {
			t.Errorf("%s: no \"your turn\" sound in a whole game (sounds %v)", who, count)
		}
		t.Logf("%s: sounds %v", who, count)
	}
}

// rematch: the guest asks for a rematch from the summary and the host sees who asked; the
// spectator leaves for the lobby; the host's Rematch deals a new game for the players.
func rematch(t *testing.T, id string, host, guest, watcher context.Context) {
	t.Helper()
	tap(t, guest, `#summary [data-action=rematch]`)
	waitText(t, guest, `#summary [data-action=rematch]`, "Asked the host")
	waitText(t, guest, `#summary .rematch-note`, "Waiting for the host")
	waitJS(t, host, `(document.querySelector("#summary .rematch-note.asked")?.textContent || "").includes("Bruno asks for a rematch")`)
	shot(t, host, "summary-"+id+"-asked")
	tap(t, watcher, `#summary [data-action=leave]`)
	waitJS(t, watcher, `location.hash === "#/" && !!document.querySelector(".variants")`)
	waitText(t, watcher, `#notice`, "You left room")
	tap(t, host, `#summary [data-action=deal]`)
	for _, pg := range []context.Context{host, guest} {
		waitJS(t, pg, `window.cardhouse.state.room?.table.view?.phase === "playing" && !document.querySelector("#summary")`)
	}
	shot(t, guest, "summary-"+id+"-rematch-dealt")
}

// TestLastCardRounds: two people play Last Card to 500 points by taps, a host on a desktop and
// a guest on a phone, over two rounds: after each, both see the summary (every hand left, the
// points counted) and the standings over the rounds (a column a round, adding up to the total);
// the host deals the next round from the summary; at the end the guest leaves for the lobby.
func TestLastCardRounds(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	url, _ := startServer(t)
	b := browser(t)
	host := newPage(t, b, desktopW, desktopH)
	guest := newPage(t, b, phoneW, phoneH)
	enter(t, host, url, "Ada", "moon")
	enter(t, guest, url, "Bruno", "knight")
	click(t, host, `[data-create="lastcard"]`)
	waitJS(t, host, `document.querySelector("#create-room")`)
	evalJS[bool](t, host, `(() => { const f = document.querySelector("#create-room"); f.elements.seats.value = 2; return true; })()`)
	click(t, host, `#create-room button[type=submit]`)
	waitJS(t, host, `location.hash.startsWith("#/room/") && document.querySelector("#room-code")?.textContent`)
	code := evalJS[string](t, host, `document.querySelector("#room-code").textContent`)
	fill(t, guest, `#by-code input[name=code]`, code)
	click(t, guest, `#join-code`)
	waitJS(t, host, `document.querySelectorAll(".members li").length === 2`)
	pages := map[string]context.Context{"desktop": host, "phone": guest}
	// The room's top bar has the mute switch, within a tap at both sizes: off, and on again.
	for name, pg := range pages {
		for _, want := range []string{"false", "true"} {
			tap(t, pg, `.topbar #sound-switch`)
			if got := evalJS[string](t, pg, `document.querySelector(".topbar #sound-switch").getAttribute("aria-pressed")`); got != want {
				t.Errorf("%s: after a tap on the room's sound switch, sound pressed %q, want %q", name, got, want)
			}
		}
	}
	tap(t, host, `[data-action=deal]`)
	players := []player{{host, `{}`}, {guest, `{}`}}
	type standing struct {
		Seat   int
		Cells  []string
		Total  int
		Rounds []int
	}
	for round := 1; round <= 2; round++ {
		for _, pg := range pages {
			waitJS(t, pg, `window.cardhouse.state.room?.table.view?.phase === "playing" && !document.querySelector("#summary")`)
		}
		playGame(t, players, func() {})
		phase := ""
		for name, pg := range pages {
			waitJS(t, pg, `!!document.querySelector("#summary")`)
			phase = evalJS[string](t, pg, `window.cardhouse.state.room.table.view.phase`)
			checkSummary(t, pg, fmt.Sprintf("round %d, %s", round, name))
			// The standings: a column for each round played, each row adding up to its total.
			rows := evalJS[[]standing](t, pg, `[...document.querySelectorAll("#summary [data-standing]")].map((tr) => ({ seat: Number(tr.dataset.standing), cells: [...tr.querySelectorAll("[data-round]")].map((td) => td.textContent), rounds: [...tr.querySelectorAll("[data-round]")].map((td) => Number(td.dataset.round)), total: Number(tr.querySelector(".total").textContent) }))`)
			scores := evalJS[map[string]int](t, pg, `Object.fromEntries(window.cardhouse.state.room.table.view.players.map((p) => [p.seat, p.score]))`)
			if len(rows) != 2 {
				t.Fatalf("round %d, %s: %d standings rows, want 2", round, name, len(rows))
			}
			for _, r := range rows {
				sum := 0
				for _, c := range r.Cells {
					var n int
					fmt.Sscanf(strings.TrimPrefix(c, "+"), "%d", &n)
					sum += n
				}
				if len(r.Cells) != round || r.Rounds[len(r.Rounds)-1] != round {
					t.Errorf("round %d, %s: seat %d's standings show rounds %v, want 1 to %d", round, name, r.Seat, r.Rounds, round)
				}
				if sum != r.Total || r.Total != scores[fmt.Sprint(r.Seat)] {
					t.Errorf("round %d, %s: seat %d's rounds %v add up to %d, the total shows %d, the score is %d", round, name, r.Seat, r.Cells, sum, r.Total, scores[fmt.Sprint(r.Seat)])
				}
			}
			shot(t, pg, fmt.Sprintf("rounds-lastcard-%d-%s", round, name))
		}
		if phase == "game_over" {
			t.Fatalf("the game reached 500 points in round %d; two rounds were wanted", round)
		}
		if round == 1 {
			if got := text(t, guest, `#summary [data-action=rematch]`); got != "Next round" {
				t.Errorf("the guest's summary offers %q, want \"Next round\" (a request to the host)", got)
			}
			tap(t, host, `#summary [data-action=deal]`)
		}
	}
	// The guest leaves between rounds: the seat goes to a bot once they confirm.
	tap(t, guest, `#summary [data-action=leave]`)
	tap(t, guest, `#confirm-leave [data-answer=leave]`)
	waitJS(t, guest, `location.hash === "#/" && !!document.querySelector(".variants")`)
	waitText(t, guest, `#notice`, "You left room")
	waitJS(t, host, `[...document.querySelectorAll(".members li")].every((li) => !li.textContent.includes("Bruno") || li.textContent.includes("bot"))`)
}

// TestBurnMomentGivesWayToTheEnd: a burn's moment still showing when the game ends leaves the
// table to the summary: nothing lies over the summary's buttons.
func TestBurnMomentGivesWayToTheEnd(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	base := previewServer(t)
	b := browser(t)
	pg := newPage(t, b, phoneW, phoneH)
	showView(t, pg, base, "drugs-multi", ``, 0)
	evalJS[bool](t, pg, `(() => { const v = structuredClone(window.cardhouse.table.view); v.events = [{ name: "overdose", seat: 1, cards: ["7S", "7H", "7D"] }]; return window.preview(v); })()`)
	waitJS(t, pg, `!!document.querySelector(".burn-moment")`)
	evalJS[bool](t, pg, `(async () => { const v = await (await fetch("/testdata/views/drugs-over.json")).json(); return window.preview(v); })()`)
	waitJS(t, pg, `!!document.querySelector("#summary")`)
	if evalJS[bool](t, pg, `!!document.querySelector(".burn-moment")`) {
		t.Error("the burn moment stays over the summary at the game's end")
	}
	checkSummary(t, pg, "after a burn")
}

// TestStandingsOverRounds: the summary's standings have a column for each round this table saw
// end, each what the seat gained in it, and a new game starts them again (even one whose first
// round ends as the last game's did).
func TestStandingsOverRounds(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	base := previewServer(t)
	b := browser(t)
	pg := newPage(t, b, phoneW, phoneH)
	showView(t, pg, base, "lastcard-start", ``, 0)
	end := func(round int, phase string, scores string) []string {
		t.Helper()
		evalJS[bool](t, pg, fmt.Sprintf(`(async () => { const v = await (await fetch("/testdata/views/lastcard-over.json")).json(); v.round = %d; v.phase = %q; const s = %s; for (const p of v.players) p.score = s[p.seat]; return window.preview(v); })()`, round, phase, scores))
		return evalJS[[]string](t, pg, `[...document.querySelectorAll("#summary [data-standing]")].map((tr) => tr.dataset.standing + ":" + [...tr.querySelectorAll("td")].slice(2).map((td) => td.textContent).join(","))`)
	}
	playing := func() {
		t.Helper()
		evalJS[bool](t, pg, `(async () => { const v = await (await fetch("/testdata/views/lastcard-start.json")).json(); return window.preview(v); })()`)
	}
	want := func(what string, got []string, rows string) {
		t.Helper()
		if strings.Join(got, " ") != rows {
			t.Errorf("%s: standings %q, want %q", what, strings.Join(got, " "), rows)
		}
	}
	want("round 1", end(1, "round_over", `[0, 0, 73]`), "2:+73,73 0:0,0 1:0,0")
	playing()
	want("round 2", end(2, "round_over", `[40, 0, 73]`), "2:+73,0,73 0:0,+40,40 1:0,0,0")
	playing()
	want("round 3, the game won", end(3, "game_over", `[40, 0, 573]`), "2:+73,0,+500,573 0:0,+40,0,40 1:0,0,0,0")
	playing()
	want("a new game's first round", end(1, "round_over", `[0, 0, 73]`), "2:+73,73 0:0,0 1:0,0")
	shot(t, pg, "standings-new-game")
}
