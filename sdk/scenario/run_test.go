package scenario_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest/toy"
	"cardhouse/sdk/scenario"

	"github.com/google/go-cmp/cmp"
)

func toyEngine() engine.Engine { return engine.New[toy.State](toy.Ruleset{}) }

// deal2 is a fixed two-seat toy deal: seat 0 can go down to one card with 8H.
const deal2 = `name: t
ruleset: toy
seats: 2
deal:
  pile: [7H]
  hands: [[8H, 9S], [5C, 8S, 4D]]
  deck: [6D, 2C]
  rest: out
  first: 0
steps:
`

func run(t *testing.T, e engine.Engine, src string) error {
	t.Helper()
	s, err := scenario.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return scenario.Run(context.Background(), e, s)
}

func TestRun(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		steps string
		want  string // "" passes
	}{
		{"passes", `
  - {seat: 0, play: [8h]}
  - expect: {turn: 1, top: 8H, pile: [7H, 8H], hand_count: [1, 3], hands: [[9S], [4D, 8S, 5C]], last_card_open: [0, 0], deck: [6D, 2C]}
  - expect: {events: [played, turn], winner: null, phase: playing, direction: 1.0}
`, ""},
		{"hand multiset", "  - expect: {hand.1: [4D, 8S, 5C]}\n", ""},
		{"pile in order", "  - {seat: 0, play: [8H]}\n  - expect: {pile: [8H, 7H]}\n", "step 2: pile, want [8H, 7H], got [7H, 8H]"},
		{"deck in order", "  - expect: {deck: [2C, 6D]}\n", "step 1: deck, want [2C, 6D], got [6D, 2C]"},
		{"hand differs", "  - expect: {hand.0: [8H, 9H]}\n", "step 1: hand.0, want [8H, 9H], got [8H, 9S]"},
		{"hand of no seat", "  - expect: {hand.5: []}\n", "step 1: hand.5, want [], got no seat 5 (hands has 2 rows)"},
		{"row multisets", "  - expect: {hands: [[9S, 8H], [5C, 8S]]}\n", "step 1: hands, want [[9S, 8H], [5C, 8S]], got [[8H, 9S], [5C, 8S, 4D]]"},
		{"number", "  - expect: {turn: 1}\n", "step 1: turn, want 1, got 0"},
		{"null", "  - expect: {winner: 0}\n", "step 1: winner, want 0, got null"},
		{"unknown key", "  - expect: {suit: H}\n", "step 1: suit, want H, got no such observation (the ruleset observes deck, deck_count, direction, hand_count, hands, last_card_open, opener, phase, pile, pile_count, top, turn, winner)"},
		{"events subsequence", "  - {seat: 0, play: [8H]}\n  - expect: {events: [turn, played]}\n", "step 2: events, want [turn, played] in this order, got [played, turn]"},
		{"refusal keeps the last events", "  - {seat: 0, play: [8H]}\n  - {seat: 0, play: [9S], reject: turn}\n  - expect: {events: [played]}\n", ""},
		{"wanted refusal accepted", "  - {seat: 0, play: [8H], reject: true}\n", "step 1: play [8H] by seat 0, want refused, got accepted"},
		{"unwanted refusal", "  - {seat: 1, play: [5C]}\n", "step 1: play [5C] by seat 1, want accepted, got refused: it is seat 0's turn"},
		{"reason mismatch", "  - {seat: 0, play: [9S], reject: not held}\n", `step 1: play [9S] by seat 0: refusal reason, want one containing "not held", got "9S matches neither the suit nor the rank of 7H"`},
		{"reason case-insensitive", "  - {seat: 0, play: [9S], reject: MATCHES NEITHER}\n", ""},
		{"wait fires in time", `
  - {seat: 0, play: [8H]}
  - wait: 4.999
  - expect: {hand_count: [1, 3], last_card_open: [0], events: []}
  - wait: 0.001
  - expect: {hand.0: [9S, 6D], last_card_open: [], events: [missed_last_card, drew]}
`, ""},
		{"deal when not over", "  - deal: true\n", "step 1: deal by the host, want accepted, got refused: the game is still being played"},
		{"bot acts", "  - {seat: 0, bot: 1}\n  - expect: {turn: 1, hand.0: [9S], last_card_open: [0]}\n", ""},
		{"act plays", "  - {seat: 0, act: {type: play, cards: [8h]}}\n  - expect: {turn: 1, top: 8H, last_card_open: [0], events: [played, turn]}\n", ""},
		{"act unknown type refused", "  - {seat: 0, act: {type: swap, target: 1}, reject: toy has no action}\n", ""},
		{"act wanted refusal accepted", "  - {seat: 0, act: {type: draw}, reject: true}\n", "step 1: draw by seat 0, want refused, got accepted"},
		{"act unwanted refusal", "  - {seat: 1, act: {type: swap, cards: [5C], target: 0, args: {why: fun}}}\n", "step 1: swap [5C] to seat 0 why=fun by seat 1, want accepted, got refused: it is seat 0's turn"},
		{"bot refused level", "  - {seat: 0, bot: 7}\n", "step 1: bot 7 for seat 0, want an action, got Toy has no bot of level 7 (it has [1])"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := run(t, toyEngine(), deal2+tt.steps)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("failed: %v", err)
			case tt.want != "" && err == nil:
				t.Errorf("passed, want failure %q", tt.want)
			case tt.want != "" && err.Error() != tt.want:
				t.Errorf("failure\n got  %v\n want %s", err, tt.want)
			}
		})
	}
}

