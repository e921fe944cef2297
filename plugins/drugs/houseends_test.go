package main

import (
	"slices"
	"testing"

	"cardhouse/rulesets/drugs"
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
	rulesettest.HouseRuleEndsInAndOut(t, engine.New(drugs.New(), houserules.Enable()), ".", 4, nil, func(t *testing.T, round, game *engine.Step) {
		// DRUGS has no rounds: either end is the game's (D-9), its won event saying why.
		for _, st := range []*engine.Step{round, game} {
			if st.Status.Phase != sdk.PhaseGameOver || !slices.ContainsFunc(st.Events, func(ev sdk.Event) bool { return ev.Name == "won" && ev.Data["reason"] == "house_rule" }) {
				t.Errorf("phase %q, events %+v; want game_over and won for a house rule", st.Status.Phase, st.Events)
			}
		}
	})
}
