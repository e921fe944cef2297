package web_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// trickCase is one game of TestTrickGamesByHand.
type trickCase struct {
	name, ruleset string
	rule          string // the house rule that fixes the deal: testdata/tricks/RULE.lua
	w, h          int64
	friend        bool   // a second person at the table (and a spectator); else three bots
	options       string // JS statements on the create form f
}

// TestTrickGamesByHand: people play Hearts and Spades to the end of a game in Chromium, by real
// pointer events at element centres (choosing three cards and passing them, bidding from the
// picker, playing to the trick), against bots of level 2 on one size and with a friend (a second
// browser context) and two bots on the other. The host registers, uploads a house rule that fixes
// the deal (web/testdata/tricks) on the house rules page and enables it in the room form, as
// docs/house-rules.md says, so every event asserted is certain:
//
//   - Hearts, four hands: the passes to the left, to the right and across, then a hand without a
//     pass; the host holds every club and takes every trick, a moon shot in each hand, and at 26 a
//     hand to each other seat the game ends after the fourth (default target, 100).
//   - Spades, one hand with the option mercy: the bids by seat, the host's nil (the host holds every
//     spade, so it fails: a spade played on the first trick breaks spades), thirteen bags and the
//     ten-bag penalty, the partner set; the team below -200 ends the game.
//
// In each friend game a spectator's page is checked at several moments (during a pass, the
// bidding, the play): no face of a player's hand and no passed card is in its page or in any
// WebSocket message it received since the deal. Screenshots show the trick by seat, the bids, the
// teams, the score sheet and the end at both sizes; axe-core checks the table at both sizes.
func TestTrickGamesByHand(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	url, _, _, _ := startVariants(t, "hearts", "spades")
	b := browser(t)
	axe := axeJS(t)
	// The longest game first: with two at a time (go test's -parallel is GOMAXPROCS), the three
	// others run beside it.
	cases := []trickCase{
		{"hearts-friend-desktop", "hearts", "moon-deal", desktopW, desktopH, true, ""},
		{"hearts-bots-phone", "hearts", "moon-deal", phoneW, phoneH, false, ""},
		{"spades-bots-desktop", "spades", "nil-deal", desktopW, desktopH, false, `f.elements.mercy.checked = true;`},
		{"spades-friend-phone", "spades", "nil-deal", phoneW, phoneH, true, `f.elements.mercy.checked = true;`},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			playTrickCase(t, b, url, axe, c, i)
		})
	}
}

