package drugs

import (
	"testing"

	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest"
)

// TestScenarios runs this package's scenarios and the shared ones of the acceptance folder.
func TestScenarios(t *testing.T) {
	t.Parallel()
	rulesettest.Scenarios(t, engine.New(New()), rulesettest.SharedScenarios(t, ID, "testdata")...)
}

// TestConformance runs the conformance kit at 2, 4 and 8 seats, chaos off and on.
func TestConformance(t *testing.T) {
	t.Parallel()
	rulesettest.Run(t, New(), rulesettest.Config{
		Seats:   []int{2, 4, 8},
		Options: []map[string]any{{"chaos": false}, {"chaos": true}},
	})
}
