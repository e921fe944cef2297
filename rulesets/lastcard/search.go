package lastcard

import (
	"errors"
	"math"
	"slices"

	"cardhouse/sdk"
)

// This file gives Last Card to sdk/search: sampling worlds consistent with what a seat has seen
// (its view, and the colours its history says each opponent lacks), the moves of a state spelled
// out, a cheap rollout policy and an evaluation of a round cut short.

var (
	_ sdk.Sampler[*State]   = (*Rules)(nil)
	_ sdk.Mover[*State]     = (*Rules)(nil)
	_ sdk.Rollout[*State]   = (*Rules)(nil)
	_ sdk.Evaluator[*State] = (*Rules)(nil)
)

// errNoRound is Sample's answer for a view that holds no round in play.
var errNoRound = errors.New("lastcard: the view holds no round in play")

// Sample returns a full State consistent with what seat sees (view and history): View(sample,
// seat) equals view, and every card seat cannot see is dealt at random among the other hands and
// the deck, each opponent's cards avoiding the colours the history shows it lacked when it drew
// (see deduce). It reads nothing else (L-11).
func (r *Rules) Sample(seat int, view sdk.View, history []sdk.Event, rng *sdk.RNG) (*State, error) {
	k, err := perceive(sdk.BotRequest{Seat: seat, View: view, History: history})
	if err != nil {
		return nil, err
	}
	w := sampleBelieved(k, deduce(k), rng)
	if w == nil {
		return nil, errNoRound
	}
	return w, nil
}

// slot is one card of an opponent's hand as the seat believes it: a bit per colour (colourBit)
// the card cannot be, because the opponent drew rather than play that colour while holding it.
type slot uint8

// colourBit is the bit of a colour code in a slot ("" has none).
func colourBit(col string) slot {
	switch col {
	case "R":
		return 1
	case "Y":
		return 2
	case "G":
		return 4
	case "B":
		return 8
	}
	return 0
}

// allows reports whether card c can be the card of slot sl: a Joker always can.
func (sl slot) allows(c sdk.Card) bool { return sl&colourBit(colorOf(c)) == 0 }

// deduce reads k.History for what it says of each opponent's hand: one slot per card, oldest
// first. A seat that draws one card of its own will (no penalty follows) is taken to hold no card
// of the colour in play: every card it held then gets that colour's bit. A Joker Draw Four played
// under no_colour_match says the same of the colour it was played on. A played card leaves the
// newest slot that allows it (a drawn card is most often the one played). The seat's own hand
// gets no slots. Where the history is shorter than the round (a long round's log is bounded) or
// disagrees with the counts, the slots are trimmed from the oldest or padded with free ones.
func deduce(k *seen) [][]slot {
	slots := make([][]slot, k.Seats)
	for seat := range slots {
		if seat != k.Seat {
			slots[seat] = make([]slot, HandSize, HandSize+8)
		}
	}
	color := ""
	h := k.History
	for i, e := range h {
		if e.Seat < 0 || e.Seat >= k.Seats {
			if e.Name == "dealt" && len(e.Cards) > 0 {
				color = colorOf(e.Cards[0])
			}
			continue
		}
		own := e.Seat == k.Seat
		switch e.Name {
		case "dealt":
			for seat := range slots {
				if seat != k.Seat {
					slots[seat] = slots[seat][:0]
					for range HandSize {
						slots[seat] = append(slots[seat], 0)
					}
				}
			}
			if len(e.Cards) > 0 {
				color = colorOf(e.Cards[0])
			}
		case "played":
			if len(e.Cards) != 1 {
				continue
			}
			c := e.Cards[0]
			before := color
			if isJoker(c) {
				color = e.Data["color"]
			} else {
				color = colorOf(c)
			}
			if own {
				continue
			}
			s := slots[e.Seat]
			j := len(s) - 1
			for ; j >= 0 && !s[j].allows(c); j-- {
			}
			if j < 0 {
				j = len(s) - 1
			}
			if j >= 0 {
				slots[e.Seat] = slices.Delete(s, j, j+1)
			}
			if c == sdk.WildDrawFour && k.Settings.DrawFour != drawFourAnyTime && before != "" {
				for n := range slots[e.Seat] {
					slots[e.Seat][n] |= colourBit(before)
				}
			}
		case "color_chosen":
			color = e.Data["color"]
		case "drew":
			if own {
				continue
			}
			penalty := i+1 < len(h) && h[i+1].Name == "penalty_drawn" && h[i+1].Seat == e.Seat
			if !penalty && e.Count == 1 && color != "" {
				for n := range slots[e.Seat] {
					slots[e.Seat][n] |= colourBit(color)
				}
			}
			for range e.Count {
				slots[e.Seat] = append(slots[e.Seat], 0)
			}
		}
	}
	for seat := range slots {
		if seat == k.Seat || seat >= len(k.Counts) {
			continue
		}
		s := slots[seat]
		if over := len(s) - k.Counts[seat]; over > 0 {
			s = s[over:]
		}
		for len(s) < k.Counts[seat] {
			s = append(s, 0)
		}
		slots[seat] = s
	}
	return slots
}

