package lastcard_test

import (
	"context"
	"encoding/json"
	"testing"

	"cardhouse/rulesets/lastcard"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest"
)

// BenchmarkRandomGame plays whole games (to 500 points, four seats) between bots of one level
// through the in-process engine with the SDK's playout driver; it reports the steps per game.
func BenchmarkRandomGame(b *testing.B) {
	for _, level := range []int{1, 2} {
		b.Run("level"+string(rune('0'+level)), func(b *testing.B) {
			e := engine.New(lastcard.New())
			steps := 0
			for i := 0; b.Loop(); i++ {
				res, err := rulesettest.Playout(context.Background(), e, rulesettest.PlayoutConfig{
					Seats: 4, Seed: uint64(i), Level: level, MaxSteps: 100000,
				})
				if err != nil {
					b.Fatal(err)
				}
				steps += res.Steps
			}
			b.ReportMetric(float64(steps)/float64(b.N), "steps/game")
		})
	}
}

// BenchmarkAct applies one play to a mid-round state of four seats: on the ruleset's own state
// type, and through the byte-level engine with and without the five views.
func BenchmarkAct(b *testing.B) {
	r := lastcard.New()
	e := engine.New(r)
	// Let level 2 bots play 40 steps so the state carries a log, then time the next bot move.
	res, err := rulesettest.Playout(context.Background(), e, rulesettest.PlayoutConfig{Seats: 4, Seed: 1, Level: 2, MaxSteps: 40})
	if err == nil || res.Final == nil {
		b.Fatalf("playout: %v", err)
	}
	blob := res.Final.State
	turn := res.Final.Status.Turn
	ans, err := e.Bot(context.Background(), &engine.BotCall{State: blob, Seat: turn, Level: 2, Seed: 1})
	if err != nil || ans.Action == nil {
		b.Fatalf("bot: %v", err)
	}
	a := *ans.Action

	b.Run("apply", func(b *testing.B) {
		in, err := e.Inspect(context.Background(), &engine.InspectRequest{State: blob})
		if err != nil || in.Status.Turn != turn {
			b.Fatal(err)
		}
		s := decodeState(b, blob)
		for b.Loop() {
			if _, err := r.Apply(context.Background(), sdk.ApplyRequest[*lastcard.State]{State: s, Action: a}); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The engine drops a state from its cache once an action is applied to it (the host goes on
	// from the new one), so acting on the same blob again decodes it: "engine" and "engine+views"
	// time a state the engine has not seen (a plugin just restarted, say), JSON decoding included.
	// The "cached" runs time what a plugin does for a live game, whose state it encoded itself
	// and still holds decoded: each iteration first caches blob again (Inspect, not timed).
	for _, views := range []bool{false, true} {
		name := "engine"
		if views {
			name = "engine+views"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := e.Act(context.Background(), &engine.ActRequest{State: blob, Action: a, NoViews: !views}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/cached", func(b *testing.B) {
			viewBuf := make([]byte, 0, 16<<10) // as the plugin server recycles one
			for b.Loop() {
				b.StopTimer()
				if _, err := e.Inspect(context.Background(), &engine.InspectRequest{State: blob}); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := e.Act(context.Background(), &engine.ActRequest{State: blob, Action: a, NoViews: !views, ViewBuf: viewBuf}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// decodeState reads the ruleset's state out of an engine blob.
func decodeState(b *testing.B, blob []byte) *lastcard.State {
	b.Helper()
	raw, err := engine.StateJSON(blob)
	if err != nil {
		b.Fatal(err)
	}
	var s lastcard.State
	if err := json.Unmarshal(raw, &s); err != nil {
		b.Fatal(err)
	}
	return &s
}
