package sdk

import (
	"fmt"
	"slices"
)

// CodeBadDeal is the refusal code of a Deal that does not fit the game's card set or seats.
const CodeBadDeal = "bad_deal"

// Layout is a Deal resolved against a game's card set: every card of the set is in exactly one of
// its places.
type Layout struct {
	Pile     []Card
	Hands    [][]Card
	FaceUp   [][]Card
	FaceDown [][]Card
	// Deck is the draw pile from its top: the deal's deck, then (Rest "deck") the unnamed cards in
	// seeded order.
	Deck []Card
	// Out holds the unnamed cards when Rest is "out".
	Out []Card
	// First is the deal's first seat, or NoSeat when it names none.
	First int
}

// Layout resolves the deal for a game of seats seats whose cards are set. It refuses (CodeBadDeal)
// a card not in the set, more copies than the set holds, or rows for more seats than there are.
// Unnamed cards are shuffled with rng under DrawShuffle.
func (d *Deal) Layout(set []Card, seats int, rng *RNG) (Layout, error) {
	l := Layout{First: NoSeat}
	left := CountCards(set)
	take := func(where string, cards []Card) ([]Card, error) {
		for _, c := range cards {
			if left[c] == 0 {
				if CountCards(set)[c] == 0 {
					return nil, Refuse(CodeBadDeal, "deal: %s names %s, which is not in this game's cards", where, c)
				}
				return nil, Refuse(CodeBadDeal, "deal: %s names %s once more than this game's cards hold (%d)", where, c, CountCards(set)[c])
			}
			left[c]--
		}
		return slices.Clone(cards), nil
	}
	rows := func(name string, in [][]Card) ([][]Card, error) {
		if len(in) == 0 {
			return nil, nil
		}
		if len(in) > seats {
			return nil, Refuse(CodeBadDeal, "deal: %s lists %d seats, the game has %d", name, len(in), seats)
		}
		out := make([][]Card, seats)
		for i := range seats {
			if i < len(in) {
				c, err := take(fmt.Sprintf("%s of seat %d", name, i), in[i])
				if err != nil {
					return nil, err
				}
				out[i] = c
			} else {
				out[i] = []Card{}
			}
		}
		return out, nil
	}
	var err error
	if l.Pile, err = take("pile", d.Pile); err != nil {
		return l, err
	}
	if l.Hands, err = rows("hands", d.Hands); err != nil {
		return l, err
	}
	if l.FaceUp, err = rows("face_up", d.FaceUp); err != nil {
		return l, err
	}
	if l.FaceDown, err = rows("face_down", d.FaceDown); err != nil {
		return l, err
	}
	if l.Deck, err = take("deck", d.Deck); err != nil {
		return l, err
	}
	// The unnamed cards, in the set's order, then shuffled: deterministic for a seed.
	var rest []Card
	for _, c := range set {
		if left[c] > 0 {
			left[c]--
			rest = append(rest, c)
		}
	}
	rng.ShuffleCards(DrawShuffle, rest)
	switch d.Rest {
	case "", "deck":
		l.Deck = append(l.Deck, rest...)
	case "out":
		l.Out = rest
	default:
		return l, Refuse(CodeBadDeal, "deal: rest must be \"deck\" or \"out\", got %q", d.Rest)
	}
	if d.First != nil {
		if *d.First < 0 || *d.First >= seats {
			return l, Refuse(CodeBadDeal, "deal: first seat %d is not a seat of this %d-seat game", *d.First, seats)
		}
		l.First = *d.First
	}
	return l, nil
}
