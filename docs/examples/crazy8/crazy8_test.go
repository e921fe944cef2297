package crazy8_test

import (
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/rulesettest"

	"example.com/crazy8"
)

// options are the option sets the conformance kit plays: the default hand and a short one.
var options = []map[string]any{{}, {"hand_size": 2}}

// TestConformance runs the conformance kit in-process: determinism, card conservation, refusals
// that change nothing, views that hide what they must (through Redeal), bot games that end.
func TestConformance(t *testing.T) {
	rulesettest.Run(t, crazy8.Ruleset{}, rulesettest.Config{Options: options, BotLevel: 2})
}

// TestScenarios plays testdata/ in-process.
func TestScenarios(t *testing.T) {
	rulesettest.Scenarios(t, sdk.NewEngine(crazy8.Ruleset{}), "testdata")
}

// TestAcrossThePluginProcess builds cmd/crazy8, launches it as the host does and runs the
// scenarios and the engine checks of the kit through the real process.
func TestAcrossThePluginProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and launches the plugin executable")
	}
	p := rulesettest.LaunchPlugin(t, "cmd/crazy8")
	t.Run("scenarios", func(t *testing.T) { rulesettest.Scenarios(t, p, "testdata") })
	t.Run("engine", func(t *testing.T) {
		rulesettest.RunEngine(t, p, rulesettest.Config{Seats: []int{2, 4}, Seeds: 1, Options: options, BotLevel: 2})
	})
}
