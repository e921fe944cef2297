package lastcard_test

import (
	"context"
	"testing"

	"cardhouse/rulesets/lastcard"
	"cardhouse/sdk"
	"cardhouse/sdk/search"
)

// BenchmarkSearch times one level 5 search (its node budget, the clock switched off) from the
// first decision of a two-seat round, and reports the simulated actions applied per second.
func BenchmarkSearch(b *testing.B) {
	r := lastcard.New()
	o, err := sdk.CheckOptions(r.Info(), r, 2, map[string]any{"target": "single"})
	if err != nil {
		b.Fatal(err)
	}
	s, err := r.Start(context.Background(), sdk.StartRequest{Seats: 2, Options: o, Seed: 3, RNG: sdk.NewRNG(3)})
	if err != nil {
		b.Fatal(err)
	}
	ctx := search.WithOverride(context.Background(), search.Override{NoClock: true})
	plies := 0
	for i := 0; b.Loop(); i++ {
		rng := sdk.NewRNG(uint64(i))
		res, err := search.Search[*lastcard.State](ctx, r, sdk.BotRequest{Seat: 0, Level: 5, View: r.View(s, 0), History: r.History(s, 0), RNG: &rng},
			search.Config{Iterations: 700, Tree: true})
		if err != nil {
			b.Fatal(err)
		}
		plies += res.Plies
	}
	b.ReportMetric(float64(plies)/b.Elapsed().Seconds(), "plies/s")
	b.ReportMetric(float64(plies)/float64(b.N), "plies/op")
}
