package web_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Gin Rummy played by people in a real browser, against the real server and the real ginrummy
// plugin process, by taps at element centres: against a bot on a phone, and on a desktop with a
// friend (a second browser context, on a phone: the one who lays off), watched by a spectator. The hands are fixed by a house
// rule the host uploads and ticks in the room form, as any modder would (testdata/gin-stacked.lua:
// stored with each game, so the game replays), so that the game holds for certain a knock with
// layoffs, a gin and an undercut, then ends at the target (100, the default) on a second gin.
//
// The stacked hands, seat 0 (the host) acting first in each:
//
//	hand 1  seat 0 takes the 4D, knocks (KC face down) with 2 deadwood; seat 1 lays off 5D and 7S
//	hand 2  seat 0 takes the 4H, discards the KC; seat 1 draws and discards; seat 0 draws from the
//	        stock and goes gin (discarding the 6C face down)
//	hand 3  seat 0 takes the JH, knocks (KD) with 9; seat 1 holds 5 and lays off its 5S: undercut
//	hand 4  seat 0 takes the 7H and goes gin (2C) against 86 deadwood: the game is over

// ginRule is the stacked-deck house rule, named name (a rule's name is unique on a server).
func ginRule(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "gin-stacked.lua"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Replace(string(b), "%NAME%", name, 1)
}

// ginHost registers handle over the API, uploads the stacked-deck rule as rule (checked by the
// server's dry run; its owner may use it at once, pending review), logs the page in as handle and
// makes a Gin Rummy room with the rule ticked in the room form: against a level-2 bot (computer)
// or online. It returns the room's code.
func ginHost(t *testing.T, pg context.Context, base, handle, rule string, computer bool) string {
	t.Helper()
	u := apiSignIn(t, base, "/api/register", map[string]string{"username": handle, "password": "correct horse battery", "display_name": "Ada"})
	u.do("POST", "/api/house-rules", map[string]any{"source": ginRule(t, rule), "rulesets": []string{"ginrummy"}}, nil)
	logIn(t, pg, base, handle)
	tap(t, pg, `[data-create="ginrummy"]`)
	waitJS(t, pg, `document.querySelector("#create-room")`)
	if computer {
		// Level 2 plays by rules of thumb and lays off every card it can (rulesets/ginrummy/bot.go).
		evalJS[bool](t, pg, `(() => { const f = document.querySelector("#create-room");
			f.elements.mode.value = "computer"; f.elements.mode.dispatchEvent(new Event("change"));
			f.elements.bot0.value = "2"; return true; })()`)
	} else {
		evalJS[bool](t, pg, `(() => { const f = document.querySelector("#create-room");
			f.elements.mode.value = "online"; f.elements.mode.dispatchEvent(new Event("change")); return true; })()`)
	}
	tap(t, pg, fmt.Sprintf(`#create-room input[data-house-rule=%q]`, rule))
	tap(t, pg, `#create-room button[type=submit]`)
	waitJS(t, pg, `location.hash.startsWith("#/room/") && document.querySelector("#room-code")?.textContent`)
	waitJS(t, pg, fmt.Sprintf(`!!document.querySelector('#room-rules [data-rule=%q]')`, rule))
	return evalJS[string](t, pg, `document.querySelector("#room-code").textContent`)
}

// ginView is what the tests read of a page's view.
type ginView struct {
	Viewer, Turn, Round, Winner int
	Phase                       string
	Actions                     []string
	Hand                        []string
}

const ginViewJS = `(() => { const v = window.cardhouse.state.room.table.view;
	return { viewer: v.viewer, turn: v.turn, round: v.round, winner: v.winner, phase: v.phase,
		actions: (v.actions || []).map((a) => a.type),
		hand: (v.zones.find((z) => z.kind === "hand" && z.owner === v.viewer) || {}).cards || [] }; })()`

func viewOf(t *testing.T, pg context.Context) ginView {
	t.Helper()
	return evalJS[ginView](t, pg, ginViewJS)
}

