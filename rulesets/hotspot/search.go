package hotspot

import (
	"errors"
	"slices"

	"cardhouse/sdk"
)

// This file gives Hotspot to sdk/search (bot levels 3 to 5): sampling worlds consistent with a
// seat's view, the moves of a state spelled out, and a cheap rollout policy.

var (
	_ sdk.Sampler[*State] = (*Rules)(nil)
	_ sdk.Mover[*State]   = (*Rules)(nil)
	_ sdk.Rollout[*State] = (*Rules)(nil)
)

// maxMoves caps the plays Moves lists (a hand full of Queens chains in many orders).
const maxMoves = 64

// errNoGame is Sample's answer for a view that shows no game in play.
var errNoGame = errors.New("hotspot: the view shows no game in play")

// Sample returns a State consistent with seat's view: its hand, the whole pile (HS-12), every
// count, the indicators, the open LAST CARD windows and calls; the cards it cannot see are dealt
// at random (with rng) to the other hands, the deck and the cards out of play. What the view does
// not show is taken as a player would: play_after_draw is on only when the view shows a card just
// drawn, and the sample's own RNG is seeded from rng. It reads nothing but its arguments (L-11).
func (r *Rules) Sample(seat int, v sdk.View, _ []sdk.Event, rng *sdk.RNG) (*State, error) {
	if v.Phase != sdk.PhasePlaying || seat < 0 || seat >= len(v.Players) {
		return nil, errNoGame
	}
	n := len(v.Players)
	s := &State{
		Seats: n, HandSize: 7, LastCardMS: 5000, Hands: make([][]sdk.Card, n),
		Turn: v.Turn, Direction: v.Direction, Phase: sdk.PhasePlaying, Winner: sdk.NoSeat,
		Game: v.Round, Seq: 1 << 20, RNG: sdk.NewRNG(rng.Uint64()), Simulated: true,
	}
	if s.Direction == 0 {
		s.Direction = 1
	}
	pos := PositionOf(v)
	s.Penalty, s.ExtraGo, s.Drawn = pos.Penalty, pos.ExtraGo, pos.Drawn
	s.PlayAfterDraw = pos.Drawn != 0
	if pos.Suit != 0 {
		s.Suit = string(rune(pos.Suit))
	}
	hand := slices.Clone(HandOf(v))
	total := len(hand)
	deckCount, outCount := 0, 0
	for _, z := range v.Zones {
		switch z.ID {
		case "pile":
			s.Pile = slices.Clone(z.Cards)
		case "deck":
			deckCount = z.Count
		case "out":
			outCount = z.Count
		}
	}
	for _, p := range v.Players {
		if p.Seat != seat {
			total += p.HandCount
		}
		if slices.Contains(p.Tags, "opener") {
			s.Opener = p.Seat
		}
		if slices.Contains(p.Tags, "called") {
			s.Called = append(s.Called, p.Seat)
		}
	}
	total += len(s.Pile) + deckCount + outCount
	s.Decks = max(1, (total+51)/52)
	for _, d := range v.Deadlines {
		if d.Kind == "last_card" {
			s.Windows = append(s.Windows, Window{Seat: d.Seat, ID: d.ID, At: d.At})
		}
	}
	pool := sdk.FrenchDeck(s.Decks, 0)
	var ok bool
	if pool, ok = sdk.RemoveCards(pool, slices.Concat(hand, s.Pile)); !ok {
		return nil, errors.New("hotspot: the view shows cards that are not in the game's decks")
	}
	rng.ShuffleCards(sdk.DrawShuffle, pool)
	take := func(k int) []sdk.Card {
		k = min(k, len(pool))
		out := slices.Clone(pool[:k])
		pool = pool[k:]
		return out
	}
	for _, p := range v.Players {
		if p.Seat == seat {
			s.Hands[p.Seat] = hand
		} else {
			s.Hands[p.Seat] = take(p.HandCount)
		}
	}
	if s.Drawn != 0 && s.Turn != seat {
		s.Drawn = 0 // another seat's drawn card: not shown, and not this bot's decision
	}
	s.Deck = take(deckCount)
	s.Out = pool
	return s, nil
}

// Decider is the seat a simulated game asks next: a seat with an open LAST CARD window first (it
// calls at once), then the seat in turn; sdk.NoSeat once the game is over.
func (r *Rules) Decider(s *State) int {
	if s.over() {
		return sdk.NoSeat
	}
	if len(s.Windows) > 0 {
		return s.Windows[0].Seat
	}
	return s.Turn
}

