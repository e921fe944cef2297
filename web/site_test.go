package web_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"cardhouse/platform/room"
)

// The site around the table (issue 32): quick play, the live list of tables, profiles,
// leaderboards and replays, by real pointer events at a phone's size and a desktop's.

// registerUI opens the app on a fresh page and registers the account name by the entry form.
func registerUI(t *testing.T, ctx context.Context, url, name string) {
	t.Helper()
	run(t, ctx, chromedp.Navigate(url+"/"), chromedp.WaitVisible(`#entry input[name=name]`))
	click(t, ctx, `#entry [data-mode=register]`)
	fill(t, ctx, `#entry input[name=name]`, name)
	fill(t, ctx, `#entry input[name=username]`, strings.ToLower(name))
	fill(t, ctx, `#entry input[name=password]`, "correct horse battery")
	click(t, ctx, `#enter`)
	waitJS(t, ctx, `document.querySelector(".variants [data-quick]")`)
}

// waitJSWithin waits at most d for js (the lobby's promise: a change shows within 2 s).
func waitJSWithin(t *testing.T, ctx context.Context, d time.Duration, js, what string) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	if _, err := chromedp.Run(c, chromedp.Poll[chromedp.Void](js)); err != nil {
		t.Fatalf("%s did not show within %v: %v", what, d, err)
	}
}

// noOtherHand fails when the page shows a card of a hand other than seat's (-1: any hand) while
// the round is played.
const noOtherHandJS = `((seat) => {
	const felt = document.querySelector(".felt[data-phase]");
	if (!felt || felt.dataset.phase !== "playing") return "";
	const bad = [...document.querySelectorAll('.card[data-code][data-zone^="hand."]')].filter((c) => c.dataset.code && c.dataset.zone !== "hand." + seat);
	return bad.map((c) => c.dataset.zone + ":" + c.dataset.code).join(" ");
})`

