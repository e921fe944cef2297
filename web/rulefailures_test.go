package web_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestOwnerSeesLiveRuleFailures (issue 29, finding 4): a modder's rule that passed its check
// fails in a live game (plugins/houserules/testdata/shaky.lua with break_bot = 1: line 9 of
// before_action, on every draw of the bot in seat 1). In the room, its owner is told at once (a
// toast naming the rule, the hook and the line, and the line in Rule output, shown again after a
// reload); the game, played by taps, goes on to its end once the room suspends the rule. Back in the lobby a notice says the
// rule failed, its link opens "My rules", which shows the count, the newest failure's line, hook,
// message, room and game; seen there, the lobby no longer says it. At a phone's and a desktop's
// size, axe-clean, real taps, the real Hotspot plugin.
func TestOwnerSeesLiveRuleFailures(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	base, _, _ := startPlatform(t)
	b := browser(t)
	axe := axeJS(t)
	shaky, err := os.ReadFile(filepath.Join("..", "plugins", "houserules", "testdata", "shaky.lua"))
	if err != nil {
		t.Fatal(err)
	}
	for _, sz := range []screen{{"phone", phoneW, phoneH}, {"desktop", desktopW, desktopH}} {
		t.Run(sz.name, func(t *testing.T) {
			rule := "shaky-" + sz.name
			src := strings.Replace(string(shaky), `name = "shaky"`, fmt.Sprintf("name = %q", rule), 1)
			u := apiModder(t, base, "mo-fail-"+sz.name, src)
			room := u.create(map[string]any{"ruleset": "hotspot", "mode": "computer", "seats": 2, "bots": []int{1},
				"house_rules": []map[string]any{{"name": rule, "options": map[string]any{"break_bot": 1}}}})

			pg := newPage(t, b, sz.w, sz.h)
			logIn(t, pg, base, "mo-fail-"+sz.name)
			// Nothing failed yet: the lobby says nothing of it.
			if evalJS[bool](t, pg, `!!document.querySelector("[data-rule-alert]")`) {
				t.Fatal("the lobby tells of a failure before any game")
			}
			run(t, pg, chromedp.Navigate(base+"/#/room/"+room.Code))
			waitJS(t, pg, `!!document.querySelector(".felt [data-action=deal]")`)
			evalJS[bool](t, pg, `(window.__failToasts = [], new MutationObserver(() => {
				for (const e of document.querySelectorAll(".toast")) if (!e.dataset.seen) { e.dataset.seen = "1"; window.__failToasts.push(e.textContent); }
			}).observe(document.body, { childList: true, subtree: true }), true)`)
			tap(t, pg, `.felt [data-action=deal]`)
			waitJS(t, pg, `window.cardhouse.state.room?.table.view?.phase === "playing"`)

			// Play by taps until the game ends: the bot's failing draws come between our moves.
			ready := `(() => { const t = window.cardhouse.state.room.table; return t.view?.phase !== "playing" || (!t.busy && t.view.turn === t.view.viewer && (t.view.actions || []).some((a) => ["play", "draw", "pass"].includes(a.type))); })()`
			for moves := 0; evalJS[string](t, pg, `window.cardhouse.state.room.table.view.phase`) == "playing"; moves++ {
				if moves > 150 {
					t.Fatal("the game did not end in 150 moves")
				}
				waitJS(t, pg, ready)
				if evalJS[string](t, pg, `window.cardhouse.state.room.table.view.phase`) != "playing" {
					break
				}
				seq := evalJS[int](t, pg, `window.cardhouse.state.room.viewSeq`)
				card := evalJS[string](t, pg, `(() => { const cs = window.cardhouse.state.room.table.view.actions.find((a) => a.type === "play")?.cards || []; return cs.find((c) => !c.startsWith("A") && !c.startsWith("8")) || ""; })()`)
				switch {
				case card != "":
					tap(t, pg, fmt.Sprintf(`.my-area .hand .card[data-code=%q]`, card))
					tap(t, pg, `.actions [data-action=play]`)
				case evalJS[bool](t, pg, `window.cardhouse.state.room.table.view.actions.some((a) => a.type === "draw")`):
					tap(t, pg, `.actions [data-action=draw]`)
				default:
					tap(t, pg, `.actions [data-action=pass]`)
				}
				waitJS(t, pg, fmt.Sprintf(`window.cardhouse.state.room.viewSeq > %d`, seq))
			}
			waitJS(t, pg, `window.cardhouse.state.room.table.view.phase === "game_over"`)

			// The owner was told in the room: a toast and a line in Rule output, with hook and line.
			toasts := evalJS[[]string](t, pg, `window.__failToasts.filter((x) => x.includes("failed"))`)
			want := fmt.Sprintf("House rule %s failed in before_action, line 9:", rule)
			if len(toasts) == 0 || !strings.Contains(toasts[0], want) {
				t.Errorf("the owner's toasts %q, want one saying %q", toasts, want)
			}
			if got := evalJS[string](t, pg, `document.querySelector("#rule-log .line.failure")?.textContent || ""`); !strings.Contains(got, "line 9") || !strings.Contains(got, "attempt to index") {
				t.Errorf("Rule output's failure line reads %q", got)
			}
			shot(t, pg, "rule-failures-room-"+sz.name)

			// Rule output is kept with the game: a reloaded page shows it again, once.
			lines := evalJS[int](t, pg, `document.querySelectorAll("#rule-log .line").length`)
			run(t, pg, chromedp.Reload())
			waitJS(t, pg, `window.cardhouse?.state.room?.table.view?.phase === "game_over"`) // the app is a module: after a reload it loads after the page
			waitJS(t, pg, fmt.Sprintf(`document.querySelectorAll("#rule-log .line").length === %d && !!document.querySelector("#rule-log .line.failure")`, lines))

			// Back in the lobby: the notice, then its link to My rules, by taps.
			run(t, pg, chromedp.Navigate(base+"/#/"))
			waitJS(t, pg, fmt.Sprintf(`document.querySelector("[data-rule-alert]")?.dataset.ruleAlert === %q`, rule))
			checkAxe(t, pg, axe, "the lobby with the failure notice")
			fits(t, pg, "the lobby with the failure notice")
			shot(t, pg, "rule-failures-lobby-"+sz.name)
			tap(t, pg, `#rule-alert-link`)
			box := fmt.Sprintf(`#my-rules [data-rule=%q] [data-version="1"] .rule-failures`, rule)
			waitJS(t, pg, fmt.Sprintf(`!!document.querySelector('%s')`, box))
			n := evalJS[int](t, pg, fmt.Sprintf(`Number(document.querySelector('%s').dataset.failures)`, box))
			if n < 3 {
				t.Errorf("My rules counts %d failures, want at least the 3 that suspended it", n)
			}
			shown := evalJS[string](t, pg, fmt.Sprintf(`document.querySelector('%s').textContent`, box))
			for _, w := range []string{"Line 9", "in before_action", "room " + room.Code, "game 1", "attempt to index", "suspended"} {
				if !strings.Contains(shown, w) {
					t.Errorf("My rules' failures read %q, want %q in them", shown, w)
				}
			}
			evalJS[bool](t, pg, fmt.Sprintf(`(document.querySelector('%s').scrollIntoView({block: "center"}), true)`, box))
			fits(t, pg, "my rules with failures")
			checkAxe(t, pg, axe, "my rules with failures")
			shot(t, pg, "rule-failures-my-rules-"+sz.name)

			// Seen: the lobby says no more.
			tap(t, pg, `.rules-page a[href="#/"]`)
			waitJS(t, pg, `!!document.querySelector(".variants [data-create]")`)
			if evalJS[bool](t, pg, `!!document.querySelector("[data-rule-alert]")`) {
				t.Error("the lobby still tells of the failure after My rules showed it")
			}
		})
	}
}