func playTrickCase(t *testing.T, b context.Context, url, axe string, c trickCase, k int) {
	start := time.Now()
	shots := func(pg context.Context, what string) { shot(t, pg, "tricks-"+c.name+"-"+what) }
	host := newPage(t, b, c.w, c.h)

	// The host registers, and uploads the rule (under a name of its own) on the house rules page.
	rule := fmt.Sprintf("%s-%d", c.rule, k)
	src, err := os.ReadFile(filepath.Join("testdata", "tricks", c.rule+".lua"))
	if err != nil {
		t.Fatal(err)
	}
	source := strings.Replace(string(src), fmt.Sprintf("name = %q", c.rule), fmt.Sprintf("name = %q", rule), 1)
	run(t, host, chromedp.Navigate(url+"/"))
	tap(t, host, `#entry [data-mode=register]`)
	typeText(t, host, `#entry input[name=name]`, "Ada")
	typeText(t, host, `#entry input[name=username]`, fmt.Sprintf("ada-%d", k))
	typeText(t, host, `#entry input[name=password]`, "correct horse battery")
	tap(t, host, `#enter`)
	tap(t, host, `#house-rules-link`)
	waitJS(t, host, `document.querySelector("#rule-upload")`)
	typeText(t, host, `#rule-source`, source)
	tap(t, host, fmt.Sprintf(`#rule-upload input[data-ruleset=%q]`, c.ruleset))
	tap(t, host, `#rule-send`)
	waitCheck(t, host, fmt.Sprintf(`document.querySelector('[data-uploaded="%s v1"]')`, rule))

	// The room: against three level-2 bots, or online for a friend; the rule ticked in the form.
	tap(t, host, `.rules-page a[href="#/"]`)
	tap(t, host, fmt.Sprintf(`[data-create=%q]`, c.ruleset))
	waitJS(t, host, `document.querySelector("#create-room")`)
	mode := "online"
	if !c.friend {
		mode = "computer"
	}
	evalJS[bool](t, host, fmt.Sprintf(`(() => { const f = document.querySelector("#create-room");
		f.elements.mode.value = %q; f.elements.mode.dispatchEvent(new Event("change"));
		for (const s of f.querySelectorAll(".bots select")) s.value = "2";
		%s return true; })()`, mode, c.options))
	tap(t, host, fmt.Sprintf(`#create-room input[data-house-rule=%q]`, rule))
	tap(t, host, `#create-room button[type=submit]`)
	waitJS(t, host, `location.hash.startsWith("#/room/") && document.querySelector("#room-code")?.textContent`)
	code := evalJS[string](t, host, `document.querySelector("#room-code").textContent`)

	people := []*trickPerson{{name: "Ada", ctx: host}}
	var watcher context.Context
	var frames *wsFrames
	if c.friend {
		friend := newPage(t, b, c.w, c.h)
		enter(t, friend, url, "Bruno", "knight")
		fill(t, friend, `#by-code input[name=code]`, code)
		click(t, friend, `#join-code`)
		watcher = newPage(t, b, c.w, c.h)
		frames = listenFrames(t, watcher)
		enter(t, watcher, url, "Chloe", "star")
		fill(t, watcher, `#by-code input[name=code]`, code)
		click(t, watcher, `#watch-code`)
		waitJS(t, host, `document.querySelectorAll(".members li").length === 3`)
		// Two level-2 bots from the host's panel (on a phone, the room sheet).
		phone := c.w < 500
		if phone {
			tap(t, host, `.side-toggle`)
		}
		for n := 4; n <= 5; n++ {
			tap(t, host, `[data-add-bot="2"]`)
			waitJS(t, host, fmt.Sprintf(`document.querySelectorAll(".members li").length === %d`, n))
		}
		if phone {
			tap(t, host, `.side-toggle`)
		}
		people = append(people, &trickPerson{name: "Bruno", ctx: friend})
	}
	tap(t, host, `.felt [data-action=deal]`)
	for _, p := range people {
		waitJS(t, p.ctx, `window.cardhouse.state.room?.table?.view?.phase === "playing"`)
		p.seat = evalJS[int](t, p.ctx, `window.cardhouse.state.room.table.view.viewer`)
	}
	if people[0].seat != 0 {
		t.Fatalf("the host sits at seat %d, want 0 (the rule deals to seat 0)", people[0].seat)
	}
	if watcher != nil {
		waitJS(t, watcher, `window.cardhouse.state.room?.table?.view?.phase === "playing"`)
	}
	t.Logf("%s: room %s dealt after %v", c.name, code, time.Since(start).Round(time.Millisecond))

	g := &trickGame{t: t, c: c, people: people, host: people[0], watcher: watcher, frames: frames, axe: axe, shots: shots, seen: map[string]bool{}}
	if c.ruleset == "hearts" {
		g.heartsPeople()
	} else {
		g.spadesPeople()
	}
	g.play()

	// The end: every page shows it; the score sheet, opened from the table, holds the hands.
	for _, p := range people {
		waitJS(t, p.ctx, `document.querySelector(".overlay-center")`)
	}
	shots(host, "over")
	if watcher != nil {
		waitJS(t, watcher, `document.querySelector(".overlay-center")`)
		shots(watcher, "over-spectator")
	}
	// The summary's score sheet, scrolled into sight.
	evalJS[bool](t, host, `(document.querySelector("#summary .sheet").scrollIntoView({block: "center"}), true)`)
	shots(host, "sheet-end")
	sheet := evalJS[[][]string](t, host, `[...document.querySelectorAll("#summary .sheet tbody tr, #summary .sheet tfoot tr")].map((tr) => [...tr.children].map((c) => c.textContent.trim()))`)
	if c.ruleset == "hearts" {
		g.checkHearts(sheet)
	} else {
		g.checkSpades(sheet)
	}
	// Who won and by how much: Hearts' lowest total (the host, who shot the moon in every hand,
	// 0 to 104), Spades' other partnership over the host's team below -200.
	v := checkVerdict(t, host, c.name)
	if c.ruleset == "hearts" && !strings.Contains(v.Text, "with 0 points, 104 fewer than") {
		t.Errorf("%s: the verdict says %q, want the host's 0 points, 104 fewer than the next", c.name, v.Text)
	}
	if c.ruleset == "spades" && (v.Want != "team" || !strings.Contains(v.Text, "win by")) {
		t.Errorf("%s: the verdict says %q, want the winning partnership and its margin", c.name, v.Text)
	}
	for who, p := range map[string]context.Context{"host": host, "spectator": watcher} {
		if p == nil {
			continue
		}
		r := record(t, p)
		if len(r.CSP) > 0 {
			t.Errorf("%s: content security policy violations: %q", who, r.CSP)
		}
		if who == "spectator" {
			if r.Watched == 0 {
				t.Error("the spectator's page never showed the spectators' view")
			}
			if len(r.Leaks) > 0 {
				t.Errorf("the spectator saw hand cards: %q", r.Leaks)
			}
		}
	}
	if watcher != nil && g.checks < 3 {
		t.Errorf("the spectator was checked at %d moments, want at least 3", g.checks)
	}
	t.Logf("%s: game over after %v: %d moves by hand, %d spectator checks over %d WebSocket messages",
		c.name, time.Since(start).Round(time.Millisecond), g.moves, g.checks, g.frames.count())
}