// sampleBelieved is sampleState with beliefs: each opponent's slots are filled from the shuffled
// unseen cards with the first card each slot allows (the most constrained slots first), any card
// when none is left that fits. It returns nil when k holds no round in play.
func sampleBelieved(k *seen, beliefs [][]slot, rng *sdk.RNG) *State {
	s := sampleState(k, rng)
	if s == nil || beliefs == nil {
		return s
	}
	// Gather what sampleState dealt to the opponents, then deal it again under the beliefs.
	var pool []sdk.Card
	for seat, h := range s.Hands {
		if seat != k.Seat {
			pool = append(pool, h...)
		}
	}
	pool = append(pool, s.Deck...)
	for seat := range s.Hands {
		if seat == k.Seat || seat >= len(beliefs) || len(beliefs[seat]) != len(s.Hands[seat]) {
			continue
		}
		order := make([]int, len(beliefs[seat]))
		for i := range order {
			order[i] = i
		}
		bits := func(sl slot) int {
			n := 0
			for ; sl != 0; sl &= sl - 1 {
				n++
			}
			return n
		}
		slices.SortStableFunc(order, func(a, b int) int { return bits(beliefs[seat][b]) - bits(beliefs[seat][a]) })
		hand := make([]sdk.Card, len(order))
		for _, i := range order {
			j := slices.IndexFunc(pool, beliefs[seat][i].allows)
			if j < 0 {
				j = 0
			}
			hand[i] = pool[j]
			pool = slices.Delete(pool, j, j+1)
		}
		s.Hands[seat] = hand
	}
	// The seats without beliefs and the deck take the rest, as sampleState had them.
	for seat := range s.Hands {
		if seat != k.Seat && (seat >= len(beliefs) || len(beliefs[seat]) != len(s.Hands[seat])) {
			n := len(s.Hands[seat])
			s.Hands[seat] = slices.Clone(pool[:n])
			pool = pool[n:]
		}
	}
	s.Deck = pool
	return s
}

// Decider is the seat in turn while a round is played, sdk.NoSeat once it is over: a simulated
// round asks nobody to catch (its players always call "Last card!").
func (r *Rules) Decider(s *State) int {
	if s.Phase != sdk.PhasePlaying {
		return sdk.NoSeat
	}
	return s.Turn
}

// Moves lists the actions of seat in s: every playable card (a Joker once per colour, unless it
// is the last card), announcing "Last card!" with the play when it leaves one card uncalled;
// draw, or pass after a draw. It leaves out the plays that forget the call (no player gains by
// them) and the catches (they are out of turn). A seat not in turn has no moves.
func (r *Rules) Moves(s *State, seat int) []sdk.Action {
	if s.Phase != sdk.PhasePlaying || seat != s.Turn {
		return nil
	}
	hand := s.Hands[seat]
	call := len(hand) == 2 && !s.Called[seat]
	var out []sdk.Action
	for _, c := range s.playableCards() {
		colors := []string{""}
		if isJoker(c) && len(hand) > 1 {
			colors = colorChoices
		}
		for _, col := range colors {
			a := sdk.Action{Seat: seat, Type: sdk.ActPlay, Cards: []sdk.Card{c}, Color: col}
			if call {
				a.Args = callArgs
			}
			out = append(out, a)
		}
	}
	if s.Drawn != nil {
		out = append(out, sdk.Action{Seat: seat, Type: sdk.ActPass})
	} else {
		out = append(out, sdk.Action{Seat: seat, Type: sdk.ActDraw})
	}
	return out
}

