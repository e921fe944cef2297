package hotspot

import (
	"context"
	"fmt"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest"
)

// BenchmarkRandomGame plays whole games through the engine (state bytes in and out, as the host
// does) with the playout driver: level-1 bots and a share of random actions from the views.
// games/s is the figure to report.
func BenchmarkRandomGame(b *testing.B) {
	for _, seats := range []int{4, 8} {
		b.Run(fmt.Sprintf("seats=%d", seats), func(b *testing.B) {
			e := engine.New(New())
			ctx := context.Background()
			steps := 0
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				res, err := rulesettest.Playout(ctx, e, rulesettest.PlayoutConfig{Seats: seats, Seed: uint64(i), Level: 1})
				if err != nil {
					b.Fatal(err)
				}
				steps += res.Steps
			}
			b.ReportMetric(float64(steps)/float64(b.N), "steps/game")
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
		})
	}
}

// BenchmarkRandomGameInProcess plays whole games on the ruleset's own state type, with no
// encoding: level-1 bots for the seat in turn, LAST CARD windows left to expire.
func BenchmarkRandomGameInProcess(b *testing.B) {
	for _, seats := range []int{4, 8} {
		b.Run(fmt.Sprintf("seats=%d", seats), func(b *testing.B) {
			r := New()
			ctx := context.Background()
			opts, _ := r.CheckOptions(seats, sdk.Options{})
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				s, err := r.Start(ctx, sdk.StartRequest{Seats: seats, Options: opts, RNG: sdk.NewRNG(uint64(i))})
				if err != nil {
					b.Fatal(err)
				}
				rng := sdk.NewRNG(uint64(i) + 1)
				for now := int64(0); !s.over(); now += 500 {
					if now > 1e7 {
						b.Fatalf("game %d did not end", i)
					}
					var a *sdk.Action
					if ws := r.Status(s).Deadlines; len(ws) > 0 && ws[0].At <= now {
						a = &sdk.Action{Seat: sdk.Clock, Type: sdk.ActDeadline, Deadline: ws[0].ID}
					} else if a, err = r.Bot(ctx, sdk.BotRequest{Seat: s.Turn, Level: 1, View: r.View(s, s.Turn), RNG: &rng}); err != nil {
						b.Fatal(err)
					}
					res, err := r.Apply(ctx, sdk.ApplyRequest[*State]{State: s, Action: *a, Now: now})
					if err != nil {
						b.Fatalf("game %d: %+v: %v", i, a, err)
					}
					s = res.State
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
		})
	}
}

// BenchmarkAct measures one action in-process on the ruleset (Apply: clone, check, apply) and
// through the engine (decode, apply, encode, all views): the cost of a server's dry-run check.
func BenchmarkAct(b *testing.B) {
	r := New()
	ctx := context.Background()
	s := deal(b, nil, "9C 7H", "QH QC 3C 3H 3S 3D 9S", "5C 8S", "KC 2H", "4D 6D 8D")
	a := play(0, "QH QC 3C 3H 3S 3D")
	b.Run("apply", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := r.Apply(ctx, sdk.ApplyRequest[*State]{State: s, Action: a}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("checkplay", func(b *testing.B) {
		b.ReportAllocs()
		pos, hand := s.position(), s.Hands[0]
		for b.Loop() {
			if !CheckPlay(pos, hand, a.Cards).Legal {
				b.Fatal("illegal")
			}
		}
	})
	e := engine.New(r)
	first := 0
	d := &sdk.Deal{Pile: cards("9C 7H"), First: &first, Hands: [][]sdk.Card{cards("QH QC 3C 3H 3S 3D 9S"), cards("5C 8S"), cards("KC 2H"), cards("4D 6D 8D")}}
	st, err := e.NewGame(ctx, &engine.NewGameRequest{Seats: 4, Deal: d})
	if err != nil {
		b.Fatal(err)
	}
	for _, views := range []bool{false, true} {
		b.Run(fmt.Sprintf("engine/views=%v", views), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := e.Act(ctx, &engine.ActRequest{State: st.State, Action: a, NoViews: !views}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
