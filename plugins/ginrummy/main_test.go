package main

import (
	"path/filepath"
	"testing"

	"cardhouse/sdk/rulesettest"
)

// TestAcrossThePluginProcess runs the ruleset's scenarios and the engine conformance checks
// through this plugin's real process.
func TestAcrossThePluginProcess(t *testing.T) {
	rulesettest.AcrossThePluginProcess(t, ".", "ginrummy", rulesettest.Config{Seeds: 1, RandomSteps: 60},
		filepath.Join("..", "..", "rulesets", "ginrummy", "testdata"))
}