func TestRunStartFailures(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, src, want string }{
		{"bad option", "ruleset: toy\nseats: 2\noptions: {hand_size: 99}\nsteps: []\n", "start, want a game, got refused: invalid options: hand_size: want a number from 1 to 10, got 99"},
		{"too many seats", "ruleset: toy\nseats: 9\nsteps: []\n", "start, want a game, got refused: invalid options: seats: Toy is for 2 to 4 seats, got 9"},
		{"too many copies", "ruleset: toy\nseats: 2\ndeal: {hands: [[QH], [QH]]}\nsteps: []\n", "start, want a game, got refused: deal: hands of seat 1 names QH once more than this game's cards hold (1)"},
		{"card not in the set", "ruleset: toy\nseats: 2\ndeal: {pile: [R7]}\nsteps: []\n", "start, want a game, got refused: deal: pile names R7, which is not in this game's cards"},
		{"missing house rule", "ruleset: toy\nseats: 2\nhouse_rules: [nowhere.lua]\nsteps: []\n", "house_rules: nowhere.lua, got cannot read: no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := run(t, toyEngine(), tt.src)
			if err == nil || err.Error() != tt.want {
				t.Errorf("failure\n got  %v\n want %s", err, tt.want)
			}
		})
	}
}

// wrapped lets a test replace one Engine method.
type wrapped struct {
	engine.Engine
	act     func(ctx context.Context, req *engine.ActRequest) (*engine.Step, error)
	inspect func(ctx context.Context, req *engine.InspectRequest) (*engine.Inspection, error)
	newGame func(ctx context.Context, req *engine.NewGameRequest) (*engine.Step, error)
}

func (w wrapped) Act(ctx context.Context, req *engine.ActRequest) (*engine.Step, error) {
	if w.act != nil {
		return w.act(ctx, req)
	}
	return w.Engine.Act(ctx, req)
}

func (w wrapped) Inspect(ctx context.Context, req *engine.InspectRequest) (*engine.Inspection, error) {
	if w.inspect != nil {
		return w.inspect(ctx, req)
	}
	return w.Engine.Inspect(ctx, req)
}

func (w wrapped) NewGame(ctx context.Context, req *engine.NewGameRequest) (*engine.Step, error) {
	if w.newGame != nil {
		return w.newGame(ctx, req)
	}
	return w.Engine.NewGame(ctx, req)
}

