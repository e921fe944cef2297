package drugs

import (
	"context"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest"
)

// BenchmarkRandomGame plays whole games in process on the state type (views, history and a
// bot decision at every step, the card check after every action), per seat count and bot level.
func BenchmarkRandomGame(b *testing.B) {
	for _, c := range []struct {
		name  string
		seats int
		chaos bool
		level int
	}{{"2seats/L1", 2, false, 1}, {"4seats-chaos/L1", 4, true, 1}, {"4seats-chaos/L2", 4, true, 2}, {"8seats/L2", 8, false, 2}} {
		b.Run(c.name, func(b *testing.B) {
			actions := 0
			seed := uint64(0)
			for b.Loop() {
				seed++
				_, n, _ := playout(b, c.seats, c.chaos, c.level, seed)
				actions += n
			}
			b.ReportMetric(float64(actions)/float64(b.N), "actions/game")
		})
	}
}

// BenchmarkRandomGameEngine plays whole games through the byte-level engine (JSON state, no
// views) with the SDK's playout driver: level-2 bots, 4 seats, chaos on.
func BenchmarkRandomGameEngine(b *testing.B) {
	e := engine.New(New())
	ctx := context.Background()
	seed := uint64(0)
	steps := 0
	for b.Loop() {
		seed++
		res, err := rulesettest.Playout(ctx, e, rulesettest.PlayoutConfig{Seats: 4, Options: map[string]any{"chaos": true}, Seed: seed, Level: 2})
		if err != nil || !res.Ended {
			b.Fatalf("seed %d: %v", seed, err)
		}
		steps += res.Steps
	}
	b.ReportMetric(float64(steps)/float64(b.N), "actions/game")
}

// BenchmarkAct applies one play to a fresh 4-seat game state, in process.
func BenchmarkAct(b *testing.B) {
	r := New()
	ctx := context.Background()
	s, err := r.Start(ctx, sdk.StartRequest{Seats: 4, Options: sdk.Options{OptOverdose: 4, OptChaos: true}, RNG: sdk.NewRNG(7)})
	if err != nil {
		b.Fatal(err)
	}
	a := sdk.Action{Seat: s.Turn, Type: sdk.ActPlay, Cards: r.View(s, s.Turn).Actions[0].Cards[:1]}
	for b.Loop() {
		if _, err := r.Apply(ctx, sdk.ApplyRequest[*State]{State: s, Action: a}); err != nil {
			b.Fatal(err)
		}
	}
}
