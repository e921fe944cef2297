package main

import (
	"slices"
	"testing"

	"cardhouse/rulesets/ginrummy"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"
	"cardhouse/sdk/rulesettest"
)

// TestHouseRuleEnds: a house rule ends the hand and the game through Gin Rummy's own scoring,
// in-process and across this plugin's process; assigning game.winner is refused with its line.
func TestHouseRuleEnds(t *testing.T) {
	t.Parallel()
	has := func(st *engine.Step, name string) bool {
		return slices.ContainsFunc(st.Events, func(ev sdk.Event) bool { return ev.Name == name && ev.Seat == st.Status.Winner })
	}
	rulesettest.HouseRuleEndsInAndOut(t, engine.New(ginrummy.New(), houserules.Enable()), ".", 2, nil, func(t *testing.T, round, game *engine.Step) {
		// A hand ended scores the deadwood difference; the game goes on to its target (100).
		if round.Status.Phase != sdk.PhaseRoundOver || !has(round, "hand_scored") || !has(round, "won") {
			t.Errorf("end_round: phase %q, events %+v; want round_over with hand_scored and won", round.Status.Phase, round.Events)
		}
		if game.Status.Phase != sdk.PhaseGameOver || !has(game, "hand_scored") || !has(game, "game_scored") {
			t.Errorf("end_game: phase %q, events %+v; want game_over with hand_scored and game_scored", game.Status.Phase, game.Events)
		}
	})
}
