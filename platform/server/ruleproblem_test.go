package server

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRuleProblemOf splits the reasons of failed house-rule checks as the upload page shows them.
func TestRuleProblemOf(t *testing.T) {
	for _, tc := range []struct {
		name, reason string
		want         *RuleProblem
	}{
		{"load", `house rule "broken": line 4: syntax error near 'then'`,
			&RuleProblem{Rule: "broken", Line: 4, Message: "syntax error near 'then'", Hint: ruleHints[0].hint}},
		{"dry run, hook, version", `dry run game 2 of lastcard (3 seats, bots of level 1): action 7 (play of seat 1): house rule "spin" v3: line 12: ran past its time budget of 100ms (in after_action)`,
			&RuleProblem{Where: "dry run game 2 of lastcard (3 seats, bots of level 1): action 7 (play of seat 1)", Rule: "spin", Version: 3, Line: 12, Hook: "after_action",
				Message: "ran past its time budget of 100ms", Hint: "Each hook call has 100 ms: look for a loop that never ends, or one over far more items than a game holds."}},
		{"no line", `house rule "typo": before_acton looks like a hook but is not one (hooks are on_start, before_action, after_action, on_round_end); rename it if it is a helper`,
			&RuleProblem{Rule: "typo", Message: "before_acton looks like a hook but is not one (hooks are on_start, before_action, after_action, on_round_end); rename it if it is a helper",
				Hint: "The hooks are on_start, before_action, after_action and on_round_end: a misspelt hook would never run."}},
		{"no hint known", `house rule "x": line 2: something new (in open)`, &RuleProblem{Rule: "x", Line: 2, Hook: "open", Message: "something new"}},
		{"not a script's failure", "the script is empty", nil},
		{"out of time", "dry run game 1 of hotspot (2 seats, bots of level 1): the check ran out of time: the rule's hooks are too slow for real games", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, ruleProblemOf(tc.reason)); diff != "" {
				t.Errorf("ruleProblemOf(%q) -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
