package main

import (
	"slices"
	"testing"

	"cardhouse/rulesets/spades"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"
	"cardhouse/sdk/rulesettest"
)

// TestHouseRuleEnds: a house rule ends the hand (scored with the tricks taken so far) and the
// game (won by the winner's team), in-process and across this plugin's process.
func TestHouseRuleEnds(t *testing.T) {
	t.Parallel()
	rulesettest.HouseRuleEndsInAndOut(t, engine.New(spades.New(), houserules.Enable()), ".", 4, nil, func(t *testing.T, round, game *engine.Step) {
		if round.Status.Phase == sdk.PhasePlaying || !slices.ContainsFunc(round.Events, func(ev sdk.Event) bool { return ev.Name == "hand_scored" }) {
			t.Errorf("ending the hand: phase %q, events %+v; want the hand scored", round.Status.Phase, round.Events)
		}
		if game.Status.Phase != sdk.PhaseGameOver || !slices.ContainsFunc(game.Events, func(ev sdk.Event) bool { return ev.Name == "won" && ev.Seat == game.Status.Winner }) {
			t.Errorf("ending the game: phase %q, events %+v; want game_over and won", game.Status.Phase, game.Events)
		}
	})
}
