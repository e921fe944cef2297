package hotspot

import (
	"os"
	"path/filepath"
	"testing"

	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest"
)

// TestScenarios runs this package's rule scenarios (testdata/, one folder per rule topic) and the
// shared ones the user keeps beside the repo (shared/scenarios/hotspot).
func TestScenarios(t *testing.T) {
	t.Parallel()
	rulesettest.Scenarios(t, engine.New(New()), "testdata")
}

func TestSharedScenarios(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "..", "shared", "scenarios", ID)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared scenarios not found at %s (the shared folder lies beside the repo): %v", dir, err)
	}
	rulesettest.Scenarios(t, engine.New(New()), dir)
}