// myMove waits until the page's seat may act in hand round with an action of type act open, and
// its table is ready for a tap (no action of its own on the way).
func myMove(t *testing.T, pg context.Context, round int, act string) {
	t.Helper()
	waitJS(t, pg, fmt.Sprintf(`(() => { const t = window.cardhouse.state.room?.table, v = t?.view;
		return !!v && v.phase === "playing" && v.round === %d && v.turn === v.viewer && !t.busy && !document.querySelector("dialog[open]")
			&& (v.actions || []).some((a) => a.type === %q); })()`, round, act))
}

// handOver waits until the page shows hand round over (or the game).
func handOver(t *testing.T, pg context.Context, round int) {
	t.Helper()
	waitJS(t, pg, fmt.Sprintf(`(() => { const v = window.cardhouse.state.room?.table?.view;
		return !!v && v.round === %d && v.phase !== "playing" && !!document.querySelector("#summary"); })()`, round))
}

// handCard is the selector of a card of the page's hand.
func handCard(code string) string { return fmt.Sprintf(`.my-area .hand .card[data-code=%q]`, code) }

// putDown taps a card of the hand, then the action's button (discard or knock).
func putDown(t *testing.T, pg context.Context, code, act string) {
	t.Helper()
	click(t, pg, handCard(code))
	waitJS(t, pg, fmt.Sprintf(`!!document.querySelector('.my-area .hand .card.selected[data-code=%q]') && !document.querySelector('.actions [data-action=%q]').disabled`, code, act))
	click(t, pg, fmt.Sprintf(`.actions [data-action=%q]`, act))
}

// drawFrom taps the stock ("deck") or the discard pile ("pile") and waits for the card drawn.
func drawFrom(t *testing.T, pg context.Context, zone string) {
	t.Helper()
	n := len(viewOf(t, pg).Hand)
	sel := map[string]string{"deck": `.deck[data-zone="deck"].clickable`, "pile": `.pile[data-zone="pile"].clickable`}[zone]
	click(t, pg, sel)
	waitJS(t, pg, fmt.Sprintf(`(window.cardhouse.state.room.table.view.zones.find((z) => z.kind === "hand" && z.owner === window.cardhouse.state.room.table.view.viewer)?.cards || []).length === %d`, n+1))
}

// meldWith is the id of seat's laid-out meld that holds card, as the page shows it.
func meldWith(t *testing.T, pg context.Context, seat int, card string) string {
	t.Helper()
	id := evalJS[string](t, pg, fmt.Sprintf(`(() => { const z = [...document.querySelectorAll('[data-melds="%d"] .meld[data-zone]')].find((m) => m.querySelector('.card[data-code=%q]')); return z ? z.dataset.zone : ""; })()`, seat, card))
	if id == "" {
		t.Fatalf("seat %d shows no meld with %s", seat, card)
	}
	return id
}

// layOff lays card of the page's deadwood off onto zone (a meld of the knocker): the card tapped
// in the deadwood, then the meld, lit as a target, tapped. shoot, when given, is called with the
// targets lit.
func layOff(t *testing.T, pg context.Context, seat int, card, zone string, shoot func()) {
	t.Helper()
	click(t, pg, fmt.Sprintf(`.my-area [data-zone="deadwood.%d"] .card[data-code=%q]`, seat, card))
	target := fmt.Sprintf(`.meld.target[data-zone=%q]`, zone)
	waitJS(t, pg, `!!document.querySelector(`+fmt.Sprintf("%q", target)+`)`)
	// The check line says the card can be laid off (a move onto a meld, checked against each).
	waitJS(t, pg, `/laid off/.test(document.querySelector(".check-line")?.textContent || "")`)
	if shoot != nil {
		shoot()
	}
	n := evalJS[int](t, pg, fmt.Sprintf(`document.querySelector('[data-zone=%q]').querySelectorAll(".card").length`, zone))
	click(t, pg, target)
	waitJS(t, pg, fmt.Sprintf(`document.querySelector('[data-zone=%q]')?.querySelectorAll(".card").length === %d`, zone, n+1))
}

