package spades_test

import (
	"context"
	"flag"
	"math"
	"testing"

	"cardhouse/rulesets/spades"
	"cardhouse/sdk"
	"cardhouse/sdk/botplay"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/search"
	"cardhouse/sdk/search/searchtest"
)

// TestEveryLevelSeesOnlyItsView: at decisions of whole games, with the same seed, every level
// chooses the same action whether or not the cards its seat cannot see are dealt again, and the
// real state accepts it. Search budgets are scaled down and the clock is off.
func TestEveryLevelSeesOnlyItsView(t *testing.T) {
	t.Parallel()
	r := spades.New()
	for _, tc := range []struct {
		name string
		opts map[string]any
	}{
		{"classic", map[string]any{"target": 100}},
		{"blind nil", map[string]any{"target": 100, "blind_nil": true}},
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
// action the sampled worlds' Moves and playouts produce is accepted, and so is the choice.
func TestSearchPlaysLegally(t *testing.T) {
	t.Parallel()
	r := spades.New()
	for _, sc := range []search.Config{{Iterations: 30}, {Iterations: 30, Tree: true}} {
		n, plies := searchtest.SearchPlays(t, r, searchtest.Config{Seats: 4, Options: map[string]any{"target": 100}, Seeds: []uint64{5}, Every: 6, Scale: 1}, sc)
		if n < 5 || plies == 0 {
			t.Errorf("tree %v: only %d searches (%d simulated actions)", sc.Tree, n, plies)
		}
	}
}

var ladderDeals = flag.Int("spades.deals", 3, "deals per pair of levels in TestLevelsLadder (each played twice, the partnerships swapped)")

// TestLevelsLadder plays each level's partnership against the level below's, every deal twice
// with the partnerships swapped (duplicate), in games to 200 points, search budgets at a quarter
// and the clock off, and reports the upper level's share of each deal's wins with its paired 95%
// interval. With the default few deals it only checks that the games end and logs the figures;
// run it with -spades.deals=100 (or `cardhouse tournament --variant spades --duplicate`) for the
// ladder's numbers.
func TestLevelsLadder(t *testing.T) {
	if testing.Short() {
		t.Skip("plays whole games")
	}
	t.Parallel()
	e := engine.New(spades.New())
	ctx := search.WithOverride(context.Background(), search.Override{Scale: 0.25, NoClock: true})
	for _, pair := range [][2]int{{2, 1}, {3, 2}, {4, 3}, {5, 4}} {
		var shares []float64
		for d := range *ladderDeals {
			share := 0.0
			for swap := range 2 {
				levels := func(seat int) int { return pair[(seat+swap)%2] }
				seed := uint64(1000*pair[0] + d)
				res, err := botplay.Play(ctx, e, botplay.Config{
					Seats: 4, Options: map[string]any{"target": 200}, Seed: seed, MaxSteps: 5000,
					Bot: botplay.EngineBot(e, levels, func(t *botplay.Turn) uint64 { return seed*1_000_003 + uint64(t.N) }),
				})
				if err != nil {
					t.Fatalf("levels %v, deal %d: %v", pair, d, err)
				}
				st := res.Final.Status
				if st.Phase != sdk.PhaseGameOver {
					t.Fatalf("levels %v, deal %d: the game did not end (%s)", pair, d, st.Phase)
				}
				if levels(st.Winner) == pair[0] {
					share += 0.5
				}
			}
			shares = append(shares, share)
		}
		mean, lo, hi := interval(shares)
		t.Logf("level %d vs %d: %d deals, upper level's share %.1f%%, paired 95%% CI [%.1f%%, %.1f%%]", pair[0], pair[1], len(shares), 100*mean, 100*lo, 100*hi)
	}
}

// interval is the mean of xs and its 95% normal interval.
func interval(xs []float64) (mean, lo, hi float64) {
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
	h := 1.96 * math.Sqrt(v/n)
	return mean, max(0, mean-h), min(1, mean+h)
}