func TestRunEngineMisbehaviour(t *testing.T) {
	t.Parallel()
	base := toyEngine()
	// A failure where a refusal is wanted is a FAIL, not a refusal.
	failing := wrapped{Engine: base, act: func(ctx context.Context, req *engine.ActRequest) (*engine.Step, error) {
		return nil, &sdk.FailureError{Ruleset: "toy", Op: "act", Err: errors.New("index out of range")}
	}}
	// A plugin that keeps state: Inspect answers differently after a refusal.
	var mu sync.Mutex
	calls := 0
	stateful := wrapped{Engine: base, inspect: func(ctx context.Context, req *engine.InspectRequest) (*engine.Inspection, error) {
		in, err := base.Inspect(ctx, req)
		mu.Lock()
		defer mu.Unlock()
		calls++
		if err == nil && calls > 2 {
			in.Status.Turn = 1
		}
		return in, err
	}}
	// A ruleset that loses a card on draw without the engine noticing.
	leaky := wrapped{Engine: base, inspect: func(ctx context.Context, req *engine.InspectRequest) (*engine.Inspection, error) {
		in, err := base.Inspect(ctx, req)
		if err == nil && strings.Contains(string(req.State), `"hands":[["8H","9S","6D"]`) {
			in.Cards = in.Cards[1:]
		}
		return in, err
	}}
	// Observations as they come across the plugin process: JSON numbers are float64.
	viaJSON := wrapped{Engine: base, inspect: func(ctx context.Context, req *engine.InspectRequest) (*engine.Inspection, error) {
		in, err := base.Inspect(ctx, req)
		if err != nil {
			return in, err
		}
		b, _ := json.Marshal(in)
		var out engine.Inspection
		if err := json.Unmarshal(b, &out); err != nil {
			return nil, err
		}
		return &out, nil
	}}
	tests := []struct {
		name  string
		e     engine.Engine
		steps string
		want  string
	}{
		{"failure is not a refusal", failing, "  - {seat: 1, play: [5C], reject: true}\n", "step 1: play [5C] by seat 1, got ruleset toy failed in act: index out of range"},
		{"state changed after refusal", stateful, "  - {seat: 1, play: [5C], reject: true}\n", "step 1: play [5C] by seat 1: game after the refusal, want as before, got changed"},
		{"lost card", leaky, "  - {seat: 0, draw: true}\n", "step 1: cards after draw by seat 0, want the same 52 cards, got lost 8H"},
		{"json numbers", viaJSON, "  - {seat: 0, play: [8H]}\n  - expect: {turn: 1, hand_count: [1, 3], last_card_open: [0], hands: [[9S], [5C, 8S, 4D]], winner: null}\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := run(t, tt.e, deal2+tt.steps)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("failed: %v", err)
			case tt.want != "" && (err == nil || err.Error() != tt.want):
				t.Errorf("failure\n got  %v\n want %s", err, tt.want)
			}
		})
	}
}

// TestActSendsEveryField checks that an act step reaches the engine as the sdk.Action it spells
// out, field by field, and that the plain step of the same action sends the same thing.
func TestActSendsEveryField(t *testing.T) {
	t.Parallel()
	base := toyEngine()
	var sent []sdk.Action
	rec := wrapped{Engine: base, act: func(ctx context.Context, req *engine.ActRequest) (*engine.Step, error) {
		sent = append(sent, req.Action)
		return base.Act(ctx, req)
	}}
	steps := `  - {seat: 0, act: {type: play, cards: [8H], args: {choice: S, n: 2}}, suit: H}
  - {seat: 1, act: {type: flip, target: 0, index: 2, cards: [5C, 4D]}, color: G, from: face_up, reject: true}
  - {seat: 1, play: [8S], suit: H}
  - {seat: 1, act: {type: play, cards: [8S]}, suit: H, reject: turn}
`
	if err := run(t, rec, deal2+steps); err != nil {
		t.Fatal(err)
	}
	zero, two := 0, 2
	want := []sdk.Action{
		{Seat: 0, Type: "play", Cards: sdk.MustParseCards("8H"), Suit: "H", Args: map[string]string{"choice": "S", "n": "2"}},
		{Seat: 1, Type: "flip", Cards: sdk.MustParseCards("5C 4D"), Target: &zero, Index: &two, Color: "G", From: "face_up"},
		{Seat: 1, Type: "play", Cards: sdk.MustParseCards("8S"), Suit: "H"},
		{Seat: 1, Type: "play", Cards: sdk.MustParseCards("8S"), Suit: "H"},
	}
	if diff := cmp.Diff(want, sent); diff != "" {
		t.Errorf("actions sent (-want +got):\n%s", diff)
	}
}

