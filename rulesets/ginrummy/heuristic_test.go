package ginrummy

import (
	"slices"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/search"
	"cardhouse/sdk/search/searchtest"
)

// TestMovesOfferTheSearchDefault: at every decision of whole games, the moves the search weighs
// in a world sampled from the seat's view (the root's moves) include the move levels 3 to 5 start
// from (keen), and the world's sight (its discard pile, the other's known cards and discards) is
// the one the view and history give (were the default missing, the search would take the
// best-looking of its candidates on noise alone).
func TestMovesOfferTheSearchDefault(t *testing.T) {
	r := New()
	n := 0
	searchtest.Games(t, r, searchtest.Config{Seats: 2, Options: map[string]any{"target": 60, "big_gin": true}, Seeds: seeds(40)}, func(d searchtest.Decision[*State]) {
		if r.Decider(d.State) != d.Seat {
			return
		}
		rng := sdk.NewRNG(d.Seed + uint64(d.Step))
		v, h := r.View(d.State, d.Seat), r.History(d.State, d.Seat)
		b := botView{seat: d.Seat, view: v, rng: &rng}
		g := sightOfView(&b, h)
		if want := sightOfState(d.State, d.Seat); g != want {
			t.Fatalf("seed %d step %d: the view's sight %+v, the state's %+v", d.Seed, d.Step, g, want)
		}
		a := b.smartWith(&g)
		world, err := r.Sample(d.Seat, v, h, &rng)
		if err != nil {
			t.Fatal(err)
		}
		if got := sightOfState(world, d.Seat); got != g {
			t.Fatalf("seed %d step %d: a sampled world's sight %+v, the view's %+v", d.Seed, d.Step, got, g)
		}
		moves := r.Moves(world, d.Seat)
		if !slices.ContainsFunc(moves, func(m sdk.Action) bool { return search.Key(m) == search.Key(*a) }) {
			keys := make([]string, len(moves))
			for i, m := range moves {
				keys[i] = search.Key(m)
			}
			t.Fatalf("seed %d step %d: keen chose %s, not among the search's moves %v", d.Seed, d.Step, search.Key(*a), keys)
		}
		n++
	})
	if n < 100 {
		t.Errorf("only %d decisions checked", n)
	}
}

// seeds are the seeds 1 to n.
func seeds(n int) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = uint64(i + 1)
	}
	return out
}

// TestKeenDiscard: keen breaks a meld candidate that no card can complete any more before a live
// one where level 2 counts both alike, and keeps a card that melds with the cards the other took
// from the pile.
func TestKeenDiscard(t *testing.T) {
	c := sdk.MustParseCards
	one := func(code string) sdk.Card { return c(code)[0] }
	// loose 9S 9H 4C 5C 8D: level 2 keeps the pair of nines (breaking it costs linkCost) and
	// sheds the 8D; the other two nines are on the pile, so keen sheds a nine, the higher card.
	hand := c("2S 3S 4S KD KC KH 9S 9H 4C 5C 8D")
	g := sight{gone: setOf(c("9D 9C"))}
	if got := bestDiscard(hand, hand); got != one("8D") {
		t.Fatalf("level 2 discarded %s: the case does not test liveness", got)
	}
	if got := keenDiscard(hand, hand, g); got != one("9S") && got != one("9H") {
		t.Errorf("keen discarded %s, not a dead nine", got)
	}
	if got := keenDiscard(hand, hand, sight{gone: setOf(c("9D"))}); got != one("8D") {
		t.Errorf("keen discarded %s with the nines live (9C unseen), not 8D", got)
	}
	// the other took 8D and 9D from the pile: 10D would meld with them.
	hand = c("2S 3S 4S KD KC KH 9S 9H 10D 5C 6H")
	g = sight{oppHas: setOf(c("8D 9D")), gone: setOf(c("8D 9D"))}
	if got := bestDiscard(hand, hand); got != one("10D") {
		t.Fatalf("level 2 discarded %s: the case does not test the danger", got)
	}
	if got := keenDiscard(hand, hand, g); got == one("10D") {
		t.Errorf("keen gave the other the 10D to its 8D 9D")
	}
}

// TestKnockCard: the knock discards the card that leaves the least deadwood, where level 2's
// discard keeps meld candidates that a knock lays out as deadwood all the same.
func TestKnockCard(t *testing.T) {
	hand := sdk.MustParseCards("7C 8C 9C 10C KD KC KH 5H 3H 4D AS")
	knockable := sdk.MustParseCards("5H 3H 4D")
	if got := bestDiscard(hand, knockable); got != sdk.MustParseCards("4D")[0] {
		t.Fatalf("level 2 knocked with %s: the case does not test the knock card", got)
	}
	c, d := knockCard(hand, knockable)
	if d != 8 || c != sdk.MustParseCards("5H")[0] {
		t.Errorf("knockCard gave %s leaving %d, want 5H leaving 8", c, d)
	}
}

// TestRaceWin: the chance to win the race to the target is a half between equals, the two seats'
// chances add up to one, it grows as a seat needs fewer points or the other more, and it is 1 for
// a seat that has reached the target.
func TestRaceWin(t *testing.T) {
	for _, n := range []int{10, 100, 500} {
		if p := raceWin(n, n); p < 0.499 || p > 0.501 {
			t.Errorf("raceWin(%d, %d) = %.4f, want 0.5", n, n, p)
		}
	}
	for a := 1; a <= 120; a += 7 {
		for b := 1; b <= 120; b += 5 {
			if s := raceWin(a, b) + raceWin(b, a); s < 0.999 || s > 1.001 {
				t.Fatalf("raceWin(%d, %d) + raceWin(%d, %d) = %.4f", a, b, b, a, s)
			}
			if raceWin(a, b+1) < raceWin(a, b)-1e-6 || raceWin(a+1, b) > raceWin(a, b)+1e-6 {
				t.Fatalf("raceWin is not monotone at (%d, %d)", a, b)
			}
		}
	}
	if raceWin(0, 10) != 1 || raceWin(10, 0) != 0 {
		t.Error("a seat at the target has not won")
	}
	// at a target of 10, a 5-point lead is far from a won game: any hand of 10 or more the other
	// wins takes it
	if p := raceWin(5, 10); p > 0.65 {
		t.Errorf("raceWin(5, 10) = %.3f", p)
	}
}
