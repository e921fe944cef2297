package drugs

import (
	"encoding/json"
	"fmt"
	"slices"

	"cardhouse/sdk"
)

// State is one DRUGS game: every card in exactly one place, whose turn it is, the pile's
// restrictions and the game's RNG. It is a plain value that encodes to JSON with cards as codes;
// Apply clones it and never changes its input.
type State struct {
	Seats int `json:"seats"`
	// Overdose is the option `overdose`: this many cards of one rank in a row on top burn the pile.
	Overdose int `json:"overdose"`
	// Chaos is the option `chaos`: the deck holds two Jokers per 52 cards.
	Chaos bool `json:"chaos"`
	// Game counts the games dealt at this table, from 1 (Status.Round).
	Game int `json:"game"`

	Hands    [][]sdk.Card `json:"hands"`
	FaceUp   [][]sdk.Card `json:"face_up"`
	FaceDown []Row        `json:"face_down"`
	// Pile is the discard pile, bottom first: its last card is the top.
	Pile []sdk.Card `json:"pile"`
	// Deck is the draw pile, top first.
	Deck []sdk.Card `json:"deck"`
	// Burned holds the cards burned by 10s and overdoses, and the cards dealt out of play by a
	// scenario (Out) are kept apart from them.
	Burned []sdk.Card `json:"burned"`
	Out    []sdk.Card `json:"out,omitempty"`

	Turn      int `json:"turn"`
	Direction int `json:"direction"`
	// Armed is the time bomb (D-10): the seat in turn must answer with a 2, 3, 10 or Joker, or
	// pick up the pile.
	Armed bool `json:"armed,omitempty"`
	// GiftPending is the seat that must give a hand card (Joker effect gift), or sdk.NoSeat.
	GiftPending int `json:"gift_pending"`
	// Stall counts the pick-ups since the pile was last burned; at StallLimit the game ends.
	Stall  int    `json:"stall"`
	Phase  string `json:"phase"`
	Winner int    `json:"winner"`

	RNG sdk.RNG `json:"rng"`
	// Log is this game's public record of events, at most LogLimit of the newest (Historian).
	Log []sdk.Event `json:"log,omitempty"`
	// Simulated marks a world a search bot sampled (Sample): its steps keep no log, which spares
	// the search a copy of the log on every simulated action. Never stored (json "-"); false in
	// every real game.
	Simulated bool `json:"-"`
}

// Row is a face-down row: positions keep their places and a played position stays a gap (the zero
// Card), encoded in JSON as null.
type Row []sdk.Card

