package main

import (
	"testing"

	"cardhouse/rulesets/ginrummy"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"
	"cardhouse/sdk/rulesettest"
)

// TestHouseRuleEnds: a house rule ends the hand and the game through Gin Rummy's own scoring,
// in-process and across this plugin's process: a hand ended scores the deadwood difference and the
// game goes on to its target (100); assigning game.winner is refused with its line.
func TestHouseRuleEnds(t *testing.T) {
	t.Parallel()
	rulesettest.HouseRuleEndsInAndOut(t, engine.New(ginrummy.New(), houserules.Enable()), ".", 2, nil, rulesettest.CheckEnds(
		rulesettest.Ending{Phase: sdk.PhaseRoundOver, Events: []string{"hand_scored", "won"}},
		rulesettest.Ending{Phase: sdk.PhaseGameOver, Events: []string{"hand_scored", "game_scored"}}))
}
