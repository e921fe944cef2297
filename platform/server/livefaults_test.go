package server_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"cardhouse/platform/room"
	"cardhouse/platform/store"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestLiveHouseRuleFailures: a house rule that fails on a bot's only move does not freeze the
// game. The bot falls back to the other actions its view offers, tries again, and once the rule
// failed Config.SuspendAfter times in the game the room suspends it for the rest of the game
// (an action of the log, with a notice in the chat); the game plays to its end. Every failure is
// stored with the room, rule, version, hook and line, and counted per rule and version; the
// replay, suspension included, rebuilds the stored game byte for byte, also after a restart.
func TestLiveHouseRuleFailures(t *testing.T) {
	p := lastcardPlugin(t)
	eachDialect(t, func(t *testing.T, dialect string) {
		e := newHouseEnv(t, dialect, map[string]engine.Engine{"lastcard": p})
		bob, admin, carol := e.register("Bob"), e.register("Root"), e.register("Carol")
		if err := e.st.SetRole(context.Background(), admin.id, store.RoleAdmin); err != nil {
			t.Fatal(err)
		}
		bob.must("POST", "/api/house-rules", map[string]any{"source": exampleRule(t, "testdata/shaky.lua"), "rulesets": []string{"lastcard"}}, nil)
		e.approve("shaky", 1, admin.id)
		info := bob.createRoom(map[string]any{"ruleset": "lastcard", "mode": "computer", "seats": 2, "bots": []int{1},
			"options": map[string]any{"target": "single"}, "house_rules": []map[string]any{{"name": "shaky", "options": map[string]any{"break_bot": 1}}}})
		cb := bob.connect(info.Code)
		bob.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)
		ctx := context.Background()
		failures := func() int {
			fs, err := e.st.HouseRuleFailures(ctx, store.HouseRuleFailureQuery{Rule: "shaky"})
			if err != nil {
				t.Fatal(err)
			}
			return len(fs)
		}
		// Play until the rule is suspended; restart the server there (the room reloads the game
		// from the store: the suspension must hold), then play to the end.
		v := playUntil(t, cb, func(sdk.View) bool { return failures() >= room.DefaultSuspendAfter })
		if v.Phase == sdk.PhaseGameOver {
			t.Fatal("the game ended before the rule was suspended")
		}
		if got := testutil.ToFloat64(e.rooms.Metrics().HouseRuleFailures.WithLabelValues("shaky", "1")); got != room.DefaultSuspendAfter {
			t.Errorf("cardhouse_house_rule_failures_total{shaky,1} = %v, want %d", got, room.DefaultSuspendAfter)
		}
		e.stop()
		e.start()
		final := playToEnd(t, bob.connect(info.Code))
		if final.Phase != sdk.PhaseGameOver {
			t.Fatalf("the game ended in phase %s", final.Phase)
		}

		fs, err := e.st.HouseRuleFailures(ctx, store.HouseRuleFailureQuery{Rule: "shaky"})
		if err != nil {
			t.Fatal(err)
		}
		if len(fs) != room.DefaultSuspendAfter {
			t.Fatalf("%d failures stored, want %d: %+v", len(fs), room.DefaultSuspendAfter, fs)
		}
		for i, f := range fs {
			if f.RoomCode != info.Code || f.GameNumber != 1 || f.Version != 1 || f.Hook != engine.HookBefore || f.Line != 9 || f.Seat != 1 || !f.Bot ||
				!strings.Contains(f.Message, `house rule "shaky" v1: line 9`) || f.Suspended != (i == 0) {
				t.Errorf("failure %d (newest first): %+v", i, f)
			}
		}
		// The server restarted after the failures: its counter starts again from none and stays there.
		if got := testutil.ToFloat64(e.rooms.Metrics().HouseRuleFailures.WithLabelValues("shaky", "1")); got != 0 {
			t.Errorf("cardhouse_house_rule_failures_total{shaky,1} = %v after the restart, want 0 (the rule stayed suspended)", got)
		}

		var chat struct {
			Chat []room.ChatLine `json:"chat"`
		}
		bob.must("GET", "/api/rooms/"+info.Code+"/chat", nil, &chat)
		if !slices.ContainsFunc(chat.Chat, func(l room.ChatLine) bool {
			return l.Name == room.NoticeName && strings.Contains(l.Text, `House rule "shaky" v1 is off for the rest of game 1`)
		}) {
			t.Errorf("no notice of the suspension in the chat: %+v", chat.Chat)
		}

		check := func(when string) {
			// An admin who is no member reads the replay (a player who is no member may not).
			carol.refused("GET", "/api/rooms/"+info.Code+"/games/1/replay", nil, 403, "not_member")
			var rep room.Replay
			admin.must("GET", "/api/rooms/"+strings.ToLower(info.Code)+"/games/1/replay", nil, &rep)
			if !rep.Matches || rep.Final.Phase != sdk.PhaseGameOver {
				t.Fatalf("%s: the replay matches %v, ends in %s", when, rep.Matches, rep.Final.Phase)
			}
			n := 0
			for _, l := range rep.Log {
				if l.Action.Type == engine.ActSuspendHouseRule {
					n++
					if l.Seat != sdk.Host || l.Action.Args["rule"] != "shaky" {
						t.Errorf("%s: suspension logged as %+v", when, l)
					}
				}
			}
			if n != 1 {
				t.Errorf("%s: %d suspensions in the log, want 1", when, n)
			}
		}
		check("live")
		e.stop()
		e.start()
		check("after a restart")
	})
}

