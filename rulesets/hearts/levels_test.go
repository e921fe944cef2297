package hearts_test

import (
	"context"
	"flag"
	"math"
	"testing"

	"cardhouse/rulesets/hearts"
	"cardhouse/sdk"
	"cardhouse/sdk/botplay"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/search"
	"cardhouse/sdk/search/searchtest"
)

// TestEveryLevelSeesOnlyItsView is the information-set test for every bot level: at decisions of
// whole games, with the same seed, a bot chooses the same action whether or not the cards its
// seat cannot see are dealt again (sdk.Redealer), and the real state accepts it. Search budgets
// are scaled down and the clock is off.
func TestEveryLevelSeesOnlyItsView(t *testing.T) {
	t.Parallel()
	r := hearts.New()
	for _, tc := range []struct {
		name string
		opts map[string]any
	}{
		{"passing", map[string]any{}},
		{"no passing", map[string]any{"passing": false, "moon": "subtract"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			n := searchtest.InformationSet(t, r, searchtest.Config{
				Seats: 4, Options: tc.opts, Seeds: []uint64{1, 2}, Levels: []int{1, 2, 3, 4, 5},
				Every: 5, Max: 10, Scale: 0.05,
			})
			if n < 16 {
				t.Errorf("only %d decisions checked", n)
			}
		})
	}
}

// TestSearchPlaysLegally runs the flat and the tree search at decisions of whole games: every
// action the sampled worlds' Moves, RolloutMove and Simulate produce is accepted, and so is the
// choice.
func TestSearchPlaysLegally(t *testing.T) {
	t.Parallel()
	r := hearts.New()
	for _, sc := range []search.Config{{Iterations: 40}, {Iterations: 40, Tree: true}} {
		n, plies := searchtest.SearchPlays(t, r, searchtest.Config{Seats: 4, Options: map[string]any{}, Seeds: []uint64{5}, Every: 4, Scale: 1}, sc)
		if n < 5 || plies == 0 {
			t.Errorf("tree %v: only %d searches (%d simulated actions)", sc.Tree, n, plies)
		}
	}
}

var (
	ladderGames = flag.Int("ladder-games", 6, "deals per pair of levels in TestLevelsLadder (each played twice, the levels swapping seats)")
	ladderScale = flag.Float64("ladder-scale", 0.25, "the search levels' node budgets in TestLevelsLadder, as a share of the built ones")
)

// ladderAssert is the number of deals from which TestLevelsLadder fails a level that loses to the
// one below: a few deals say too little to fail on.
const ladderAssert = 50

// TestLevelsLadder plays each level against the one below (2 vs 1, ..., 5 vs 4), two seats each
// (seats 0 and 2 one level, 1 and 3 the other), every deal twice with the levels swapping seats,
// the search budgets scaled down and the clock off; it reports the first level's share of each
// deal's wins with a paired 95% interval, and fails only when a level clearly loses to the one
// below (the interval's top under 50%) over at least ladderAssert deals. The default is small for
// a shared machine and only reports; -ladder-games 300 -ladder-scale 1 for figures worth citing.
func TestLevelsLadder(t *testing.T) {
	if testing.Short() {
		t.Skip("plays whole games")
	}
	ctx := search.WithOverride(context.Background(), search.Override{Scale: *ladderScale, NoClock: true})
	e := engine.New(hearts.New())
	for lvl := 2; lvl <= 5; lvl++ {
		shares := make([]float64, 0, *ladderGames)
		for d := range *ladderGames {
			share := 0.0
			for swap := range 2 {
				hi, lo := lvl, lvl-1
				level := func(seat int) int {
					if (seat%2 == 0) == (swap == 0) {
						return hi
					}
					return lo
				}
				res, err := botplay.Play(ctx, e, botplay.Config{Seats: 4, Seed: uint64(1000*lvl + d), Games: 1,
					Options: map[string]any{"target": 50},
					Bot:     botplay.EngineBot(e, level, func(t *botplay.Turn) uint64 { return uint64(t.N*31 + t.Index + 7) })})
				if err != nil {
					t.Fatal(err)
				}
				if w := res.Final.Status.Winner; w != sdk.NoSeat && level(w) == hi {
					share += 0.5
				}
			}
			shares = append(shares, share)
		}
		mean, half := meanCI(shares)
		t.Logf("level %d vs %d: %d deals, first level's share %.1f%%, paired 95%% CI [%.1f%%, %.1f%%]", lvl, lvl-1, len(shares), 100*mean, 100*(mean-half), 100*(mean+half))
		if len(shares) >= ladderAssert && mean+half < 0.5 {
			t.Errorf("level %d loses to level %d: %.1f%% [%.1f%%, %.1f%%]", lvl, lvl-1, 100*mean, 100*(mean-half), 100*(mean+half))
		}
	}
}

// meanCI is the mean of xs and the half-width of its normal 95% interval.
func meanCI(xs []float64) (mean, half float64) {
	n := float64(len(xs))
	for _, x := range xs {
		mean += x
	}
	mean /= n
	v := 0.0
	for _, x := range xs {
		v += (x - mean) * (x - mean)
	}
	if n > 1 {
		v /= n - 1
	}
	return mean, 1.96 * math.Sqrt(v/n)
}
