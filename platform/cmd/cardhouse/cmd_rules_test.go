package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardhouse/rulesets/lastcard"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"
)

// inProcess opens Last Card in-process, with or without the Lua runner.
func inProcess(withRules bool) engineOpener {
	return func(context.Context, string) (map[string]engine.Engine, func(), error) {
		var opts []engine.Option
		if withRules {
			opts = append(opts, houserules.Enable())
		}
		return map[string]engine.Engine{"lastcard": engine.New(lastcard.New(), opts...)}, nil, nil
	}
}

func writeRule(t *testing.T, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rule.lua")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRulesCheck(t *testing.T) {
	t.Parallel()
	// Fails on the first 7 played: a bug a modder would want to hear about, with its line.
	buggy := "name = \"buggy\"\ndescription = \"breaks on sevens\"\nfunction after_action(game, action)\n" +
		"  if action.type == \"play\" and cards.face(action.cards[1]) == \"7\" then\n    return game.nothing.here\n  end\nend\n"
	cases := []struct {
		name    string
		file    string
		ruleset string
		rules   bool
		wantErr string
		want    []string
		not     []string
	}{
		{"a good rule", filepath.Join("..", "..", "..", "plugins", "houserules", "winner-bonus.lua"), "lastcard", true, "",
			[]string{`ok    compiled`, `"winner-bonus"`, "option points (int, default 50)", "hooks: on_round_end", "ok    game 3: 4 seats", "3 passed, 0 failed"}, nil},
		{"a rule with an action", filepath.Join("..", "..", "..", "plugins", "houserules", "seven-zero.lua"), "lastcard", true, "",
			[]string{`action swap_hands "Swap hands with…" (blocking)`, "3 passed, 0 failed"}, nil},
		{"a buggy rule", writeRule(t, buggy), "lastcard", true, `house rule "buggy": 3 game(s) had problems`,
			[]string{"FAIL  game 1", `house rule "buggy": line 5: attempt to index a non-table object(nil) with key 'here' (in after_action)`, "0 passed, 3 failed",
				// what the upload page shows beside the script: the hint, the lines around the one at fault
				"      line 5, in after_action: attempt to index", "      hint  Something on this line is nil", "         5 \u25b6     return game.nothing.here"},
			[]string{"never did anything"}},
		{"a syntax error", writeRule(t, "name = \"bad\"\ndescription = \"x\"\nfunction on_start(game\n"), "lastcard", true, `house rule "bad": line 3: syntax error: the bracket ( opened here is never closed`, nil, nil},
		{"no runner in the plugin", writeRule(t, buggy), "lastcard", false, "the lastcard plugin runs no house rules", nil, nil},
		{"an unknown ruleset", writeRule(t, buggy), "poker", true, `no ruleset "poker" (available: lastcard)`, nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var out strings.Builder
			err := runRulesCheck(context.Background(), &out, inProcess(tc.rules), rulesCheck{file: tc.file, ruleset: tc.ruleset, games: 3, seed: 1, maxSteps: 5000,
				options: []string{"target=single"}})
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("error %v\n%s", err, out.String())
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("error %v, want %q\n%s", err, tc.wantErr, out.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
			for _, n := range tc.not {
				if strings.Contains(out.String(), n) {
					t.Errorf("output has %q:\n%s", n, out.String())
				}
			}
		})
	}
}

