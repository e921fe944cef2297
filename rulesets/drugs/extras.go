package drugs

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"cardhouse/sdk"
)

// History is what seat has seen happen this game, oldest first: the newest LogLimit events
// ("turn" events left out), other seats' draws and gifts reduced to counts (Event.For).
func (*Rules) History(s *State, seat int) []sdk.Event {
	out := make([]sdk.Event, len(s.Log))
	for i, e := range s.Log {
		out[i] = e.For(seat)
	}
	return out
}

// Redeal returns a copy of s in which every card viewer cannot see (other hands, every
// face-down row, the deck, the cards out of play) has been shuffled among those places, each
// keeping its size and face-down gaps. Jokers never land in a face-down row (D-11). Burned cards
// stay: everyone saw them go.
func (*Rules) Redeal(s *State, viewer int, rng *sdk.RNG) *State {
	c := s.Clone()
	var jokers, plain []sdk.Card
	collect := func(cards []sdk.Card) {
		for _, x := range cards {
			if x == sdk.Joker {
				jokers = append(jokers, x)
			} else {
				plain = append(plain, x)
			}
		}
	}
	shown := c.Phase != sdk.PhasePlaying // the game is over: every hand and row is shown (View)
	for i := range c.Seats {
		if i != viewer && !shown {
			collect(c.Hands[i])
		}
		if !shown {
			collect(c.FaceDown[i].Cards())
		}
	}
	collect(c.Deck)
	collect(c.Out)
	rng.ShuffleCards(sdk.DrawShuffle, plain)
	// Face-down slots first, from the plain cards; then everything else, shuffled.
	for i := range c.Seats {
		for j, x := range c.FaceDown[i] {
			if x != 0 && !shown {
				c.FaceDown[i][j] = plain[0]
				plain = plain[1:]
			}
		}
	}
	rest := append(plain, jokers...)
	rng.ShuffleCards(sdk.DrawShuffle, rest)
	take := func(n int) []sdk.Card {
		out := slices.Clone(rest[:n])
		rest = rest[n:]
		return out
	}
	for i := range c.Seats {
		if i != viewer && !shown {
			c.Hands[i] = take(len(c.Hands[i]))
		}
	}
	c.Deck = take(len(c.Deck))
	if c.Out != nil {
		c.Out = take(len(c.Out))
	}
	return c
}

// Table is the generic face of the state for house rules: zones "hand.N", "face_up.N",
// "face_down.N" (gaps as the zero Card), "pile" (bottom first), "deck" (top first), "burned",
// "out"; counters "armed" (0/1), "gift_pending" (seat or -1), "stall", "winner" (seat or -1),
// "overdose"; value "phase".
func (*Rules) Table(s *State) sdk.Table {
	t := sdk.Table{Zones: map[string][]sdk.Card{}, Turn: s.Turn, Direction: s.Direction}
	for i := range s.Seats {
		t.Zones[fmt.Sprintf("hand.%d", i)] = slices.Clone(s.Hands[i])
		t.Zones[fmt.Sprintf("face_up.%d", i)] = slices.Clone(s.FaceUp[i])
		t.Zones[fmt.Sprintf("face_down.%d", i)] = slices.Clone([]sdk.Card(s.FaceDown[i]))
	}
	t.Zones["pile"] = slices.Clone(s.Pile)
	t.Zones["deck"] = slices.Clone(s.Deck)
	t.Zones["burned"] = slices.Clone(s.Burned)
	t.Zones["out"] = slices.Clone(s.Out)
	armed := 0
	if s.Armed {
		armed = 1
	}
	t.Counters = map[string]int{"armed": armed, "gift_pending": s.GiftPending, "stall": s.Stall, "winner": s.Winner, "overdose": s.Overdose}
	t.Values = map[string]string{"phase": s.Phase}
	return t
}

