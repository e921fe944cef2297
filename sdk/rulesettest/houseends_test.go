package rulesettest_test

import (
	"path/filepath"
	"slices"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"
	"cardhouse/sdk/rulesettest"
	"cardhouse/sdk/rulesettest/toy"
)

// TestHouseRuleEndsTheToy: a house rule ends the toy's game (it has no rounds) through the toy's
// own end, in-process and across the plugin process.
func TestHouseRuleEndsTheToy(t *testing.T) {
	t.Parallel()
	engines := map[string]func(t *testing.T) engine.Engine{
		"in-process": func(*testing.T) engine.Engine { return engine.New[toy.State](toy.Ruleset{}, houserules.Enable()) },
		"plugin": func(t *testing.T) engine.Engine {
			if testing.Short() {
				t.Skip("builds and launches the plugin executable")
			}
			return rulesettest.LaunchPlugin(t, filepath.Join("testdata", "toyplugin"))
		},
	}
	for name, open := range engines {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			round, game := rulesettest.HouseRuleEnds(t, open(t), 3, nil)
			for _, st := range []*engine.Step{round, game} {
				if st == nil {
					continue
				}
				if st.Status.Phase != sdk.PhaseGameOver || !slices.ContainsFunc(st.Events, func(ev sdk.Event) bool { return ev.Name == "won" && ev.Seat == st.Status.Winner }) {
					t.Errorf("the toy's end: phase %q, events %+v; want game_over and its won event", st.Status.Phase, st.Events)
				}
			}
		})
	}
}