// TestRulesCheckRuleOptions: --rule-option sets the rule's own options, and every option's
// extremes are tried by default, so a bug behind steps=3 fails the check there, named; an option
// given to the wrong flag, or one the rule lacks, is refused saying which flag takes it.
func TestRulesCheckRuleOptions(t *testing.T) {
	t.Parallel()
	bug := writeRule(t, "name = \"steps-bug\"\ndescription = \"Breaks at three steps.\"\n"+
		"options = {{name = \"steps\", type = \"int\", default = 1, min = 1, max = 3}}\n"+
		"function after_action(game, action)\n  if game.options.steps == 3 then\n    error(\"three steps break\")\n  end\nend\n")
	for _, tc := range []struct {
		name    string
		options []string
		rule    []string
		only    bool
		wantErr string
		want    []string
	}{
		{"extremes by default", nil, nil, false, `house rule "steps-bug": 1 game(s) had problems`,
			[]string{"ok    game 1: 2 seats, bots of level 1, rule options steps=1,", "FAIL  game 2: 3 seats, bots of level 2, rule options steps=3: action",
				"      line 6, in after_action: three steps break", "         6 \u25b6     error(\"three steps break\")", "1 passed, 1 failed"}},
		{"given a value, no extremes", nil, []string{"steps=2"}, true, "", []string{"rule options steps=2", "2 passed, 0 failed"}},
		{"given the bad value", nil, []string{"steps=3"}, true, "2 game(s) had problems", []string{"rule options steps=3: action"}},
		{"the rule's option to --option", []string{"steps=2"}, nil, false, `--option steps: lastcard has no option "steps"; it is the rule's own: --rule-option steps=2`, nil},
		{"an option the rule lacks", nil, []string{"stepz=2"}, false, `--rule-option stepz: the rule has no option "stepz" (it declares: steps)`, nil},
		{"a value out of range", nil, []string{"steps=9"}, false, "--rule-option steps: want a number from 1 to 3, got 9", nil},
		{"the ruleset's option to --rule-option", nil, []string{"target=single"}, false, `--rule-option target: the rule has no option "target"; it is the ruleset's: --option target=...`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var out strings.Builder
			err := runRulesCheck(context.Background(), &out, inProcess(true), rulesCheck{file: bug, ruleset: "lastcard", games: 2, seed: 1, maxSteps: 5000,
				options: append([]string{"target=single"}, tc.options...), ruleOptions: tc.rule, noExtremes: tc.only})
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("error %v\n%s", err, out.String())
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("error %v, want %q\n%s", err, tc.wantErr, out.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
		})
	}
}

// TestRulesCheckShowsLogTraceAndCounts: what a rule prints shows under each game (cut at
// --log-lines), --trace lists the hook calls, and the counts name a hook that never did anything.
func TestRulesCheckShowsLogTraceAndCounts(t *testing.T) {
	t.Parallel()
	chatty := writeRule(t, "name = \"chatty\"\ndescription = \"says what was played\"\n"+
		"function before_action(game, action)\n  if action.type == \"nothing-ever\" then return \"no\" end\nend\n"+
		"function after_action(game, action)\n  if action.type == \"play\" then game.log(\"played\", action.cards[1]) end\n"+
		"  if action.type == \"draw\" and not game.memory.bonus then game.memory.bonus = true; game.emit(\"first_draw\") end\nend\n")
	cases := []struct {
		name  string
		trace bool
		want  []string
		not   []string
	}{
		{"log and counts", false, []string{
			"ok    game 1: 2 seats",
			", after_action: played\t",
			"more lines of game 1 not shown",
			"before_action ",
			"note  never did anything: before_action (is its condition ever true",
			"2 passed, 0 failed",
		}, []string{"trace "}},
		{"trace", true, []string{
			"      trace action 1 (",
			"): chatty after_action: nothing",
			"): chatty after_action: nothing; events first_draw",
			"): chatty before_action: nothing",
		}, []string{"not shown"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var out strings.Builder
			err := runRulesCheck(context.Background(), &out, inProcess(true), rulesCheck{file: chatty, ruleset: "lastcard", games: 2, seed: 1, maxSteps: 5000,
				options: []string{"target=single"}, trace: tc.trace, logLines: 2})
			if err != nil {
				t.Fatalf("error %v\n%s", err, out.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
			for _, n := range tc.not {
				if strings.Contains(out.String(), n) {
					t.Errorf("output has %q:\n%s", n, out.String())
				}
			}
		})
	}
}

// TestRulesReference writes a variant's reference into the folder asked for.
func TestRulesReference(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var out strings.Builder
	if err := runRulesReference(context.Background(), &out, inProcess(true), "", "lastcard", dir); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "lastcard.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"# House-rule reference: Last Card (`lastcard`)", "| `hand.N` | 7 |", "| `score.N` |", "| `play` | a seat |", "`W+4` ×4"} {
		if !strings.Contains(string(b), w) {
			t.Errorf("the reference lacks %q:\n%s", w, b)
		}
	}
	if err := runRulesReference(context.Background(), &out, inProcess(true), "", "poker", dir); err == nil || !strings.Contains(err.Error(), `no ruleset "poker"`) {
		t.Errorf("an unknown ruleset: %v", err)
	}
}
