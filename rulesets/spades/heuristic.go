package spades

import (
	"slices"

	"cardhouse/sdk"
)

// This file is the level-2 bot: it bids by counting its likely tricks (Nil when its hand is
// weak) and plays as a partner should: it wins cheaply while its team needs tricks, lets its
// partner's winning card stand, protects a partner who bid Nil, ducks when it bid Nil itself,
// and sheds low cards once the contract is safe.

// bid chooses a bid: blind nil when the team is far behind and may, a look at the cards first
// otherwise, then the count of likely tricks, or Nil with a weak hand.
func (k *knowledge) bid(seat int) *sdk.Action {
	if !k.looked {
		tm := team(seat)
		if k.blind && k.scores[1-tm]-k.scores[tm] >= 200 && k.bids[(seat+2)%Seats] != bidNil && k.bids[(seat+2)%Seats] != bidBlindNil {
			return bidAction(seat, BidBlindNil)
		}
		return &sdk.Action{Seat: seat, Type: actLook}
	}
	est, nilOK := estimate(k.hand)
	partner := k.bids[(seat+2)%Seats]
	if nilOK && partner != bidNil && partner != bidBlindNil {
		return bidAction(seat, BidNil)
	}
	n := int(est + 0.5)
	if partner == bidNil || partner == bidBlindNil {
		n++ // covering a Nil partner takes a trick or two more
	}
	n = max(1, min(n, HandSize))
	return bidAction(seat, itoa(n))
}

// estimate counts hand's likely tricks, and says whether the hand is weak enough for Nil.
func estimate(hand []sdk.Card) (float64, bool) {
	var bySuit [4][]int
	for _, c := range hand {
		i := suitIdx(c.Suit())
		bySuit[i] = append(bySuit[i], power(c))
	}
	est := 0.0
	spades := bySuit[0]
	high := 0
	for i, ranks := range bySuit {
		n := len(ranks)
		for _, p := range ranks {
			if p >= 13 {
				high++
			}
			switch {
			case i == 0 && p == 14, i == 0 && p == 13 && n >= 2, i == 0 && p == 12 && n >= 3:
				est++
			case i != 0 && p == 14:
				est += 0.9
			case i != 0 && p == 13 && n >= 2 && n <= 5:
				est += 0.7
			case i != 0 && p == 12 && n >= 3 && n <= 4:
				est += 0.3
			}
		}
		if i != 0 {
			switch {
			case n == 0 && len(spades) >= 3:
				est += 1
			case n == 1 && len(spades) >= 2:
				est += 0.5
			}
		}
	}
	if len(spades) > 3 {
		est += float64(len(spades) - 3)
	}
	topSpade := 0
	for _, p := range spades {
		topSpade = max(topSpade, p)
	}
	nilOK := est < 1.5 && high == 0 && len(spades) <= 3 && topSpade <= 10
	return est, nilOK
}

// play chooses a card.
func (k *knowledge) play(seat int) *sdk.Action {
	legal := k.legal()
	if len(legal) == 0 {
		return nil
	}
	return &sdk.Action{Seat: seat, Type: sdk.ActPlay, Cards: []sdk.Card{k.choose(seat, legal)}}
}

