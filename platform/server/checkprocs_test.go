package server_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"cardhouse/platform/room"
	"cardhouse/platform/store"
	"cardhouse/platform/store/storetest"
	"cardhouse/sdk/botplay"
	"cardhouse/sdk/engine"
)

// emptyRule is a rule whose only hook does nothing: its check measures the check itself.
const emptyRule = "name = \"empty\"\ndescription = \"Does nothing.\"\nfunction after_action(game, action)\nend\n"

// errStopLive ends the live game of TestHouseRuleCheckRunsApart.
var errStopLive = errors.New("the checks are done")

// TestHouseRuleCheckRunsApart: for each built-in variant (Hotspot, DRUGS, Last Card, Hearts,
// Spades, Gin Rummy), with the server's own
// dry run (room.DryRun's defaults), a check of an empty rule passes, a rule spinning in its hook
// and a check past its step budget are refused, each saying why; all of it runs in a check process
// of its own while a live game goes on in the variant's plugin process, which is the same process
// after the checks (pid, launches) with no crash and no timeout. The time each variant's check
// took is logged (measured, not asserted: the budget the check applies is StepBudget).
func TestHouseRuleCheckRunsApart(t *testing.T) {
	for _, id := range []string{"hotspot", "drugs", "lastcard", "hearts", "spades", "ginrummy"} {
		t.Run(id, func(t *testing.T) {
			live, d := variantPlugin(t, id)
			e := newHouseEnv(t, "sqlite", map[string]engine.Engine{id: live})
			ctx := context.Background()

			// The live game: bots playing game after game through the live process, as a room's do.
			var steps atomic.Int64
			stop := make(chan struct{})
			done := make(chan error, 1)
			go func() {
				for seed := uint64(1); ; seed++ {
					_, err := botplay.Play(ctx, live, botplay.Config{Seats: d.MinSeats, Seed: seed, CallTimeout: 10 * time.Second,
						Bot: botplay.EngineBot(live, botplay.Level(1), func(t *botplay.Turn) uint64 { return uint64(t.N) }),
						OnAct: func(context.Context, botplay.Attempt) error {
							steps.Add(1)
							select {
							case <-stop:
								return errStopLive
							default:
								return nil
							}
						}})
					if err != nil {
						if errors.Is(err, errStopLive) {
							err = nil
						}
						done <- err
						return
					}
				}
			}()
			for steps.Load() == 0 {
				select {
				case err := <-done:
					t.Fatalf("the live game stopped before the checks: %v", err)
				case <-time.After(10 * time.Millisecond):
				}
			}
			before := live.Stats()
			stepsBefore := steps.Load()

			start := time.Now()
			check, err := e.rooms.CheckHouseRule(ctx, room.CheckRequest{Source: emptyRule, Rulesets: []string{id}}, room.DryRun{})
			took := time.Since(start)
			if err != nil {
				t.Fatalf("check of an empty rule: %v", err)
			}
			seatCounts := d.MaxSeats - d.MinSeats + 1
			if len(check.Games) != max(3, seatCounts) {
				t.Errorf("%d dry-run games, want %d (one per seat count, at least 3)", len(check.Games), max(3, seatCounts))
			}
			if len(check.Hooks) != 1 || check.Hooks[0].Hook != "after_action" || check.Hooks[0].Calls == 0 || check.Hooks[0].Fired != 0 ||
				len(check.Never) != 1 || check.Never[0] != "after_action" {
				t.Errorf("hooks %+v, never %v: want after_action called, never doing anything", check.Hooks, check.Never)
			}
			for _, g := range check.Games {
				if g.Ended == (g.CutOff != "") {
					t.Errorf("game %+v: ended %v and cut off %q", g, g.Ended, g.CutOff)
				}
			}
			t.Logf("%s: the check of an empty rule took %v (steps %d ms of a budget of %d ms; %d games, %d cut off)",
				id, took.Round(time.Millisecond), check.StepMS, check.BudgetMS, len(check.Games), check.CutOff)

			spin := "name = \"spin\"\ndescription = \"x\"\nfunction after_action(game, action)\n  while true do end\nend\n"
			if _, err := e.rooms.CheckHouseRule(ctx, room.CheckRequest{Source: spin, Rulesets: []string{id}}, room.DryRun{}); err == nil || !strings.Contains(err.Error(), "time budget") {
				t.Errorf("check of a spinning hook: %v, want its time budget named", err)
			}
			_, err = e.rooms.CheckHouseRule(ctx, room.CheckRequest{Source: emptyRule, Rulesets: []string{id}}, room.DryRun{StepBudget: time.Millisecond})
			if re, ok := room.AsError(err); !ok || re.Code != "bad_house_rule" || !strings.Contains(re.Reason, "not the bots' thinking") {
				t.Errorf("check past its step budget: %v, want a refusal saying what the budget counts", err)
			}

			cs, ok := e.rooms.CheckStats(id)
			if !ok || !cs.Running || cs.PID == 0 || cs.PID == before.PID {
				t.Errorf("check process %+v (ok %v): want one running apart from the live pid %d", cs, ok, before.PID)
			}
			stepsDuring := steps.Load() - stepsBefore
			close(stop)
			if err := <-done; err != nil {
				t.Fatalf("the live game failed during the checks: %v", err)
			}
			after := live.Stats()
			if stepsDuring == 0 {
				t.Error("the live game made no step during the checks")
			}
			if after.PID != before.PID || after.Launches != before.Launches || after.Crashes != 0 || after.Timeouts != 0 || !after.Running {
				t.Errorf("live process before the checks pid %d launches %d; after pid %d launches %d crashes %d timeouts %d running %v",
					before.PID, before.Launches, after.PID, after.Launches, after.Crashes, after.Timeouts, after.Running)
			}
			t.Logf("%s: the live game made %d steps during the checks, in pid %d throughout", id, stepsDuring, after.PID)
		})
	}
}

