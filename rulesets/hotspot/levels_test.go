package hotspot_test

import (
	"testing"

	"cardhouse/rulesets/hotspot"
	"cardhouse/sdk/search"
	"cardhouse/sdk/search/searchtest"
)

// TestEveryLevelSeesOnlyItsView is issue 9's information-set test (L-11) for every bot level:
// at decisions of whole games (2 and 3 seats, two option sets), with the same seed, a bot chooses
// the same action whether or not the cards its seat cannot see are dealt again (sdk.Redealer),
// and the real state accepts it. Search budgets are scaled down and the clock is off.
func TestEveryLevelSeesOnlyItsView(t *testing.T) {
	t.Parallel()
	r := hotspot.New()
	for _, tc := range []struct {
		name  string
		seats int
		opts  map[string]any
	}{
		{"two seats", 2, map[string]any{}},
		{"three seats", 3, map[string]any{"play_after_draw": true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			n := searchtest.InformationSet(t, r, searchtest.Config{
				Seats: tc.seats, Options: tc.opts, Seeds: []uint64{1, 2}, Levels: []int{1, 2, 3, 4, 5},
				Every: 3, Max: 10, Scale: 0.05,
			})
			if n < 16 {
				t.Errorf("only %d decisions checked", n)
			}
		})
	}
}

// TestSearchPlaysLegally runs the flat and the tree search at decisions of whole games: every
// action the sampled worlds' Moves and RolloutMove produce is accepted, and so is the choice.
func TestSearchPlaysLegally(t *testing.T) {
	t.Parallel()
	r := hotspot.New()
	for _, sc := range []search.Config{{Iterations: 40}, {Iterations: 40, Tree: true}} {
		n, plies := searchtest.SearchPlays(t, r, searchtest.Config{Seats: 3, Options: map[string]any{"play_after_draw": true}, Seeds: []uint64{5}, Every: 4, Scale: 1}, sc)
		if n < 5 || plies == 0 {
			t.Errorf("tree %v: only %d searches (%d simulated actions)", sc.Tree, n, plies)
		}
	}
}
