package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// suddenDeath is a house rule that ends a Hotspot game at the first card played, that seat
// winning (game.end_game, through the variant's own end), and prints what it does: the deal and
// the winning play.
const suddenDeath = `-- Sudden death: the first card played wins the game at once.
name = "sudden-death"
description = "The first card played wins the game at once."

function on_start(game)
  print("sudden death: the first card played wins")
end

function after_action(game, action)
  if action.type == "play" and game.phase == "playing" then
    print("seat " .. action.seat .. " played " .. action.cards[1] .. " first and wins")
    game.end_game(action.seat)
  end
end
`

// TestHouseRuleEndsTheGame: a house rule ends a game, with the modder on a desktop and the guest on
// a phone, then the other way round. The modder registers and uploads sudden-death by taps (pending
// review: its owner may use it in rooms they host), makes a Hotspot room of two seats with it
// ticked in the room form, the guest joins and a spectator watches; the host deals and the two play
// by taps (draw until a seat can play, then play). The first card played ends the game: every page
// shows the game over, its summary and the winner the rule named. The rule's owner sees in the
// room's "Rule output" the lines the rule printed (at the deal and at the play), marked with its
// name, the newest on the screen (in the room sheet on a phone); the guest and the spectator never
// get the panel. No CSP violation anywhere.
func TestHouseRuleEndsTheGame(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	url, _, _ := startPlatform(t)
	b := browser(t)
	for _, sz := range []struct {
		name         string // the owner's screen; the guest has the other one
		ow, oh       int64
		gw, gh       int64
		rule, handle string
	}{{"desktop", desktopW, desktopH, phoneW, phoneH, "sudden-death", "mo-end"}, {"phone", phoneW, phoneH, desktopW, desktopH, "sudden-death-p", "mo-end-p"}} {
		t.Run(sz.name, func(t *testing.T) {
			playSuddenDeath(t, b, url, sz.name, strings.Replace(suddenDeath, `"sudden-death"`, fmt.Sprintf("%q", sz.rule), 1), sz.rule, sz.handle,
				newPage(t, b, sz.ow, sz.oh), newPage(t, b, sz.gw, sz.gh))
		})
	}
}

