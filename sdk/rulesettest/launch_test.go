package rulesettest_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"cardhouse/sdk/rulesettest"
)

// TestLaunchPluginCleansUp: the plugin binary LaunchPlugin builds serves while the test runs and
// is gone, with its temporary folder, once the test ends (it was a 21 MB leftover per run).
func TestLaunchPluginCleansUp(t *testing.T) {
	var bin string
	t.Run("use", func(t *testing.T) {
		p := rulesettest.LaunchPlugin(t, filepath.Join("testdata", "toyplugin"))
		bin = p.Spec().Path
		if _, err := p.Describe(context.Background()); err != nil {
			t.Fatalf("the launched plugin does not answer: %v", err)
		}
		if _, err := os.Stat(bin); err != nil {
			t.Fatalf("the binary is missing while in use: %v", err)
		}
	})
	if bin == "" {
		t.Fatal("no binary was built")
	}
	for _, p := range []string{bin, filepath.Dir(bin)} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s is still there after the test (stat: %v)", p, err)
		}
	}
}