// TestAPlayerSeesAFailedRuleAsFailed: a player whose action a house rule fails on hears that the
// rule failed and the action was not applied, never the script's error, which is stored (with its
// line) for the rule's author and the admins.
func TestAPlayerSeesAFailedRuleAsFailed(t *testing.T) {
	p := lastcardPlugin(t)
	// 1 breaks it: the upload's dry run plays the default (0) and the extremes (0, 2), not 1.
	failing := "name = \"failing\"\ndescription = \"Fails on seat 0's draws.\"\noptions = {{name = \"fail\", type = \"int\", default = 0, min = 0, max = 2}}\n" +
		"function before_action(game, action)\n" +
		"  if game.options.fail ~= 1 or action.seat ~= 0 or action.type ~= \"draw\" then return end\n  local x = nil\n  return x.boom\nend\n"
	eachDialect(t, func(t *testing.T, dialect string) {
		e := newHouseEnv(t, dialect, map[string]engine.Engine{"lastcard": p})
		bob := e.register("Bob")
		bob.must("POST", "/api/house-rules", map[string]any{"source": failing, "rulesets": []string{"lastcard"}}, nil)
		info := bob.createRoom(map[string]any{"ruleset": "lastcard", "mode": "computer", "seats": 2, "bots": []int{1},
			"options": map[string]any{"target": "single"}, "house_rules": []map[string]any{{"name": "failing", "options": map[string]any{"fail": 1}}}})
		cb := bob.connect(info.Code)
		bob.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)
		for v := cb.latestView(); v == nil || !v.Has(sdk.ActDraw); v = cb.latestView() {
			cb.expect("view")
		}
		cb.send(map[string]any{"type": "act", "id": "d", "action": map[string]any{"type": sdk.ActDraw}})
		m := cb.expect("error")
		if code, reason := str(m["code"]), str(m["reason"]); code != sdk.CodeHouseRule || reason != `house rule "failing" failed; the action was not applied` {
			t.Errorf("the player heard %s: %q", code, reason)
		}
		fs, err := e.st.HouseRuleFailures(context.Background(), store.HouseRuleFailureQuery{Rule: "failing"})
		if err != nil {
			t.Fatal(err)
		}
		if len(fs) == 0 || !strings.Contains(fs[0].Message, "line 7: attempt to index") || fs[0].Line != 7 {
			t.Errorf("stored failures: %+v, want the script's error at line 7", fs)
		}
	})
}