// playSuddenDeath is TestHouseRuleEndsTheGame at one pair of screens: the owner (who uploads src,
// the rule called rule, as the user handle) hosts, guest joins.
func playSuddenDeath(t *testing.T, b context.Context, url, name, src, rule, handle string, owner, guest context.Context) {
	watcher := newPage(t, b, desktopW, desktopH)

	// The modder registers and uploads the rule for Hotspot, by taps and typing.
	run(t, owner, chromedp.Navigate(url+"/"))
	tap(t, owner, `#entry [data-mode=register]`)
	typeText(t, owner, `#entry input[name=name]`, "Mo")
	typeText(t, owner, `#entry input[name=username]`, handle)
	typeText(t, owner, `#entry input[name=password]`, "correct horse battery")
	tap(t, owner, `#enter`)
	tap(t, owner, `#house-rules-link`)
	typeText(t, owner, `#rule-source`, src)
	tap(t, owner, `#rule-upload input[data-ruleset=hotspot]`)
	tap(t, owner, `#rule-send`)
	waitCheck(t, owner, fmt.Sprintf(`document.querySelector('[data-uploaded="%s v1"]')`, rule))

	// A Hotspot room of two seats with the rule, from the room form.
	tap(t, owner, `.rules-page a[href="#/"]`)
	tap(t, owner, `[data-create=hotspot]`)
	waitJS(t, owner, `document.querySelector("#create-room")`)
	evalJS[bool](t, owner, `(() => { const f = document.querySelector("#create-room"); f.elements.seats.value = 2; f.elements.seats.dispatchEvent(new Event("input")); return true; })()`)
	tap(t, owner, fmt.Sprintf(`#create-room input[data-house-rule=%q]`, rule))
	tap(t, owner, `#create-room button[type=submit]`)
	waitJS(t, owner, `location.hash.startsWith("#/room/") && document.querySelector("#room-code")?.textContent`)
	code := evalJS[string](t, owner, `document.querySelector("#room-code").textContent`)

	// A guest on a phone joins by code; a spectator watches.
	enter(t, guest, url, "Bruno", "knight")
	typeText(t, guest, `#by-code input[name=code]`, code)
	tap(t, guest, `#join-code`)
	enter(t, watcher, url, "Chloe", "star")
	typeText(t, watcher, `#by-code input[name=code]`, code)
	tap(t, watcher, `#watch-code`)
	waitJS(t, owner, `document.querySelectorAll(".members li").length === 3`)
	waitJS(t, guest, fmt.Sprintf(`document.querySelector('#room-rules [data-rule=%q]')`, rule))
	tap(t, owner, `.felt [data-action=deal]`)
	for _, pg := range []context.Context{owner, guest, watcher} {
		waitJS(t, pg, `window.cardhouse.state.room?.table.view?.phase === "playing"`)
	}

	// The owner sees what the rule printed at the deal, marked as the rule's.
	ruleLine := func(text string) string {
		return fmt.Sprintf(`[...document.querySelectorAll('#rule-log .line[data-rule=%q]')].some((l) => l.querySelector(".rule-tag")?.textContent === "[%s]" && l.textContent.includes(%q))`, rule, rule, text)
	}
	waitJS(t, owner, ruleLine("sudden death: the first card played wins"))

	// Play by taps: the seat in turn draws (or ends its turn) until it may play, then plays.
	seatOf := func(pg context.Context) int {
		return evalJS[int](t, pg, `window.cardhouse.state.room.table.view.viewer`)
	}
	pages := map[int]context.Context{seatOf(owner): owner, seatOf(guest): guest}
	names := map[int]string{seatOf(owner): "Mo", seatOf(guest): "Bruno"}
	ready := `(() => { const t = window.cardhouse.state.room.table; return t.view?.phase !== "playing" || (!t.busy && t.view.turn === t.view.viewer && (t.view.actions || []).some((a) => ["play", "draw", "pass"].includes(a.type))); })()`
	winner, played := -1, ""
	for moves := 0; winner < 0; moves++ {
		if moves > 60 {
			t.Fatal("no seat could play a card in 60 moves")
		}
		turn := evalJS[int](t, watcher, `window.cardhouse.state.room.table.view.turn`)
		pg, ok := pages[turn]
		if !ok {
			t.Fatalf("the spectator sees seat %d in turn, which is nobody's", turn)
		}
		waitJS(t, pg, ready)
		seq := evalJS[int](t, watcher, `window.cardhouse.state.room.viewSeq`)
		// A card the view offers to play, one that asks nothing more (an Ace asks for a suit).
		card := evalJS[string](t, pg, `(() => { const cs = window.cardhouse.state.room.table.view.actions.find((a) => a.type === "play")?.cards || []; return cs.find((c) => !c.startsWith("A")) || cs[0] || ""; })()`)
		switch {
		case card != "":
			tap(t, pg, fmt.Sprintf(`.my-area .hand .card[data-code=%q]`, card))
			tap(t, pg, `.actions [data-action=play]`)
			if strings.HasPrefix(card, "A") {
				tap(t, pg, `dialog[open] [data-choice]`)
			}
			winner, played = turn, card
		case evalJS[bool](t, pg, `window.cardhouse.state.room.table.view.actions.some((a) => a.type === "draw")`):
			tap(t, pg, `.actions [data-action=draw]`)
		default:
			tap(t, pg, `.actions [data-action=pass]`)
		}
		waitJS(t, watcher, fmt.Sprintf(`window.cardhouse.state.room.viewSeq > %d`, seq))
	}
	t.Logf("seat %d (%s) played %s first", winner, names[winner], played)

	// Every page shows the game over, its summary, and the seat that played first as the winner.
	for who, pg := range map[string]context.Context{"owner": owner, "guest": guest, "spectator": watcher} {
		waitJS(t, pg, `window.cardhouse.state.room.table.view.phase === "game_over" && !!document.querySelector("#summary")`)
		if got := evalJS[int](t, pg, `window.cardhouse.state.room.table.view.winner`); got != winner {
			t.Errorf("%s: the view's winner is seat %d, want seat %d (who played first)", who, got, winner)
		}
		want := names[winner] + " wins!"
		if pages[winner] == pg {
			want = "You win!"
		}
		if got := text(t, pg, "#summary h2"); !strings.Contains(got, want) {
			t.Errorf("%s: the summary's title is %q, want %q", who, got, want)
		}
		if got := text(t, pg, `#summary .chip.gold`); got != "Winner" {
			t.Errorf("%s: the summary marks no winner (%q)", who, got)
		}
		checkSummary(t, pg, who)
	}
	shot(t, owner, "houseend-"+name+"-owner-over")
	shot(t, guest, "houseend-"+name+"-guest-over")
	shot(t, watcher, "houseend-"+name+"-spectator-over")

	// The owner's "Rule output" tells the winning play, on the screen; the others never get it.
	waitJS(t, owner, ruleLine(fmt.Sprintf("seat %d played %s first and wins", winner, played)))
	if name == "phone" {
		tap(t, owner, `.side-toggle`)
		waitJS(t, owner, `document.querySelector("#rule-log")?.getBoundingClientRect().height > 0`)
	}
	if !evalJS[bool](t, owner, `(() => { const l = [...document.querySelectorAll("#rule-log .line")].pop(); const r = l.getBoundingClientRect(); return r.height > 0 && r.bottom <= innerHeight && !!__ch.hitPoint(l); })()`) {
		t.Error("owner: the rule's last line is not on the screen")
	}
	shot(t, owner, "houseend-"+name+"-owner-rule-output")
	if name == "desktop" {
		tap(t, guest, `.side-toggle`)
		waitJS(t, guest, `document.querySelector("#room-rules")?.getBoundingClientRect().height > 0`)
	}
	shot(t, guest, "houseend-"+name+"-guest-side")
	for who, pg := range map[string]context.Context{"guest": guest, "spectator": watcher} {
		if evalJS[bool](t, pg, `!!document.querySelector("#rule-log") || window.cardhouse.state.room.ruleLines.length > 0`) {
			t.Errorf("%s: shown what the rule printed: %s", who, evalJS[string](t, pg, `document.querySelector("#rule-log")?.textContent || ""`))
		}
	}
	for who, pg := range map[string]context.Context{"owner": owner, "guest": guest, "spectator": watcher} {
		if rec := record(t, pg); len(rec.CSP) > 0 {
			t.Errorf("%s: content security policy violations: %q", who, rec.CSP)
		}
	}
}
