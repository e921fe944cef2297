package web_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardhouse/platform/store"

	"github.com/chromedp/chromedp"
)

// TestHouseRulesFromUploadToPlay: a modder, by taps alone (and a file chooser on the phone), at a
// desktop and a phone size, against the real server and the real Hotspot plugin: registers,
// checks a broken wild-eight (plugins/houserules/wild-eight.lua) and sees the problem with its
// line and a hint, fixes it, checks and uploads it, sees it under "my rules" with its review (on
// the desktop an admin approves it with a reason, which the page shows), loads it back into the
// editor and uploads version 2, enables it with an option
// set (in the room form on the desktop, then removed and added again from the host's panel; on
// the phone added from the host's panel, then its option changed there), deals a
// pass-the-device game of two seats and draws until a seat holds an 8 it may lay as wild; then lays
// it as the rule's action, picking between the two moves when the variant's Play takes it too, and
// names the suit in the rule's choice. The suit and the option's penalty are seen in the view. On
// the desktop a spectator sees the rule in force with its description. No CSP violation anywhere.
func TestHouseRulesFromUploadToPlay(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	url, _, st := startPlatform(t)
	b := browser(t)
	good, err := os.ReadFile(filepath.Join("..", "plugins", "houserules", "wild-eight.lua"))
	if err != nil {
		t.Fatal(err)
	}
	for _, sz := range []struct {
		name   string
		w, h   int64
		rule   string
		pickUp int
	}{{"desktop", desktopW, desktopH, "wild-eight", 2}, {"phone", phoneW, phoneH, "wild-eight-p", 1}} {
		t.Run(sz.name, func(t *testing.T) {
			fixed := strings.Replace(string(good), `name = "wild-eight"`, fmt.Sprintf("name = %q", sz.rule), 1)
			// The broken script: a syntax error (desktop), or a nil indexed while the script loads
			// (phone), on a known line.
			var broken string
			var badLine int
			if sz.name == "desktop" {
				broken = strings.Replace(fixed, "game.values.suit = suit", "game.values.suit = = suit", 1)
				badLine = lineOf(t, fixed, "game.values.suit = suit")
			} else {
				broken = strings.Replace(fixed, "local SUITS = ", "local SUITS = nothing.here or ", 1)
				badLine = lineOf(t, fixed, "local SUITS = ")
			}
			pg := newPage(t, b, sz.w, sz.h)
			shots := func(name string) { shot(t, pg, "houserules-"+sz.name+"-"+name) }

			// Register by taps and typing.
			run(t, pg, chromedp.Navigate(url+"/"))
			tap(t, pg, `#entry [data-mode=register]`)
			typeText(t, pg, `#entry input[name=name]`, "Mo "+sz.name)
			typeText(t, pg, `#entry input[name=username]`, "mo-"+sz.name)
			typeText(t, pg, `#entry input[name=password]`, "correct horse battery")
			tap(t, pg, `#enter`)
			waitJS(t, pg, `document.querySelector("#house-rules-link")`)
			tap(t, pg, `#house-rules-link`)
			waitJS(t, pg, `document.querySelector("#rule-upload") && document.querySelector("#my-rules")`)

			// The broken script, pasted (desktop) or from a file (phone), is checked: the problem names
			// the line, with a hint, and the script's lines around it.
			if sz.name == "desktop" {
				typeText(t, pg, `#rule-source`, broken)
			} else {
				file := filepath.Join(t.TempDir(), sz.rule+".lua")
				if err := os.WriteFile(file, []byte(broken), 0o644); err != nil {
					t.Fatal(err)
				}
				run(t, pg, chromedp.SetUploadFiles(`#rule-file`, []string{file}))
				waitJS(t, pg, fmt.Sprintf(`document.querySelector("[data-loaded]") && document.querySelector("#rule-source").value.includes(%q)`, "nothing.here"))
			}
			tap(t, pg, `#rule-upload input[data-ruleset=hotspot]`)
			tap(t, pg, `#rule-check`)
			waitCheck(t, pg, `document.querySelector(".rule-problem")`)
			if got := evalJS[int](t, pg, `Number(document.querySelector(".rule-problem").dataset.line)`); got != badLine {
				t.Errorf("the problem is on line %d, want %d: %s", got, badLine, evalJS[string](t, pg, `document.querySelector(".rule-problem").textContent`))
			}
			for _, sel := range []string{".rule-problem .message", ".rule-problem .hint", ".rule-problem .bad-line"} {
				if evalJS[string](t, pg, fmt.Sprintf(`document.querySelector(%q)?.textContent || ""`, sel)) == "" {
					t.Errorf("the problem shows no %s", sel)
				}
			}
			evalJS[bool](t, pg, `(document.querySelector(".rule-problem").scrollIntoView({block: "center"}), true)`)
			fits(t, pg, "the problem")
			shots("problem")

			// Fixed, it checks out (a dry run of bot games), then uploads as version 1, pending.
			typeText(t, pg, `#rule-source`, fixed)
			tap(t, pg, `#rule-check`)
			waitCheck(t, pg, fmt.Sprintf(`document.querySelector('[data-checked=%q]') && document.querySelectorAll(".dry-run li").length > 0`, sz.rule))
			shots("checked")
			tap(t, pg, `#rule-send`)
			waitCheck(t, pg, fmt.Sprintf(`document.querySelector('[data-uploaded="%s v1"]') && document.querySelector('#my-rules [data-rule=%q] [data-version="1"][data-status=pending]')`, sz.rule, sz.rule))
			if sz.name == "desktop" {
				// An admin approves it, with a reason the owner reads under "my rules".
				approve(t, st, sz.rule, "Reads well; tried it at a table.")
				tap(t, pg, `.rules-page a[href="#/"]`)
				tap(t, pg, `#house-rules-link`)
				waitJS(t, pg, fmt.Sprintf(`document.querySelector('#my-rules [data-rule=%q] [data-version="1"][data-status=approved] .reason')?.textContent.includes("tried it at a table")`, sz.rule))
			}
			// A new version: the newest source comes back into the editor; edited, it uploads as v2,
			// pending, beside v1.
			tap(t, pg, fmt.Sprintf(`#my-rules [data-new-version=%q]`, sz.rule))
			waitJS(t, pg, fmt.Sprintf(`document.querySelector('[data-editing=%q]') && document.querySelector("#rule-source").value === %q`, sz.rule, fixed))
			typeText(t, pg, `#rule-source`, fixed+"-- v2: the same rule, said again\n")
			tap(t, pg, `#rule-send`)
			waitCheck(t, pg, fmt.Sprintf(`document.querySelector('[data-uploaded="%s v2"]') && document.querySelector('#my-rules [data-rule=%q] [data-version="2"][data-status=pending]') && document.querySelector('#my-rules [data-rule=%q] [data-version="1"]')`, sz.rule, sz.rule, sz.rule))
			evalJS[bool](t, pg, `(document.querySelector("#my-rules").scrollIntoView({block: "center"}), true)`)
			fits(t, pg, "my rules")
			shots("my-rules")

			// A pass-the-device room of Hotspot for two seats (the form's selects set as the other
			// browser tests set them); on the desktop the rule and its option are chosen in the form.
			tap(t, pg, `.rules-page a[href="#/"]`)
			tap(t, pg, `[data-create=hotspot]`)
			waitJS(t, pg, `document.querySelector("#create-room")`)
			evalJS[bool](t, pg, `(() => { const f = document.querySelector("#create-room");
				f.elements.mode.value = "device"; f.elements.mode.dispatchEvent(new Event("change"));
				f.elements.seats.value = 2; f.elements.seats.dispatchEvent(new Event("input")); return true; })()`)
			opt := fmt.Sprintf(`[name="house_rules.%s.options.pick_up"]`, sz.rule)
			if sz.name == "desktop" {
				tap(t, pg, fmt.Sprintf(`#create-room input[data-house-rule=%q]`, sz.rule))
				typeText(t, pg, `#create-room `+opt, fmt.Sprint(sz.pickUp))
				shots("room-form")
			}
			tap(t, pg, `#create-room button[type=submit]`)
			waitJS(t, pg, `location.hash.startsWith("#/room/") && document.querySelector("#room-code")?.textContent`)
			code := evalJS[string](t, pg, `document.querySelector("#room-code").textContent`)
			settings := fmt.Sprintf("Cards to pick up: %d", sz.pickUp)
			inForce := func(want string) {
				t.Helper()
				waitJS(t, pg, fmt.Sprintf(`(document.querySelector('#room-rules [data-rule=%q] .rule-settings')?.textContent || "") === %q`, sz.rule, want))
			}
			if sz.name == "desktop" {
				// The host's panel, between games: the rule from the form is removed, then added again.
				inForce(settings)
				tap(t, pg, fmt.Sprintf(`#room-rules [data-rule-remove=%q]`, sz.rule))
				inForce("")
				tap(t, pg, `#add-house-rule`)
				tap(t, pg, fmt.Sprintf(`#rule-dialog input[data-house-rule=%q]`, sz.rule))
				typeText(t, pg, `#rule-dialog `+opt, fmt.Sprint(sz.pickUp))
				tap(t, pg, `#rule-enable`)
				waitJS(t, pg, `!document.querySelector("#rule-dialog")`)
			} else {
				// The host's panel on a phone: open the room sheet, add the rule with one value, then
				// set its option to another.
				tap(t, pg, `.side-toggle`)
				tap(t, pg, `#add-house-rule`)
				tap(t, pg, fmt.Sprintf(`#rule-dialog input[data-house-rule=%q]`, sz.rule))
				typeText(t, pg, `#rule-dialog `+opt, "3")
				shots("add-rule")
				tap(t, pg, `#rule-enable`)
				waitJS(t, pg, `!document.querySelector("#rule-dialog")`)
				inForce("Cards to pick up: 3")
				tap(t, pg, fmt.Sprintf(`#room-rules [data-rule-edit=%q]`, sz.rule))
				typeText(t, pg, `#rule-dialog `+opt, fmt.Sprint(sz.pickUp))
				tap(t, pg, `#rule-enable`)
				waitJS(t, pg, `!document.querySelector("#rule-dialog")`)
			}
			waitJS(t, pg, fmt.Sprintf(`document.querySelector('#room-rules [data-rule=%q] .rule-settings')?.textContent === %q`, sz.rule, settings))
			shots("room-rules")
			if sz.name == "phone" {
				tap(t, pg, `.side-toggle`)
			} else {
				// Everyone in the room sees the rule in force with its description: a spectator too.
				watcher := newPage(t, b, desktopW, desktopH)
				enter(t, watcher, url, "Wanda", "star")
				run(t, watcher, chromedp.Navigate(url+"/#/watch/"+code))
				waitJS(t, watcher, fmt.Sprintf(`document.querySelector('#room-rules [data-rule=%q] .rule-description')?.textContent === "An 8 is wild too: lay it on anything and name the suit to follow."`, sz.rule))
				waitJS(t, watcher, fmt.Sprintf(`document.querySelector("#waiting-rules")?.textContent.includes(%q)`, sz.rule))
				if n := evalJS[int](t, watcher, `document.querySelectorAll("#room-rules [data-rule-remove], #add-house-rule").length`); n != 0 {
					t.Errorf("the spectator is offered %d controls to change the room's rules", n)
				}
				shot(t, watcher, "houserules-desktop-spectator")
				if rec := record(t, watcher); len(rec.CSP) > 0 {
					t.Errorf("spectator: content security policy violations: %q", rec.CSP)
				}
			}

			// The deal; then each seat in turn draws until it holds an 8 it may lay as wild.
			click(t, pg, `.felt [data-action=deal]`)
			waitJS(t, pg, `window.cardhouse.state.room?.table.view?.phase === "playing"`)
			var eight string
			for turn := 0; eight == ""; turn++ {
				if turn > 120 {
					t.Fatal("no seat was offered the wild 8 in 120 turns")
				}
				waitJS(t, pg, `(() => { const r = window.cardhouse.state.room, t = r?.table; return document.querySelector("#cover button") || (t?.view?.phase === "playing" && !t.busy && (t.view.actions || []).length); })()`)
				if evalJS[bool](t, pg, `!!document.querySelector("#cover button")`) {
					click(t, pg, `#cover button`)
					continue
				}
				eight = evalJS[string](t, pg, `(window.cardhouse.state.room.table.view.actions.find((a) => a.type === "wild_eight")?.cards || [""])[0]`)
				if eight != "" {
					break
				}
				seq := evalJS[int](t, pg, `window.cardhouse.state.room.viewSeq`)
				click(t, pg, `.actions [data-action=draw]`)
				waitJS(t, pg, fmt.Sprintf(`window.cardhouse.state.room.viewSeq > %d`, seq))
			}
			both := evalJS[bool](t, pg, fmt.Sprintf(`!!window.cardhouse.state.room.table.view.actions.find((a) => a.type === "play" && (a.cards || []).includes(%q))`, eight))
			t.Logf("%s: %s offered as a wild 8 (the variant's Play takes it too: %v)", sz.name, eight, both)
			click(t, pg, fmt.Sprintf(`.my-area .hand .card[data-code=%q]`, eight))
			waitJS(t, pg, `!document.querySelector('.actions [data-action=wild_eight]').disabled`)
			shots("eight-picked")
			click(t, pg, fmt.Sprintf(`.my-area .hand .card.selected[data-code=%q]`, eight))
			if both {
				waitJS(t, pg, `document.querySelector("dialog[open] [data-choice=wild_eight]")`)
				shots("which-move")
				click(t, pg, `dialog[open] [data-choice=wild_eight]`)
			}
			waitJS(t, pg, `document.querySelector("dialog[open] [data-choice=D]")`)
			shots("suit")
			click(t, pg, `dialog[open] [data-choice=D]`)
			// The rule's action is applied: the 8 on the pile, diamonds to follow, the option's
			// penalty waiting for the next seat; the log tells it.
			waitJS(t, pg, fmt.Sprintf(`(() => { const v = window.cardhouse.state.room.table.view; const pile = v.zones.find((z) => z.id === "pile").cards;
				return pile[pile.length - 1] === %q && v.indicators.some((i) => i.id === "suit" && i.value === "D") && v.indicators.some((i) => i.id === "penalty" && i.value === "%d"); })()`, eight, sz.pickUp))
			if evalJS[bool](t, pg, `!!document.querySelector("#cover button")`) {
				click(t, pg, `#cover button`)
			}
			waitJS(t, pg, `[...document.querySelectorAll(".log div")].some((d) => d.textContent.includes("wild eight") && d.textContent.includes("Diamonds"))`)
			waitJS(t, pg, `document.querySelector('[data-ind=suit]')?.textContent.includes("Diamonds")`)
			shots("wild-eight-played")
			if rec := record(t, pg); len(rec.CSP) > 0 {
				t.Errorf("content security policy violations: %q", rec.CSP)
			}
		})
	}
}

