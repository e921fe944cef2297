package ginrummy

import (
	"slices"
	"testing"

	"cardhouse/sdk"
)

// bruteDeadwood is the least deadwood of hand by brute force, independent of Arrange's search and
// of its candidate melds: every subset of the hand that IsMeld accepts is a candidate, and every
// choice of pairwise disjoint candidates is tried.
func bruteDeadwood(hand []sdk.Card) int {
	m := setOf(hand)
	cands := allMelds(hand)
	best := m.points()

	var walk func(i int, used cardSet)
	walk = func(i int, used cardSet) {
		if i == len(cands) {
			best = min(best, (m &^ used).points())
			return
		}
		walk(i+1, used)
		if cands[i]&used == 0 {
			walk(i+1, used|cands[i])
		}
	}
	walk(0, 0)
	return best
}

// allMelds is every subset of hand that IsMeld accepts, sorted.
func allMelds(hand []sdk.Card) []cardSet {
	var out []cardSet
	for sub := 1; sub < 1<<len(hand); sub++ {
		var cards []sdk.Card
		for i, c := range hand {
			if sub>>i&1 != 0 {
				cards = append(cards, c)
			}
		}
		if IsMeld(cards) {
			out = append(out, setOf(cards))
		}
	}
	slices.Sort(out)
	return out
}

// TestArrangeIsExact checks the candidate melds against every subset IsMeld accepts, and Arrange
// against brute force on random hands of 10 and 11 cards, drawn
// from the whole deck and from a narrow pool (ranks A to 6) where melds overlap a lot: the same
// least deadwood, melds that are melds, disjoint, in the order of their lowest card, and melds
// plus deadwood that are the hand.
func TestArrangeIsExact(t *testing.T) {
	t.Parallel()
	rng := sdk.NewRNG(7)
	var narrow []sdk.Card
	for _, c := range sdk.FrenchDeck(1, 0) {
		if c.Rank() <= 6 {
			narrow = append(narrow, c)
		}
	}
	for i := range 1000 {
		pool := sdk.FrenchDeck(1, 0)
		if i%2 == 1 {
			pool = slices.Clone(narrow)
		}
		rng.ShuffleCards("test", pool)
		hand := pool[:10+i%2]
		cands := candidates(setOf(hand))
		slices.Sort(cands)
		if want := allMelds(hand); !slices.Equal(cands, want) {
			t.Fatalf("hand %v: candidates %v, want every meld %v", hand, cands, want)
		}
		melds, dead := Arrange(hand)
		if got, want := Points(dead), bruteDeadwood(hand); got != want {
			t.Fatalf("hand %v: Arrange leaves %d deadwood, brute force %d", hand, got, want)
		}
		if Deadwood(hand) != Points(dead) {
			t.Fatalf("hand %v: Deadwood %d, Arrange %d", hand, Deadwood(hand), Points(dead))
		}
		all := slices.Clone(dead)
		last := -1
		for _, m := range melds {
			if !IsMeld(m) {
				t.Fatalf("hand %v: %v is no meld", hand, m)
			}
			if o := setOf(m).order(); o < last {
				t.Fatalf("hand %v: melds %v out of order", hand, melds)
			} else {
				last = o
			}
			all = append(all, m...)
		}
		if !sdk.SameCards(all, hand) {
			t.Fatalf("hand %v: melds %v and deadwood %v are not the hand", hand, melds, dead)
		}
	}
}

func TestIsMeld(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cards string
		want  bool
	}{
		{"AS 2S 3S", true}, {"QS KS AS", false}, {"7S 7H 7D", true}, {"7S 7H 7D 7C", true},
		{"7S 7H", false}, {"4H 5H 7H", false}, {"4H 5H 6D", false}, {"9C 10C JC QC KC", true},
	} {
		if got := IsMeld(sdk.MustParseCards(tc.cards)); got != tc.want {
			t.Errorf("IsMeld(%s) = %v, want %v", tc.cards, got, tc.want)
		}
	}
}
