package hearts_test

import (
	"testing"

	"cardhouse/rulesets/hearts"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/search/searchtest"
)

// TestEveryLevelSeesOnlyItsView is the information-set test (L-11) for every bot level: at
// decisions of whole games (with and without the pass), with the same seed, a bot chooses the same
// action whether or not the cards its seat cannot see are dealt again (sdk.Redealer), and the real
// state accepts it; search budgets scaled down, the clock off
// (searchtest.EveryLevelSeesOnlyItsView).
func TestEveryLevelSeesOnlyItsView(t *testing.T) {
	searchtest.EveryLevelSeesOnlyItsView(t, hearts.New(), 5,
		searchtest.Case{Name: "passing", Seats: 4, Options: map[string]any{}},
		searchtest.Case{Name: "no passing", Seats: 4, Options: map[string]any{"passing": false, "moon": "subtract"}})
}

// TestSearchPlaysLegally runs the flat and the tree search at decisions of a whole game: every
// action the sampled worlds' moves and playouts produce is accepted, and so is the choice.
func TestSearchPlaysLegally(t *testing.T) {
	searchtest.SearchPlaysLegally(t, hearts.New(), searchtest.Case{Seats: 4, Options: map[string]any{}}, 4, 40)
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