// trickPerson is a person at the table: a page, its seat, and how it passes, bids and plays.
type trickPerson struct {
	name string
	ctx  context.Context
	seat int
	done bool
	// pass chooses the three cards to pass from the hand, given the pass button's words.
	pass func(hand []string, label string) []string
	bid  func(choices []string) string
}

// trickState is what a person's page shows, read at once (trickStateJS).
type trickState struct {
	Phase   string        `json:"phase"`
	Turn    int           `json:"turn"`
	Actions []trickAction `json:"actions"`
	Hand    []string      `json:"hand"`
	Trick   int           `json:"trick"`
	Tricks  int           `json:"tricks"`
	Over    bool          `json:"over"`
	CanDeal bool          `json:"canDeal"`
	Busy    bool          `json:"busy"`
	Log     []string      `json:"log"`
	Round   int           `json:"round"`
}

// trickAction is an action the page's view offers.
type trickAction struct {
	Type    string   `json:"type"`
	Label   string   `json:"label"`
	Cards   []string `json:"cards"`
	Count   int      `json:"count"`
	Choices []string `json:"choices"`
}

// trickStateJS reads the table of the page and marks the view it read (__trkSeen), so that
// trickWaitJS can wait for the next.
const trickStateJS = `(() => {
	const t = window.cardhouse?.state?.room?.table, v = t?.view;
	if (!v) return { phase: "" };
	window.__trkSeen = v;
	return { phase: v.phase, turn: v.turn ?? -1, actions: (v.actions || []).map((a) => ({ type: a.type, label: a.label || "", cards: a.cards || [], count: a.count || 0, choices: a.choices || [] })),
		hand: [...document.querySelectorAll(".my-area .hand .card[data-code]")].map((e) => e.dataset.code),
		trick: v.trick?.plays?.length || 0, tricks: (v.players || []).reduce((n, p) => n + (p.tricks || 0), 0),
		over: !!document.querySelector(".overlay-center") && v.phase === "game_over",
		canDeal: !!document.querySelector("#summary [data-action=deal]"), busy: !!t.busy, log: t.logLines || [], round: v.round || 0 };
})()`

