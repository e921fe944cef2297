package hearts

import (
	"testing"

	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"
	"cardhouse/sdk/rulesettest"
)

// TestScenarios runs this package's rule scenarios (testdata/, one folder per rule HE-n, and
// house-rules/ for the question score_hand) and the shared ones the user keeps beside the repo
// (shared/scenarios/hearts), when there are any, on the engine with house rules as the plugin
// serves it.
func TestScenarios(t *testing.T) {
	t.Parallel()
	rulesettest.Scenarios(t, engine.New(New(), houserules.Enable()), rulesettest.SharedScenarios(t, ID, "testdata")...)
}