// TestQuickPlayStrangers: at each size, two strangers (two browser contexts) press "Play Hotspot
// now": they land at one table, which says before it starts that bots will take the empty seats,
// while a third page's lobby shows the table and its free seats change within 2 s, without a
// reload. The wait ends, bots sit down, the two play to the end by taps; then each sees the game
// in their profile with their rating moved, the leaderboard lists them, and the replay steps back
// and forth from a seat's view without ever showing another hand before the end.
func TestQuickPlayStrangers(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	wait := 4 * time.Second
	url, _, _, _ := startTuned(t, func(c *room.Config) { c.QuickWait = wait }, "hotspot")
	b := browser(t)
	axe := ""
	if _, err := os.Stat(os.Getenv("CARDHOUSE_AXE_JS")); err == nil || os.Getenv("CI") != "" {
		axe = axeJS(t)
	}
	for _, sz := range []struct {
		name string
		w, h int64
	}{{"phone", phoneW, phoneH}, {"desktop", desktopW, desktopH}} {
		t.Run(sz.name, func(t *testing.T) {
			ann, ben, watcher := newPage(t, b, sz.w, sz.h), newPage(t, b, sz.w, sz.h), newPage(t, b, sz.w, sz.h)
			registerUI(t, ann, url, "Ann"+sz.name)
			registerUI(t, ben, url, "Ben"+sz.name)
			registerUI(t, watcher, url, "Wes"+sz.name)
			if axe != "" {
				checkAxe(t, watcher, axe, sz.name+" lobby")
			}

			click(t, ann, `[data-quick=hotspot]`)
			waitJS(t, ann, `location.hash.startsWith("#/room/") && document.querySelector("#quick-wait")`)
			code := evalJS[string](t, ann, `location.hash.split("/")[2]`)
			// The third page's list shows the new table, one seat taken, without a reload.
			waitJSWithin(t, watcher, 2*time.Second, fmt.Sprintf(`document.querySelector('#open-rooms [data-room=%q][data-free="3"]')`, code), "the new table in the lobby")
			click(t, ben, `[data-quick=hotspot]`)
			waitJS(t, ben, `location.hash.startsWith("#/room/") && document.querySelector("#quick-wait")`)
			if got := evalJS[string](t, ben, `location.hash.split("/")[2]`); got != code {
				t.Fatalf("the two players landed at %s and %s", code, got)
			}
			waitJSWithin(t, watcher, 2*time.Second, fmt.Sprintf(`document.querySelector('#open-rooms [data-room=%q][data-free="2"]')`, code), "the second player in the lobby's list")
			if n := evalJS[int](t, watcher, `Number(document.querySelector("#open-rooms").dataset.updates || 0)`); n == 0 {
				t.Errorf("the lobby's list was never drawn again from its events")
			}
			for _, p := range []context.Context{ann, ben} {
				waitText(t, p, "#quick-wait", "bots will take the 2 empty seats")
			}
			shot(t, ben, "quickplay-wait-"+sz.name)
			if axe != "" {
				checkAxe(t, ben, axe, sz.name+" quick-play wait")
			}
			// The wait ends: bots take the empty seats and the game starts by itself.
			for _, p := range []context.Context{ann, ben} {
				waitJS(t, p, `document.querySelector(".felt[data-phase]") && !document.querySelector("#quick-wait")`)
			}
			bots := evalJS[int](t, ann, `window.cardhouse.state.room.info.members.filter((m) => m.bot_level > 0 && m.seat >= 0).length`)
			if bots != 2 {
				t.Fatalf("bots at the table: %d, want 2", bots)
			}
			annSeat := evalJS[int](t, ann, `window.cardhouse.state.room.you.seats[0]`)
			playGame(t, []player{{ann, `{}`}, {ben, `{}`}}, func() { shot(t, ben, "quickplay-table-"+sz.name) })

			// Ann's profile, by the top bar's link: the game, its place, the rating's change.
			for _, p := range []context.Context{ann, ben} { // back to the lobby by the brand, then the top bar's links
				click(t, p, `.topbar .brand`)
				waitJS(t, p, `document.querySelector(".variants")`)
			}
			click(t, ann, `#nav-profile`)
			waitJS(t, ann, fmt.Sprintf(`document.querySelector('#history [data-room=%q] .rating-change')`, code))
			shot(t, ann, "profile-"+sz.name)
			if axe != "" {
				checkAxe(t, ann, axe, sz.name+" profile")
			}
			click(t, ben, `#nav-leaderboard`)
			waitJS(t, ben, `document.querySelectorAll("#leaderboard tr[data-user]").length >= 2`)
			for _, who := range []string{"Ann" + sz.name, "Ben" + sz.name} {
				if !strings.Contains(text(t, ben, "#leaderboard"), who) {
					t.Errorf("the leaderboard does not list %s: %q", who, text(t, ben, "#leaderboard"))
				}
			}
			shot(t, ben, "leaderboard-"+sz.name)
			if axe != "" {
				checkAxe(t, ben, axe, sz.name+" leaderboard")
			}

			// The replay from Ann's seat: step forward to the end and back, never a hand early.
			click(t, ann, fmt.Sprintf(`#history [data-room=%q] [data-replay]`, code))
			waitJS(t, ann, `document.querySelector("#replay .felt[data-phase]") && document.querySelector("#replay-pos")`)
			if seat := evalJS[string](t, ann, `document.querySelector("#replay").dataset.seat`); seat != fmt.Sprint(annSeat) {
				t.Fatalf("the replay opened as seat %s, Ann played seat %d", seat, annSeat)
			}
			moves := evalJS[int](t, ann, `document.querySelectorAll("#replay-log li").length`)
			if moves == 0 {
				t.Fatal("the replay has no moves")
			}
			// The moves and the seats say the players' names, never "Seat N".
			said := evalJS[string](t, ann, `document.querySelector("#replay-log").textContent + " | " + [...document.querySelectorAll("#replay-seat option, #replay .who .name")].map((e) => e.textContent).join(", ")`)
			if strings.Contains(said, "Seat ") || !strings.Contains(said, "Ann"+sz.name) || !strings.Contains(said, "Ben"+sz.name) {
				t.Errorf("the replay names the players as %q", said)
			}
			steps := min(moves, 12)
			for k := 0; k < steps; k++ {
				click(t, ann, `#replay-forward`)
				waitJS(t, ann, fmt.Sprintf(`document.querySelector("#replay-slider").value === "%d"`, k+1))
				if bad := evalJS[string](t, ann, fmt.Sprintf(`%s(%d)`, noOtherHandJS, annSeat)); bad != "" {
					t.Fatalf("the replay from seat %d showed another hand at move %d: %s", annSeat, k+1, bad)
				}
				if k == 5 {
					shot(t, ann, "replay-"+sz.name)
				}
			}
			for k := steps; k > steps-3; k-- {
				click(t, ann, `#replay-back`)
				waitJS(t, ann, fmt.Sprintf(`document.querySelector("#replay-slider").value === "%d"`, k-1))
			}
			if axe != "" {
				checkAxe(t, ann, axe, sz.name+" replay")
			}
			// As a spectator: no hand at all until the end.
			evalJS[bool](t, ann, `(() => { const s = document.querySelector("#replay-seat"); s.value = "s"; s.dispatchEvent(new Event("change")); return true; })()`)
			waitJS(t, ann, `document.querySelector("#replay")?.dataset.seat === "s"`)
			for k := 0; k < steps; k++ {
				click(t, ann, `#replay-forward`)
				if bad := evalJS[string](t, ann, noOtherHandJS+`(-99)`); bad != "" {
					t.Fatalf("the spectators' replay showed a hand at move %d: %s", k+1, bad)
				}
			}
			click(t, ann, `#replay-last`)
			waitJS(t, ann, `document.querySelector("#replay-slider").value === document.querySelector("#replay-slider").max`)
			for who, p := range map[string]context.Context{"ann": ann, "ben": ben, "watcher": watcher} {
				if r := record(t, p); len(r.CSP) > 0 {
					t.Errorf("%s's page broke its content security policy: %q", who, r.CSP)
				}
			}
		})
	}
}