// callArgs announce "Last card!" with a play. Shared, never written to.
var callArgs = map[string]string{ArgCall: "true"}

// RolloutMove is the simulated players' policy, level 2's habits made cheap: play a drawn card
// that fits, stack a Draw Two rather than draw, hit a next player close to going out with a Draw
// Two, Skip or Reverse, otherwise play a card of the colour its hand holds most of (ties at
// random), a Joker (naming that colour) only when nothing else goes, and draw when nothing does.
// It calls "Last card!" whenever it should.
func (r *Rules) RolloutMove(s *State, seat int, rng *sdk.RNG) sdk.Action {
	hand := s.Hands[seat]
	a := sdk.Action{Seat: seat, Type: sdk.ActDraw}
	if s.Drawn != nil {
		a.Type = sdk.ActPass
	}
	var held [4]int
	for _, c := range hand {
		if i := colourIndex(colorOf(c)); i >= 0 {
			held[i]++
		}
	}
	threat := len(s.Hands[s.next(seat, 1)]) <= 2
	best, ties, bestScore := sdk.Card(0), 0, -1
	for i, c := range hand {
		if s.Drawn != nil && c != *s.Drawn || slices.Contains(hand[:i], c) || !s.playable(c, hand) {
			continue
		}
		score := 1
		switch {
		case isJoker(c):
			score = 0
			if threat && c == sdk.WildDrawFour {
				score = 50
			}
		default:
			score += 2 * held[colourIndex(colorOf(c))]
			if threat {
				switch c.Value() {
				case sdk.ValueDrawTwo, sdk.ValueSkip:
					score += 40
				case sdk.ValueReverse:
					if s.seats() == 2 {
						score += 40
					}
				}
			}
		}
		switch {
		case score > bestScore:
			best, ties, bestScore = c, 1, score
		case score == bestScore:
			ties++
			if rng.Intn("rollout", ties) == 0 {
				best = c
			}
		}
	}
	if best == 0 {
		return a
	}
	a.Type = sdk.ActPlay
	a.Cards = []sdk.Card{best}
	if isJoker(best) && len(hand) > 1 {
		a.Color = handColour(hand, rng)
	}
	if len(hand) == 2 && !s.Called[seat] {
		a.Args = callArgs
	}
	return a
}

// handColour is the colour hand holds most of (a random one when it holds no coloured card).
func handColour(hand []sdk.Card, rng *sdk.RNG) string {
	var n [4]int
	for _, c := range hand {
		if i := colourIndex(colorOf(c)); i >= 0 {
			n[i]++
		}
	}
	best := -1
	for i := range n {
		if n[i] > 0 && (best < 0 || n[i] > n[best]) {
			best = i
		}
	}
	if best < 0 {
		best = rng.Intn("rollout", 4)
	}
	return colorChoices[best]
}

// colourIndex is the index of a colour code in colorChoices, -1 for none.
func colourIndex(col string) int { return slices.Index(colorChoices, col) }

// Evaluate estimates each seat's chance of winning a round cut short: a softmax of minus the
// cards in hand (a card more is worth about half the odds), the seat in turn a little ahead and a
// pending penalty counted against its victim.
func (r *Rules) Evaluate(s *State) []float64 {
	n := s.seats()
	out := make([]float64, n)
	if s.Phase != sdk.PhasePlaying {
		if s.Winner >= 0 && s.Winner < n {
			out[s.Winner] = 1
		}
		return out
	}
	total := 0.0
	for seat, h := range s.Hands {
		cards := float64(len(h))
		if seat == s.Turn {
			cards += float64(s.Penalty) - 0.5
		}
		out[seat] = math.Exp(-0.7 * cards)
		total += out[seat]
	}
	for i := range out {
		out[i] /= total
	}
	return out
}
