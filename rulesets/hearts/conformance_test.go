package hearts

import (
	"testing"

	"cardhouse/sdk/rulesettest"
)

// TestConformance runs the SDK's conformance kit on four seats with the option sets that change
// the rules' paths (no pass, the other moon scoring, a short game), with level-1 and level-2 bots.
func TestConformance(t *testing.T) {
	t.Parallel()
	rulesettest.RunLevels(t, New(),
		rulesettest.Config{BotLevel: 1, Options: []map[string]any{{}, {"passing": false, "target": 30}, {"moon": "subtract", "target": 10}}},
		rulesettest.Config{BotLevel: 2, Seeds: 1, Options: []map[string]any{{"target": 50}}})
}

// TestAcrossThePluginProcess runs the scenarios and the engine half of the kit across the real
// plugin process (plugins/hearts), as the server runs it.
func TestAcrossThePluginProcess(t *testing.T) {
	t.Parallel()
	rulesettest.AcrossThePluginProcess(t, "../../plugins/hearts", ID,
		rulesettest.Config{Seeds: 1, BotLevel: 2, Options: []map[string]any{{"target": 30}}}, "testdata")
}