// trickWaitJS resolves when the page's view is another than the one trickStateJS read, or after
// 300 ms (a bound on the wait, not a check of time).
const trickWaitJS = `new Promise((r) => { const end = performance.now() + 300; const f = () => {
	if (window.cardhouse?.state?.room?.table?.view !== window.__trkSeen || performance.now() > end) return r(true);
	requestAnimationFrame(f); }; f(); })`

// trickGame is one game being played by its people, watched by its spectator.
type trickGame struct {
	t       *testing.T
	c       trickCase
	people  []*trickPerson
	host    *trickPerson
	watcher context.Context
	frames  *wsFrames
	axe     string
	shots   func(context.Context, string)

	moves, checks int
	seen          map[string]bool // log lines seen on the host's page
	passLabels    []string        // the host's pass button, hand by hand
	handsDealt    int
	bidChips      map[int]string // the bids by seat, as the host's table shows them
	shotTrick     map[string]bool
	axed          bool
}

// heartsPeople: the host passes its three lowest clubs (the rule gave it all thirteen); the
// friend passes the top three spades when it holds them (passing to the host, as a level-2 bot
// would), else the first three cards of its hand.
func (g *trickGame) heartsPeople() {
	g.host.pass = func(hand []string, _ string) []string { return []string{"2C", "3C", "4C"} }
	for _, p := range g.people[1:] {
		p.pass = func(hand []string, _ string) []string {
			if slices.Contains(hand, "AS") && slices.Contains(hand, "KS") && slices.Contains(hand, "QS") {
				return []string{"AS", "KS", "QS"}
			}
			return hand[:3]
		}
	}
}

// spadesPeople: the host bids nil; the friend bids 2.
func (g *trickGame) spadesPeople() {
	g.host.bid = func([]string) string { return "nil" }
	for _, p := range g.people[1:] {
		p.bid = func([]string) string { return "2" }
	}
}

// play plays the game to its end: each person, in turn, does what its page offers, by taps; the
// host deals each next hand from the summary. It stops at the end of the game on every page.
func (g *trickGame) play() {
	t := g.t
	for {
		acted, left := false, 0
		for _, p := range g.people {
			if p.done {
				continue
			}
			left++
			st := evalJS[trickState](t, p.ctx, trickStateJS)
			if p == g.host {
				for _, l := range st.Log {
					g.seen[l] = true
				}
				g.moments(st)
			}
			switch {
			case st.Over:
				p.done = true
			case st.Phase == "round_over" && p == g.host && st.CanDeal:
				g.nextHand()
				acted = true
			case st.Phase == "playing" && !st.Busy:
				acted = g.move(p, st) || acted
			}
		}
		if left == 0 {
			return
		}
		if !acted {
			evalJS[bool](t, g.host.ctx, trickWaitJS)
		}
	}
}

