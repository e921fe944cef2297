package main

import (
	"testing"

	"cardhouse/rulesets/hotspot"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"
	"cardhouse/sdk/rulesettest"
)

// TestHouseRuleEnds: a house rule ends the round and the game through the ruleset's own end,
// in-process and across this plugin's process: Hotspot has no rounds, so either end is the game's,
// announced as when a seat goes out; assigning game.winner is refused with its line.
func TestHouseRuleEnds(t *testing.T) {
	t.Parallel()
	rulesettest.HouseRuleEndsInAndOut(t, engine.New(hotspot.New(), houserules.Enable()), ".", 5, nil, rulesettest.CheckEnds(
		rulesettest.Ending{Phase: sdk.PhaseGameOver, Events: []string{"won"}},
		rulesettest.Ending{Phase: sdk.PhaseGameOver, Events: []string{"won"}}))
}
