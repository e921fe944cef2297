package sdk

// LastCardDeck is Last Card's 108 cards in rulesets/lastcard's order (lastcard.Deck), for the
// sdk's own tests of the Last Card card family: the deck itself lives with its variant (issue 28),
// which the sdk's tests cannot import.
func LastCardDeck() []Card {
	out := make([]Card, 0, 108)
	for _, col := range Colors {
		out = append(out, LC(col, 0))
		for v := 1; v <= ValueDrawTwo; v++ {
			out = append(out, LC(col, v), LC(col, v))
		}
	}
	for range 4 {
		out = append(out, Wild)
	}
	for range 4 {
		out = append(out, WildDrawFour)
	}
	return out
}
