package ginrummy

import (
	"math/bits"
	"slices"

	"cardhouse/sdk"
)

// A hand is arranged on a bit set of the 52 French cards: bit i is the card sdk.Card(i+1), so the
// cards of a suit are 13 consecutive bits, ace first, and a run is a block of consecutive bits
// inside one suit.
type cardSet uint64

// bitOf is the bit of a French card (not the Joker).
func bitOf(c sdk.Card) cardSet { return cardSet(1) << (uint(c) - 1) }

// setOf is the bit set of cards.
func setOf(cards []sdk.Card) cardSet {
	var m cardSet
	for _, c := range cards {
		m |= bitOf(c)
	}
	return m
}

// cards lists the set's cards in rank order (ace low), then suit S H D C: the order a meld is
// written in (SCENARIOS.md, melds.N).
func (m cardSet) cards() []sdk.Card {
	out := make([]sdk.Card, 0, bits.OnesCount64(uint64(m)))
	for r := range 13 {
		for su := range 4 {
			if m&(1<<(su*13+r)) != 0 {
				out = append(out, sdk.Card(su*13+r+1))
			}
		}
	}
	return out
}

// order is the sort key of a meld: its lowest card by rank (ace low), then suit S H D C.
func (m cardSet) order() int {
	best := 1 << 10
	for x := uint64(m); x != 0; x &= x - 1 {
		i := bits.TrailingZeros64(x)
		if k := (i%13)*4 + i/13; k < best {
			best = k
		}
	}
	return best
}

// Value is a card's deadwood value (GR-3): Ace 1, 2 to 10 their face value, J Q K 10.
func Value(c sdk.Card) int { return min(c.Rank(), 10) }

// Points is the deadwood count of cards.
func Points(cards []sdk.Card) int {
	n := 0
	for _, c := range cards {
		n += Value(c)
	}
	return n
}

// points is the deadwood count of a set.
func (m cardSet) points() int {
	n := 0
	for x := uint64(m); x != 0; x &= x - 1 {
		n += min(bits.TrailingZeros64(x)%13+1, 10)
	}
	return n
}

// candidates lists every meld inside m (GR-2): every run of three or more consecutive cards of
// one suit (each sub-run too), every set of three or four of a rank (and each three of a four).
func candidates(m cardSet) []cardSet { return appendCandidates(nil, m) }

// appendCandidates appends candidates(m) to out. It looks only where a meld can be: suits with
// three cards in a row, ranks held in three suits or four.
func appendCandidates(out []cardSet, m cardSet) []cardSet {
	const ranks = 1<<13 - 1
	var suit [4]cardSet
	for su := range 4 {
		x := m >> (su * 13) & ranks
		suit[su] = x
		starts := x & (x >> 1) & (x >> 2) // bit r: r, r+1 and r+2 are held
		for ; starts != 0; starts &= starts - 1 {
			r := bits.TrailingZeros64(uint64(starts))
			run := cardSet(7) << r
			for {
				out = append(out, run<<(su*13))
				next := run << 1 & ^run // the card just above the run
				if next&x == 0 || next > ranks {
					break
				}
				run |= next
			}
		}
	}
	a, b, c, d := suit[0], suit[1], suit[2], suit[3]
	three := a&b&c | a&b&d | a&c&d | b&c&d
	for ; three != 0; three &= three - 1 {
		r := bits.TrailingZeros64(uint64(three))
		var all cardSet
		n := 0
		for su := range 4 {
			if suit[su]>>r&1 != 0 {
				all |= cardSet(1) << (su*13 + r)
				n++
			}
		}
		out = append(out, all)
		if n == 4 {
			for su := range 4 {
				out = append(out, all&^(cardSet(1)<<(su*13+r)))
			}
		}
	}
	return out
}

// arrangement is a hand laid out: its melds and the deadwood left.
type arrangement struct {
	melds []cardSet
	dead  cardSet
}