// move makes p's move when its page offers one; it reports whether it did.
func (g *trickGame) move(p *trickPerson, st trickState) bool {
	t := g.t
	for _, a := range st.Actions {
		switch a.Type {
		case "pass_cards":
			if p != g.host && len(g.passLabels) <= g.handsDealt {
				continue // the host passes first, so the spectator is checked while the pass is open
			}
			cards := p.pass(st.Hand, a.Label)
			if p == g.host {
				g.passLabels = append(g.passLabels, a.Label)
			}
			for _, c := range cards {
				click(t, p.ctx, fmt.Sprintf(`.my-area .hand .card[data-code=%q]`, c))
			}
			waitJS(t, p.ctx, fmt.Sprintf(`document.querySelector('[data-count-status="%d/%d"]')`, len(cards), a.Count))
			if p == g.host && g.handsDealt == 0 {
				g.shots(p.ctx, "pass")
			}
			click(t, p.ctx, `.actions [data-action="pass_cards"]`)
			g.settled(p)
			if p == g.host && g.watcher != nil {
				// The pass is open (the friend has not passed yet): the spectator sees none of it.
				if !slices.ContainsFunc(evalJS[trickState](t, g.people[1].ctx, trickStateJS).Actions, func(a trickAction) bool { return a.Type == "pass_cards" }) {
					t.Fatalf("hand %d: the friend's pass is not open after the host's", g.handsDealt+1)
				}
				g.checkSpectator(fmt.Sprintf("during the pass of hand %d", g.handsDealt+1), cards)
			}
			return true
		case "bid":
			click(t, p.ctx, `.actions [data-action="bid"]`)
			waitJS(t, p.ctx, `document.querySelector("dialog[open] [data-choice]")`)
			if p == g.host {
				g.shots(p.ctx, "bid-picker")
				if !g.axed {
					checkAxe(t, p.ctx, g.axe, g.c.name+" bid picker")
				}
			}
			click(t, p.ctx, fmt.Sprintf(`dialog[open] [data-choice=%q]`, p.bid(a.Choices)))
			g.settled(p)
			return true
		case "play":
			if len(a.Cards) == 0 {
				continue
			}
			if problems := evalJS[struct {
				Problems []string `json:"problems"`
			}](t, p.ctx, `__ch.audit()`).Problems; len(problems) > 0 {
				shot(t, p.ctx, "failure-"+strings.ReplaceAll(t.Name(), "/", "-"))
				t.Fatalf("%s: offered actions a person cannot reach: %q; the table's parts, top and height: %s", p.name, problems,
					evalJS[string](t, p.ctx, `JSON.stringify([...document.querySelectorAll(".felt > *, .center > *, .my-area > *")].map((e) => [e.className, Math.round(e.getBoundingClientRect().top), Math.round(e.getBoundingClientRect().height)]))`))
			}
			c := a.Cards[0]
			card := fmt.Sprintf(`.my-area .hand .card[data-code=%q]`, c)
			click(t, p.ctx, card)
			waitJS(t, p.ctx, fmt.Sprintf(`document.querySelector('.my-area .hand .card.selected[data-code=%q]')`, c))
			// A tap on the picked card plays it; every other card goes by the Play button.
			if g.moves%2 == 1 {
				click(t, p.ctx, card)
			} else {
				click(t, p.ctx, `.actions [data-action="play"]`)
			}
			g.settled(p)
			g.moves++
			return true
		}
	}
	return false
}

// settled waits for the answer to p's move: a new view; a refusal fails the test.
func (g *trickGame) settled(p *trickPerson) {
	g.t.Helper()
	waitJS(g.t, p.ctx, `window.cardhouse.state.room.table.view !== window.__trkSeen || document.querySelector(".refusal")`)
	if r := evalJS[string](g.t, p.ctx, `document.querySelector(".refusal")?.textContent || ""`); r != "" {
		g.t.Fatalf("%s's move was refused: %s", p.name, r)
	}
}

// nextHand: at the end of a hand the host reads the score sheet, then deals the next hand from the
// summary, once the spectator too has seen the hand end.
func (g *trickGame) nextHand() {
	t := g.t
	g.handsDealt++
	if g.handsDealt == 1 {
		g.shots(g.host.ctx, "hand-over")
	}
	if g.watcher != nil {
		waitJS(t, g.watcher, `window.cardhouse.state.room.table.view.phase !== "playing"`)
	}
	g.frames.mark()
	tap(t, g.host.ctx, `#summary [data-action=deal]`)
	waitJS(t, g.host.ctx, `window.cardhouse.state.room.table.view.phase === "playing" && !document.querySelector("#summary")`)
}

