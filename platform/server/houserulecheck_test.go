package server_test

import (
	"context"
	"strings"
	"testing"

	"cardhouse/platform/server"
	"cardhouse/platform/store"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/plugin"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestHouseRuleCheck: POST /api/house-rules/check checks a script as an upload does and stores
// nothing; a failure's problem names the line, the hook, the dry-run game and a hint (the upload
// page shows them beside the script); "my rules" shows each version's review and its reason; a rule
// named "check" is still read at /api/house-rules/check. Both dialects, the real Last Card plugin.
func TestHouseRuleCheck(t *testing.T) {
	p := lastcardPlugin(t)
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) { testHouseRuleCheck(t, dialect, p) })
	}
}

// problemErr is an error body with the problem of a failed check.
type problemErr struct {
	Error struct {
		Code    string              `json:"code"`
		Reason  string              `json:"reason"`
		Problem *server.RuleProblem `json:"problem"`
	} `json:"error"`
}

func testHouseRuleCheck(t *testing.T, dialect string, p *plugin.Process) {
	e := newHouseEnv(t, dialect, map[string]engine.Engine{"lastcard": p})
	alice, admin := e.register("Alice"), e.register("Root")
	bonus := exampleRule(t, "winner-bonus.lua")

	for _, tc := range []struct {
		name   string
		source string
		want   server.RuleProblem
	}{
		{"syntax error", "name = \"broken\"\ndescription = \"x\"\nfunction on_round_end(game)\n  if then\nend\n",
			server.RuleProblem{Rule: "broken", Line: 4, Message: "syntax error", Hint: "`then` after `if`"}},
		{"runtime error in a dry run", "name = \"boom\"\ndescription = \"x\"\nfunction after_action(game, action)\n  local x = nil\n  return x.y\nend\n",
			server.RuleProblem{Where: "dry run game 1 of lastcard", Rule: "boom", Line: 5, Hook: "after_action", Message: "attempt to index", Hint: "nil"}},
		{"misspelt hook", "name = \"typo\"\ndescription = \"x\"\nfunction before_acton(game, a) end\n",
			server.RuleProblem{Rule: "typo", Line: 3, Message: "before_acton looks like a hook", Hint: "on_start, before_action"}},
		// The misspelt hook is named with its line and the hook it resembles.
		{"misspelt hook with no prefix clue", "name = \"typo\"\ndescription = \"x\"\nfunction on_start(game) end\n\nfunction after_acton(game, a)\nend\n",
			server.RuleProblem{Rule: "typo", Line: 5, Message: "did you mean after_action?", Hint: "a misspelt hook would never run"}},
		// An unclosed bracket is named on its own line, not on the `end` where Lua gave up.
		{"unclosed bracket", "name = \"paren\"\ndescription = \"x\"\nfunction after_action(game, action)\n  local n = #game.zones.deck\n  local bonus = math.max(n, 2\nend\n",
			server.RuleProblem{Rule: "paren", Line: 5, Message: "bracket ( opened here is never closed", Hint: "closing ) ] }"}},
		// A draw handed nil (a misspelt field) gets a hint about draws.
		{"a draw handed nil", "name = \"drawnil\"\ndescription = \"x\"\nfunction after_action(game, action)\n  local pick = game.random(\"pick\", game.seat_count)\nend\n",
			server.RuleProblem{Where: "dry run game 1 of lastcard", Rule: "drawnil", Line: 4, Hook: "after_action", Message: "bad argument #2 to random (number expected, got nil)", Hint: "draws 1..n"}},
		{"a hook over its time budget", "name = \"spin\"\ndescription = \"x\"\nfunction after_action(game, action)\n  while true do end\nend\n",
			server.RuleProblem{Where: "dry run game 1 of lastcard", Rule: "spin", Line: 4, Hook: "after_action", Message: "ran past its time budget", Hint: "Each hook call has 100 ms"}},
	} {
		var ae problemErr
		if got := alice.call("POST", "/api/house-rules/check", map[string]any{"source": tc.source, "rulesets": []string{"lastcard"}}, &ae); got != 400 || ae.Error.Code != "bad_house_rule" {
			t.Fatalf("%s: status %d code %q (%s), want 400 bad_house_rule", tc.name, got, ae.Error.Code, ae.Error.Reason)
		}
		pr := ae.Error.Problem
		if pr == nil {
			t.Fatalf("%s: no problem in the error (%s)", tc.name, ae.Error.Reason)
		}
		// Where, message and hint are sentences: each must say what the case names.
		for what, pair := range map[string][2]string{"where": {pr.Where, tc.want.Where}, "message": {pr.Message, tc.want.Message}, "hint": {pr.Hint, tc.want.Hint}} {
			if !strings.Contains(pair[0], pair[1]) || (pair[1] == "") != (pair[0] == "") {
				t.Errorf("%s: %s %q, want one saying %q (reason %q)", tc.name, what, pair[0], pair[1], ae.Error.Reason)
			}
		}
		if strings.Contains(pr.Message, `house rule "`) || strings.Contains(pr.Message, "(in ") || strings.Contains(pr.Where, "house rule") {
			t.Errorf("%s: where %q and message %q, want the failure's parts without the rule, line and hook", tc.name, pr.Where, pr.Message)
		}
		if diff := cmp.Diff(tc.want, *pr, cmpopts.IgnoreFields(server.RuleProblem{}, "Where", "Message", "Hint")); diff != "" {
			t.Errorf("%s: problem -want +got:\n%s", tc.name, diff)
		}
	}

	// A good script: what it declares and the dry run; nothing stored.
	var ok struct {
		OK       bool                 `json:"ok"`
		Declared engine.HouseRuleInfo `json:"declared"`
		DryRun   []struct {
			Actions int `json:"actions"`
		} `json:"dry_run"`
	}
	alice.must("POST", "/api/house-rules/check", map[string]any{"source": bonus, "rulesets": []string{"lastcard"}}, &ok)
	if !ok.OK || ok.Declared.Name != "winner-bonus" || len(ok.Declared.Options) != 1 || len(ok.DryRun) != 3 || ok.DryRun[0].Actions == 0 { // a game per seat count (2 to 4), more than houseDryRun.Games
		t.Fatalf("check of winner-bonus: %+v", ok)
	}
	var mine houseListResp
	alice.must("GET", "/api/house-rules?mine=true", nil, &mine)
	if len(mine.HouseRules) != 0 {
		t.Fatalf("a check stored a script: %+v", mine)
	}
	e.guest("Gus").refused("POST", "/api/house-rules/check", map[string]any{"source": bonus, "rulesets": []string{"lastcard"}}, 403, "guest")

	// "My rules": every version with its review and reason.
	alice.must("POST", "/api/house-rules", map[string]any{"source": bonus, "rulesets": []string{"lastcard"}}, nil)
	alice.must("POST", "/api/house-rules/winner-bonus/versions", map[string]any{"source": bonus + "\n-- v2\n"}, nil)
	ctx := context.Background()
	sc, err := e.st.HouseRuleByName(ctx, "winner-bonus")
	if err != nil {
		t.Fatal(err)
	}
	v1, err := e.st.HouseRuleVersionByNumber(ctx, sc.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.st.RejectHouseRuleVersion(ctx, v1.ID, admin.id, "the bonus is too high by default"); err != nil {
		t.Fatal(err)
	}
	var full struct {
		HouseRules []struct {
			Name     string `json:"name"`
			Versions []struct {
				Number       int    `json:"number"`
				Status       string `json:"status"`
				StatusReason string `json:"status_reason"`
			} `json:"versions"`
		} `json:"house_rules"`
	}
	alice.must("GET", "/api/house-rules?mine=true", nil, &full)
	type ver struct {
		Number       int
		Status       string
		StatusReason string
	}
	var got []ver
	for _, r := range full.HouseRules {
		for _, v := range r.Versions {
			got = append(got, ver(v))
		}
	}
	want := []ver{{1, store.HouseRuleRejected, "the bonus is too high by default"}, {2, store.HouseRulePending, ""}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("my rules' versions -want +got:\n%s", diff)
	}

	// A rule may be called "check": reading it is not the check.
	named := strings.Replace(bonus, `name = "winner-bonus"`, `name = "check"`, 1)
	alice.must("POST", "/api/house-rules", map[string]any{"source": named, "rulesets": []string{"lastcard"}}, nil)
	var read houseRuleResp
	alice.must("GET", "/api/house-rules/check", nil, &read)
	if read.HouseRule.Name != "check" {
		t.Errorf("GET /api/house-rules/check read %+v, want the rule named check", read.HouseRule)
	}
}
