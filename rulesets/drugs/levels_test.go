package drugs_test

import (
	"testing"

	"cardhouse/rulesets/drugs"
	"cardhouse/sdk/search/searchtest"
)

// TestEveryLevelSeesOnlyItsView is the information-set test (L-11) for every bot level: at
// decisions of whole games (2 and 3 seats, two option sets), with the same seed, a bot chooses the
// same action whether or not the cards its seat cannot see are dealt again (sdk.Redealer), and the
// real state accepts it; search budgets scaled down, the clock off
// (searchtest.EveryLevelSeesOnlyItsView).
func TestEveryLevelSeesOnlyItsView(t *testing.T) {
	searchtest.EveryLevelSeesOnlyItsView(t, drugs.New(), 3,
		searchtest.Case{Name: "two seats", Seats: 2, Options: map[string]any{}},
		searchtest.Case{Name: "three seats", Seats: 3, Options: map[string]any{"chaos": true}})
}

// TestSearchPlaysLegally runs the flat and the tree search at decisions of a whole game: every
// action the sampled worlds' moves and playouts produce is accepted, and so is the choice.
func TestSearchPlaysLegally(t *testing.T) {
	searchtest.SearchPlaysLegally(t, drugs.New(), searchtest.Case{Seats: 3, Options: map[string]any{"chaos": true}}, 4, 40)
}
