package main

import (
	"testing"

	"cardhouse/rulesets/lastcard"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"
	"cardhouse/sdk/rulesettest"
)

// TestHouseRuleEnds: a house rule ends the round and the game through the ruleset's own end and
// scoring, in-process and across this plugin's process: Last Card ends a round by its own scoring
// (L-9), the winner scoring the others' cards, and the game goes on to the target (500 by
// default), so end_round leaves the round, not the game, over; assigning game.winner is refused
// with its line.
func TestHouseRuleEnds(t *testing.T) {
	t.Parallel()
	rulesettest.HouseRuleEndsInAndOut(t, engine.New(lastcard.New(), houserules.Enable()), ".", 3, nil, rulesettest.CheckEnds(
		rulesettest.Ending{Phase: sdk.PhaseRoundOver, Events: []string{"round_scored", "won"}},
		rulesettest.Ending{Phase: sdk.PhaseGameOver, Events: []string{"round_scored"}}))
}
