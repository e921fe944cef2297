package houserules_test

import (
	"context"
	"syscall"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"
)

// BenchmarkHookCall is the cost of one small hook call (noHearts' before_action on a 2-seat
// table): the pooled state, the call's budget and watchdog, the fresh globals and the script's top
// level, the game table, the call and reading its answer. Target: under 20 µs.
func BenchmarkHookCall(b *testing.B) {
	r := houserules.New(houserules.Config{})
	s, _ := tiny{}.Start(context.Background(), sdk.StartRequest{Seats: 2, Options: sdk.Options{"hand_size": 5}, Deal: deal(), RNG: sdk.NewRNG(7)})
	call := &engine.HookCall{Rule: sdk.HouseRule{Name: "no-hearts", Version: 1, Source: noHearts}, Hook: engine.HookBefore,
		Ruleset: "tiny", Table: tiny{}.Table(s), Status: tiny{}.Status(s), Action: &sdk.Action{Seat: 0, Type: sdk.ActPlay, Cards: sdk.MustParseCards("5H")}}
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		res, err := r.Call(context.Background(), call)
		if err != nil || res.Refusal == "" {
			b.Fatal(err, res)
		}
	}
	// CPU time of the whole process (GC and watchdog included) per call: on a shared machine this
	// says more than ns/op, which is wall-clock time.
	b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
}

// processCPU is the user and system CPU time the process has used, in nanoseconds.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkAct compares one action through the engine without house rules and with two small
// ones (a before and an after hook), views skipped.
func BenchmarkAct(b *testing.B) {
	for _, bc := range []struct {
		name  string
		rules []sdk.HouseRule
	}{
		{"no house rules", nil},
		{"two house rules", []sdk.HouseRule{{Name: "no-hearts", Source: noHearts}, {Name: "kings-penalty", Source: kingsPenalty}}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			eng := engine.New[tinyState](tiny{}, houserules.Enable())
			st, err := eng.NewGame(context.Background(), &engine.NewGameRequest{Seats: 2, Seed: 7, Deal: deal(), HouseRules: bc.rules, NoViews: true})
			if err != nil {
				b.Fatal(err)
			}
			req := &engine.ActRequest{State: st.State, Action: play(0, "KS"), NoViews: true}
			b.ReportAllocs()
			cpu := processCPU()
			for b.Loop() {
				if _, err := eng.Act(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}
