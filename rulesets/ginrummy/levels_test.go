package ginrummy_test

import (
	"context"
	"flag"
	"fmt"
	"math"
	"strings"
	"testing"

	"cardhouse/rulesets/ginrummy"
	"cardhouse/sdk"
	"cardhouse/sdk/search"
	"cardhouse/sdk/search/searchtest"
)

var (
	ladderDeals  = flag.Int("ginrummy.deals", 0, "deals per pair of levels in TestLevelsLadder (each played twice, seats swapped); 0 runs the short default")
	ladderTarget = flag.Int("ginrummy.target", 10, "the target score of TestLevelsLadder's games (10: about one hand)")
	ladderScale  = flag.Float64("ginrummy.scale", 0.25, "search budget scale of TestLevelsLadder")
	ladderPairs  = flag.String("ginrummy.pairs", "2:1,3:2,4:3,5:4", "the pairs of levels TestLevelsLadder plays with -ginrummy.deals, higher first")
)

// TestEveryLevelSeesOnlyItsView is the information-set test for every bot level: at decisions of
// whole games, with the same seed, a bot chooses the same action whether or not the cards its
// seat cannot see are dealt again (sdk.Redealer), and the real state accepts it.
func TestEveryLevelSeesOnlyItsView(t *testing.T) {
	t.Parallel()
	n := searchtest.InformationSet(t, ginrummy.New(), searchtest.Config{
		Seats: 2, Options: map[string]any{"target": 30}, Seeds: []uint64{1, 2}, Levels: []int{1, 2, 3, 4, 5},
		Every: 3, Max: 10, Scale: 0.05,
	})
	if n < 16 {
		t.Errorf("only %d decisions checked", n)
	}
}

// TestSearchPlaysLegally runs the flat and the tree search at decisions of whole games: every
// action the sampled worlds' Moves and RolloutMove produce is accepted, and so is the choice.
func TestSearchPlaysLegally(t *testing.T) {
	t.Parallel()
	for _, sc := range []search.Config{{Iterations: 40}, {Iterations: 40, Tree: true}} {
		n, plies := searchtest.SearchPlays(t, ginrummy.New(), searchtest.Config{Seats: 2, Options: map[string]any{"big_gin": true, "target": 30}, Seeds: []uint64{5}, Every: 4, Scale: 1}, sc)
		if n < 5 || plies == 0 {
			t.Errorf("tree %v: only %d searches (%d simulated actions)", sc.Tree, n, plies)
		}
	}
}

// game plays one game with levels[seat] at each seat and returns the winner.
func game(t testing.TB, ctx context.Context, seed uint64, target int, levels [2]int) int {
	r := ginrummy.New()
	s, err := r.Start(ctx, sdk.StartRequest{Seats: 2, Options: sdk.Options{"target": target}, Seed: seed, RNG: sdk.NewRNG(seed)})
	if err != nil {
		t.Fatal(err)
	}
	for step := 0; step < 20000; step++ {
		switch s.Phase {
		case sdk.PhaseGameOver:
			return s.Winner
		case sdk.PhaseRoundOver:
			res, err := r.Apply(ctx, sdk.ApplyRequest[*ginrummy.State]{State: s, Action: sdk.Action{Seat: sdk.Host, Type: sdk.ActDeal}})
			if err != nil {
				t.Fatal(err)
			}
			s = res.State
			continue
		}
		rng := sdk.NewRNG(seed*7919 + uint64(step))
		a, err := r.Bot(ctx, sdk.BotRequest{Seat: s.Turn, Level: levels[s.Turn], View: r.View(s, s.Turn), RNG: &rng})
		if err != nil || a == nil {
			t.Fatalf("seed %d step %d: level %d gave %v, %v", seed, step, levels[s.Turn], a, err)
		}
		res, err := r.Apply(ctx, sdk.ApplyRequest[*ginrummy.State]{State: s, Action: *a})
		if err != nil {
			t.Fatalf("seed %d step %d: level %d's %+v refused: %v", seed, step, levels[s.Turn], a, err)
		}
		s = res.State
	}
	t.Fatalf("seed %d: the game did not end", seed)
	return -1
}

// ladder plays deals of hi against lo, each deal twice with the seats swapped, and returns hi's
// mean share of each deal's two games and the paired 95% interval's half-width.
func ladder(t testing.TB, hi, lo, deals, target int, scale float64) (mean, half float64) {
	ctx := search.WithOverride(context.Background(), search.Override{Scale: scale, NoClock: true})
	shares := make([]float64, deals)
	for d := range deals {
		seed := uint64(1000 + d)
		w := 0.0
		if game(t, ctx, seed, target, [2]int{hi, lo}) == 0 {
			w++
		}
		if game(t, ctx, seed, target, [2]int{lo, hi}) == 1 {
			w++
		}
		shares[d] = w / 2
		mean += shares[d]
	}
	mean /= float64(deals)
	v := 0.0
	for _, x := range shares {
		v += (x - mean) * (x - mean)
	}
	if deals > 1 {
		v /= float64(deals - 1)
	}
	return mean, 1.96 * math.Sqrt(v/float64(deals))
}

// TestLevelsLadder shows each level against the one below: hi's share of the wins over deals
// played both ways round, with the paired 95% interval. By default it plays a few deals of short
// games (target 10) and requires only that level 2 is ahead of level 1 (a wide gap); with
// -ginrummy.deals N it plays N deals per pair and requires every interval to lie above 50%.
func TestLevelsLadder(t *testing.T) {
	if testing.Short() {
		t.Skip("plays whole games of searching bots")
	}
	deals, strict := *ladderDeals, true
	var pairs [][2]int
	for _, p := range strings.Split(*ladderPairs, ",") {
		var hi, lo int
		if _, err := fmt.Sscanf(p, "%d:%d", &hi, &lo); err != nil {
			t.Fatalf("-ginrummy.pairs: %q is not HI:LO", p)
		}
		pairs = append(pairs, [2]int{hi, lo})
	}
	if deals == 0 {
		deals, strict, pairs = 40, false, [][2]int{{2, 1}}
	}
	for _, p := range pairs {
		mean, half := ladder(t, p[0], p[1], deals, *ladderTarget, *ladderScale)
		t.Logf("level %d vs %d: %d games (%d deals), target %d, scale %.2f: %.1f%% [%.1f%%, %.1f%%]",
			p[0], p[1], 2*deals, deals, *ladderTarget, *ladderScale, 100*mean, 100*(mean-half), 100*(mean+half))
		if (strict || p == [2]int{2, 1}) && mean-half <= 0.5 {
			t.Errorf("level %d is not ahead of level %d: %.1f%% [%.1f%%, %.1f%%]", p[0], p[1], 100*mean, 100*(mean-half), 100*(mean+half))
		}
	}
}
