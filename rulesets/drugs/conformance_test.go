package drugs

import (
	"os"
	"path/filepath"
	"testing"

	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest"
)

// TestScenarios runs this package's scenarios and the shared ones of the acceptance folder.
func TestScenarios(t *testing.T) {
	t.Parallel()
	dirs := []string{"testdata"}
	shared := filepath.Join("..", "..", "..", "shared", "scenarios", ID)
	if _, err := os.Stat(shared); err == nil {
		dirs = append(dirs, shared)
	} else {
		t.Logf("shared scenarios not found at %s (the repo is not beside shared/): running testdata only", shared)
	}
	rulesettest.Scenarios(t, engine.New(New()), dirs...)
}

// TestConformance runs the conformance kit at 2, 4 and 8 seats, chaos off and on.
func TestConformance(t *testing.T) {
	t.Parallel()
	rulesettest.Run(t, New(), rulesettest.Config{
		Seats:   []int{2, 4, 8},
		Options: []map[string]any{{"chaos": false}, {"chaos": true}},
	})
}