// moments takes the screenshots and the spectator's checks of the host's table at its moments:
// a trick with cards of several seats on it, the bids made (and the teams), the play mid-hand.
func (g *trickGame) moments(st trickState) {
	t := g.t
	if g.shotTrick == nil {
		g.shotTrick = map[string]bool{}
	}
	once := func(key string) bool {
		if g.shotTrick[key] {
			return false
		}
		g.shotTrick[key] = true
		return true
	}
	if st.Phase != "playing" {
		return
	}
	if st.Trick >= 2 && once("trick") {
		g.shots(g.host.ctx, "trick")
		if !g.axed {
			g.axed = true
			checkAxe(t, g.host.ctx, g.axe, g.c.name+" table")
		}
		if g.c.ruleset == "spades" {
			// The bids by seat and the teams, as the table shows them once the bidding is over.
			g.bidChips = map[int]string{}
			for seat, bid := range evalJS[map[string]string](t, g.host.ctx, `Object.fromEntries([...document.querySelectorAll(".seat[data-seat]")].map((s) => [s.dataset.seat, s.querySelector("[data-bid]")?.dataset.bid || ""]))`) {
				var n int
				fmt.Sscan(seat, &n)
				g.bidChips[n] = bid
			}
			if n := evalJS[int](t, g.host.ctx, `document.querySelectorAll("[data-team]").length`); n < 4 {
				t.Errorf("the table shows %d team chips, want one by each of the 4 seats", n)
			}
			g.shots(g.host.ctx, "bids-teams")
		}
	}
	// In the second hand, the score sheet from the table: the first hand is on it.
	if g.handsDealt == 1 && st.Trick >= 1 && once("sheet") {
		if n := g.openSheet("sheet"); n != 1 {
			t.Errorf("in the second hand the score sheet shows %d hands, want 1", n)
		}
	}
	if g.watcher == nil {
		return
	}
	// After each deal, mid-hand (after the sixth trick), once a hand, and during the bidding.
	if once(fmt.Sprintf("dealt-%d", g.handsDealt)) {
		g.checkSpectator(fmt.Sprintf("after the deal of hand %d", g.handsDealt+1), nil)
	}
	if st.Tricks >= 6 && once(fmt.Sprintf("mid-%d", g.handsDealt)) {
		g.checkSpectator(fmt.Sprintf("mid-hand %d", g.handsDealt+1), nil)
		if g.handsDealt == 0 {
			g.shots(g.watcher, "spectator")
		}
	}
	if slices.ContainsFunc(st.Actions, func(a trickAction) bool { return a.Type == "bid" }) && once("bidding") {
		g.checkSpectator("during the bidding", nil)
	}
}

// checkSpectator checks the spectator's page and the WebSocket messages it received since the
// deal of this hand: no card of a person's hand now, nor any card passed and not yet received.
func (g *trickGame) checkSpectator(when string, passed []string) {
	t := g.t
	hidden := slices.Clone(passed)
	for _, p := range g.people {
		hidden = append(hidden, evalJS[[]string](t, p.ctx, `[...document.querySelectorAll(".my-area .hand .card[data-code]")].map((e) => e.dataset.code)`)...)
	}
	if len(hidden) == 0 {
		return
	}
	g.checks++
	onPage := evalJS[[]string](t, g.watcher, `[...document.querySelectorAll("[data-code]")].map((e) => e.dataset.code)`)
	for _, c := range hidden {
		if slices.Contains(onPage, c) {
			t.Errorf("%s: the spectator's page shows %s, a card in a player's hand or being passed", when, c)
		}
	}
	if mine := evalJS[int](t, g.watcher, `document.querySelectorAll(".my-area .hand .card").length`); mine != 0 {
		t.Errorf("%s: the spectator's page shows a hand of %d cards", when, mine)
	}
	for i, f := range g.frames.sinceMark() {
		for _, c := range hidden {
			if strings.Contains(f, `"`+c+`"`) {
				t.Errorf("%s: WebSocket message %d to the spectator holds %s (a hidden card): %.300s", when, i, c, f)
			}
		}
	}
}

// openSheet opens the score sheet from the host's table, photographs it and closes it; it
// returns the number of hands on it.
func (g *trickGame) openSheet(name string) int {
	t, pg := g.t, g.host.ctx
	click(t, pg, `[data-action="sheet"]`)
	waitJS(t, pg, `document.querySelector("dialog[open] .sheet")`)
	g.shots(pg, name)
	rows := evalJS[int](t, pg, `document.querySelectorAll("dialog[open] .sheet tbody tr").length`)
	click(t, pg, `dialog[open] [data-action="close-sheet"]`)
	waitJS(t, pg, `!document.querySelector("dialog[open] .sheet")`)
	return rows
}

