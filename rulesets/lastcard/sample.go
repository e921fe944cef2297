package lastcard

import (
	"slices"
	"strconv"

	"cardhouse/sdk"
)

// sampleState builds a full State consistent with what a seat knows (k, read from its view): its
// own hand, the pile, every count and public flag as the view shows them, and the cards it cannot
// see dealt at random (with rng) to the other hands and the deck; cards beyond those (a fixed deal
// that left some out of play) go out of play. View(sampleState(k), k.Seat) equals the view k was
// read from. It is the sampling step of the planned level 5 bot (information-set Monte Carlo: sample
// many worlds, play each move out with Apply, keep the best on average), the bot's counterpart of
// Redeal, which needs the true state. It returns nil when k holds no round in play.
func sampleState(k *seen, rng *sdk.RNG) *State {
	if k.Turn == sdk.NoSeat || len(k.Counts) == 0 {
		return nil
	}
	s := &State{
		Settings:  k.Settings,
		RNG:       sdk.NewRNG(rng.Uint64()),
		Phase:     sdk.PhasePlaying,
		Round:     k.Round,
		Opener:    k.Opener,
		Hands:     make([][]sdk.Card, k.Seats),
		Pile:      slices.Clone(k.Pile),
		Turn:      k.Turn,
		Direction: k.Direction,
		Color:     k.Color,
		Penalty:   k.Penalty,
		Called:    slices.Clone(k.Called),
		Exposed:   k.Exposed,
		Scores:    slices.Clone(k.Scores),
		Winner:    sdk.NoSeat,
		Simulated: true,
	}
	if s.Penalty > 0 {
		s.PenaltyKind = kindDrawTwo
		if s.top() == sdk.WildDrawFour {
			s.PenaltyKind = kindDrawFour
		}
	}
	pool := Deck()
	for _, c := range slices.Concat(k.Hand, k.Pile) {
		if i := slices.Index(pool, c); i >= 0 {
			pool = slices.Delete(pool, i, i+1)
		}
	}
	rng.ShuffleCards(sdk.DrawShuffle, pool)
	take := func(n int) []sdk.Card {
		n = min(n, len(pool))
		out := slices.Clone(pool[:n])
		pool = pool[n:]
		return out
	}
	for seat := range k.Seats {
		if seat == k.Seat {
			s.Hands[seat] = slices.Clone(k.Hand)
			continue
		}
		s.Hands[seat] = take(k.Counts[seat])
	}
	s.Deck = take(k.DeckCount)
	s.Out = pool
	if k.Drawn != 0 && k.Turn == k.Seat {
		d := k.Drawn
		s.Drawn = &d
	}
	return s
}

// readSettings reads the room's rule options from the view's indicators.
func readSettings(inds []sdk.Indicator) Settings {
	st := settingsFrom(nil)
	for _, ind := range inds {
		switch ind.ID {
		case OptStackDrawTwo:
			st.StackDrawTwo, _ = strconv.ParseBool(ind.Value)
		case OptDrawFour:
			st.DrawFour = ind.Value
		case OptLastCardMode:
			st.LastCardMode = ind.Value
		case "target":
			st.Target = ind.Value
		}
	}
	return st
}
