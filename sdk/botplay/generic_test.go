package botplay_test

import (
	"context"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/botplay"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest/toy"

	"github.com/google/go-cmp/cmp"
)

// TestGenericBotPlaysWholeGames: a ruleset with no bot of its own (the toy without its bot) is
// played to the end of several games by the engine's generic level-1 bot, every bot action
// accepted, and the same seed plays the same games.
func TestGenericBotPlaysWholeGames(t *testing.T) {
	t.Parallel()
	play := func(t *testing.T, seats int, seed uint64) *botplay.Result {
		e := engine.New[toy.State](toy.Botless{})
		bot := botplay.EngineBot(e, botplay.Level(engine.GenericLevel), func(t *botplay.Turn) uint64 { return seed ^ uint64(t.N) })
		res, err := botplay.Play(context.Background(), e, botplay.Config{Seats: seats, Seed: seed, Bot: bot, Order: botplay.OutOfTurnFirst,
			ThinkMS: 500, DueFirst: true, MaxSteps: 20000, Games: 3, Record: true})
		if err != nil {
			t.Fatalf("%d seats, seed %d: %v", seats, seed, err)
		}
		if !res.Ended || res.GamesEnded != 3 || res.Refused != 0 {
			t.Fatalf("%d seats, seed %d: ended %v after %d steps, %d games, %d refused; want 3 games and no refusal",
				seats, seed, res.Ended, res.Steps, res.GamesEnded, res.Refused)
		}
		return res
	}
	for _, seats := range []int{2, 3, 4} {
		for seed := range uint64(3) {
			first := play(t, seats, seed)
			if d := cmp.Diff(first.Moves, play(t, seats, seed).Moves); d != "" {
				t.Fatalf("%d seats, seed %d played differently (-first +second):\n%s", seats, seed, d)
			}
			if first.Final.Status.Phase != sdk.PhaseGameOver {
				t.Errorf("%d seats, seed %d: final phase %q", seats, seed, first.Final.Status.Phase)
			}
		}
	}
}
