package rulesettest

import (
	"context"
	"path/filepath"
	"testing"

	"cardhouse/sdk/engine"
	"cardhouse/sdk/scenario"
)

// Scenarios runs every scenario file under dirs (folders recursively, *.yaml and *.yml; a file
// named directly is taken whatever its extension) against e, each as a parallel subtest named
// after the file's path relative to its dir. A subtest fails with the runner's message
// ("step K: WHAT, want X, got Y", or the file's parse error). A scenario naming another ruleset
// than e fails, and so does a call that finds no scenario at all (a wrong path should not pass
// silently).
//
// Typical use, in a ruleset package:
//
//	func TestScenarios(t *testing.T) {
//		rulesettest.Scenarios(t, engine.New(New()), "testdata/scenarios")
//	}
func Scenarios(t *testing.T, e engine.Engine, dirs ...string) {
	t.Helper()
	scenarios(t, e, dirs, func(name string, f func(tb testing.TB)) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f(t)
		})
	})
}

// scenarios is Scenarios with the subtest runner injected, so the kit's own tests can capture
// failures with a fake testing.TB.
func scenarios(tb testing.TB, e engine.Engine, dirs []string, sub func(name string, f func(tb testing.TB))) {
	tb.Helper()
	if len(dirs) == 0 {
		tb.Fatal("rulesettest.Scenarios: no folder given")
		return
	}
	desc, err := e.Describe(context.Background())
	if err != nil {
		tb.Fatalf("rulesettest.Scenarios: Describe: %v", err)
		return
	}
	found := 0
	for _, dir := range dirs {
		files, err := scenario.Files(dir)
		if err != nil {
			tb.Errorf("rulesettest.Scenarios: %v", err)
			continue
		}
		for _, file := range files {
			found++
			name := filepath.ToSlash(file)
			if rel, err := filepath.Rel(dir, file); err == nil && rel != "." {
				name = filepath.ToSlash(rel)
			}
			sub(name, func(tb testing.TB) {
				tb.Helper()
				s, err := scenario.ParseFile(file)
				if err != nil {
					tb.Fatal(err)
					return
				}
				if s.Ruleset != desc.ID {
					tb.Fatalf("%s: ruleset %q, but this engine is %q", file, s.Ruleset, desc.ID)
					return
				}
				if err := scenario.Run(context.Background(), e, s); err != nil {
					tb.Errorf("FAIL %s: %v (%s)", s.Name, err, file)
				}
			})
		}
	}
	if found == 0 {
		tb.Errorf("rulesettest.Scenarios: no scenario files (*.yaml, *.yml) under %v", dirs)
	}
}
