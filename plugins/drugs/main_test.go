package main

import (
	"path/filepath"
	"testing"

	"cardhouse/sdk/rulesettest"
)

// TestAcrossThePluginProcess runs the ruleset's scenarios (its own and the shared ones) and the
// engine conformance checks through this plugin's real process.
func TestAcrossThePluginProcess(t *testing.T) {
	rulesettest.AcrossThePluginProcess(t, ".", "drugs",
		rulesettest.Config{Seats: []int{2, 4, 8}, Seeds: 1, RandomSteps: 60, Options: []map[string]any{{}, {"chaos": true}}},
		filepath.Join("..", "..", "rulesets", "drugs", "testdata"))
}
