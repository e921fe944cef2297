package ginrummy

import (
	"testing"

	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest"
)

// TestScenarios runs this package's rule scenarios (testdata/, one file per rule GR-n or more)
// and the shared ones kept beside the repo, when there are any.
func TestScenarios(t *testing.T) {
	t.Parallel()
	dirs := rulesettest.SharedScenarios(t, ID, "testdata")
	rulesettest.Scenarios(t, engine.New(New()), dirs...)
}
