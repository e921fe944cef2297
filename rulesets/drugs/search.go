package drugs

import (
	"errors"
	"slices"
	"strconv"

	"cardhouse/sdk"
)

// This file gives DRUGS to sdk/search (bot levels 3 to 5): sampling worlds consistent with a
// seat's view and history, the moves of a state spelled out, and a cheap rollout policy.

var (
	_ sdk.Sampler[*State] = (*Rules)(nil)
	_ sdk.Mover[*State]   = (*Rules)(nil)
	_ sdk.Rollout[*State] = (*Rules)(nil)
)

// errNoGame is Sample's answer for a view that shows no game in play.
var errNoGame = errors.New("drugs: the view shows no game in play")

// Sample returns a State consistent with seat's view and history: its hand, every face-up row,
// the pile, every count, face-down slots and indicator as the view shows them; the burned cards
// as the history shows them going (when it covers them all); the cards it cannot see dealt at
// random (with rng) among the other hands, every face-down slot (never a Joker there, D-11) and
// the deck. Chaos is read from the number of cards in play; the stall count starts again at 0.
// It reads nothing but its arguments (L-11).
func (r *Rules) Sample(seat int, v sdk.View, history []sdk.Event, rng *sdk.RNG) (*State, error) {
	n := len(v.Players)
	if v.Phase != sdk.PhasePlaying || seat < 0 || seat >= n {
		return nil, errNoGame
	}
	s := &State{
		Seats: n, Game: v.Round, Turn: v.Turn, Direction: v.Direction, GiftPending: sdk.NoSeat,
		Phase: sdk.PhasePlaying, Winner: sdk.NoSeat, RNG: sdk.NewRNG(rng.Uint64()), Simulated: true,
		Hands: make([][]sdk.Card, n), FaceUp: make([][]sdk.Card, n), FaceDown: make([]Row, n),
	}
	if s.Direction == 0 {
		s.Direction = 1
	}
	for _, in := range v.Indicators {
		switch in.ID {
		case "overdose":
			s.Overdose, _ = strconv.Atoi(in.Value)
		case "armed":
			s.Armed = in.Value == "true"
		case "gift_pending":
			s.GiftPending, _ = strconv.Atoi(in.Value)
		}
	}
	handCounts := make([]int, n)
	deckCount, burnedCount := 0, 0
	total := 0
	var seen []sdk.Card
	for _, z := range v.Zones {
		total += z.Count
		switch {
		case z.ID == "pile":
			s.Pile = slices.Clone(z.Cards)
			seen = append(seen, z.Cards...)
		case z.ID == "deck":
			deckCount = z.Count
		case z.ID == "burned":
			burnedCount = z.Count
		case z.Owner >= 0 && z.Owner < n:
			switch z.ID[:len(z.ID)-len(strconv.Itoa(z.Owner))-1] {
			case "hand":
				handCounts[z.Owner] = z.Count
				if z.Owner == seat {
					s.Hands[seat] = slices.Clone(z.Cards)
					seen = append(seen, z.Cards...)
				}
			case "face_up":
				s.FaceUp[z.Owner] = slices.Clone(z.Cards)
				seen = append(seen, z.Cards...)
			case "face_down":
				row := make(Row, len(z.Slots))
				s.FaceDown[z.Owner] = row
			}
		}
	}
	chaos := total > 52*decks(n)
	s.Chaos = chaos
	pool, ok := sdk.RemoveCards(cardSet(n, chaos), seen)
	if !ok {
		return nil, errors.New("drugs: the view shows cards that are not in the game's cards")
	}
	// The burned cards, as the history saw them burn.
	var burned []sdk.Card
	for _, e := range history {
		if e.Name == "burned" || e.Name == "overdose" {
			burned = append(burned, e.Cards...)
		}
	}
	if rest, ok := sdk.RemoveCards(pool, burned); ok && len(burned) == burnedCount {
		s.Burned, pool = burned, rest
	}
	rng.ShuffleCards(sdk.DrawShuffle, pool)
	// Face-down slots take plain cards first (D-11).
	for i := range n {
		for j := range s.FaceDown[i] {
			if !slotFilled(v, i, j) {
				continue // a gap stays a gap
			}
			k := slices.IndexFunc(pool, func(c sdk.Card) bool { return c != sdk.Joker })
			if k < 0 {
				return nil, errors.New("drugs: no plain card left for a face-down slot")
			}
			s.FaceDown[i][j] = pool[k]
			pool = slices.Delete(pool, k, k+1)
		}
	}
	take := func(k int) []sdk.Card {
		k = min(k, len(pool))
		out := slices.Clone(pool[:k])
		pool = pool[k:]
		return out
	}
	for i := range n {
		if i != seat {
			s.Hands[i] = take(handCounts[i])
		}
		if s.Hands[i] == nil {
			s.Hands[i] = []sdk.Card{}
		}
		if s.FaceUp[i] == nil {
			s.FaceUp[i] = []sdk.Card{}
		}
	}
	s.Deck = take(deckCount)
	if s.Burned == nil {
		s.Burned = take(burnedCount)
	}
	s.Out = pool
	if len(s.Out) == 0 {
		s.Out = nil
	}
	return s, nil
}

