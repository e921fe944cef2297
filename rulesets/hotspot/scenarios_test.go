package hotspot

import (
	"testing"

	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest"
)

// TestScenarios runs this package's rule scenarios (testdata/, one folder per rule topic) and the
// shared ones the user keeps beside the repo (shared/scenarios/hotspot), when present.
func TestScenarios(t *testing.T) {
	t.Parallel()
	rulesettest.Scenarios(t, engine.New(New()), rulesettest.SharedScenarios(t, ID, "testdata")...)
}