// MarshalJSON writes the row as card codes with null for a gap.
func (r Row) MarshalJSON() ([]byte, error) {
	if r == nil {
		return []byte("null"), nil
	}
	out := make([]*string, len(r))
	for i, c := range r {
		if c != 0 {
			s := c.String()
			out[i] = &s
		}
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads card codes with null for a gap.
func (r *Row) UnmarshalJSON(b []byte) error {
	var codes []*string
	if err := json.Unmarshal(b, &codes); err != nil {
		return fmt.Errorf("face-down row: %w", err)
	}
	if codes == nil {
		*r = nil
		return nil
	}
	row := make(Row, len(codes))
	for i, s := range codes {
		if s == nil {
			continue
		}
		c, err := sdk.ParseCard(*s)
		if err != nil {
			return fmt.Errorf("face-down row position %d: %w", i, err)
		}
		row[i] = c
	}
	*r = row
	return nil
}

// Count is the number of cards still in the row (gaps not counted).
func (r Row) Count() int {
	n := 0
	for _, c := range r {
		if c != 0 {
			n++
		}
	}
	return n
}

// Cards returns the row's cards without gaps, in position order.
func (r Row) Cards() []sdk.Card {
	out := make([]sdk.Card, 0, len(r))
	for _, c := range r {
		if c != 0 {
			out = append(out, c)
		}
	}
	return out
}

// Slots tells which positions hold a card.
func (r Row) Slots() []bool {
	out := make([]bool, len(r))
	for i, c := range r {
		out[i] = c != 0
	}
	return out
}

func cloneRows(in [][]sdk.Card) [][]sdk.Card {
	if in == nil {
		return nil
	}
	out := make([][]sdk.Card, len(in))
	for i, r := range in {
		out[i] = slices.Clone(r)
	}
	return out
}

// Clone returns a deep copy: no slice or map is shared with s.
func (s *State) Clone() *State {
	c := *s
	c.Hands = cloneRows(s.Hands)
	c.FaceUp = cloneRows(s.FaceUp)
	if s.FaceDown != nil {
		c.FaceDown = make([]Row, len(s.FaceDown))
		for i, r := range s.FaceDown {
			c.FaceDown[i] = slices.Clone(r)
		}
	}
	c.Pile = slices.Clone(s.Pile)
	c.Deck = slices.Clone(s.Deck)
	c.Burned = slices.Clone(s.Burned)
	c.Out = slices.Clone(s.Out)
	c.RNG = s.RNG.Clone()
	// Logged events are never changed once recorded, so they may be shared; the clip makes the
	// next append copy instead of writing into s's array.
	c.Log = slices.Clip(s.Log)
	return &c
}

// next returns the seat k places on from seat in the direction of play.
func (s *State) next(seat, k int) int {
	n := s.Seats
	return ((seat+k*s.Direction)%n + n) % n
}

// holding is the number of cards seat still has anywhere: hand, face-up and face-down.
func (s *State) holding(seat int) int {
	return len(s.Hands[seat]) + len(s.FaceUp[seat]) + s.FaceDown[seat].Count()
}

// stage names where seat plays from now: "hand", "face_up" (hand and deck empty) or
// "face_down" (face-up cards gone too), or "" when the seat holds nothing.
func (s *State) stage(seat int) string {
	switch {
	case len(s.Hands[seat]) > 0:
		return "hand"
	case len(s.Deck) > 0:
		return "hand" // about to draw (turnStart tops an empty hand up)
	case len(s.FaceUp[seat]) > 0:
		return "face_up"
	case s.FaceDown[seat].Count() > 0:
		return "face_down"
	}
	return ""
}

// top is the top card of the pile, or 0.
func (s *State) top() sdk.Card {
	if len(s.Pile) == 0 {
		return 0
	}
	return s.Pile[len(s.Pile)-1]
}

// effective is the card a play must answer: the top card seen through 3s (D-3), or 0 when the
// pile is empty or holds only 3s.
func (s *State) effective() sdk.Card {
	for i := len(s.Pile) - 1; i >= 0; i-- {
		if s.Pile[i].Rank() != 3 {
			return s.Pile[i]
		}
	}
	return 0
}

// max7 reports whether the seat in turn must play 7 or lower (D-4, through 3s by D-3). Only the
// player right after a 7 ever faces one: whoever answers it covers it, a pick-up or burn empties
// the pile.
func (s *State) max7() bool {
	return !s.Armed && s.effective().Rank() == 7
}

// open reports whether anything may be played: the pile is empty, only 3s, or topped (through 3s)
// by a 2 or a Joker, and not armed.
func (s *State) open() bool {
	if s.Armed {
		return false
	}
	e := s.effective()
	return e == 0 || e == sdk.Joker || e.Rank() == 2
}

// run is how many cards of the top card's rank lie in a row on top (D-5: a 3 counts only as a 3;
// Jokers have no rank, so a Joker on top is a run of 0).
func (s *State) run() int {
	t := s.top()
	if t == 0 || t == sdk.Joker {
		return 0
	}
	n := 0
	for i := len(s.Pile) - 1; i >= 0 && s.Pile[i].Rank() == t.Rank(); i-- {
		n++
	}
	return n
}

// allCards is every card of the game wherever it lies.
func (s *State) allCards() []sdk.Card {
	var out []sdk.Card
	for i := range s.Seats {
		out = append(out, s.Hands[i]...)
		out = append(out, s.FaceUp[i]...)
		out = append(out, s.FaceDown[i].Cards()...)
	}
	out = append(out, s.Pile...)
	out = append(out, s.Deck...)
	out = append(out, s.Burned...)
	out = append(out, s.Out...)
	return out
}
