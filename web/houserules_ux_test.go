package web_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestHouseRulesPageGuest: a guest on the house-rules page sees at once what a guest has there
// (the server refuses a guest's upload, so a guest owns no rules): "My rules" says house rules
// need an account, never "Loading…", and offers "Log out and register", which opens the entry's
// Register tab; once registered, the house-rules page is back with its upload form and an empty
// "My rules".
func TestHouseRulesPageGuest(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	eachSize(t, func(t *testing.T, base string, ctx context.Context, sz screen) {
		signIn(t, ctx, base, "Gus "+sz.name)
		tap(t, ctx, `#house-rules-link`)
		waitJS(t, ctx, `!!document.querySelector(".rules-page #my-rules")`)
		waitJS(t, ctx, `!!document.querySelector("#my-rules #rules-register")`)
		if got := text(t, ctx, `#my-rules`); strings.Contains(got, "Loading") || !strings.Contains(got, "account") {
			t.Errorf("a guest's My rules reads %q, want why a guest has none (an account) and no Loading", got)
		}
		evalJS[bool](t, ctx, `(document.querySelector("#rules-register").scrollIntoView({block: "center"}), true)`)
		if why := wholly(t, ctx, `#rules-register`); why != "" {
			t.Errorf("Log out and register is %s", why)
		}
		fits(t, ctx, "house-rules as a guest")
		shot(t, ctx, "house-rules-guest-"+sz.name)
		tap(t, ctx, `#rules-register`)
		waitJS(t, ctx, `!!document.querySelector('#entry [data-mode=register][aria-selected=true]')`)
		shot(t, ctx, "house-rules-guest-register-"+sz.name)
		typeText(t, ctx, `#entry input[name=name]`, "Gus")
		typeText(t, ctx, `#entry input[name=username]`, "gus-"+sz.name)
		typeText(t, ctx, `#entry input[name=password]`, "correct horse battery")
		tap(t, ctx, `#enter`)
		waitJS(t, ctx, `location.hash === "#/house-rules" && !!document.querySelector(".rules-page #rule-upload") && !window.cardhouse.state.me.guest`)
		waitJS(t, ctx, `document.querySelector("#my-rules")?.textContent.includes("None yet")`)
		shot(t, ctx, "house-rules-registered-"+sz.name)
	})
}

// TestHouseRuleDialogButtonsStay: the host's "Add a house rule" dialog, opened while the list of
// rules is still on its way (the page holds the answer back), has its Cancel and Add buttons where
// they stay once the list (four long rules) arrives: a tap aimed at Cancel while it loads, made
// after it loaded, closes the dialog and ticks no rule. At a phone's and a desktop's size.
func TestHouseRuleDialogButtonsStay(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	base, _, _ := startPlatform(t)
	b := browser(t)
	apiModder(t, base, "mo-dialog", quietRule(1), quietRule(2), quietRule(3), quietRule(4))
	type box struct{ X, Y, W, H float64 }
	for _, sz := range []screen{{"phone", phoneW, phoneH}, {"desktop", desktopW, desktopH}} {
		t.Run(sz.name, func(t *testing.T) {
			pg := newPage(t, b, sz.w, sz.h)
			logIn(t, pg, base, "mo-dialog")
			tap(t, pg, `[data-create=hotspot]`)
			waitJS(t, pg, `document.querySelector("#create-room")`)
			tap(t, pg, `#create-room button[type=submit]`)
			waitJS(t, pg, `location.hash.startsWith("#/room/") && document.querySelector("#room-code")?.textContent`)
			if sz.name == "phone" {
				tap(t, pg, `.side-toggle`)
				waitJS(t, pg, `document.body.classList.contains("show-side")`)
			}
			// Hold the list's answer back until released.
			evalJS[bool](t, pg, `(() => { window.__held = []; const f = window.fetch;
				window.fetch = (u, o) => String(u).includes("/api/house-rules?ruleset=") ? new Promise((ok) => window.__held.push(() => ok(f(u, o)))) : f(u, o);
				return true; })()`)
			tap(t, pg, `#add-house-rule`)
			waitJS(t, pg, `document.querySelector("#rule-dialog[open] .rule-choices")?.textContent.includes("Loading") && window.__held.length === 1`)
			rect := func(sel string) box {
				return evalJS[box](t, pg, fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return {X: r.left, Y: r.top, W: r.width, H: r.height}; })()`, sel))
			}
			cancel, add := rect(`#rule-cancel`), rect(`#rule-enable`)
			shot(t, pg, "rule-dialog-loading-"+sz.name)
			evalJS[bool](t, pg, `(window.__held.forEach((go) => go()), true)`)
			waitJS(t, pg, `document.querySelectorAll("#rule-dialog input[data-house-rule]").length === 4`)
			shot(t, pg, "rule-dialog-loaded-"+sz.name)
			for _, c := range []struct {
				sel        string
				was, after box
			}{{"#rule-cancel", cancel, rect(`#rule-cancel`)}, {"#rule-enable", add, rect(`#rule-enable`)}} {
				if math.Abs(c.was.X-c.after.X) > 0.5 || math.Abs(c.was.Y-c.after.Y) > 0.5 {
					t.Errorf("%s moved as the list loaded: from %.0f,%.0f to %.0f,%.0f", c.sel, c.was.X, c.was.Y, c.after.X, c.after.Y)
				}
			}
			for _, sel := range []string{`#rule-cancel`, `#rule-enable`, `#rule-dialog input[data-house-rule]`} {
				if why := wholly(t, pg, sel); why != "" {
					t.Errorf("with the list loaded, %s is %s", sel, why)
				}
			}
			// The tap aimed at Cancel while it loaded, made now.
			x, y := cancel.X+cancel.W/2, cancel.Y+cancel.H/2
			if err := tapAt(pg, x, y); err != nil {
				t.Fatal(err)
			}
			waitJS(t, pg, `!document.querySelector("#rule-dialog") || document.querySelector("#rule-dialog input[data-house-rule]:checked")`)
			if evalJS[bool](t, pg, `!!document.querySelector("#rule-dialog")`) {
				t.Errorf("the tap aimed at Cancel while the list loaded ticked %q instead of closing the dialog",
					evalJS[string](t, pg, `document.querySelector("#rule-dialog input[data-house-rule]:checked").dataset.houseRule`))
			}
			if got := evalJS[int](t, pg, `(window.cardhouse.state.room.info.house_rules || []).length`); got != 0 {
				t.Errorf("the room has %d house rules after Cancel, want none", got)
			}
		})
	}
}

