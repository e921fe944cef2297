package hearts_test

import (
	"testing"

	"cardhouse/rulesets/hearts"
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

// ladder's flags: -hearts.deals N plays the long ladder (docs/bots.md).
var ladder = searchtest.NewLadderFlags("hearts", searchtest.Ladder{Seed: 1000})

// TestLevelsLadder plays each level against the one below, four seats (seats 0 and 2 one level,
// 1 and 3 the other), every deal twice with the levels swapping seats, in games to 50 points, the
// search budgets as built and the clock off, and reports the upper level's share of each deal's
// wins with its paired 95% interval (searchtest.RunLadder). The default run is short: level 2
// against level 1, and level 5 against level 1 on a tenth of its budget, over a few deals, the
// upper level not to lose; with -hearts.deals 150 it is the ladder of docs/bots.md and fails a
// pair not separated.
func TestLevelsLadder(t *testing.T) {
	searchtest.RunLadder(t, engine.New(hearts.New()), ladder,
		searchtest.Ladder{Seats: 4, Options: map[string]any{"target": 50}},
		searchtest.Ladder{Pairs: [][2]int{{2, 1}, {5, 1}}, Deals: 3, Scale: 0.1})
}
