package spades

import (
	"testing"

	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest"
)

// TestScenarios runs this package's rule scenarios (testdata/, one or more per rule SP-n) and the
// shared ones kept beside the repo, when present.
func TestScenarios(t *testing.T) {
	t.Parallel()
	rulesettest.Scenarios(t, engine.New(New()), rulesettest.SharedScenarios(t, ID, "testdata")...)
}
