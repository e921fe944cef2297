// Package houserules_test checks the example house rules of plugins/houserules: every script
// compiles and declares itself properly, and every scenario beside them passes against the real
// rulesets, in-process, with the Lua runner enabled.
package houserules_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cardhouse/rulesets/drugs"
	"cardhouse/rulesets/hotspot"
	"cardhouse/rulesets/lastcard"
	"cardhouse/rulesets/spades"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"
	"cardhouse/sdk/scenario"
)

func engines() scenario.Lookup {
	return scenario.MapLookup(map[string]engine.Engine{
		"lastcard": engine.New(lastcard.New(), houserules.Enable()),
		"hotspot":  engine.New(hotspot.New(), houserules.Enable()),
		"drugs":    engine.New(drugs.New(), houserules.Enable()),
		"spades":   engine.New(spades.New(), houserules.Enable()),
	})
}

func TestScenarios(t *testing.T) {
	t.Parallel()
	files, err := scenario.Files(".")
	if err != nil {
		t.Fatal(err)
	}
	lookup := engines()
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			t.Parallel()
			if res := scenario.RunFile(context.Background(), f, lookup); !res.OK() {
				t.Error(res.Line())
			}
		})
	}
}

// TestEveryRuleCompilesAndHasAScenario keeps the examples honest: a script that no longer loads,
// or that no scenario uses, fails here.
func TestEveryRuleCompilesAndHasAScenario(t *testing.T) {
	t.Parallel()
	scripts, _ := filepath.Glob("*.lua")
	if len(scripts) < 6 {
		t.Fatalf("%d example rules, want at least 6", len(scripts))
	}
	yamls, _ := filepath.Glob("*.yaml")
	var used []string
	for _, y := range yamls {
		s, err := scenario.ParseFile(y)
		if err != nil {
			t.Fatal(err)
		}
		used = append(used, s.HouseRules...)
	}
	for _, path := range scripts {
		rule, _, err := houserules.FromFile(context.Background(), path)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if want := strings.TrimSuffix(path, ".lua"); rule.Name != want {
			t.Errorf("%s declares the name %q: name the file after the rule (%s.lua), as scenarios do", path, rule.Name, rule.Name)
		}
		if !slices.Contains(used, path) {
			t.Errorf("no scenario uses %s", path)
		}
		b, _ := os.ReadFile(path)
		if !strings.HasPrefix(string(b), "--") {
			t.Errorf("%s: start with a comment saying what the rule is for", path)
		}
	}
}
