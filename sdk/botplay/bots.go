package botplay

import (
	"context"
	"slices"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
)

// EngineBot is the Bot that asks e's bot (engine.Engine.Bot) for each seat: of level(seat), its
// random source seeded with seed(t), so the same game plays the same again.
func EngineBot(e engine.Engine, level func(seat int) int, seed func(t *Turn) uint64) Bot {
	return func(ctx context.Context, t *Turn) (*sdk.Action, error) {
		ans, err := e.Bot(ctx, &engine.BotCall{State: t.Step.State, Seat: t.Seat, Level: level(t.Seat), Seed: seed(t)})
		if err != nil {
			return nil, err
		}
		return ans.Action, nil
	}
}

// Level is a level function of EngineBot that gives every seat the same level.
func Level(n int) func(seat int) int { return func(int) int { return n } }

// OutOfTurnFirst is an Order: the status's actors, the first (the seat in turn, when it is
// one) asked last, so that a catch or a call out of turn comes before the next play.
func OutOfTurnFirst(st sdk.Status) []int {
	if len(st.Actors) < 2 {
		return st.Actors
	}
	return append(slices.Clone(st.Actors[1:]), st.Actors[0])
}
