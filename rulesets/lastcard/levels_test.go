package lastcard_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"cardhouse/rulesets/lastcard"
	"cardhouse/sdk"
	"cardhouse/sdk/search/searchtest"
)

// TestEveryLevelSeesOnlyItsView is the information-set test (L-11) for every bot level: at
// decisions of whole games (2 and 3 seats, two option sets), with the same seed, a bot chooses the
// same action whether or not the cards its seat cannot see are dealt again (sdk.Redealer), and the
// real state accepts it; search budgets scaled down, the clock off
// (searchtest.EveryLevelSeesOnlyItsView).
func TestEveryLevelSeesOnlyItsView(t *testing.T) {
	searchtest.EveryLevelSeesOnlyItsView(t, lastcard.New(), 3,
		searchtest.Case{Name: "two seats", Seats: 2, Options: map[string]any{"target": "single"}},
		searchtest.Case{Name: "three seats", Seats: 3, Options: map[string]any{"target": "single", "last_card_mode": "auto", "draw_four": "any_time"}})
}

// TestSearchPlaysLegally runs the flat and the tree search at decisions of a whole game: every
// action the sampled worlds' moves and playouts produce is accepted, and so is the choice.
func TestSearchPlaysLegally(t *testing.T) {
	searchtest.SearchPlaysLegally(t, lastcard.New(), searchtest.Case{Seats: 3, Options: map[string]any{"target": "single", "last_card_mode": "auto", "draw_four": "any_time"}}, 4, 40)
}

// TestSimulateAgreesWithApply checks the search's fast playouts (Simulate) against the slow way:
// from worlds sampled at decisions of whole games (2 to 4 seats, every option that changes a
// step), RolloutMove's choices applied one by one with Apply reach the very same state, with the
// same randomness, whether played to the round's end or cut after a few actions; and Simulate
// leaves the world it starts from as it was.
func TestSimulateAgreesWithApply(t *testing.T) {
	t.Parallel()
	r := lastcard.New()
	for _, tc := range []struct {
		name  string
		seats int
		opts  map[string]any
	}{
		{"two seats, catch mode", 2, map[string]any{"target": "200"}},
		{"three seats, auto calls, Draw Four any time", 3, map[string]any{"last_card_mode": "auto", "draw_four": "any_time"}},
		{"four seats, no stacking", 4, map[string]any{"target": "200", "stack_draw_two": false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			checked, reshuffles, decision := 0, 0, 0
			levels := make([]int, tc.seats)
			for i := range levels {
				levels[i] = 2
			}
			for seed := uint64(1); seed <= 4; seed++ {
				game(t, tc.seats, tc.opts, seed, levels, func(s *lastcard.State) {
					decision++
					if decision%5 != 0 {
						return
					}
					rng := sdk.NewRNG(uint64(decision))
					w, err := r.Sample(s.Turn, r.View(s, s.Turn), r.History(s, s.Turn), &rng)
					if err != nil {
						t.Fatalf("decision %d: %v", decision, err)
					}
					before := encode(t, w)
					for _, limit := range []int{600, 3} {
						a, b := sdk.NewRNG(uint64(decision)), sdk.NewRNG(uint64(decision))
						fast, n := r.Simulate(w, limit, &a)
						slow, plies := w, 0
						for ; plies < limit && r.Decider(slow) != sdk.NoSeat; plies++ {
							res, err := r.Apply(ctx, sdk.ApplyRequest[*lastcard.State]{State: slow, Action: r.RolloutMove(slow, slow.Turn, &b)})
							if err != nil {
								t.Fatalf("decision %d, ply %d: %v", decision, plies, err)
							}
							slow = res.State
							for _, e := range res.Events {
								if e.Name == "reshuffled" {
									reshuffles++
								}
							}
						}
						if n != plies {
							t.Fatalf("decision %d, limit %d: Simulate played %d actions, Apply %d", decision, limit, n, plies)
						}
						if diff := cmp.Diff(encode(t, slow), encode(t, fast)); diff != "" {
							t.Fatalf("decision %d, limit %d: Simulate and Apply end apart (-Apply +Simulate):\n%s", decision, limit, diff)
						}
						if a.Uint64() != b.Uint64() {
							t.Fatalf("decision %d, limit %d: Simulate drew from its rng another number of times than RolloutMove", decision, limit)
						}
						checked++
					}
					if after := encode(t, w); after != before {
						t.Fatalf("decision %d: Simulate changed the world it was given", decision)
					}
				})
			}
			if checked < 40 || reshuffles == 0 {
				t.Errorf("only %d playouts checked, %d reshuffles among them", checked, reshuffles)
			}
		})
	}
}

// encode is a state's JSON, for comparing states.
func encode(t *testing.T, s *lastcard.State) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSampleDeducesTheColoursAnOpponentLacks checks level 4 and 5's deductions (L-11: from the
// history alone): an opponent who drew of its own will while red was in play held no red card
// then, so no sampled world gives it more than one red card (the one it drew may be red); an
// opponent who drew a Draw Two's penalty told nothing, and the worlds give it red cards freely.
func TestSampleDeducesTheColoursAnOpponentLacks(t *testing.T) {
	t.Parallel()
	r := lastcard.New()
	hands := []string{"R1 R+2 G2 B3 Y4 G5 B6", "G3 G4 B2 B7 Y8 Y9 G6"}
	for _, tc := range []struct {
		name    string
		play    string
		deduced bool
	}{
		{"a draw of its own will", "R1", true},
		{"a penalty drawn", "R+2", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := start(t, table{pile: "R5", hands: hands, deck: "G9 B9 Y1 G8"}, map[string]any{"target": "single"})
			s, _ = act(t, s, sdk.Action{Seat: 0, Type: sdk.ActPlay, Cards: cards(tc.play)})
			s, _ = act(t, s, sdk.Action{Seat: 1, Type: sdk.ActDraw})
			if s.Turn != 0 {
				t.Fatalf("seat %d in turn after seat 1's draw, want 0", s.Turn)
			}
			most := 0
			for seed := range uint64(300) {
				rng := sdk.NewRNG(seed)
				w, err := r.Sample(0, r.View(s, 0), r.History(s, 0), &rng)
				if err != nil {
					t.Fatal(err)
				}
				red := 0
				for _, c := range w.Hands[1] {
					if c.Color() == sdk.Red {
						red++
					}
				}
				most = max(most, red)
			}
			if tc.deduced && most > 1 {
				t.Errorf("a sampled world gives seat 1 %d red cards; it held none when it drew on red", most)
			}
			if !tc.deduced && most < 2 {
				t.Errorf("no sampled world of 300 gives seat 1 two red cards or more (at most %d): the penalty draw was read as a deduction", most)
			}
		})
	}
}
