package builtin_test

import (
	"context"
	"errors"
	"maps"
	"slices"
	"syscall"
	"testing"

	"cardhouse/plugins/builtin"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest"
)

// BenchmarkLeanStep times, per action, what a sticky plugin does for a live game whose every
// connection speaks protocol v2 (issue 30 change 3): the rules and the card check, every seat's
// patch and open actions, no view encoded, no state written back (OmitState), no spectator. Each
// variant replays a recorded game of up to four seats (Gin Rummy two) action by action; the
// deal that starts each replay is not timed. ns/op is per action.
func BenchmarkLeanStep(b *testing.B) {
	ctx := context.Background()
	engines := builtin.Engines()
	for _, id := range slices.Sorted(maps.Keys(engines)) {
		b.Run(id, func(b *testing.B) {
			e := engines[id]()
			desc, err := e.Describe(ctx)
			if err != nil {
				b.Fatal(err)
			}
			start := engine.NewGameRequest{Seats: min(4, desc.MaxSeats), Seed: 11}
			var moves []rulesettest.Move
			pc := rulesettest.PlayoutConfig{Seats: start.Seats, Seed: start.Seed, MaxSteps: 400, Random: 0.2,
				OnAct: func(_ context.Context, a rulesettest.Attempt) error {
					if a.Err == nil {
						moves = append(moves, rulesettest.Move{Action: a.Action, Now: a.Now})
					}
					return nil
				}}
			if _, err := rulesettest.Playout(ctx, engines[id](), pc); err != nil && !errors.Is(err, rulesettest.ErrNotEnded) {
				b.Fatal(err)
			}
			seq, phase := len(moves), ""
			b.ReportAllocs()
			cpu := processCPU()
			for b.Loop() {
				if seq == len(moves) {
					b.StopTimer()
					req := start
					req.Game = "bench"
					st, err := e.NewGame(ctx, &req)
					if err != nil {
						b.Fatal(err)
					}
					seq, phase = 0, st.Status.Phase
					b.StartTimer()
				}
				m := moves[seq]
				st, err := e.Act(ctx, &engine.ActRequest{GameRef: engine.GameRef{Game: "bench", Seq: seq}, Action: m.Action, Now: m.Now,
					Patches: true, PatchesOnly: true, NoSpectator: true, OmitState: true, Phase: phase})
				if err != nil {
					b.Fatalf("action %d: %v", seq, err)
				}
				seq, phase = seq+1, st.Status.Phase
				if phase == sdk.PhaseGameOver {
					seq = len(moves)
				}
			}
			// The process's CPU (the collector's too), which a loaded machine does not inflate
			// as it does the wall-clock ns/op.
			b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// processCPU is the CPU time the process has used, user and system, in nanoseconds.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
