package scenario_test

import (
	"errors"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/scenario"

	"github.com/google/go-cmp/cmp"
)

const head = "name: t\nruleset: toy\nseats: 2\n"

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, yaml, want string
	}{
		{"unknown card", head + "steps:\n  - expect: {turn: 0}\n  - {seat: 0, draw: true}\n  - {seat: 1, play: [QX]}\n", `queen.yaml: step 3: play: unknown card code "QX" (line 7)`},
		{"no action", head + "steps:\n  - {seat: 0}\n", "queen.yaml: step 1: no action: a step needs one of play, draw, pass, call, catch, pickup, flip, gift, deal, pass_cards, bid, discard, knock, layoff, bot, act, wait, expect (line 5)"},
		{"two actions", head + "steps:\n  - {seat: 0, play: [QH], draw: true}\n", "queen.yaml: step 1: draw: a step has one action, this one also has play (line 5)"},
		{"unknown step key", head + "steps:\n  - {seat: 0, plya: [QH]}\n", "queen.yaml: step 1: plya: unknown key (a step has one of play, draw, pass, call, catch, pickup, flip, gift, deal, pass_cards, bid, discard, knock, layoff, bot, act, wait, expect, with seat, suit, color, from, reject) (line 5)"},
		{"unknown top key", head + "colour: red\nsteps: []\n", "queen.yaml: colour: unknown key (a scenario has name, ruleset, seats, options, house_rules, seed, deal, random, steps) (line 4)"},
		{"seats a word", "ruleset: toy\nseats: two\nsteps: []\n", `queen.yaml: seats: want a number of seats, got "two" (line 2)`},
		{"missing seat", head + "steps:\n  - {play: [QH]}\n", "queen.yaml: step 1: seat: missing: play needs the acting seat (line 5)"},
		{"missing ruleset", "seats: 2\nsteps: []\n", "queen.yaml: ruleset: missing (line 1)"},
		{"suit on a draw", head + "steps:\n  - {seat: 0, draw: true, suit: H}\n", "queen.yaml: step 1: suit: not allowed with draw (only with play and act) (line 5)"},
		{"seat on a wait", head + "steps:\n  - {seat: 0, wait: 5}\n", "queen.yaml: step 1: seat: not allowed with wait (a wait step stands alone) (line 5)"},
		{"negative wait", head + "steps:\n  - wait: -1\n", "queen.yaml: step 1: wait: want a number of seconds from 0 on, got -1 (line 5)"},
		{"wait a word", head + "steps:\n  - wait: soon\n", `queen.yaml: step 1: wait: want a number of seconds, got "soon" (line 5)`},
		{"draw false", head + "steps:\n  - {seat: 0, draw: false}\n", "queen.yaml: step 1: draw: want true (leave the step out to not draw) (line 5)"},
		{"draw yes is a string", head + "steps:\n  - {seat: 0, draw: yes}\n", `queen.yaml: step 1: draw: want true, stock or discard, got "yes" (line 5)`},
		{"bid out of range", head + "steps:\n  - {seat: 0, bid: 14}\n", "queen.yaml: step 1: bid: want a number of tricks from 0 to 13, got 14 (line 5)"},
		{"bid a word", head + "steps:\n  - {seat: 0, bid: pass}\n", `queen.yaml: step 1: bid: want a number of tricks from 0 to 13, nil or blind_nil, got "pass" (line 5)`},
		{"discard a list", head + "steps:\n  - {seat: 0, discard: [QH]}\n", "queen.yaml: step 1: discard: want a card code, got a list (line 5)"},
		{"layoff without meld", head + "steps:\n  - {seat: 1, layoff: {cards: [QH]}}\n", "queen.yaml: step 1: layoff: meld: missing (line 5)"},
		{"layoff unknown key", head + "steps:\n  - {seat: 1, layoff: {cards: [QH], onto: 1}}\n", "queen.yaml: step 1: layoff: onto: unknown key (a layoff has cards and meld) (line 5)"},
		{"empty pass_cards", head + "steps:\n  - {seat: 1, pass_cards: []}\n", "queen.yaml: step 1: pass_cards: want the cards to pass, as [QS, AH, 2C] (line 5)"},
		{"play a card not a list", head + "steps:\n  - {seat: 0, play: QH}\n", `queen.yaml: step 1: play: want a list of card codes, as [QH, 10S], got "QH" (line 5)`},
		{"empty play", head + "steps:\n  - {seat: 0, play: []}\n", "queen.yaml: step 1: play: want at least one card (line 5)"},
		{"bad deal card", head + "deal:\n  hands: [[QH], [5X]]\nsteps: []\n", `queen.yaml: deal: hands: seat 1: unknown card code "5X" (line 5)`},
		{"bad rest", head + "deal: {rest: bin}\nsteps: []\n", `queen.yaml: deal: rest: want deck or out, got "bin" (line 4)`},
		{"unknown deal key", head + "deal: {hand: []}\nsteps: []\n", "queen.yaml: deal: hand: unknown key (a deal has pile, hands, face_up, face_down, deck, first, rest) (line 4)"},
		{"gift without to", head + "steps:\n  - {seat: 0, gift: {card: 5H}}\n", "queen.yaml: step 1: gift: to: missing (line 5)"},
		{"reject a number", head + "steps:\n  - {seat: 0, draw: true, reject: 3}\n", `queen.yaml: step 1: reject: want true or a text the reason must contain, got "3" (line 5)`},
		{"bad hand key", head + "steps:\n  - expect: {hand.x: []}\n", "queen.yaml: step 1: expect: hand.x: want hand.N with N a seat number, as hand.0 (line 5)"},
		{"events not a list", head + "steps:\n  - expect: {events: played}\n", `queen.yaml: step 1: expect: events: want a list of event names, as [played, turn], got "played" (line 5)`},
		{"duplicate key", head + "steps:\n  - {seat: 0, seat: 1, draw: true}\n", "queen.yaml: step 1: seat: given twice (line 5)"},
		{"not a mapping", "- a\n- b\n", "queen.yaml: want a mapping with name, ruleset, seats, options, house_rules, seed, deal, random, steps, got a list (line 1)"},
		{"empty", "", "queen.yaml: empty file: want a mapping with name, ruleset, seats, options, house_rules, seed, deal, random, steps"},
		{"two documents", head + "steps: []\n---\nname: b\n", "queen.yaml: holds more than one YAML document (one scenario per file) (line 5)"},
		{"steps not a list", head + "steps: {a: 1}\n", "queen.yaml: steps: want a list of steps, got a mapping (line 4)"},
		{"negative seed", head + "seed: -4\nsteps: []\n", `queen.yaml: seed: want a whole number from 0 to 18446744073709551615, got "-4" (line 4)`},
		{"act not a mapping", head + "steps:\n  - {seat: 0, act: swap}\n", `queen.yaml: step 1: act: want a mapping with type, cards, target, index, args, as {type: swap, target: 1}, got "swap" (line 5)`},
		{"act without type", head + "steps:\n  - seat: 0\n    act:\n      target: 1\n", "queen.yaml: step 1: act: type: missing: an act names its action type, as {type: swap} (line 7)"},
		{"act empty type", head + "steps:\n  - {seat: 0, act: {type: \"\"}}\n", "queen.yaml: step 1: act: type: want an action type, as swap, got an empty one (line 5)"},
		{"act type a list", head + "steps:\n  - {seat: 0, act: {type: [swap]}}\n", "queen.yaml: step 1: act: type: want an action type, as swap, got a list (line 5)"},
		{"act unknown key", head + "steps:\n  - {seat: 0, act: {type: swap, seat: 1}}\n", "queen.yaml: step 1: act: seat: unknown key (an act has type, cards, target, index, args; seat, suit, color, from and reject go beside it) (line 5)"},
		{"act bad card", head + "steps:\n  - {seat: 0, act: {type: swap, cards: [8X]}}\n", `queen.yaml: step 1: act: cards: unknown card code "8X" (line 5)`},
		{"act negative target", head + "steps:\n  - {seat: 0, act: {type: swap, target: -1}}\n", "queen.yaml: step 1: act: target: want a seat number (0, 1, ...), got -1 (line 5)"},
		{"act index a word", head + "steps:\n  - {seat: 0, act: {type: swap, index: first}}\n", `queen.yaml: step 1: act: index: want a position (0, 1, 2), got "first" (line 5)`},
		{"act args a list", head + "steps:\n  - {seat: 0, act: {type: swap, args: [a]}}\n", "queen.yaml: step 1: act: args: want a mapping of argument names to values, as {choice: H}, got a list (line 5)"},
		{"act args value a list", head + "steps:\n  - {seat: 0, act: {type: swap, args: {choice: [H]}}}\n", "queen.yaml: step 1: act: args: choice: want a single value, as H or 2, got a list (line 5)"},
		{"act args value null", head + "steps:\n  - {seat: 0, act: {type: swap, args: {choice: null}}}\n", "queen.yaml: step 1: act: args: choice: want a single value, as H or 2, got null (line 5)"},
		{"act without seat", head + "steps:\n  - act: {type: swap}\n", "queen.yaml: step 1: seat: missing: act needs the acting seat (line 5)"},
		{"act and play", head + "steps:\n  - {seat: 0, play: [8H], act: {type: play}}\n", "queen.yaml: step 1: act: a step has one action, this one also has play (line 5)"},
		{"act with a wait", head + "steps:\n  - {wait: 1, act: {type: swap}}\n", "queen.yaml: step 1: act: a step has one action, this one also has wait (line 5)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := scenario.Parse("queen.yaml", []byte(tt.yaml))
			var pe *scenario.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a *ParseError", err)
			}
			if err.Error() != tt.want {
				t.Errorf("error\n got  %s\n want %s", err, tt.want)
			}
		})
	}
}

