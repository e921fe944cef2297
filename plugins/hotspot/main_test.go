package main

import (
	"path/filepath"
	"testing"

	"cardhouse/sdk/rulesettest"
)

// TestAcrossThePluginProcess runs the ruleset's scenarios (its own and the shared ones) and the
// engine conformance checks through this plugin's real process.
func TestAcrossThePluginProcess(t *testing.T) {
	rulesettest.AcrossThePluginProcess(t, ".", "hotspot", rulesettest.Config{Seats: []int{2, 5, 8}, Seeds: 1, RandomSteps: 60},
		filepath.Join("..", "..", "rulesets", "hotspot", "testdata"))
}
