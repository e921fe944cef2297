package rulesettest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/botplay"
	"cardhouse/sdk/engine"
)

// endRule is a house rule that ends the round (or the game) after the first action of a seat,
// that seat winning, and announces in on_round_end that it saw the end.
const endRule = `name = "ender"
description = "The first seat to act wins."
function after_action(game, action)
  if action.seat >= 0 and not game.memory.done then
    game.memory.done = true
    game.%s(action.seat)
  end
end
function on_round_end(game)
  game.emit("end_seen", {seat = game.winner})
end
`

// badWrite assigns game.winner on line 4, which cannot take effect.
const badWrite = `name = "bad-write"
description = "Tries to set the winner by hand."
function after_action(game, action)
  if action.seat >= 0 then game.winner = action.seat end
end
`

// HouseRuleEnds checks, through e (in-process, or a plugin process serving its engine with a
// house-rule runner), that a house rule ends the round and the game through the ruleset's own end
// (its sdk.Ender): after game.end_round(seat) the round is over with that seat the winner and the
// rule's on_round_end has run; after game.end_game(seat) the game is over; and that assigning
// game.winner is refused with the line of the assignment. It returns the steps that ended the
// round and the game, for checks of the ruleset's own scoring.
func HouseRuleEnds(t *testing.T, e engine.Engine, seats int, options map[string]any) (round, game *engine.Step) {
	t.Helper()
	ctx := context.Background()
	for _, fn := range []string{"end_round", "end_game"} {
		st, seat := firstSeatStep(ctx, t, e, seats, options, sdk.HouseRule{Name: "ender", Source: fmt.Sprintf(endRule, fn)})
		if st == nil {
			return nil, nil
		}
		if st.Status.Phase == sdk.PhasePlaying {
			t.Errorf("%s(%d): the step's phase is still %q", fn, seat, st.Status.Phase)
		}
		if fn == "end_game" && st.Status.Phase != sdk.PhaseGameOver {
			t.Errorf("%s(%d): the step's phase is %q, want %q", fn, seat, st.Status.Phase, sdk.PhaseGameOver)
		}
		if st.Status.Winner != seat {
			t.Errorf("%s(%d): the winner is seat %d", fn, seat, st.Status.Winner)
		}
		if !slices.ContainsFunc(st.Events, func(ev sdk.Event) bool { return ev.Name == "end_seen" && ev.Seat == seat }) {
			t.Errorf("%s(%d): on_round_end did not run (or did not see the winner): events %+v", fn, seat, st.Events)
		}
		if fn == "end_round" {
			round = st
		} else {
			game = st
		}
	}
	_, err := botplay.Play(ctx, e, botplay.Config{Seats: seats, Seed: 1, Options: options,
		HouseRules: []sdk.HouseRule{{Name: "bad-write", Source: badWrite}},
		Bot:        botplay.EngineBot(e, botplay.Level(firstLevel(ctx, e)), func(t *botplay.Turn) uint64 { return uint64(t.N + 1) }), MaxSteps: 50})
	re, ok := sdk.AsRefusal(err)
	if !ok || re.Code != sdk.CodeHouseRule || !strings.Contains(re.Error(), "line 4") || !strings.Contains(re.Error(), "game.winner cannot be assigned") {
		t.Errorf("assigning game.winner: %v, want a house_rule refusal naming line 4", err)
	}
	return round, game
}

// firstSeatStep plays a bot game with rule until a seat's action is accepted and returns that
// step and the seat.
func firstSeatStep(ctx context.Context, t *testing.T, e engine.Engine, seats int, options map[string]any, rule sdk.HouseRule) (*engine.Step, int) {
	t.Helper()
	var got *engine.Step
	seat := sdk.NoSeat
	stop := errors.New("seen")
	_, err := botplay.Play(ctx, e, botplay.Config{Seats: seats, Seed: 1, Options: options, HouseRules: []sdk.HouseRule{rule},
		Bot:      botplay.EngineBot(e, botplay.Level(firstLevel(ctx, e)), func(t *botplay.Turn) uint64 { return uint64(t.N + 1) }),
		MaxSteps: 50,
		OnAct: func(_ context.Context, a botplay.Attempt) error {
			if a.Err != nil || a.Action.Seat < 0 {
				return nil
			}
			got, seat = a.Step, a.Action.Seat
			return stop
		}})
	if !errors.Is(err, stop) {
		t.Fatalf("%s: no seat's action was accepted: %v", rule.Name, err)
	}
	return got, seat
}

// firstLevel is the engine's first bot level (1 when it lists none).
func firstLevel(ctx context.Context, e engine.Engine) int {
	if d, err := e.Describe(ctx); err == nil && len(d.BotLevels) > 0 {
		return d.BotLevels[0]
	}
	return 1
}

// HouseRuleEndsInAndOut runs HouseRuleEnds on inProcess (the ruleset's engine with a house-rule
// runner) and, unless the tests are short, across the plugin process built from the main package
// in pluginDir (LaunchPlugin), each as a subtest, handing the steps that ended the round and the
// game to check for the ruleset's own scoring.
func HouseRuleEndsInAndOut(t *testing.T, inProcess engine.Engine, pluginDir string, seats int, options map[string]any, check func(t *testing.T, round, game *engine.Step)) {
	t.Helper()
	for _, name := range []string{"in-process", "plugin"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := inProcess
			if name == "plugin" {
				if testing.Short() {
					t.Skip("builds and launches the plugin executable")
				}
				e = LaunchPlugin(t, pluginDir)
			}
			if round, game := HouseRuleEnds(t, e, seats, options); round != nil && game != nil {
				check(t, round, game)
			}
		})
	}
}