// Arrange returns the arrangement of hand that leaves the least deadwood (GR-11), exactly: a
// search over the hand's sets and runs, each card in at most one meld. Among equal arrangements it
// returns the first its search finds, so the result depends on the hand alone. The melds come in
// the order of their lowest card (rank, ace low, then suit S H D C).
func Arrange(hand []sdk.Card) (melds [][]sdk.Card, deadwood []sdk.Card) {
	a := arrange(setOf(hand))
	for _, m := range a.melds {
		melds = append(melds, m.cards())
	}
	return melds, a.dead.cards()
}

// Deadwood is the deadwood count of hand's best arrangement.
func Deadwood(hand []sdk.Card) int { return deadwood(setOf(hand)) }

func arrange(m cardSet) arrangement {
	cands := candidates(m)
	var best arrangement
	bestPts := -1
	var cur []cardSet
	var walk func(left cardSet, pts int)
	walk = func(left cardSet, pts int) {
		if bestPts >= 0 && pts >= bestPts {
			return // deadwood only grows: no better than the best found
		}
		if left == 0 {
			if bestPts < 0 || pts < bestPts {
				bestPts = pts
				best = arrangement{melds: slices.Clone(cur)}
			}
			return
		}
		low := left & -left
		for _, c := range cands {
			if c&low != 0 && c&^left == 0 {
				cur = append(cur, c)
				walk(left&^c, pts)
				cur = cur[:len(cur)-1]
			}
		}
		walk(left&^low, pts+low.points())
	}
	walk(m, 0)
	var melded cardSet
	for _, c := range best.melds {
		melded |= c
	}
	best.dead = m &^ melded
	slices.SortStableFunc(best.melds, func(a, b cardSet) int { return a.order() - b.order() })
	return best
}

// deadwood is the deadwood count of m's best arrangement, without building it. It allocates
// nothing for a hand of eleven cards (the bots call it at every simulated step).
func deadwood(m cardSet) int {
	var buf [64]cardSet
	d := deadwoodSearch{cands: appendCandidates(buf[:0], m), best: m.points()}
	d.walk(m, 0)
	return d.best
}

type deadwoodSearch struct {
	cands []cardSet
	best  int
}

func (d *deadwoodSearch) walk(left cardSet, pts int) {
	if pts >= d.best {
		return
	}
	if left == 0 {
		d.best = pts
		return
	}
	low := left & -left
	for _, c := range d.cands {
		if c&low != 0 && c&^left == 0 {
			d.walk(left&^c, pts)
		}
	}
	d.walk(left&^low, pts+low.points())
}

// IsMeld reports whether cards form a meld (GR-2): three or four cards of one rank, or three or
// more consecutive cards of one suit, ace low.
func IsMeld(cards []sdk.Card) bool {
	if len(cards) < 3 {
		return false
	}
	m := setOf(cards)
	if bits.OnesCount64(uint64(m)) != len(cards) {
		return false // a card twice
	}
	rank, suit := cards[0].Rank(), cards[0].Suit()
	sameRank, sameSuit := true, true
	lo, hi := 13, 1
	for _, c := range cards {
		if !c.IsFrench() || c == sdk.Joker {
			return false
		}
		sameRank = sameRank && c.Rank() == rank
		sameSuit = sameSuit && c.Suit() == suit
		lo, hi = min(lo, c.Rank()), max(hi, c.Rank())
	}
	return sameRank || sameSuit && hi-lo+1 == len(cards)
}

// layable is the set of cards of dead that can be laid off onto meld, one after another (GR-11:
// a set to four, a run at either end, each card laid off extending it further).
func layable(meld []sdk.Card, dead cardSet) cardSet {
	m := setOf(meld)
	var out cardSet
	for {
		grew := false
		for x := uint64(dead &^ out); x != 0; x &= x - 1 {
			b := cardSet(1) << bits.TrailingZeros64(x)
			if IsMeld(append(m.cards(), sdk.Card(bits.TrailingZeros64(x)+1))) {
				m |= b
				out |= b
				grew = true
			}
		}
		if !grew {
			return out
		}
	}
}
