package main

import (
	"slices"
	"testing"

	"cardhouse/rulesets/hotspot"
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
	rulesettest.HouseRuleEndsInAndOut(t, engine.New(hotspot.New(), houserules.Enable()), ".", 5, nil, func(t *testing.T, round, game *engine.Step) {
		// Hotspot has no rounds: either end is the game's, announced as when a seat goes out.
		for _, st := range []*engine.Step{round, game} {
			if st.Status.Phase != sdk.PhaseGameOver || !has(st, "won") {
				t.Errorf("phase %q, events %+v; want game_over and won", st.Status.Phase, st.Events)
			}
		}
	})
}