// stepsBug is a rule whose bug shows only when its option steps is 3 (of 1 to 3, default 1).
const stepsBug = `name = "steps-bug"
description = "Breaks at three steps."
options = {{name = "steps", type = "int", default = 1, min = 1, max = 3, label = "Steps"}}
function after_action(game, action)
  if game.options.steps == 3 then
    error("three steps break")
  end
end
`

// TestHouseRuleCheckOptionsAndCounts: on the house-rules page, against the real server and the
// real Hotspot plugin, a check of a rule whose bug hides behind steps=3 fails there (the dry run
// tries every option's extremes), the problem naming the values, and inputs for the rule's own
// options appear; checked again with steps=2 and the extremes unticked, it passes, and the page
// shows the dry run's games with their option values, the hook counts and the hook that never did
// anything; with steps=3 typed in, it fails again. At a phone's and a desktop's size, axe-clean.
func TestHouseRuleCheckOptionsAndCounts(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	base, _, _ := startPlatform(t)
	b := browser(t)
	axe := axeJS(t)
	for _, sz := range []screen{{"phone", phoneW, phoneH}, {"desktop", desktopW, desktopH}} {
		t.Run(sz.name, func(t *testing.T) {
			apiModder(t, base, "mo-opts-"+sz.name)
			pg := newPage(t, b, sz.w, sz.h)
			logIn(t, pg, base, "mo-opts-"+sz.name)
			tap(t, pg, `#house-rules-link`)
			waitJS(t, pg, `document.querySelector("#rule-upload") && document.querySelector("#my-rules")`)
			typeText(t, pg, `#rule-source`, stepsBug)
			tap(t, pg, `#rule-upload input[data-ruleset=hotspot]`)
			check := func() {
				t.Helper()
				evalJS[bool](t, pg, `(document.querySelector("#rule-result").replaceChildren(), true)`)
				tap(t, pg, `#rule-check`)
			}

			check()
			waitCheck(t, pg, `document.querySelector(".rule-problem")`)
			if got := evalJS[string](t, pg, `document.querySelector(".rule-problem").dataset.line + " " + (document.querySelector(".rule-problem [data-options]")?.dataset.options || "")`); got != "6 steps=3" {
				t.Errorf("the problem's line and options read %q, want line 6 with steps=3: %s", got, text(t, pg, ".rule-problem"))
			}
			waitJS(t, pg, `!!document.querySelector('#rule-check-options input[name="options.steps"]') && document.querySelector("#rule-extremes").checked`)
			evalJS[bool](t, pg, `(document.querySelector(".rule-problem").scrollIntoView({block: "center"}), true)`)
			fits(t, pg, "the problem at steps=3")
			shot(t, pg, "house-rules-check-options-problem-"+sz.name)

			typeText(t, pg, `#rule-check-options input[name="options.steps"]`, "2")
			tap(t, pg, `#rule-extremes`)
			check()
			waitCheck(t, pg, `document.querySelector('[data-checked="steps-bug"]')`)
			games := evalJS[[]string](t, pg, `[...document.querySelectorAll(".dry-run li")].map((li) => li.textContent)`)
			if len(games) == 0 {
				t.Fatal("no dry-run game shown")
			}
			for _, g := range games {
				if !strings.Contains(g, "options steps=2") {
					t.Errorf("dry-run game %q does not name steps=2", g)
				}
			}
			calls := evalJS[int](t, pg, `Number(document.querySelector('.hook-counts tr[data-hook="after_action"] td:nth-child(2)')?.textContent || 0)`)
			fired := evalJS[string](t, pg, `document.querySelector('.hook-counts tr[data-hook="after_action"] td:nth-child(3)')?.textContent || ""`)
			never := evalJS[string](t, pg, `document.querySelector("[data-never]")?.dataset.never || ""`)
			if calls == 0 || fired != "0" || never != "after_action" {
				t.Errorf("hook counts: after_action %d calls, %q did something, never %q: want calls, none doing anything, named as never", calls, fired, never)
			}
			if evalJS[string](t, pg, `document.querySelector("[data-step-ms]")?.textContent || ""`) == "" {
				t.Error("the step time of the check is not shown")
			}
			evalJS[bool](t, pg, `(document.querySelector(".hook-counts").scrollIntoView({block: "center"}), true)`)
			fits(t, pg, "the hook counts")
			checkAxe(t, pg, axe, "the passed check")
			shot(t, pg, "house-rules-check-options-passed-"+sz.name)

			typeText(t, pg, `#rule-check-options input[name="options.steps"]`, "3")
			check()
			waitCheck(t, pg, `document.querySelector(".rule-problem [data-options]")?.dataset.options === "steps=3"`)
		})
	}
}
