package lastcard_test

import (
	"os"
	"path/filepath"
	"testing"

	"cardhouse/rulesets/lastcard"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest"
)

// TestScenarios runs this package's rule scenarios (testdata/, one folder per rule topic).
func TestScenarios(t *testing.T) {
	rulesettest.Scenarios(t, engine.New(lastcard.New()), "testdata")
}

// TestSharedScenarios runs the project's shared Last Card scenarios, kept beside the repository
// (shared/scenarios/lastcard); the test is skipped where that folder is absent.
func TestSharedScenarios(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "scenarios", lastcard.ID)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("the shared scenarios are not beside the repository (%s): %v", dir, err)
	}
	rulesettest.Scenarios(t, engine.New(lastcard.New()), dir)
}
