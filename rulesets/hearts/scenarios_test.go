package hearts

import (
	"testing"

	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest"
)

// TestScenarios runs this package's rule scenarios (testdata/, one folder per rule HE-n) and the
// shared ones the user keeps beside the repo (shared/scenarios/hearts), when there are any.
func TestScenarios(t *testing.T) {
	t.Parallel()
	rulesettest.Scenarios(t, engine.New(New()), rulesettest.SharedScenarios(t, ID, "testdata")...)
}
