package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest"
)

// TestAcrossThePluginProcess runs the ruleset's scenarios (its own and the shared ones) and the
// engine conformance checks through this plugin's real process.
func TestAcrossThePluginProcess(t *testing.T) {
	rulesettest.AcrossThePluginProcess(t, ".", "lastcard", rulesettest.Config{Seats: []int{2, 4}, Seeds: 1, RandomSteps: 60,
		Options: []map[string]any{{"target": "single"}, {"target": "single", "last_card_mode": "auto", "stack_draw_two": false}}},
		filepath.Join("..", "..", "rulesets", "lastcard", "testdata"))
}

// TestDescribesHouseRulesInThePlugin: the host learns what a house-rule script declares from the
// plugin (the server runs no Lua): a good script's name, options and hooks; a broken one's error
// with its line, as a refusal; and the process serves on after a hostile top level.
func TestDescribesHouseRulesInThePlugin(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and launches the plugin executable")
	}
	p := rulesettest.LaunchPlugin(t, ".")
	ctx := context.Background()
	src, err := os.ReadFile(filepath.Join("..", "houserules", "winner-bonus.lua"))
	if err != nil {
		t.Fatal(err)
	}
	info, err := p.DescribeHouseRule(ctx, string(src))
	if err != nil {
		t.Fatalf("describing winner-bonus: %v", err)
	}
	if info.Name != "winner-bonus" || len(info.Options) != 1 || info.Options[0].Name != "points" || !info.Has(engine.HookRoundEnd) {
		t.Fatalf("winner-bonus described as %+v", info)
	}
	for _, tc := range []struct{ name, source, want string }{
		{"syntax error", "name = \"broken\"\ndescription = \"x\"\nlocal x = = 1\n", "line 3"},
		{"endless top level", "name = \"spin\"\ndescription = \"x\"\nwhile true do end\n", "spin"},
		{"os at the top", "name = \"pwn\"\ndescription = \"x\"\nos.execute(\"true\")\n", "pwn"},
	} {
		_, err := p.DescribeHouseRule(ctx, tc.source)
		var re *sdk.RuleError
		if !errors.As(err, &re) || re.Code != sdk.CodeHouseRule || !strings.Contains(re.Reason, tc.want) {
			t.Errorf("%s: %v, want a %s refusal naming %q", tc.name, err, sdk.CodeHouseRule, tc.want)
		}
	}
	if _, err := p.Describe(ctx); err != nil {
		t.Fatalf("the plugin no longer serves after the hostile scripts: %v", err)
	}
}
