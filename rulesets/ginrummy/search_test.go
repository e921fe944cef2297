package ginrummy_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"cardhouse/rulesets/ginrummy"
	"cardhouse/sdk"
	"cardhouse/sdk/search"
	"cardhouse/sdk/search/searchtest"
)

// TestSimulateAgreesWithApply: from decisions of whole games, Simulate's in-place playout reaches
// the very state that RolloutMove's actions reach one Apply at a time with the same randomness,
// every one of them accepted, and leaves the state it starts from as it was.
func TestSimulateAgreesWithApply(t *testing.T) {
	t.Parallel()
	r := ginrummy.New()
	ctx := context.Background()
	enc := func(s *ginrummy.State) string {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	checked, ended := 0, 0
	searchtest.Games(t, r, searchtest.Config{Seats: 2, Options: map[string]any{"target": 30, "big_gin": true}, Seeds: []uint64{1, 2, 3}}, func(d searchtest.Decision[*ginrummy.State]) {
		for _, limit := range []int{3, 1000} {
			before := enc(d.State)
			g := sdk.NewRNG(d.Seed*131 + uint64(d.Step))
			sim, n := r.Simulate(d.State, limit, &g)
			if enc(d.State) != before {
				t.Fatalf("seed %d step %d: Simulate changed the state it started from", d.Seed, d.Step)
			}
			g = sdk.NewRNG(d.Seed*131 + uint64(d.Step))
			s := d.State
			m := 0
			for ; m < limit && r.Decider(s) != sdk.NoSeat; m++ {
				res, err := r.Apply(ctx, sdk.ApplyRequest[*ginrummy.State]{State: s, Action: r.RolloutMove(s, r.Decider(s), &g)})
				if err != nil {
					t.Fatalf("seed %d step %d: the rollout's move %d is refused: %v", d.Seed, d.Step, m, err)
				}
				s = res.State
			}
			if n != m || enc(sim) != enc(s) {
				t.Fatalf("seed %d step %d, limit %d: Simulate played %d actions to\n%s\nApply %d to\n%s", d.Seed, d.Step, limit, n, enc(sim), m, enc(s))
			}
			checked++
			if r.Decider(s) == sdk.NoSeat {
				ended++
			}
		}
	})
	if checked < 50 || ended < 20 {
		t.Errorf("only %d playouts compared, %d to the hand's end", checked, ended)
	}
}

// TestMovesOfferLevelTwosMove: at every decision of whole games, the search's candidate moves
// include level 2's choice, the default a search level keeps unless another move beats it (were it
// missing, the search would take the best-looking of its candidates on noise alone).
func TestMovesOfferLevelTwosMove(t *testing.T) {
	t.Parallel()
	r := ginrummy.New()
	ctx := context.Background()
	n := 0
	searchtest.Games(t, r, searchtest.Config{Seats: 2, Options: map[string]any{"target": 60, "big_gin": true}, Seeds: []uint64{1, 2, 3, 4}}, func(d searchtest.Decision[*ginrummy.State]) {
		if r.Decider(d.State) != d.Seat {
			return
		}
		rng := sdk.NewRNG(d.Seed + uint64(d.Step))
		a, err := r.Bot(ctx, sdk.BotRequest{Seat: d.Seat, Level: 2, View: r.View(d.State, d.Seat), History: r.History(d.State, d.Seat), RNG: &rng})
		if err != nil || a == nil {
			t.Fatalf("seed %d step %d: level 2 gave %v, %v", d.Seed, d.Step, a, err)
		}
		a.Seat = d.Seat
		moves := r.Moves(d.State, d.Seat)
		if !slices.ContainsFunc(moves, func(m sdk.Action) bool { return search.Key(m) == search.Key(*a) }) {
			keys := make([]string, len(moves))
			for i, m := range moves {
				keys[i] = search.Key(m)
			}
			t.Fatalf("seed %d step %d: level 2 chose %s, not among the search's moves %v", d.Seed, d.Step, search.Key(*a), keys)
		}
		n++
	})
	if n < 100 {
		t.Errorf("only %d decisions checked", n)
	}
}
