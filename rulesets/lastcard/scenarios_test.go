package lastcard_test

import (
	"testing"

	"cardhouse/rulesets/lastcard"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest"
)

// TestScenarios runs this package's rule scenarios (testdata/, one folder per rule topic) and the
// project's shared Last Card scenarios kept beside the repository (shared/scenarios/lastcard),
// when present.
func TestScenarios(t *testing.T) {
	rulesettest.Scenarios(t, engine.New(lastcard.New()), rulesettest.SharedScenarios(t, lastcard.ID, "testdata")...)
}