// sheetRows are the rows of the score sheet the summary shows: label, cells and notes as text.
func sheetRows(t *testing.T, pg context.Context) []string {
	t.Helper()
	return evalJS[[]string](t, pg, `[...document.querySelectorAll("#summary .sheet tbody tr")].map((r) => [...r.children].map((c) => c.textContent.trim()).join(" | "))`)
}

// logText is the move log as the page shows it.
func logText(t *testing.T, pg context.Context) string {
	t.Helper()
	return evalJS[string](t, pg, `[...document.querySelectorAll(".log div")].map((d) => d.textContent).join("\n")`)
}

// nextHand: the host deals the next hand from the summary.
func nextHand(t *testing.T, host context.Context, round int) {
	t.Helper()
	tap(t, host, `#summary [data-action=deal]`)
	waitJS(t, host, fmt.Sprintf(`window.cardhouse.state.room?.table?.view?.round === %d && window.cardhouse.state.room.table.view.phase === "playing"`, round))
}

// wantRow fails the test unless the sheet has a row that matches re.
func wantRow(t *testing.T, rows []string, what, re string) {
	t.Helper()
	r := regexp.MustCompile(re)
	if !slices.ContainsFunc(rows, r.MatchString) {
		t.Errorf("%s: no row of the score sheet matches %q; the sheet: %q", what, re, rows)
	}
}

// recordSockets makes the page keep every message its WebSockets receive (window.__wsIn).
func recordSockets(t *testing.T, ctx context.Context) {
	t.Helper()
	src := `window.__wsIn = []; { const W = window.WebSocket; window.WebSocket = class extends W { constructor(...a) { super(...a); this.addEventListener("message", (e) => { if (typeof e.data === "string") window.__wsIn.push(e.data); }); } }; }`
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src}); err != nil {
		t.Fatal(err)
	}
}

// socketMark is how many messages the page's WebSockets have received so far.
func socketMark(t *testing.T, ctx context.Context) int {
	t.Helper()
	return evalJS[int](t, ctx, `window.__wsIn.length`)
}

// noHiddenFaces checks, at a moment of a hand being played, that the spectator's page holds no
// face of a card hidden in a seat's hand: not in its DOM, and in none of the WebSocket messages
// it received since the hand was dealt (mark: the count before the deal). A hand's hidden cards
// are those its player's own page shows in the hand, less those the table knows (taken from the
// discard pile: zone taken.N).
func noHiddenFaces(t *testing.T, watcher context.Context, players []context.Context, mark int, when string) {
	t.Helper()
	var hidden []string
	for _, pg := range players {
		v := viewOf(t, pg)
		if v.Phase != "playing" {
			t.Fatalf("%s: checking hidden hands while the hand is %s", when, v.Phase)
		}
		// The spectator has caught up with this hand when it shows as many cards in it.
		waitJS(t, watcher, fmt.Sprintf(`window.cardhouse.state.room.table.view.players.find((p) => p.seat === %d)?.hand_count === %d`, v.Viewer, len(v.Hand)))
		known := evalJS[[]string](t, watcher, fmt.Sprintf(`(window.cardhouse.state.room.table.view.zones.find((z) => z.id === "taken.%d") || {}).cards || []`, v.Viewer))
		for _, c := range v.Hand {
			if !slices.Contains(known, c) {
				hidden = append(hidden, c)
			}
		}
	}
	if len(hidden) == 0 {
		t.Fatalf("%s: no hidden card to look for", when)
	}
	got := evalJS[struct {
		DOM, Socket, Where []string
		Messages           int
	}](t, watcher, fmt.Sprintf(`((hidden, mark) => {
		const dom = hidden.filter((c) => document.querySelector('[data-code="' + c + '"]'));
		const found = new Set();
		const res = hidden.map((c) => [c, new RegExp("(^|[^0-9A-Z])" + c + "([^0-9A-Z]|$)")]);
		const walk = (x) => {
			if (typeof x === "string") {
				if (/^\s*[\[{]/.test(x)) { try { walk(JSON.parse(x)); } catch {} }
				for (const [c, re] of res) if (re.test(x)) found.add(c);
			} else if (Array.isArray(x)) x.forEach(walk);
			else if (x && typeof x === "object") for (const [k, y] of Object.entries(x)) { walk(k); walk(y); }
		};
		const msgs = window.__wsIn.slice(mark);
		const where = [];
		for (const m of msgs) { const before = found.size; walk(m); if (found.size > before) where.push(m.slice(0, 3000)); }
		return { dom, socket: [...found], messages: msgs.length, where };
	})(%s, %d)`, jsList(hidden), mark))
	if len(got.DOM) > 0 {
		t.Errorf("%s: the spectator's page shows hidden cards %v", when, got.DOM)
	}
	if len(got.Socket) > 0 {
		t.Errorf("%s: the spectator's WebSocket brought hidden cards %v (in %d messages since the deal): %q", when, got.Socket, got.Messages, got.Where)
	}
	if got.Messages == 0 {
		t.Errorf("%s: the spectator received no message since the deal", when)
	}
	t.Logf("%s: none of the %d hidden cards in the spectator's page or its %d messages since the deal", when, len(hidden), got.Messages)
}