// waitCheck waits for js while the server checks a script (a dry run of bot games takes up to
// 30 s on a loaded machine), and says what the page shows when it never comes.
func waitCheck(t *testing.T, ctx context.Context, js string) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	if _, err := chromedp.Run(c, chromedp.Poll[chromedp.Void](js)); err != nil {
		t.Fatalf("waiting for %s: %v; the page shows: %s", js, err, evalJS[string](t, ctx, `document.querySelector("#rule-result")?.textContent || ""`))
	}
}

// fits fails the test when the page is wider than the screen (a phone would zoom out, and every
// tap would land off its mark).
func fits(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	if w := evalJS[[]int](t, ctx, `[document.documentElement.scrollWidth, innerWidth]`); w[0] > w[1] {
		t.Errorf("%s: the page is %d px wide on a screen of %d", what, w[0], w[1])
	}
}

// lineOf is the line (from 1) of the first line of src that holds text.
func lineOf(t *testing.T, src, text string) int {
	t.Helper()
	for i, l := range strings.Split(src, "\n") {
		if strings.Contains(l, text) {
			return i + 1
		}
	}
	t.Fatalf("no line holds %q", text)
	return 0
}

// approve approves version 1 of the rule name as an admin would in the admin area, with reason.
func approve(t *testing.T, st *store.Store, name, reason string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	sc, err := st.HouseRuleByName(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	v, err := st.HouseRuleVersionByNumber(ctx, sc.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	root := "root-" + name
	admin := &store.User{Username: &root, DisplayName: "Root", Role: store.RoleAdmin}
	if err := st.CreateUser(ctx, admin); err != nil {
		t.Fatal(err)
	}
	if err := st.ApproveHouseRuleVersion(ctx, v.ID, admin.ID, reason); err != nil {
		t.Fatal(err)
	}
}