// legal lists the cards the seat may play, as the rules say.
func (k *knowledge) legal() []sdk.Card {
	var out []sdk.Card
	if len(k.trick) > 0 {
		led := k.trick[0].Card.Suit()
		for _, c := range k.hand {
			if c.Suit() == led {
				out = append(out, c)
			}
		}
		if len(out) > 0 {
			return out
		}
		return slices.Clone(k.hand)
	}
	for _, c := range k.hand {
		if c.Suit() != sdk.Spades || k.broken {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return slices.Clone(k.hand)
	}
	return out
}

// higherOut reports whether a card of c's suit above c is still out (not played, not held).
func (k *knowledge) higherOut(c sdk.Card) bool {
	for r := power(c) + 1; r <= 14; r++ {
		rank := r
		if r == 14 {
			rank = 1
		}
		d := sdk.French(rank, c.Suit())
		if !k.played.has(d) && !slices.Contains(k.hand, d) {
			return true
		}
	}
	return false
}

func lowest(cards []sdk.Card) sdk.Card {
	best := cards[0]
	for _, c := range cards[1:] {
		// off-suit low cards before spades, then by rank
		if (best.Suit() == sdk.Spades) != (c.Suit() == sdk.Spades) {
			if best.Suit() == sdk.Spades {
				best = c
			}
			continue
		}
		if power(c) < power(best) {
			best = c
		}
	}
	return best
}

func highest(cards []sdk.Card) sdk.Card {
	best := cards[0]
	for _, c := range cards[1:] {
		if (best.Suit() == sdk.Spades) != (c.Suit() == sdk.Spades) {
			if c.Suit() == sdk.Spades {
				best = c
			}
			continue
		}
		if power(c) > power(best) {
			best = c
		}
	}
	return best
}

// choose is the level-2 card play.
func (k *knowledge) choose(seat int, legal []sdk.Card) sdk.Card {
	partner := (seat + 2) % Seats
	tm := team(seat)
	isNil := func(s int) bool { return k.bids[s] == bidNil || k.bids[s] == bidBlindNil }
	need := 0
	for s := tm; s < Seats; s += 2 {
		if k.bids[s] > 0 {
			need += k.bids[s]
		}
	}
	for s := tm; s < Seats; s += 2 {
		if !isNil(s) {
			need -= k.tricks[s]
		}
	}
	if len(k.trick) == 0 {
		return k.lead(seat, legal, isNil(seat), isNil(partner), need)
	}
	t := Trick{Leader: k.trick[0].Seat, Plays: k.trick}
	ws, wc := t.winning()
	led := k.trick[0].Card.Suit()
	var winners, losers []sdk.Card
	for _, c := range legal {
		if beats(c, wc, led) {
			winners = append(winners, c)
		} else {
			losers = append(losers, c)
		}
	}
	last := len(k.trick) == Seats-1
	switch {
	case isNil(seat):
		if len(losers) > 0 {
			return highest(losers)
		}
		return lowest(winners)
	case isNil(partner) && ws == partner:
		if len(winners) > 0 {
			return highest(winners) // cover the Nil partner
		}
		return lowest(legal)
	case isNil(partner) && !slices.ContainsFunc(k.trick, func(p Play) bool { return p.Seat == partner }):
		if len(winners) > 0 {
			return highest(winners) // win high before the Nil partner plays
		}
		return lowest(legal)
	case ws == partner && (last || !k.higherOut(wc) || wc.Suit() == sdk.Spades && led != sdk.Spades):
		return lowest(legal)
	case isNil(ws):
		return lowest(legal) // let a Nil opponent take it
	case need > 0 || len(k.hand) <= need+1:
		if len(winners) == 0 {
			return lowest(legal)
		}
		if last {
			return lowest(winners)
		}
		// win with a card no one can beat when there is one, else cheaply
		for _, c := range sortedByPower(winners) {
			if !k.higherOut(c) {
				return c
			}
		}
		return lowest(winners)
	default:
		if len(losers) > 0 {
			return highest(losers) // contract safe: no bags
		}
		return lowest(legal)
	}
}

func sortedByPower(cards []sdk.Card) []sdk.Card {
	out := slices.Clone(cards)
	slices.SortFunc(out, func(a, b sdk.Card) int { return power(a) - power(b) })
	return out
}

// lead chooses a card to lead.
func (k *knowledge) lead(seat int, legal []sdk.Card, nilMe, nilPartner bool, need int) sdk.Card {
	if nilMe {
		return lowestPower(legal)
	}
	if need > 0 || nilPartner {
		// cash a sure winner of a side suit
		for _, c := range legal {
			if c.Suit() != sdk.Spades && !k.higherOut(c) {
				return c
			}
		}
		for _, c := range legal {
			if c.Suit() == sdk.Spades && !k.higherOut(c) {
				return c
			}
		}
	}
	// otherwise the lowest card of the longest side suit
	best, bestLen := legal[0], -100
	for _, c := range legal {
		n := 0
		for _, d := range k.hand {
			if d.Suit() == c.Suit() {
				n++
			}
		}
		if c.Suit() == sdk.Spades {
			n -= 10
		}
		if n > bestLen || n == bestLen && power(c) < power(best) {
			best, bestLen = c, n
		}
	}
	return best
}

func lowestPower(cards []sdk.Card) sdk.Card {
	best := cards[0]
	for _, c := range cards[1:] {
		if power(c) < power(best) || power(c) == power(best) && best.Suit() == sdk.Spades {
			best = c
		}
	}
	return best
}
