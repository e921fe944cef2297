package web_test

import (
	"fmt"
	"strings"
	"testing"
)

// ruleActions edits the Hotspot start view (hand 4H 3C KC 7D KH 2D 7C; Play takes 3C 7C KC) the
// way house rules' actions appear in a view: wild_eight takes KC too (a card both it and the
// variant's Play take) and asks for a suit (its own choice, args.choice); name_it takes no card
// and asks for a word; double declares an argument shown as a toggle (its key in words: an
// ActionSpec names its arguments by key only).
const ruleActions = `v.actions.splice(1, 0,
	{type: "wild_eight", label: "Wild 8", cards: ["KC", "7D"], choices: ["S", "H", "D", "C"]},
	{type: "name_it", label: "Name it", choices: ["fire", "ice"]},
	{type: "double", label: "Double", args: ["loud_voice"]});`

// TestRuleActions: every action a view lists can be used by taps alone, at a desktop and a phone
// size, on the preview page (the actions are recorded, not sent): a card two actions take lights
// both buttons, a second tap on it asks which move, a rule's choice is picked in a dialog and sent
// as args.choice, a card only the rule takes plays as the rule's action, an action without cards
// asks for its choice, and a declared argument is a toggle, labelled in words, sent as "true".
func TestRuleActions(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	base := previewServer(t)
	b := browser(t)
	for _, sz := range []struct {
		name string
		w, h int64
	}{{"desktop", desktopW, desktopH}, {"phone", phoneW, phoneH}} {
		t.Run(sz.name, func(t *testing.T) {
			pg := newPage(t, b, sz.w, sz.h)
			reset := func() {
				showView(t, pg, base, "hotspot-start", ruleActions, 0)
				audit(t, pg, "rule actions")
			}
			last := func() string {
				t.Helper()
				waitJS(t, pg, `window.cardhouse.sent.length > 0`)
				return evalJS[string](t, pg, `JSON.stringify(window.cardhouse.sent.at(-1))`)
			}
			want := func(what, got, want string) {
				t.Helper()
				if got != want {
					t.Errorf("%s sent %s, want %s", what, got, want)
				}
			}
			reset()
			// KC: both Play and Wild 8 take it; both buttons light when it is picked.
			tap(t, pg, `.my-area .hand .card[data-code="KC"]`)
			waitJS(t, pg, `document.querySelector(".my-area .card.selected")`)
			for _, a := range []string{"play", "wild_eight"} {
				if evalJS[bool](t, pg, fmt.Sprintf(`document.querySelector('.actions [data-action=%q]').disabled`, a)) {
					t.Errorf("the %s button is disabled with KC picked, which it takes", a)
				}
			}
			shot(t, pg, "rule-actions-"+sz.name+"-two-moves")
			// A second tap plays: it asks which move, then the suit.
			tap(t, pg, `.my-area .hand .card.selected[data-code="KC"]`)
			waitJS(t, pg, `document.querySelector("dialog[open] [data-choice=wild_eight]")`)
			shot(t, pg, "rule-actions-"+sz.name+"-which-move")
			tap(t, pg, `dialog[open] [data-choice=wild_eight]`)
			waitJS(t, pg, `document.querySelector("dialog[open] [data-choice=D]")`)
			shot(t, pg, "rule-actions-"+sz.name+"-suit")
			tap(t, pg, `dialog[open] [data-choice=D]`)
			want("KC as the wild 8", last(), `{"type":"wild_eight","cards":["KC"],"args":{"choice":"D"}}`)

			// The Play button plays KC as the variant's play: no question, no args.
			reset()
			tap(t, pg, `.my-area .hand .card[data-code="KC"]`)
			tap(t, pg, `.actions [data-action=play]`)
			want("KC by Play", last(), `{"type":"play","cards":["KC"]}`)

			// 7D only the rule takes: its button alone lights, and a second tap asks the suit only.
			reset()
			tap(t, pg, `.my-area .hand .card[data-code="7D"]`)
			waitJS(t, pg, `document.querySelector('.actions [data-action=play]').disabled && !document.querySelector('.actions [data-action=wild_eight]').disabled`)
			tap(t, pg, `.my-area .hand .card.selected[data-code="7D"]`)
			waitJS(t, pg, `document.querySelector("dialog[open] [data-choice=S]") && !document.querySelector("dialog[open] [data-choice=play]")`)
			tap(t, pg, `dialog[open] [data-choice=S]`)
			want("7D", last(), `{"type":"wild_eight","cards":["7D"],"args":{"choice":"S"}}`)

			// An action without cards asks for its choice; cancelling sends nothing.
			n := evalJS[int](t, pg, `window.cardhouse.sent.length`)
			tap(t, pg, `.actions [data-action=name_it]`)
			waitJS(t, pg, `document.querySelector("dialog[open] [data-choice=ice]")`)
			tap(t, pg, `dialog[open] .btn.ghost`)
			waitJS(t, pg, `!document.querySelector("dialog[open]")`)
			if got := evalJS[int](t, pg, `window.cardhouse.sent.length`); got != n {
				t.Errorf("a cancelled choice sent %d actions", got-n)
			}
			tap(t, pg, `.actions [data-action=name_it]`)
			tap(t, pg, `dialog[open] [data-choice=ice]`)
			want("Name it", last(), `{"type":"name_it","args":{"choice":"ice"}}`)

			// A declared argument is a toggle: off, the action goes without it; on, with "true".
			tap(t, pg, `.actions [data-action=double]`)
			want("Double", last(), `{"type":"double"}`)
			if got := text(t, pg, `.actions [data-arg=loud_voice]`); got != "Loud voice" {
				t.Errorf("the toggle of the argument loud_voice reads %q, want %q", got, "Loud voice")
			}
			tap(t, pg, `.actions [data-arg=loud_voice]`)
			waitJS(t, pg, `document.querySelector(".actions [data-arg=loud_voice]").getAttribute("aria-pressed") === "true"`)
			shot(t, pg, "rule-actions-"+sz.name+"-toggle")
			tap(t, pg, `.actions [data-action=double]`)
			want("Double, loud voice", last(), `{"type":"double","args":{"loud_voice":"true"}}`)

			if rec := record(t, pg); len(rec.CSP) > 0 {
				t.Errorf("content security policy violations: %s", strings.Join(rec.CSP, "; "))
			}
		})
	}
}
