package main

import (
	"slices"
	"testing"

	"cardhouse/rulesets/lastcard"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"
	"cardhouse/sdk/rulesettest"
)

// TestHouseRuleEnds: a house rule ends the round and the game through the ruleset's own end and
// scoring, in-process and across this plugin's process; assigning game.winner is refused with its
// line.
func TestHouseRuleEnds(t *testing.T) {
	t.Parallel()
	has := func(st *engine.Step, name string) bool {
		return slices.ContainsFunc(st.Events, func(ev sdk.Event) bool { return ev.Name == name && ev.Seat == st.Status.Winner })
	}
	rulesettest.HouseRuleEndsInAndOut(t, engine.New(lastcard.New(), houserules.Enable()), ".", 3, nil, func(t *testing.T, round, game *engine.Step) {
		// Last Card ends a round by its own scoring (L-9): the winner scores the others' cards, and the
		// game goes on to the target (500 by default), so end_round leaves the round, not the game, over.
		if round.Status.Phase != sdk.PhaseRoundOver || !has(round, "round_scored") || !has(round, "won") {
			t.Errorf("end_round: phase %q, events %+v; want round_over with won and round_scored", round.Status.Phase, round.Events)
		}
		if game.Status.Phase != sdk.PhaseGameOver || !has(game, "round_scored") {
			t.Errorf("end_game: phase %q, events %+v; want game_over after the round was scored", game.Status.Phase, game.Events)
		}
	})
}
