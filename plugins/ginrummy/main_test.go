package main

import (
	"path/filepath"
	"testing"

	"cardhouse/sdk/rulesettest"
)

// TestAcrossThePluginProcess builds this plugin, launches it as the host does and runs the
// ruleset's scenarios and the engine conformance checks through the real process.
func TestAcrossThePluginProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and launches the plugin executable")
	}
	p := rulesettest.LaunchPlugin(t, ".")
	dirs := rulesettest.SharedScenarios(t, "ginrummy", filepath.Join("..", "..", "rulesets", "ginrummy", "testdata"))
	t.Run("scenarios", func(t *testing.T) { rulesettest.Scenarios(t, p, dirs...) })
	t.Run("engine", func(t *testing.T) {
		rulesettest.RunEngine(t, p, rulesettest.Config{Seeds: 1, RandomSteps: 60})
	})
}