// optionBug is a rule whose bug shows only when its option steps is 3 (of 1 to 3, default 1).
const optionBug = `name = "steps-bug"
description = "Breaks at three steps."
options = {{name = "steps", type = "int", default = 1, min = 1, max = 3}}
function after_action(game, action)
  if game.options.steps == 3 then
    error("three steps break")
  end
end
`

// TestHouseRuleCheckTriesOptions: a check tries every option's extremes by default, so a bug
// behind steps=3 fails the check there, the message and the problem naming the option values;
// the values a check is given are the base set, refused when the rule has no such option.
func TestHouseRuleCheckTriesOptions(t *testing.T) {
	p, _ := variantPlugin(t, "hotspot")
	e := newHouseEnv(t, "sqlite", map[string]engine.Engine{"hotspot": p})
	alice := e.register("Alice")
	body := func(extra map[string]any) map[string]any {
		b := map[string]any{"source": optionBug, "rulesets": []string{"hotspot"}}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	for _, tc := range []struct {
		name  string
		extra map[string]any
	}{
		{"extremes by default", nil},
		{"given the value", map[string]any{"options": map[string]any{"steps": 3}, "extremes": false}},
	} {
		var ae problemErr
		if got := alice.call("POST", "/api/house-rules/check", body(tc.extra), &ae); got != 400 || ae.Error.Code != "bad_house_rule" {
			t.Fatalf("%s: status %d code %q (%s), want 400 bad_house_rule", tc.name, got, ae.Error.Code, ae.Error.Reason)
		}
		pr := ae.Error.Problem
		if !strings.Contains(ae.Error.Reason, "rule options steps=3") || pr == nil || !strings.Contains(pr.Where, "steps=3") ||
			pr.Options["steps"] != float64(3) || len(pr.Schema) != 1 || pr.Line != 6 {
			t.Errorf("%s: reason %q, problem %+v: want steps=3 named, line 6", tc.name, ae.Error.Reason, pr)
		}
	}
	// Only the defaults: no game meets the bug.
	var ok struct {
		OK         bool               `json:"ok"`
		OptionSets []map[string]any   `json:"option_sets"`
		DryRun     []room.DryRunGame  `json:"dry_run"`
		Hooks      []engine.HookCount `json:"hooks"`
	}
	alice.must("POST", "/api/house-rules/check", body(map[string]any{"extremes": false}), &ok)
	if !ok.OK || len(ok.OptionSets) != 1 || ok.DryRun[0].Options["steps"] != float64(1) {
		t.Errorf("check with the defaults only: %+v", ok)
	}
	alice.refused("POST", "/api/house-rules/check", body(map[string]any{"options": map[string]any{"stepz": 2}}), 400, "bad_options", `no option "stepz"`, "steps")
	alice.refused("POST", "/api/house-rules/check", body(map[string]any{"options": map[string]any{"steps": 9}}), 400, "bad_options", "from 1 to 3")
	// An upload is checked the same way: the bug behind steps=3 refuses it.
	alice.refused("POST", "/api/house-rules", body(nil), 400, "bad_house_rule", "steps=3", "three steps break")
}

// TestCheckProcessTakesTurnsAndCloses: two checks of one ruleset at once both pass (they take
// turns in the ruleset's check process), the process is closed once idle for CheckIdle, and the
// next check launches another; the live process is never launched again.
func TestCheckProcessTakesTurnsAndCloses(t *testing.T) {
	live, _ := variantPlugin(t, "hotspot")
	ctx := context.Background()
	st, err := store.Open(ctx, store.Config{DSN: storetest.DSN(t, "sqlite", t.TempDir())})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	rooms, err := room.NewManager(ctx, room.Config{Store: st, Engines: map[string]engine.Engine{"hotspot": live}, Logger: quietLogger(), CheckIdle: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rooms.Close)
	before := live.Stats()
	check := func() error {
		_, err := rooms.CheckHouseRule(ctx, room.CheckRequest{Source: emptyRule, Rulesets: []string{"hotspot"}}, room.DryRun{Games: 1})
		return err
	}
	errs := make(chan error, 2)
	go func() { errs <- check() }()
	go func() { errs <- check() }()
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatalf("two checks at once: %v", err)
		}
	}
	closed := func() bool { s, _ := rooms.CheckStats("hotspot"); return !s.Running }
	deadline := time.Now().Add(waitFor)
	for !closed() {
		if time.Now().After(deadline) {
			t.Fatalf("the check process is still up %v after its last check", waitFor)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := check(); err != nil {
		t.Fatalf("a check after the check process closed: %v", err)
	}
	if after := live.Stats(); after.PID != before.PID || after.Launches != before.Launches || after.Calls != before.Calls {
		t.Errorf("the live process was used by the checks: before %+v, after %+v", before, after)
	}
}

// TestCheckOverrunKillsOnlyItsProcess: a check whose call overruns its deadline (a call timeout
// of 1 ms here) gets its process killed, as a stuck plugin's is: the check process, never the one
// serving live games, which keeps its pid and has no timeout.
func TestCheckOverrunKillsOnlyItsProcess(t *testing.T) {
	live, _ := variantPlugin(t, "drugs")
	ctx := context.Background()
	st, err := store.Open(ctx, store.Config{DSN: storetest.DSN(t, "sqlite", t.TempDir())})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	rooms, err := room.NewManager(ctx, room.Config{Store: st, Engines: map[string]engine.Engine{"drugs": live}, Logger: quietLogger(), CallTimeout: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rooms.Close)
	before := live.Stats()
	_, err = rooms.CheckHouseRule(ctx, room.CheckRequest{Source: emptyRule, Rulesets: []string{"drugs"}}, room.DryRun{})
	if err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("a check whose call overran: %v, want the kill of its process named", err)
	}
	cs, _ := rooms.CheckStats("drugs")
	after := live.Stats()
	if cs.Timeouts == 0 || cs.PID == before.PID {
		t.Errorf("check process %+v: want its timeout counted, apart from the live pid %d", cs, before.PID)
	}
	if after.PID != before.PID || after.Launches != before.Launches || after.Timeouts != 0 || after.Crashes != 0 || !after.Running {
		t.Errorf("live process before pid %d launches %d; after pid %d launches %d timeouts %d crashes %d running %v",
			before.PID, before.Launches, after.PID, after.Launches, after.Timeouts, after.Crashes, after.Running)
	}
	t.Logf("refused: %v", err)
}