// checkHearts: four hands, passed to the left, right and across, then not; a moon in each (the
// log and the sheet say so), and the totals 0 and three times 104.
func (g *trickGame) checkHearts(sheet [][]string) {
	t := g.t
	want := []string{"left", "right", "across"}
	if len(g.passLabels) != 3 {
		t.Errorf("the host passed in %d hands (%q), want 3: left, right, across", len(g.passLabels), g.passLabels)
	}
	for i, l := range g.passLabels {
		if i < len(want) && !strings.Contains(l, want[i]) {
			t.Errorf("hand %d: the pass button says %q, want a pass %s", i+1, l, want[i])
		}
	}
	if g.handsDealt != 3 {
		t.Errorf("the host dealt %d hands after the first, want 3 (a game of four hands)", g.handsDealt)
	}
	// The game's start deals the first hand without a line; the host's Deal, the next three.
	for _, hand := range []string{"Hand 2 is dealt: to the right", "Hand 3 is dealt: across", "Hand 4 is dealt: no pass"} {
		if !g.seenLine(hand) {
			t.Errorf("the log never said %q", hand)
		}
	}
	if !g.seenLine("shot the moon!") {
		t.Errorf("the log never said a moon was shot")
	}
	t.Logf("hearts score sheet: %q", sheet)
	if len(sheet) != 5 {
		t.Fatalf("the score sheet has %d rows, want 4 hands and the totals: %q", len(sheet), sheet)
	}
	for i, row := range sheet[:4] {
		if len(row) != 5 || row[1] != "0 moon" {
			t.Errorf("hand %d's row %q: the host (seat 1) did not shoot the moon", i+1, row)
		}
	}
	if got := strings.Join(sheet[4][1:], " "); got != "0 104 104 104" {
		t.Errorf("the totals are %q, want 0 104 104 104", got)
	}
}

// checkSpades: the bids by seat (the host's nil), a spade broken, the nil failed, the ten-bag
// penalty and the partner set, all in one hand that ends the game.
func (g *trickGame) checkSpades(sheet [][]string) {
	t := g.t
	t.Logf("spades bids by seat %v, score sheet: %q", g.bidChips, sheet)
	if b := g.bidChips[0]; !strings.EqualFold(b, "nil") {
		t.Errorf("the host's bid chip says %q, want nil", b)
	}
	for seat := 1; seat < 4; seat++ {
		if b := g.bidChips[seat]; b == "" {
			t.Errorf("seat %d shows no bid", seat)
		}
	}
	if !g.seenLine("Ada bid nil") && !g.seenLine("Ada bid Nil") {
		t.Errorf("the log never said the host bid nil")
	}
	if !g.seenLine("Spades are broken") {
		t.Errorf("the log never said spades were broken")
	}
	all := ""
	for _, row := range sheet {
		all += strings.Join(row, " ") + "\n"
	}
	for _, note := range []string{"nil failed", "bags -100", "set"} {
		if !strings.Contains(all, note) {
			t.Errorf("the score sheet notes no %q: %q", note, sheet)
		}
	}
}

// seenLine reports whether a log line on the host's page contained s.
func (g *trickGame) seenLine(s string) bool {
	for l := range g.seen {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}

// wsFrames are the WebSocket messages a page received, in order, and a mark: where the hand being
// played began.
type wsFrames struct {
	mu     sync.Mutex
	frames []string
	from   int
}

// listenFrames records every WebSocket message the page receives from now on.
func listenFrames(t *testing.T, pg context.Context) *wsFrames {
	t.Helper()
	w := &wsFrames{}
	if err := chromedp.Listen(pg, func(ev any) {
		if e, ok := ev.(*network.EventWebSocketFrameReceived); ok && e.Response != nil {
			w.mu.Lock()
			w.frames = append(w.frames, string(e.Response.PayloadData))
			w.mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	return w
}

func (w *wsFrames) mark() {
	if w == nil {
		return
	}
	w.mu.Lock()
	w.from = len(w.frames)
	w.mu.Unlock()
}

func (w *wsFrames) sinceMark() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.frames[w.from:])
}

func (w *wsFrames) count() int {
	if w == nil {
		return 0
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.frames)
}