// TestGuestRegistersMidGame: at each size a guest presses quick play, sits alone until bots
// take the other seats, plays a few moves, goes to their profile, registers there by the form,
// comes back to the table by "My games" and plays to the end: the game is in the new account's
// history.
func TestGuestRegistersMidGame(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	url, _, _, _ := startTuned(t, func(c *room.Config) { c.QuickWait = time.Second }, "hotspot")
	b := browser(t)
	for _, sz := range []struct {
		name string
		w, h int64
	}{{"phone", phoneW, phoneH}, {"desktop", desktopW, desktopH}} {
		t.Run(sz.name, func(t *testing.T) {
			g := newPage(t, b, sz.w, sz.h)
			enter(t, g, url, "Gus"+sz.name, "sun")
			click(t, g, `[data-quick=hotspot]`)
			waitJS(t, g, `location.hash.startsWith("#/room/")`)
			code := evalJS[string](t, g, `location.hash.split("/")[2]`)
			waitJS(t, g, `document.querySelector(".felt[data-phase]")`)
			click(t, g, `.topbar .brand`)
			waitJS(t, g, `document.querySelector(".variants")`)
			click(t, g, `#nav-profile`)
			waitJS(t, g, `document.querySelector("#register-guest")`)
			fill(t, g, `#register-guest input[name=username]`, "gus"+sz.name)
			fill(t, g, `#register-guest input[name=password]`, "correct horse battery")
			click(t, g, `#register-submit`)
			waitJS(t, g, `document.querySelector("#profile") && !document.querySelector("#register-guest")`)
			if guest := evalJS[bool](t, g, `window.cardhouse.state.me.guest`); guest {
				t.Fatal("still a guest after registering")
			}
			click(t, g, fmt.Sprintf(`#my-games a[href="#/room/%s"]`, code))
			waitJS(t, g, `document.querySelector(".felt[data-phase]")`)
			if sz.name == "phone" {
				// Opening the room panel raises no keyboard: the chat input does not take the focus.
				click(t, g, `.side-toggle`)
				waitJS(t, g, `document.body.classList.contains("show-side")`)
				if chat := evalJS[bool](t, g, `document.activeElement === document.querySelector("input[name=chat]")`); chat {
					t.Error("opening the room panel on a phone focused the chat input")
				}
				click(t, g, `.side-toggle`)
				waitJS(t, g, `!document.body.classList.contains("show-side")`)
			}
			if _, err := playByHand(g, `{}`); err != nil {
				t.Fatalf("playing on after registering: %v", err)
			}
			click(t, g, `.topbar .brand`)
			waitJS(t, g, `document.querySelector(".variants")`)
			click(t, g, `#nav-profile`)
			waitJS(t, g, fmt.Sprintf(`document.querySelector('#history [data-room=%q]')`, code))
			shot(t, g, "profile-registered-"+sz.name)
		})
	}
}