func TestParse(t *testing.T) {
	t.Parallel()
	src := `name: every kind of step
ruleset: lastcard
seats: 3
options: {hand_size: 7, target: single}
house_rules: [rules/seven-skips.lua]
seed: 42
deal:
  pile: [9C, 7H]
  hands: [[QH, 10s], [W+4, Y+2]]
  face_up: [[4C]]
  face_down: [[2D, 7S, JC]]
  deck: [4C]
  first: 1
  rest: out
random:
  joker_effect: [gift, skip]
  first_player: 1
steps:
  - {seat: 0, play: [QH], suit: S}
  - {seat: 1, play: [W+4], color: R, from: face_up}
  - {seat: 1, draw: true, reject: true}
  - {seat: 2, pass: true, reject: "not your turn"}
  - {seat: 2, call: true, reject: false}
  - {seat: 0, catch: 2}
  - {seat: 0, pickup: true}
  - {seat: 0, flip: 2}
  - {seat: 0, gift: {card: 5H, to: 1}}
  - deal: true
  - {seat: 1, bot: 3}
  - wait: 5.25
  - expect: {turn: 1, hand.0: [QH], events: [played], top: null}
  - {seat: 2, act: {type: swap, cards: [QH, 10s], target: 0, index: 1, args: {choice: H, n: 2, ok: true}}, suit: S, color: R, from: face_up, reject: no swap}
  - {seat: 0, act: {type: knock}}
  - {seat: 1, pass_cards: [QS, AH, 2C]}
  - {seat: 2, bid: 4}
  - {seat: 2, bid: blind_nil}
  - {seat: 0, draw: stock}
  - {seat: 0, draw: discard}
  - {seat: 0, discard: 7H}
  - {seat: 1, knock: JD}
  - {seat: 0, layoff: {cards: [8H, 9H], meld: 1}}
`
	s, err := scenario.Parse("all.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	zero, one, two := 0, 1, 2
	c := sdk.MustParseCards
	want := &scenario.Scenario{
		File: "all.yaml", Name: "every kind of step", Ruleset: "lastcard", Seats: 3,
		Options:    map[string]any{"hand_size": 7, "target": "single"},
		HouseRules: []string{"rules/seven-skips.lua"}, Seed: 42,
		Deal: &sdk.Deal{
			Pile: c("9C 7H"), Hands: [][]sdk.Card{c("QH 10S"), c("W+4 Y+2")}, FaceUp: [][]sdk.Card{c("4C")},
			FaceDown: [][]sdk.Card{c("2D 7S JC")}, Deck: c("4C"), First: &one, Rest: "out",
		},
		Random: map[string][]string{"joker_effect": {"gift", "skip"}, "first_player": {"1"}},
		Steps: []scenario.Step{
			{Number: 1, Kind: scenario.StepAct, Seat: 0, Action: sdk.Action{Seat: 0, Type: "play", Cards: c("QH"), Suit: "S"}},
			{Number: 2, Kind: scenario.StepAct, Seat: 1, Action: sdk.Action{Seat: 1, Type: "play", Cards: c("W+4"), Color: "R", From: "face_up"}},
			{Number: 3, Kind: scenario.StepAct, Seat: 1, Action: sdk.Action{Seat: 1, Type: "draw"}, Reject: &scenario.Reject{}},
			{Number: 4, Kind: scenario.StepAct, Seat: 2, Action: sdk.Action{Seat: 2, Type: "pass"}, Reject: &scenario.Reject{Text: "not your turn"}},
			{Number: 5, Kind: scenario.StepAct, Seat: 2, Action: sdk.Action{Seat: 2, Type: "call"}},
			{Number: 6, Kind: scenario.StepAct, Seat: 0, Action: sdk.Action{Seat: 0, Type: "catch", Target: &two}},
			{Number: 7, Kind: scenario.StepAct, Seat: 0, Action: sdk.Action{Seat: 0, Type: "pickup"}},
			{Number: 8, Kind: scenario.StepAct, Seat: 0, Action: sdk.Action{Seat: 0, Type: "flip", Index: &two}},
			{Number: 9, Kind: scenario.StepAct, Seat: 0, Action: sdk.Action{Seat: 0, Type: "gift", Cards: c("5H"), Target: &one}},
			{Number: 10, Kind: scenario.StepAct, Seat: sdk.Host, Action: sdk.Action{Seat: sdk.Host, Type: "deal"}},
			{Number: 11, Kind: scenario.StepBot, Seat: 1, Bot: 3, Action: sdk.Action{Seat: 1, Type: "bot"}},
			{Number: 12, Kind: scenario.StepWait, WaitMS: 5250},
			{Number: 13, Kind: scenario.StepExpect, Expect: []scenario.Expectation{
				{Key: "turn", Value: 1}, {Key: "hand.0", Value: []any{"QH"}}, {Key: "events", Value: []any{"played"}}, {Key: "top", Value: nil},
			}},
			{Number: 14, Kind: scenario.StepAct, Seat: 2, Action: sdk.Action{
				Seat: 2, Type: "swap", Cards: c("QH 10S"), Target: &zero, Index: &one, Suit: "S", Color: "R", From: "face_up",
				Args: map[string]string{"choice": "H", "n": "2", "ok": "true"},
			}, Reject: &scenario.Reject{Text: "no swap"}},
			{Number: 15, Kind: scenario.StepAct, Seat: 0, Action: sdk.Action{Seat: 0, Type: "knock"}},
			{Number: 16, Kind: scenario.StepAct, Seat: 1, Action: sdk.Action{Seat: 1, Type: "pass_cards", Cards: c("QS AH 2C")}},
			{Number: 17, Kind: scenario.StepAct, Seat: 2, Action: sdk.Action{Seat: 2, Type: "bid", Args: map[string]string{"choice": "4"}}},
			{Number: 18, Kind: scenario.StepAct, Seat: 2, Action: sdk.Action{Seat: 2, Type: "bid", Args: map[string]string{"choice": "blind_nil"}}},
			{Number: 19, Kind: scenario.StepAct, Seat: 0, Action: sdk.Action{Seat: 0, Type: "draw", From: "stock"}},
			{Number: 20, Kind: scenario.StepAct, Seat: 0, Action: sdk.Action{Seat: 0, Type: "draw", From: "discard"}},
			{Number: 21, Kind: scenario.StepAct, Seat: 0, Action: sdk.Action{Seat: 0, Type: "discard", Cards: c("7H")}},
			{Number: 22, Kind: scenario.StepAct, Seat: 1, Action: sdk.Action{Seat: 1, Type: "knock", Cards: c("JD")}},
			{Number: 23, Kind: scenario.StepAct, Seat: 0, Action: sdk.Action{Seat: 0, Type: "layoff", Cards: c("8H 9H"), Index: &one}},
		},
	}
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("Parse (-want +got):\n%s", diff)
	}
}

func TestParseSharedExamples(t *testing.T) {
	t.Parallel()
	files, err := scenario.Files("../../../shared/scenarios")
	if err != nil {
		t.Skipf("the shared examples are not here: %v", err)
	}
	if len(files) == 0 {
		t.Skip("no shared examples")
	}
	for _, f := range files {
		if _, err := scenario.ParseFile(f); err != nil {
			t.Errorf("%v", err)
		}
	}
}
