package main

import (
	"testing"

	"cardhouse/rulesets/drugs"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"
	"cardhouse/sdk/rulesettest"
)

// TestHouseRuleEnds: a house rule ends the round and the game through the ruleset's own end,
// in-process and across this plugin's process: DRUGS has no rounds, so either end is the game's
// (D-9), its won event saying why; assigning game.winner is refused with its line.
func TestHouseRuleEnds(t *testing.T) {
	t.Parallel()
	rulesettest.HouseRuleEndsInAndOut(t, engine.New(drugs.New(), houserules.Enable()), ".", 4, nil, rulesettest.CheckEnds(
		rulesettest.Ending{Phase: sdk.PhaseGameOver, Events: []string{"won"}, AnySeat: true, Data: map[string]string{"reason": "house_rule"}},
		rulesettest.Ending{Phase: sdk.PhaseGameOver, Events: []string{"won"}, AnySeat: true, Data: map[string]string{"reason": "house_rule"}}))
}
