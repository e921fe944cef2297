package hearts_test

import (
	"context"
	"testing"
	"time"

	"cardhouse/rulesets/hearts"
	"cardhouse/sdk"
	"cardhouse/sdk/search"
)

// BenchmarkLevel5Move times level 5's whole move (the bot as the engine calls it, its time budget
// on) at the decisions of a game played by level-2 bots, and reports the slowest.
func BenchmarkLevel5Move(b *testing.B) {
	r := hearts.New()
	ctx := context.Background()
	opts, _ := sdk.ValidateOptions(r.Info().Options, map[string]any{"passing": false})
	var slowest time.Duration
	for i := 0; b.Loop(); i++ {
		s, err := r.Start(ctx, sdk.StartRequest{Seats: 4, Options: opts, RNG: sdk.NewRNG(uint64(i))})
		if err != nil {
			b.Fatal(err)
		}
		seat := r.Status(s).Actors[0]
		// Play into the hand with level-2 bots, then time one level-5 move.
		rng := sdk.NewRNG(uint64(i) + 9)
		for range 4 * (i % 10) {
			a, _ := r.Bot(ctx, sdk.BotRequest{Seat: seat, Level: 2, View: r.View(s, seat), History: r.History(s, seat), RNG: &rng})
			res, err := r.Apply(ctx, sdk.ApplyRequest[*hearts.State]{State: s, Action: *a})
			if err != nil {
				b.Fatal(err)
			}
			s = res.State
			seat = r.Status(s).Actors[0]
		}
		start := time.Now()
		if _, err := r.Bot(ctx, sdk.BotRequest{Seat: seat, Level: 5, View: r.View(s, seat), History: r.History(s, seat), RNG: &rng}); err != nil {
			b.Fatal(err)
		}
		slowest = max(slowest, time.Since(start))
	}
	b.ReportMetric(float64(slowest.Microseconds())/1000, "slowest-ms")
}

// BenchmarkLevel5Search times level 5's search with its node budget alone (clock off) from a
// decision in the middle of a first trick with several cards to choose from.
func BenchmarkLevel5Search(b *testing.B) {
	r := hearts.New()
	ctx := search.WithOverride(context.Background(), search.Override{NoClock: true})
	opts, _ := sdk.ValidateOptions(r.Info().Options, map[string]any{"passing": false})
	s, _ := r.Start(ctx, sdk.StartRequest{Seats: 4, Options: opts, RNG: sdk.NewRNG(1)})
	rng := sdk.NewRNG(2)
	for range 6 { // into the second trick
		seat := r.Status(s).Actors[0]
		a, _ := r.Bot(ctx, sdk.BotRequest{Seat: seat, Level: 2, View: r.View(s, seat), History: r.History(s, seat), RNG: &rng})
		res, err := r.Apply(ctx, sdk.ApplyRequest[*hearts.State]{State: s, Action: *a})
		if err != nil {
			b.Fatal(err)
		}
		s = res.State
	}
	seat := r.Status(s).Actors[0]
	req := sdk.BotRequest{Seat: seat, Level: 5, View: r.View(s, seat), History: r.History(s, seat)}
	b.ReportMetric(float64(len(s.Legal(seat))), "moves")
	for i := 0; b.Loop(); i++ {
		g := sdk.NewRNG(uint64(i))
		req.RNG = &g
		if _, err := r.Bot(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}
