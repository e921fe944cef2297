package houserules_test

import (
	"bytes"
	"context"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"

	"github.com/google/go-cmp/cmp"
)

// brokenDraw fails (an error, not a refusal) before every draw, at line 4.
const brokenDraw = `name = "broken-draw"
description = "fails on every draw"
function before_action(game, action)
  if action.type == "draw" then local x = nil; return x.y end
end
`

// A failing hook is a refusal that names the rule, its version, the hook, the line and the
// message apart (the host counts it); a refusal the rule chose carries no fault. The host's suspend action turns the rule
// off for the rest of the game, and a replay of the log (suspension included) reaches the same
// state byte for byte.
func TestFaultsNameTheRuleAndSuspensionReplays(t *testing.T) {
	t.Parallel()
	eng := tinyEngine()
	st := start(t, eng, nil, sdk.HouseRule{Name: "broken-draw", Version: 3, Source: brokenDraw}, rule(noHearts))
	draw := sdk.Action{Seat: 0, Type: sdk.ActDraw}
	_, err := eng.Act(context.Background(), &engine.ActRequest{State: st.State, Action: draw})
	re, ok := sdk.AsRefusal(err)
	if !ok || re.Fault == nil {
		t.Fatalf("a failing hook: got %v, want a refusal with a fault", err)
	}
	if diff := cmp.Diff(&sdk.HouseFault{Rule: "broken-draw", Version: 3, Hook: engine.HookBefore, Line: 4,
		Message: "attempt to index a non-table object(nil) with key 'y'"}, re.Fault); diff != "" {
		t.Errorf("fault (-want +got):\n%s", diff)
	}
	// The bot's only way past the rule is what the rule breaks on: its choice fails the same way.
	_, err = eng.Bot(context.Background(), &engine.BotCall{State: st.State, Seat: 0, Level: 1, Seed: 1})
	if re, ok := sdk.AsRefusal(err); ok && re.Fault == nil {
		t.Errorf("bot: a rule's failure came back without its fault: %v", err)
	}
	_, err = eng.Act(context.Background(), &engine.ActRequest{State: st.State, Action: play(0, "5H")})
	if re, ok := sdk.AsRefusal(err); !ok || re.Fault != nil {
		t.Errorf("the rule's own refusal: got %#v, want a refusal without a fault", err)
	}

	// Only the host suspends, and only a rule of the game.
	for _, a := range []sdk.Action{
		{Seat: 0, Type: engine.ActSuspendHouseRule, Args: map[string]string{"rule": "broken-draw"}},
		{Seat: sdk.Host, Type: engine.ActSuspendHouseRule, Args: map[string]string{"rule": "nope"}},
	} {
		if _, err := eng.Act(context.Background(), &engine.ActRequest{State: st.State, Action: a}); err == nil {
			t.Errorf("%+v was accepted", a)
		}
	}
	log := []sdk.Action{
		{Seat: sdk.Host, Type: engine.ActSuspendHouseRule, Args: map[string]string{"rule": "broken-draw", "reason": "3 failures"}},
		draw,
	}
	cur := st
	for _, a := range log {
		cur = act(t, eng, cur, a) // the draw goes through once the rule is suspended
	}
	sus := act(t, eng, st, log[0])
	if len(sus.Events) != 1 || sus.Events[0].Name != engine.EventHouseRuleSuspended || sus.Events[0].Data["rule"] != "broken-draw" {
		t.Errorf("suspension events %+v", sus.Events)
	}
	if _, err := eng.Act(context.Background(), &engine.ActRequest{State: sus.State, Action: log[0]}); err == nil {
		t.Error("suspending a suspended rule was accepted")
	}
	// The other rule still runs.
	if _, err := eng.Act(context.Background(), &engine.ActRequest{State: sus.State, Action: play(0, "5H")}); err == nil {
		t.Error("no-hearts stopped refusing after broken-draw was suspended")
	}

	// A fresh engine replays the log to the same bytes.
	fresh := tinyEngine()
	rep := start(t, fresh, nil, sdk.HouseRule{Name: "broken-draw", Version: 3, Source: brokenDraw}, rule(noHearts))
	for _, a := range log {
		rep = act(t, fresh, rep, a)
	}
	if !bytes.Equal(rep.State, cur.State) {
		t.Errorf("the replay's state differs:\n%s\n%s", rep.State, cur.State)
	}
}
