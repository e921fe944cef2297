package drugs

import (
	"slices"
	"strconv"

	"cardhouse/sdk"
)

// joker rolls and carries out the effect of n Jokers played together by seat (D-10: one roll for
// the lot). It reports whether the next player is skipped, and whether the play stops here
// because the player must now give a card (the draw back up to three waits for the gift).
func (s *State) joker(seat, n int, evs *[]sdk.Event) (skip, stop bool) {
	effect := Effects[s.RNG.Choose(DrawJokerEffect, Effects)]
	ev := sdk.Event{Name: EvJoker, Seat: seat, Count: n, Data: map[string]string{"effect": effect}}
	next := s.next(seat, 1)
	switch effect {
	case EffectHandSwap:
		ev.Data["target"] = strconv.Itoa(next)
		*evs = append(*evs, ev)
		s.Hands[seat], s.Hands[next] = s.Hands[next], s.Hands[seat]
	case EffectEveryonePasses:
		*evs = append(*evs, ev)
		moved := make([][]sdk.Card, s.Seats)
		for p := range s.Seats {
			moved[s.next(p, 1)] = s.Hands[p]
		}
		s.Hands = moved
	case EffectSkip:
		*evs = append(*evs, ev)
		skip = true
	case EffectEverybodyPays:
		*evs = append(*evs, ev)
		for k := 1; k < s.Seats; k++ {
			s.draw(s.next(seat, k), 1, evs)
		}
	case EffectEveryoneDumps:
		*evs = append(*evs, ev)
		s.dumps(seat, n, evs)
	case EffectTimeBomb:
		*evs = append(*evs, ev)
		s.Armed = true
	case EffectGift:
		*evs = append(*evs, ev)
		if len(s.Hands[seat]) > 0 {
			s.GiftPending = seat
			return false, true
		}
		// Nothing in hand to give: the gift lapses (a ruling, see doc.go).
	}
	return skip, false
}

// dumps lays each player's lowest hand card beneath the n Jokers on top, in turn order from the
// Joker's player (the first laid lies lowest). Jokers are never laid; an empty hand lays nothing;
// of equal ranks the first in hand order goes. Dumped cards have no power: they are not plays.
func (s *State) dumps(seat, n int, evs *[]sdk.Event) {
	jokers := slices.Clone(s.Pile[len(s.Pile)-n:])
	pile := slices.Clone(s.Pile[:len(s.Pile)-n])
	for k := range s.Seats {
		p := s.next(seat, k)
		best := -1
		for i, c := range s.Hands[p] {
			if c == sdk.Joker {
				continue
			}
			if best < 0 || value(c) < value(s.Hands[p][best]) {
				best = i
			}
		}
		if best < 0 {
			continue
		}
		c := s.Hands[p][best]
		s.Hands[p] = slices.Delete(slices.Clone(s.Hands[p]), best, best+1)
		pile = append(pile, c)
		*evs = append(*evs, sdk.Event{Name: EvDumped, Seat: p, Cards: []sdk.Card{c}})
	}
	s.Pile = append(pile, jokers...)
}
