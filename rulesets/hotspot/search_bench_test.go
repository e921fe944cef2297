package hotspot_test

import (
	"context"
	"testing"

	"cardhouse/rulesets/hotspot"
	"cardhouse/sdk"
	"cardhouse/sdk/search"
)

// BenchmarkSearch times one level 5 search (the generic level's node budget, the clock switched
// off) from the first decision of a two-seat game, and reports the simulated actions per second.
func BenchmarkSearch(b *testing.B) {
	r := hotspot.New()
	o, err := sdk.CheckOptions(r.Info(), r, 2, map[string]any{})
	if err != nil {
		b.Fatal(err)
	}
	s, err := r.Start(context.Background(), sdk.StartRequest{Seats: 2, Options: o, Seed: 3, RNG: sdk.NewRNG(3)})
	if err != nil {
		b.Fatal(err)
	}
	ctx := search.WithOverride(context.Background(), search.Override{NoClock: true})
	plies := 0
	seat := r.Status(s).Actors[0]
	for i := 0; b.Loop(); i++ {
		rng := sdk.NewRNG(uint64(i))
		res, err := search.Search[*hotspot.State](ctx, r, sdk.BotRequest{Seat: seat, Level: 5, View: r.View(s, seat), History: r.History(s, seat), RNG: &rng},
			search.Config{Iterations: 900})
		if err != nil {
			b.Fatal(err)
		}
		plies += res.Plies
	}
	b.ReportMetric(float64(plies)/b.Elapsed().Seconds(), "plies/s")
	b.ReportMetric(float64(plies)/float64(b.N), "plies/op")
}
