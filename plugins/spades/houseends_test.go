package main

import (
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
	rulesettest.HouseRuleEndsInAndOut(t, engine.New(spades.New(), houserules.Enable()), ".", 4, nil, rulesettest.CheckEnds(
		rulesettest.Ending{Events: []string{"hand_scored"}, AnySeat: true},
		rulesettest.Ending{Phase: sdk.PhaseGameOver, Events: []string{"won"}}))
}
