package main

import (
	"path/filepath"
	"testing"

	"cardhouse/sdk/rulesettest"
)

// TestAcrossThePluginProcess runs the ruleset's scenarios and the engine conformance checks
// through this plugin's real process.
func TestAcrossThePluginProcess(t *testing.T) {
	rulesettest.AcrossThePluginProcess(t, ".", "spades", rulesettest.Config{Seats: []int{4}, Seeds: 1, RandomSteps: 60,
		Options: []map[string]any{{"target": 100}, {"target": 100, "blind_nil": true}}},
		filepath.Join("..", "..", "rulesets", "spades", "testdata"))
}