// SetTable returns a copy of s carrying t. It refuses an unknown zone, counter or value, a turn
// or seat that is not one, a card that is not a DRUGS card (or a gap outside a face-down row),
// a change of the phase or the winner (the game ends through End, with its won event) and a
// table that loses or invents cards. A zone, counter or value t leaves out keeps its value.
func (*Rules) SetTable(s *State, t sdk.Table) (*State, error) {
	c := s.Clone()
	seatOf := func(name, prefix string) (int, bool) {
		rest, ok := strings.CutPrefix(name, prefix)
		if !ok {
			return 0, false
		}
		n, err := strconv.Atoi(rest)
		return n, err == nil && n >= 0 && n < s.Seats && strconv.Itoa(n) == rest
	}
	for _, name := range slices.Sorted(maps.Keys(t.Zones)) {
		cards := slices.Clone(t.Zones[name])
		for i, x := range cards {
			if x == 0 && strings.HasPrefix(name, "face_down.") {
				continue
			}
			if !x.IsFrench() || (x == sdk.Joker && !s.Chaos) {
				return nil, sdk.Refuse(sdk.CodeBadAction, "table zone %s position %d: %s is not a card of this game", name, i, x)
			}
		}
		if n, ok := seatOf(name, "hand."); ok {
			c.Hands[n] = cards
		} else if n, ok := seatOf(name, "face_up."); ok {
			c.FaceUp[n] = cards
		} else if n, ok := seatOf(name, "face_down."); ok {
			c.FaceDown[n] = Row(cards)
		} else {
			switch name {
			case "pile":
				c.Pile = cards
			case "deck":
				c.Deck = cards
			case "burned":
				c.Burned = cards
			case "out":
				c.Out = cards
			default:
				return nil, sdk.Refuse(sdk.CodeBadAction, "table: DRUGS has no zone %q (zones: hand.N, face_up.N, face_down.N, pile, deck, burned, out)", name)
			}
		}
	}
	if t.Turn < 0 || t.Turn >= s.Seats {
		return nil, sdk.Refuse(sdk.CodeBadAction, "table: turn %d is not a seat of this %d-seat game", t.Turn, s.Seats)
	}
	if t.Direction != 1 && t.Direction != -1 {
		return nil, sdk.Refuse(sdk.CodeBadAction, "table: direction must be 1 or -1, got %d", t.Direction)
	}
	c.Turn, c.Direction = t.Turn, t.Direction
	seatOrNone := func(k string, v int) error {
		if v != sdk.NoSeat && (v < 0 || v >= s.Seats) {
			return sdk.Refuse(sdk.CodeBadAction, "table: counter %s = %d is neither a seat nor -1", k, v)
		}
		return nil
	}
	for _, k := range slices.Sorted(maps.Keys(t.Counters)) {
		v := t.Counters[k]
		switch k {
		case "armed":
			if v != 0 && v != 1 {
				return nil, sdk.Refuse(sdk.CodeBadAction, "table: counter armed must be 0 or 1, got %d", v)
			}
			c.Armed = v == 1
		case "gift_pending":
			if err := seatOrNone(k, v); err != nil {
				return nil, err
			}
			c.GiftPending = v
		case "winner":
			if err := seatOrNone(k, v); err != nil {
				return nil, err
			}
			if v != s.Winner {
				return nil, sdk.Refuse(sdk.CodeBadAction, "table: the winner changes only when the game ends (a house rule ends it with game.end_game(seat))")
			}
		case "stall":
			if v < 0 {
				return nil, sdk.Refuse(sdk.CodeBadAction, "table: counter stall must not be negative, got %d", v)
			}
			c.Stall = v
		case "overdose":
			if v < 3 || v > 8 {
				return nil, sdk.Refuse(sdk.CodeBadAction, "table: counter overdose must be 3 to 8, got %d", v)
			}
			c.Overdose = v
		default:
			return nil, sdk.Refuse(sdk.CodeBadAction, "table: DRUGS has no counter %q (counters: armed, gift_pending, stall, winner, overdose)", k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(t.Values)) {
		v := t.Values[k]
		switch k {
		case "phase":
			if v != sdk.PhasePlaying && v != sdk.PhaseGameOver {
				return nil, sdk.Refuse(sdk.CodeBadAction, "table: phase must be %q or %q, got %q", sdk.PhasePlaying, sdk.PhaseGameOver, v)
			}
			if v != s.Phase {
				return nil, sdk.Refuse(sdk.CodeBadAction, "table: the phase changes only when the game ends (a house rule ends it with game.end_game(seat))")
			}
		default:
			return nil, sdk.Refuse(sdk.CodeBadAction, "table: DRUGS has no value %q (values: phase)", k)
		}
	}
	if diff := sdk.CardDiff(s.allCards(), c.allCards()); diff != "" {
		return nil, sdk.Refuse(sdk.CodeBadAction, "table: every card must stay exactly once: %s", diff)
	}
	if c.Phase == sdk.PhasePlaying && c.Winner != sdk.NoSeat {
		return nil, sdk.Refuse(sdk.CodeBadAction, "table: a game being played has no winner yet (winner %d)", c.Winner)
	}
	if c.GiftPending != sdk.NoSeat && c.GiftPending != c.Turn {
		return nil, sdk.Refuse(sdk.CodeBadAction, "table: the seat giving a card (%d) must be the seat in turn (%d)", c.GiftPending, c.Turn)
	}
	return c, nil
}

var _ sdk.Ender[*State] = (*Rules)(nil)

// End ends the game for a house rule, as when winner holds no card left (D-9): DRUGS has no
// rounds, so ending the round ends the game. The won event's reason is "house_rule".
func (*Rules) End(s *State, req sdk.EndRequest) (*State, []sdk.Event, error) {
	if s.Phase != sdk.PhasePlaying {
		return nil, nil, sdk.Refuse(sdk.CodeGameOver, "the game is already over")
	}
	if req.Winner < 0 || req.Winner >= s.Seats {
		return nil, nil, sdk.Refuse(sdk.CodeHouseRule, "winner %d is not a seat of this %d-seat game", req.Winner, s.Seats)
	}
	c := s.Clone()
	var evs []sdk.Event
	c.win(req.Winner, "house_rule", &evs)
	c.record(evs)
	return c, evs, nil
}