// shootFailure takes a picture of each page when the test has failed, for its report.
func shootFailure(t *testing.T, pages map[string]context.Context) {
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		for who, pg := range pages {
			shot(t, pg, "failure-"+strings.ReplaceAll(t.Name(), "/", "-")+"-"+who)
		}
	})
}

func jsList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return "[" + strings.Join(q, ",") + "]"
}

// TestGinRummyPlaythroughs: Gin Rummy played to the end of a game by taps, against a bot on a
// phone (390x844, touch; the server restarts mid-game, and the game comes back from the store)
// and on a desktop (1280x800, mouse) with a friend, the two games at once, each on its own
// server. The person draws by tapping the discard pile or the stock, discards and knocks with a
// card picked and the action's button; the friend, on a phone (so that laying off by touch, with
// the knocker's melds above and the deadwood below, is played too: the desktop's is in
// TestFamilyParts), lays off by picking a deadwood card and tapping the meld it goes onto, one lit
// as a target among several. The score sheet, the summary and the log show the knock with
// layoffs, the gin and the undercut; a spectator of the friends' game never holds a face of a
// hidden hand, in its page or its WebSocket messages; axe-core finds nothing wrong with the table.
func TestGinRummyPlaythroughs(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	b := browser(t)
	axe := axeJS(t)

	t.Run("bot-phone", func(t *testing.T) {
		t.Parallel()
		// A server of its own: it restarts in the middle of the game.
		base, _, _, restart := startFull(t, "ginrummy")
		start := time.Now()
		pg := newPage(t, b, phoneW, phoneH)
		countSockets(t, pg)
		shots := func(name string) { shot(t, pg, "gin-bot-phone-"+name) }
		shootFailure(t, map[string]context.Context{"person": pg})
		ginHost(t, pg, base, "ada-gin-bot", "gin-stacked-bot", true)
		click(t, pg, `.felt [data-action=deal]`)
		myMove(t, pg, 1, "draw")
		if v := viewOf(t, pg); v.Viewer != 0 {
			t.Fatalf("the host sits at seat %d, want 0 (the rule stacks seat 0's hands)", v.Viewer)
		}
		shots("hand1-dealt")
		checkAxe(t, pg, axe, "bot game, hand 1 dealt (phone)")

		// Hand 1: the 4D from the discard pile, then a knock with the KC; the bot lays off.
		drawFrom(t, pg, "pile")
		myMove(t, pg, 1, "knock")
		putDown(t, pg, "KC", "knock")
		handOver(t, pg, 1)
		shots("hand1-over")
		rows := sheetRows(t, pg)
		log1 := logText(t, pg)
		wantRow(t, rows, "hand 1", `^Hand 1 \| 7 \| 0$`)
		if !strings.Contains(log1, "knocked with 2 deadwood") || !strings.Contains(log1, "laid off") {
			t.Errorf("hand 1: the log tells no knock with layoffs:\n%s", log1)
		}
		// The summary shows how the knocker's hand was laid out, with the bot's layoffs in its melds.
		melds := evalJS[[]string](t, pg, `[...document.querySelectorAll('#summary [data-melds-left="0"] .left-meld')].map((m) => [...m.querySelectorAll(".card")].map((c) => c.dataset.code).join(" "))`)
		if got := strings.Join(melds, " | "); !strings.Contains(got, "5D") || !strings.Contains(got, "7S") {
			t.Errorf("hand 1: the summary shows the knocker's melds as %q, want the 5D and the 7S laid off onto them", got)
		}
		evalJS[bool](t, pg, `(document.querySelector("#summary").scrollTop = 0, true)`)
		checkAxe(t, pg, axe, "bot game, hand 1 over (phone)")

		// Hand 2: the 4H taken, the KC discarded; after the bot's turn a draw from the stock and gin.
		nextHand(t, pg, 2)
		drawFrom(t, pg, "pile")
		myMove(t, pg, 2, "discard")
		putDown(t, pg, "KC", "discard")
		myMove(t, pg, 2, "draw")
		// The server restarts as on SIGTERM: the room comes back from the store with the game as
		// it stood, the stacked deal and the bot's move in it, and the page goes on at the table.
		before := viewOf(t, pg)
		sockets := evalJS[int](t, pg, `window.__sockets`)
		restart(func() {})
		waitJS(t, pg, fmt.Sprintf(`window.__sockets > %d && !document.body.textContent.includes("reconnecting")`, sockets))
		myMove(t, pg, 2, "draw")
		if after := viewOf(t, pg); !slices.Equal(after.Hand, before.Hand) || after.Round != before.Round {
			t.Fatalf("after the restart hand %d holds %v, want hand %d with %v", after.Round, after.Hand, before.Round, before.Hand)
		}
		drawFrom(t, pg, "deck")
		myMove(t, pg, 2, "knock")
		if v := viewOf(t, pg); !slices.Contains(v.Hand, "AH") && !slices.Contains(v.Hand, "5H") {
			t.Fatalf("hand 2: drew neither the AH nor the 5H from the stock: %v", v.Hand)
		}
		shots("hand2-gin-ready")
		putDown(t, pg, "6C", "knock")
		handOver(t, pg, 2)
		shots("hand2-gin")
		wantRow(t, sheetRows(t, pg), "hand 2", `^Hand 2 \| \d+ gin \| 0$`)

		// Hand 3: the JH taken, a knock with 9 (the KD down): the bot undercuts.
		nextHand(t, pg, 3)
		drawFrom(t, pg, "pile")
		myMove(t, pg, 3, "knock")
		putDown(t, pg, "KD", "knock")
		handOver(t, pg, 3)
		shots("hand3-undercut")
		wantRow(t, sheetRows(t, pg), "hand 3", `^Hand 3 \| 0 \| (29|34) undercut$`)
		if l := logText(t, pg); !strings.Contains(l, "undercut the knock") {
			t.Errorf("hand 3: the log tells no undercut:\n%s", l)
		}

		// Hand 4: gin on the 7H ends the game.
		nextHand(t, pg, 4)
		drawFrom(t, pg, "pile")
		myMove(t, pg, 4, "knock")
		putDown(t, pg, "2C", "knock")
		handOver(t, pg, 4)
		v := viewOf(t, pg)
		if v.Phase != "game_over" || v.Winner != 0 {
			t.Errorf("after hand 4: phase %s, winner %d; want game_over won by seat 0", v.Phase, v.Winner)
		}
		rows = sheetRows(t, pg)
		wantRow(t, rows, "hand 4", `^Hand 4 \| 111 gin \| 0$`)
		wantRow(t, rows, "game bonus", `^Game bonus \| 100 \| 0$`)
		wantRow(t, rows, "line bonus", `^Line bonus \| 75 \| 25$`)
		shots("game-over")
		checkSummary(t, pg, "gin against the bot")
		evalJS[bool](t, pg, `(document.querySelector("#summary .sheet").scrollIntoView({block: "center"}), true)`)
		shots("game-over-sheet")
		if rec := record(t, pg); len(rec.CSP) > 0 {
			t.Errorf("content security policy violations: %q", rec.CSP)
		}
		t.Logf("against the bot, on a phone: game over after %v; the sheet %q", time.Since(start).Round(time.Millisecond), rows)
	})

	t.Run("friend-desktop", func(t *testing.T) {
		t.Parallel()
		base, _, _, _ := startFull(t, "ginrummy")
		start := time.Now()
		host := newPage(t, b, desktopW, desktopH)
		friend := newPage(t, b, phoneW, phoneH) // the friend who lays off, on a phone
		watcher := newPage(t, b, desktopW, desktopH)
		recordSockets(t, watcher)
		shots := func(pg context.Context, name string) { shot(t, pg, "gin-friend-desktop-"+name) }
		shootFailure(t, map[string]context.Context{"host": host, "friend": friend, "watcher": watcher})
		code := ginHost(t, host, base, "ada-gin-friend", "gin-stacked-friend", false)
		enter(t, friend, base, "Bruno", "knight")
		fill(t, friend, `#by-code input[name=code]`, code)
		click(t, friend, `#join-code`)
		enter(t, watcher, base, "Chloe", "star")
		fill(t, watcher, `#by-code input[name=code]`, code)
		click(t, watcher, `#watch-code`)
		waitJS(t, host, `document.querySelectorAll(".members li").length === 3`)
		players := []context.Context{host, friend}

		mark := socketMark(t, watcher)
		click(t, host, `.felt [data-action=deal]`)
		myMove(t, host, 1, "draw")
		if v := viewOf(t, host); v.Viewer != 0 {
			t.Fatalf("the host sits at seat %d, want 0 (the rule stacks seat 0's hands)", v.Viewer)
		}
		noHiddenFaces(t, watcher, players, mark, "hand 1 dealt")

		// Hand 1: the host takes the 4D and knocks with the KC; the friend lays off the 5D onto
		// the diamonds and the 7S onto the spades' run (the 7s would take it too), then is done.
		drawFrom(t, host, "pile")
		myMove(t, host, 1, "knock")
		putDown(t, host, "KC", "knock")
		myMove(t, friend, 1, "layoff")
		shots(friend, "hand1-knocked")
		shots(watcher, "hand1-knocked-spectator")
		layOff(t, friend, 1, "5D", meldWith(t, friend, 0, "3D"), nil)
		myMove(t, friend, 1, "layoff")
		run := meldWith(t, friend, 0, "9S")
		layOff(t, friend, 1, "7S", run, func() {
			// Both melds the 7S extends are lit as targets.
			if n := evalJS[int](t, friend, `document.querySelectorAll('[data-melds="0"] .meld.target').length`); n < 2 {
				t.Errorf("with the 7S picked, %d of the knocker's melds are lit as targets, want the 7s and the run", n)
			}
			checkAxe(t, friend, axe, "friend game, layoff targets (phone)")
			shots(friend, "hand1-layoff-target-phone")
		})
		myMove(t, friend, 1, "pass")
		click(t, friend, `.actions [data-action=pass]`)
		handOver(t, host, 1)
		handOver(t, watcher, 1)
		shots(host, "hand1-over")
		wantRow(t, sheetRows(t, host), "hand 1", `^Hand 1 \| 7 \| 0$`)
		if l := logText(t, watcher); !strings.Contains(l, "knocked with 2 deadwood") || strings.Count(l, "laid off") < 2 {
			t.Errorf("hand 1: the spectator's log tells no knock with two layoffs:\n%s", l)
		}

		// Hand 2: the host takes the 4H and discards the KC; the friend draws from the stock and
		// discards the 9C; the host draws from the stock and goes gin.
		mark = socketMark(t, watcher)
		nextHand(t, host, 2)
		myMove(t, host, 2, "draw")
		noHiddenFaces(t, watcher, players, mark, "hand 2 dealt")
		drawFrom(t, host, "pile")
		myMove(t, host, 2, "discard")
		putDown(t, host, "KC", "discard")
		myMove(t, friend, 2, "draw")
		drawFrom(t, friend, "deck")
		myMove(t, friend, 2, "discard")
		noHiddenFaces(t, watcher, players, mark, "hand 2, the friend drew from the stock")
		putDown(t, friend, "9C", "discard")
		myMove(t, host, 2, "draw")
		drawFrom(t, host, "deck")
		myMove(t, host, 2, "knock")
		noHiddenFaces(t, watcher, players, mark, "hand 2, the host drew from the stock")
		shots(host, "hand2-gin-ready")
		shots(watcher, "hand2-spectator")
		putDown(t, host, "6C", "knock")
		handOver(t, host, 2)
		handOver(t, friend, 2)
		handOver(t, watcher, 2)
		wantRow(t, sheetRows(t, friend), "hand 2", `^Hand 2 \| 37 gin \| 0$`)
		shots(friend, "hand2-gin")

		// Hand 3: the host knocks with 9; the friend lays off the 5S onto 6S-7S-8S and undercuts.
		mark = socketMark(t, watcher)
		nextHand(t, host, 3)
		myMove(t, host, 3, "draw")
		noHiddenFaces(t, watcher, players, mark, "hand 3 dealt")
		drawFrom(t, host, "pile")
		myMove(t, host, 3, "knock")
		putDown(t, host, "KD", "knock")
		myMove(t, friend, 3, "layoff")
		layOff(t, friend, 1, "5S", meldWith(t, friend, 0, "6S"), func() { shots(friend, "hand3-layoff-target-phone") })
		myMove(t, friend, 3, "pass")
		click(t, friend, `.actions [data-action=pass]`)
		handOver(t, host, 3)
		handOver(t, watcher, 3)
		shots(watcher, "hand3-undercut-spectator")
		wantRow(t, sheetRows(t, host), "hand 3", `^Hand 3 \| 0 \| 34 undercut$`)
		if l := logText(t, host); !strings.Contains(l, "undercut the knock") {
			t.Errorf("hand 3: the log tells no undercut:\n%s", l)
		}

		// Hand 4: gin on the 7H ends the game.
		mark = socketMark(t, watcher)
		nextHand(t, host, 4)
		myMove(t, host, 4, "draw")
		noHiddenFaces(t, watcher, players, mark, "hand 4 dealt")
		drawFrom(t, host, "pile")
		myMove(t, host, 4, "knock")
		putDown(t, host, "2C", "knock")
		for _, pg := range []context.Context{host, friend, watcher} {
			handOver(t, pg, 4)
			if v := viewOf(t, pg); v.Phase != "game_over" || v.Winner != 0 {
				t.Errorf("after hand 4: phase %s, winner %d; want game_over won by seat 0", v.Phase, v.Winner)
			}
		}
		rows := sheetRows(t, watcher)
		for _, want := range []string{`^Hand 1 \| 7 \| 0$`, `^Hand 2 \| 37 gin \| 0$`, `^Hand 3 \| 0 \| 34 undercut$`, `^Hand 4 \| 111 gin \| 0$`, `^Game bonus \| 100 \| 0$`, `^Line bonus \| 75 \| 25$`} {
			wantRow(t, rows, "the spectator's sheet at the end", want)
		}
		shots(host, "game-over")
		shots(friend, "game-over-friend")
		shots(watcher, "game-over-spectator")
		for who, pg := range map[string]context.Context{"host": host, "friend": friend, "watcher": watcher} {
			checkSummary(t, pg, "gin with a friend, "+who)
			if rec := record(t, pg); len(rec.CSP) > 0 {
				t.Errorf("%s: content security policy violations: %q", who, rec.CSP)
			}
		}
		if w := record(t, watcher); w.Watched == 0 || len(w.Leaks) > 0 {
			t.Errorf("the spectator watched %d views and saw hand cards %q", w.Watched, w.Leaks)
		}
		t.Logf("with a friend (the host on a desktop, the friend on a phone): game over after %v; the sheet %q", time.Since(start).Round(time.Millisecond), rows)
	})
}
