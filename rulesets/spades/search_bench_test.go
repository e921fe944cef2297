package spades_test

import (
	"context"
	"testing"

	"cardhouse/rulesets/spades"
	"cardhouse/sdk"
	"cardhouse/sdk/search"
	"cardhouse/sdk/search/searchtest"
)

// BenchmarkSearch times one search with the generic level 5's budget (its clock off) from the
// first decision of a game, and reports the simulated actions per second.
func BenchmarkSearch(b *testing.B) {
	cfg, _ := search.Level(5)
	cfg.Time = 0
	searchtest.BenchmarkSearch(b, spades.New(), 4, map[string]any{}, cfg)
}

// BenchmarkLevelFiveMove times level 5's whole move (Bot, its clock on as in a game) at the
// first card of a hand: the opening lead after level-2 bids, the widest search of a hand.
func BenchmarkLevelFiveMove(b *testing.B) {
	r := spades.New()
	ctx := context.Background()
	s, err := r.Start(ctx, sdk.StartRequest{Seats: 4, Options: sdk.Options{"target": 500, "mercy": true}, RNG: sdk.NewRNG(3)})
	if err != nil {
		b.Fatal(err)
	}
	bidding := func() bool { v := r.View(s, r.Decider(s)); return v.Has(sdk.ActBid) }
	for i := 0; bidding(); i++ {
		seat := r.Decider(s)
		rng := sdk.NewRNG(uint64(i))
		a, err := r.Bot(ctx, sdk.BotRequest{Seat: seat, Level: 2, View: r.View(s, seat), History: r.History(s, seat), RNG: &rng})
		if err != nil {
			b.Fatal(err)
		}
		res, err := r.Apply(ctx, sdk.ApplyRequest[*spades.State]{State: s, Action: *a})
		if err != nil {
			b.Fatal(err)
		}
		s = res.State
	}
	seat := r.Decider(s)
	v, h := r.View(s, seat), r.History(s, seat)
	b.ResetTimer()
	for i := range b.N {
		rng := sdk.NewRNG(uint64(i))
		if _, err := r.Bot(ctx, sdk.BotRequest{Seat: seat, Level: 5, View: v, History: h, RNG: &rng}); err != nil {
			b.Fatal(err)
		}
	}
}
