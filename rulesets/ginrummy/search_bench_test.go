package ginrummy_test

import (
	"context"
	"testing"
	"time"

	"cardhouse/rulesets/ginrummy"
	"cardhouse/sdk"
	"cardhouse/sdk/search"
	"cardhouse/sdk/search/searchtest"
)

// BenchmarkSearch times one search with the generic level 5's budget (the clock off) from the
// first decision of a game, and reports the simulated actions per second.
func BenchmarkSearch(b *testing.B) {
	cfg, _ := search.Level(5)
	cfg.Time = 0
	searchtest.BenchmarkSearch(b, ginrummy.New(), 2, map[string]any{}, cfg)
}

// BenchmarkLevelFiveMove times level 5's whole move, its clock on as in a room, at the decisions
// of a game played by level 2 (draws, discards, knocks and layoffs alike), and reports the
// slowest move too.
func BenchmarkLevelFiveMove(b *testing.B) {
	r := ginrummy.New()
	ctx := context.Background()
	var states []*ginrummy.State
	s, err := r.Start(ctx, sdk.StartRequest{Seats: 2, Options: sdk.Options{"target": 100}, Seed: 3, RNG: sdk.NewRNG(3)})
	if err != nil {
		b.Fatal(err)
	}
	for step := 0; len(states) < 40 && s.Phase != sdk.PhaseGameOver; step++ {
		a := &sdk.Action{Seat: sdk.Host, Type: sdk.ActDeal}
		if s.Phase == sdk.PhasePlaying {
			states = append(states, s)
			rng := sdk.NewRNG(uint64(step))
			if a, err = r.Bot(ctx, sdk.BotRequest{Seat: s.Turn, Level: 2, View: r.View(s, s.Turn), RNG: &rng}); err != nil {
				b.Fatal(err)
			}
		}
		res, err := r.Apply(ctx, sdk.ApplyRequest[*ginrummy.State]{State: s, Action: *a})
		if err != nil {
			b.Fatal(err)
		}
		s = res.State
	}
	var slowest time.Duration
	b.ResetTimer()
	for i := range b.N {
		st := states[i%len(states)]
		rng := sdk.NewRNG(uint64(i))
		start := time.Now()
		if _, err := r.Bot(ctx, sdk.BotRequest{Seat: st.Turn, Level: 5, View: r.View(st, st.Turn), RNG: &rng}); err != nil {
			b.Fatal(err)
		}
		slowest = max(slowest, time.Since(start))
	}
	b.ReportMetric(float64(slowest.Microseconds())/1000, "slowest-ms")
}