// Moves lists seat's actions: a call when its LAST CARD window is open (never to be missed), else
// for the seat in turn every legal play up to maxMoves (single cards, whole groups of three or
// more, Queen sequences; an Ace names the suit the rest of the hand holds most of), draw, and pass
// where it may.
func (r *Rules) Moves(s *State, seat int) []sdk.Action {
	if s.over() {
		return nil
	}
	if s.window(seat) >= 0 {
		return []sdk.Action{{Seat: seat, Type: sdk.ActCall}}
	}
	if seat != s.Turn {
		return nil
	}
	hand := s.Hands[seat]
	pos := s.position()
	var out []sdk.Action
	var walk func(seq []sdk.Card, cur Position, rest []sdk.Card)
	walk = func(seq []sdk.Card, cur Position, rest []sdk.Card) {
		var tried []sdk.Card
		for _, d := range rest {
			if len(out) >= maxMoves {
				return
			}
			if slices.Contains(tried, d) || !cur.Legal(d) || (len(seq) == 0 && cur.Drawn != 0 && d != cur.Drawn) {
				continue
			}
			tried = append(tried, d)
			options := [][]sdk.Card{{d}}
			if d.Rank() != rankQueen && countRank(rest, d.Rank()) >= 3 {
				g := []sdk.Card{d}
				left, _ := sdk.RemoveCards(rest, g)
				for _, e := range left {
					if e.Rank() == d.Rank() {
						g = append(g, e)
					}
				}
				options = append(options, g)
			}
			for _, o := range options {
				cards := append(slices.Clone(seq), o...)
				pc := checkOnly(pos, hand, cards)
				if !pc.Legal {
					continue
				}
				a := sdk.Action{Seat: seat, Type: sdk.ActPlay, Cards: cards}
				if pc.NeedSuit && !pc.Wins {
					left, _ := sdk.RemoveCards(hand, cards)
					a = a.WithChoice(string(rune(mostSuit(left))))
				}
				out = append(out, a)
				if pc.After.ExtraGo && !pc.Wins {
					left, _ := sdk.RemoveCards(rest, o)
					walk(cards, pc.After, left)
				}
			}
		}
	}
	walk(nil, pos, hand)
	if s.ExtraGo || s.Drawn != 0 {
		out = append(out, sdk.Action{Seat: seat, Type: sdk.ActPass})
	}
	if s.Drawn == 0 {
		out = append(out, sdk.Action{Seat: seat, Type: sdk.ActDraw})
	}
	return out
}

// mostSuit is the suit cards hold most of, Aces aside (spades when none).
func mostSuit(cards []sdk.Card) sdk.Suit {
	best, most := sdk.Suits[0], -1
	for _, su := range sdk.Suits {
		n := 0
		for _, c := range cards {
			if c.Suit() == su && c.Rank() != rankAce {
				n++
			}
		}
		if n > most {
			best, most = su, n
		}
	}
	return best
}

// RolloutMove is the simulated players' policy: call LAST CARD at once; answer a penalty with a 2;
// otherwise lay a random legal card that is not an Ace (a whole group of its rank when it holds
// three or more), an Ace (naming its most-held suit) only when nothing else goes, and draw when
// nothing does; after a Queen, follow it when it can, else pass.
func (r *Rules) RolloutMove(s *State, seat int, rng *sdk.RNG) sdk.Action {
	if s.window(seat) >= 0 {
		return sdk.Action{Seat: seat, Type: sdk.ActCall}
	}
	hand := s.Hands[seat]
	pos := s.position()
	var pick, ace sdk.Card
	n := 0
	for _, c := range hand {
		if !pos.Legal(c) || pos.Drawn != 0 && c != pos.Drawn {
			continue
		}
		if c.Rank() == rankAce {
			ace = c
			continue
		}
		n++
		if rng.Intn("rollout", n) == 0 {
			pick = c
		}
	}
	if pick == 0 {
		pick = ace
	}
	if pick == 0 {
		if s.ExtraGo || s.Drawn != 0 {
			return sdk.Action{Seat: seat, Type: sdk.ActPass}
		}
		return sdk.Action{Seat: seat, Type: sdk.ActDraw}
	}
	cards := []sdk.Card{pick}
	if pick.Rank() != rankQueen && pos.Drawn == 0 && countRank(hand, pick.Rank()) >= 3 {
		for _, c := range hand {
			if c.Rank() == pick.Rank() && c != pick {
				cards = append(cards, c)
			}
		}
		if len(cards) != countRank(hand, pick.Rank()) {
			cards = []sdk.Card{pick} // two decks: a duplicate card; keep it simple
		}
	}
	a := sdk.Action{Seat: seat, Type: sdk.ActPlay, Cards: cards}
	if pick.Rank() == rankAce && len(hand) > len(cards) {
		left, _ := sdk.RemoveCards(hand, cards)
		a = a.WithChoice(string(rune(mostSuit(left))))
	}
	return a
}