// slotFilled reports whether position j of seat's face-down row holds a card in the view.
func slotFilled(v sdk.View, seat, j int) bool {
	z, ok := v.Zone("face_down." + strconv.Itoa(seat))
	return ok && j < len(z.Slots) && z.Slots[j]
}

// Decider is the seat in turn (who also owes a gift), sdk.NoSeat once the game is over.
func (r *Rules) Decider(s *State) int {
	if s.Phase != sdk.PhasePlaying {
		return sdk.NoSeat
	}
	return s.Turn
}

// Moves lists seat's actions: a gift of each distinct hand card to each other seat when one is
// owed; a flip of each face-down position in the blind stage; otherwise one play per playable
// rank and count (1 to all of that rank in the zone played from) and the pick-up when the pile
// holds cards.
func (r *Rules) Moves(s *State, seat int) []sdk.Action {
	if s.Phase != sdk.PhasePlaying || seat != s.Turn {
		return nil
	}
	var out []sdk.Action
	if s.GiftPending == seat {
		var tried []sdk.Card
		for _, c := range s.Hands[seat] {
			if slices.Contains(tried, c) {
				continue
			}
			tried = append(tried, c)
			for k := 1; k < s.Seats; k++ {
				t := s.next(seat, k)
				out = append(out, sdk.Action{Seat: seat, Type: sdk.ActGift, Cards: []sdk.Card{c}, Target: &t})
			}
		}
		return out
	}
	var zone []sdk.Card
	from := ""
	switch s.stage(seat) {
	case "hand":
		zone = s.Hands[seat]
	case "face_up":
		zone, from = s.FaceUp[seat], "face_up"
	case "face_down":
		for i, c := range s.FaceDown[seat] {
			if c != 0 {
				i := i
				out = append(out, sdk.Action{Seat: seat, Type: sdk.ActFlip, Index: &i})
			}
		}
		return out
	}
	for _, g := range byRank(s.playable(zone)) {
		var all []sdk.Card
		for _, c := range zone {
			if c.RankCode() == g[0].RankCode() {
				all = append(all, c)
			}
		}
		for k := 1; k <= len(all); k++ {
			out = append(out, sdk.Action{Seat: seat, Type: sdk.ActPlay, Cards: slices.Clone(all[:k]), From: from})
		}
	}
	if len(s.Pile) > 0 {
		out = append(out, sdk.Action{Seat: seat, Type: sdk.ActPickup})
	}
	return out
}

// RolloutMove is the simulated players' policy, level 2's habits made cheap: give the lowest
// card to the next seat; flip a random face-down card; play the lowest playable plain rank whole;
// a special (2, 3, 10, Joker) only when nothing plain goes; pick up when nothing does.
func (r *Rules) RolloutMove(s *State, seat int, rng *sdk.RNG) sdk.Action {
	if s.GiftPending == seat && len(s.Hands[seat]) > 0 {
		give := s.Hands[seat][0]
		for _, c := range s.Hands[seat] {
			if value(c) < value(give) {
				give = c
			}
		}
		t := s.next(seat, 1)
		return sdk.Action{Seat: seat, Type: sdk.ActGift, Cards: []sdk.Card{give}, Target: &t}
	}
	var zone []sdk.Card
	from := ""
	switch s.stage(seat) {
	case "hand":
		zone = s.Hands[seat]
	case "face_up":
		zone, from = s.FaceUp[seat], "face_up"
	case "face_down":
		var idx []int
		for i, c := range s.FaceDown[seat] {
			if c != 0 {
				idx = append(idx, i)
			}
		}
		i := idx[rng.Intn("rollout", len(idx))]
		return sdk.Action{Seat: seat, Type: sdk.ActFlip, Index: &i}
	}
	var best sdk.Card
	for _, c := range zone {
		if ok, _ := s.legal(c); !ok {
			continue
		}
		switch {
		case best == 0:
			best = c
		case anywhere(best) && !anywhere(c):
			best = c
		case anywhere(best) == anywhere(c) && value(c) < value(best):
			best = c
		}
	}
	if best == 0 {
		return sdk.Action{Seat: seat, Type: sdk.ActPickup}
	}
	cards := []sdk.Card{best}
	if !anywhere(best) {
		for _, c := range zone {
			if c != best && c.RankCode() == best.RankCode() {
				cards = append(cards, c)
			}
		}
		if dup := slices.Index(zone, best); dup >= 0 && slices.Index(zone[dup+1:], best) >= 0 {
			cards = append(cards, best) // two decks: the same card twice
		}
	}
	return sdk.Action{Seat: seat, Type: sdk.ActPlay, Cards: cards, From: from}
}