func TestWaitFiresDeadlinesInTimeOrder(t *testing.T) {
	t.Parallel()
	base := toyEngine()
	var fired []string
	var at []int64
	rec := wrapped{Engine: base, act: func(ctx context.Context, req *engine.ActRequest) (*engine.Step, error) {
		if req.Action.Seat == sdk.Clock {
			fired = append(fired, req.Action.Deadline)
			at = append(at, req.Now)
		}
		return base.Act(ctx, req)
	}}
	src := `name: two windows
ruleset: toy
seats: 3
deal:
  pile: [7H]
  hands: [[8H, 9S], [8C, 2D], [KD, KS, KC]]
  deck: [6D, 2C]
  rest: out
  first: 0
steps:
  - {seat: 0, play: [8H]}
  - wait: 1.5
  - {seat: 1, play: [8C]}
  - expect: {last_card_open: [1, 0], turn: 2}
  - wait: 10
  - expect: {hand_count: [2, 2, 3], last_card_open: [], events: [missed_last_card, drew, missed_last_card, drew], deck: []}
`
	if err := run(t, rec, src); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(fired, ","), "last_card.0,last_card.1"; got != want {
		t.Errorf("fired %s, want %s", got, want)
	}
	if len(at) != 2 || at[0] != 5000 || at[1] != 6500 {
		t.Errorf("fired at %v ms, want [5000 6500]", at)
	}
}

func TestRunAll(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, body string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a/ok.yaml", deal2+"  - {seat: 0, play: [8H]}\n")
	write("a/b/fails.yml", strings.Replace(deal2, "name: t", "name: wrong turn", 1)+"  - expect: {turn: 1}\n")
	write("a/bad.yaml", "ruleset: toy\nseats: 2\nsteps:\n  - {seat: 0, play: [QX]}\n")
	write("a/other.yaml", "name: elsewhere\nruleset: drugs\nseats: 2\nsteps: []\n")
	write("a/notes.txt", "not a scenario")
	var out bytes.Buffer
	lookup := scenario.MapLookup(map[string]engine.Engine{"toy": toyEngine(), "hotspot": toyEngine()})
	passed, failed := scenario.RunAll(context.Background(), &out, lookup, filepath.Join(dir, "a"), filepath.Join(dir, "missing"))
	want := strings.Join([]string{
		"FAIL wrong turn: step 1: turn, want 1, got 0",
		"FAIL " + filepath.Join(dir, "a/bad.yaml") + `: step 1: play: unknown card code "QX" (line 4)`,
		"ok t",
		`FAIL elsewhere: unknown ruleset "drugs" (available: hotspot, toy)`,
		"FAIL " + filepath.Join(dir, "missing") + ": cannot read: no such file or directory",
		"1 passed, 4 failed",
	}, "\n") + "\n"
	if out.String() != want {
		t.Errorf("output\n%s\nwant\n%s", out.String(), want)
	}
	if passed != 1 || failed != 4 {
		t.Errorf("passed %d failed %d, want 1 and 4", passed, failed)
	}
}
