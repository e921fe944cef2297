package lastcard

import "cardhouse/sdk"

// Deck returns Last Card's 108 cards in a fixed order (shuffle it with the game's RNG): per
// colour one 0, two of each digit 1-9, two Skips, two Reverses and two Draw Twos; then four
// Jokers and four Joker Draw Fours. The order is part of every game's deal: changing it changes
// every seeded game.
func Deck() []sdk.Card {
	out := make([]sdk.Card, 0, 108)
	for _, col := range sdk.Colors {
		out = append(out, sdk.LC(col, 0))
		for v := 1; v <= sdk.ValueDrawTwo; v++ {
			out = append(out, sdk.LC(col, v), sdk.LC(col, v))
		}
	}
	for range 4 {
		out = append(out, sdk.Wild)
	}
	for range 4 {
		out = append(out, sdk.WildDrawFour)
	}
	return out
}
