package lastcard

import (
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/search"
)

// TestLevelFiveBluffRule checks level 5's bluff (maybeBluff) on a search result: holding a card
// of the colour in play, four cards or more, with no opponent close to going out and no penalty
// pending, it draws instead of its best play about one time in four when the search rates the
// draw within bluffMargin of that play; never otherwise.
func TestLevelFiveBluffRule(t *testing.T) {
	t.Parallel()
	play := sdk.Action{Seat: 0, Type: sdk.ActPlay, Cards: sdk.MustParseCards("R3")}
	draw := sdk.Action{Seat: 0, Type: sdk.ActDraw}
	base := func() *seen {
		return &seen{Seat: 0, Seats: 2, Hand: sdk.MustParseCards("R3 G4 B5 Y6 G7"), Color: "R", Counts: []int{5, 6}}
	}
	result := func(drawValue float64) *search.Result {
		return &search.Result{Action: play, Stats: []search.Stat{
			{Action: play, Visits: 100, Value: 0.50},
			{Action: draw, Visits: 100, Value: drawValue},
		}}
	}
	l := searchLevel{bluff: true}
	for _, tc := range []struct {
		name      string
		k         func() *seen
		drawValue float64
		lo, hi    int // bluffs expected out of 400 decisions
	}{
		{"a close draw: sometimes", base, 0.49, 60, 140},
		{"a clearly worse draw: never", base, 0.45, 0, 0},
		{"an opponent with three cards: never", func() *seen { k := base(); k.Counts[1] = 3; return k }, 0.49, 0, 0},
		{"a penalty pending: never", func() *seen { k := base(); k.Penalty = 2; return k }, 0.49, 0, 0},
		{"three cards in hand: never", func() *seen { k := base(); k.Hand = k.Hand[:3]; return k }, 0.49, 0, 0},
		{"no card of the colour in play: never", func() *seen { k := base(); k.Color = "Y"; k.Hand[3] = sdk.MustParseCards("G6")[0]; return k }, 0.49, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			bluffs := 0
			for seed := range uint64(400) {
				rng := sdk.NewRNG(seed)
				a := l.maybeBluff(tc.k(), result(tc.drawValue), &rng)
				switch {
				case a.Type == sdk.ActDraw:
					bluffs++
				case search.Key(a) != search.Key(play):
					t.Fatalf("seed %d: chose %+v, neither the play nor the draw", seed, a)
				}
			}
			if bluffs < tc.lo || bluffs > tc.hi {
				t.Errorf("bluffed %d times in 400, want %d to %d", bluffs, tc.lo, tc.hi)
			}
		})
	}
}
