package server

import (
	"testing"

	"cardhouse/platform/room"
	"cardhouse/sdk"

	"github.com/google/go-cmp/cmp"
)

// TestRuleProblemOf makes the problems of failed house-rule checks from their faults as the upload
// page shows them, with the hints naming the sandbox's limits.
func TestRuleProblemOf(t *testing.T) {
	bad := func(reason, where string, f *sdk.HouseFault) *room.Error {
		return &room.Error{Kind: room.KindInvalid, Code: "bad_house_rule", Reason: reason, Where: where, Fault: f}
	}
	for _, tc := range []struct {
		name string
		err  *room.Error
		want *RuleProblem
	}{
		{"load", bad(`house rule "broken": line 4: syntax error near 'then'`, "", &sdk.HouseFault{Rule: "broken", Line: 4, Message: "syntax error near 'then'"}),
			&RuleProblem{Rule: "broken", Line: 4, Message: "syntax error near 'then'", Hint: "Lua wants `then` after `if`, `do` after `for` and `while`, an `end` for each `function`, `if`, `for` and `while`, and a closing bracket ) ] } for each ( [ {."}},
		{"dry run, hook, version", bad(`dry run game 2 of lastcard (3 seats, bots of level 1): action 7 (play of seat 1): house rule "spin" v3: line 12: ran past its time budget of 100ms (in after_action)`,
			"dry run game 2 of lastcard (3 seats, bots of level 1): action 7 (play of seat 1)",
			&sdk.HouseFault{Rule: "spin", Version: 3, Line: 12, Hook: "after_action", Message: "ran past its time budget of 100ms"}),
			&RuleProblem{Where: "dry run game 2 of lastcard (3 seats, bots of level 1): action 7 (play of seat 1)", Rule: "spin", Version: 3, Line: 12, Hook: "after_action",
				Message: "ran past its time budget of 100ms", Hint: "Each hook call has 100 ms: look for a loop that never ends, or one over far more items than a game holds."}},
		{"memory", bad("", "", &sdk.HouseFault{Rule: "hog", Hook: "on_start", Message: "allocated more than 64 MiB in one call (the memory cap)"}),
			&RuleProblem{Rule: "hog", Hook: "on_start", Message: "allocated more than 64 MiB in one call (the memory cap)",
				Hint: "Each hook call may allocate 64 MiB: look for a table or string that grows without end."}},
		{"events", bad("", "", &sdk.HouseFault{Rule: "chatty", Hook: "after_action", Line: 3, Message: "emit: more than 32 events in one call"}),
			&RuleProblem{Rule: "chatty", Hook: "after_action", Line: 3, Message: "emit: more than 32 events in one call", Hint: "A hook may emit at most 32 events per call."}},
		{"no line", bad("", "", &sdk.HouseFault{Rule: "typo", Message: "before_acton looks like a hook but is not one (hooks are on_start, before_action, after_action, on_round_end); rename it if it is a helper"}),
			&RuleProblem{Rule: "typo", Message: "before_acton looks like a hook but is not one (hooks are on_start, before_action, after_action, on_round_end); rename it if it is a helper",
				Hint: "The hooks are on_start, before_action, after_action and on_round_end: a misspelt hook would never run."}},
		{"no hint known", bad("", "", &sdk.HouseFault{Rule: "x", Line: 2, Hook: "open", Message: "something new"}), &RuleProblem{Rule: "x", Line: 2, Hook: "open", Message: "something new"}},
		{"a plugin that sends no message", bad(`house rule "x": line 2: boom (in open)`, "", &sdk.HouseFault{Rule: "x", Line: 2, Hook: "open"}),
			&RuleProblem{Rule: "x", Line: 2, Hook: "open", Message: `house rule "x": line 2: boom (in open)`}},
		{"not a script's failure", bad("the script is empty", "", nil), nil},
		{"out of time", bad("dry run game 1 of hotspot (2 seats, bots of level 1): the check ran out of time: the rule's hooks are too slow for real games", "", nil), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, ruleProblemOf(tc.err)); diff != "" {
				t.Errorf("ruleProblemOf(%+v) -want +got:\n%s", tc.err, diff)
			}
		})
	}
}
