package lastcard

import (
	"errors"
	"math"
	"slices"
	"strconv"

	"cardhouse/sdk"
	"cardhouse/sdk/search"
)

// This file gives Last Card to sdk/search: sampling worlds consistent with what a seat has seen
// (its view, and the colours its history says each opponent lacks), the moves of a state spelled
// out, a cheap rollout policy and an evaluation of a round cut short.

var (
	_ sdk.Sampler[*State]   = (*Rules)(nil)
	_ sdk.Mover[*State]     = (*Rules)(nil)
	_ sdk.Rollout[*State]   = (*Rules)(nil)
	_ sdk.Evaluator[*State] = (*Rules)(nil)

	_ search.Simulator[*State] = (*Rules)(nil)
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
			out = append(out, sdk.Action{Seat: seat, Type: sdk.ActPlay, Cards: []sdk.Card{c}, Args: playArgs(col, call)})
		}
	}
	if s.Drawn != nil {
		out = append(out, sdk.Action{Seat: seat, Type: sdk.ActPass})
	} else {
		out = append(out, sdk.Action{Seat: seat, Type: sdk.ActDraw})
	}
	return out
}

// playArgs are the Args of a play naming color (a Joker's colour, as Args["choice"]; "" for none)
// and announcing "Last card!" when call; nil for neither. The maps are shared and never written
// to, so that the search's move lists allocate none.
func playArgs(color string, call bool) map[string]string {
	if color == "" {
		if call {
			return callArgs
		}
		return nil
	}
	i := colourIndex(color)
	if i < 0 {
		return sdk.Action{}.WithChoice(color).Args // not a colour: the rules refuse it
	}
	if call {
		return colourCallArgs[i]
	}
	return colourArgs[i]
}

// callArgs announce "Last card!" with a play; colourArgs name a colour (by colourIndex), and
// colourCallArgs do both. Shared, never written to.
var (
	callArgs                   = map[string]string{ArgCall: "true"}
	colourArgs, colourCallArgs = colourArgMaps()
)

func colourArgMaps() (plain, withCall [4]map[string]string) {
	for i, col := range colorChoices {
		plain[i] = map[string]string{sdk.ArgChoice: col}
		withCall[i] = map[string]string{sdk.ArgChoice: col, ArgCall: "true"}
	}
	return plain, withCall
}

// RolloutMove is the simulated players' policy, level 2's habits made cheap: play a drawn card
// that fits, stack a Draw Two rather than draw, hit a next player close to going out with a Draw
// Two, Skip or Reverse, otherwise play a card of the colour its hand holds most of (ties at
// random), a Joker (naming that colour) only when nothing else goes, and draw when nothing does.
// It calls "Last card!" whenever it should.
func (r *Rules) RolloutMove(s *State, seat int, rng *sdk.RNG) sdk.Action {
	card, color := rolloutChoice(s, seat, rng)
	if card == 0 {
		if s.Drawn != nil {
			return sdk.Action{Seat: seat, Type: sdk.ActPass}
		}
		return sdk.Action{Seat: seat, Type: sdk.ActDraw}
	}
	return sdk.Action{Seat: seat, Type: sdk.ActPlay, Cards: []sdk.Card{card}, Args: playArgs(color, len(s.Hands[seat]) == 2 && !s.Called[seat])}
}

// rolloutChoice is RolloutMove's choice: the card to play and the colour it names, or no card
// (0) to draw, or pass after a draw.
func rolloutChoice(s *State, seat int, rng *sdk.RNG) (sdk.Card, string) {
	hand := s.Hands[seat]
	var held [4]int
	for _, c := range hand {
		if i := colourAt(c); i >= 0 {
			held[i]++
		}
	}
	// What s.playable decides, with the colour in play and the top card's value read once.
	active := -1
	if s.Color != "" {
		active = colourIndex(s.Color)
	}
	topValue := -1
	if top := s.top(); top != 0 && !isJoker(top) {
		topValue = top.Value()
	}
	stack := s.PenaltyKind == kindDrawTwo && s.Settings.StackDrawTwo
	noFour := s.Settings.DrawFour != drawFourAnyTime && active >= 0 && held[active] > 0
	playable := func(c sdk.Card) bool {
		switch {
		case s.Penalty > 0:
			return stack && c.Value() == sdk.ValueDrawTwo
		case c == sdk.WildDrawFour:
			return !noFour
		case isJoker(c) || active < 0:
			return true
		}
		return colourAt(c) == active || topValue >= 0 && c.Value() == topValue
	}
	threat := len(s.Hands[s.next(seat, 1)]) <= 2
	best, ties, bestScore := sdk.Card(0), 0, -1
	for i, c := range hand {
		if s.Drawn != nil && c != *s.Drawn || !playable(c) || slices.Contains(hand[:i], c) {
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
			score += 2 * held[colourAt(c)]
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
		return 0, ""
	}
	if isJoker(best) && len(hand) > 1 {
		return best, handColour(hand, rng)
	}
	return best, ""
}

// colourAt is the index of c's colour in colorChoices, -1 for a Joker.
func colourAt(c sdk.Card) int {
	switch c.Color() {
	case sdk.Red:
		return 0
	case sdk.Yellow:
		return 1
	case sdk.Green:
		return 2
	case sdk.Blue:
		return 3
	}
	return -1
}

// Simulate plays a sampled world on with RolloutMove's choices (drawn from rng) until the round
// ends or limit actions have been played, and returns the state it reached and the actions
// played (sdk/search's Simulator). It steps one clone of s in place, with none of Apply's
// checks, events or copies: the same round as RolloutMove and Apply would play, several times
// faster (levels_test.go checks that they agree).
func (r *Rules) Simulate(s *State, limit int, rng *sdk.RNG) (*State, int) {
	w := s.clone()
	w.Simulated = true
	n := 0
	for ; n < limit && w.Phase == sdk.PhasePlaying; n++ {
		seat := w.Turn
		card, color := rolloutChoice(w, seat, rng)
		switch {
		case card != 0:
			w.simPlay(seat, card, color)
		case w.Drawn != nil:
			w.Exposed = sdk.NoSeat
			w.simMoveTo(w.next(seat, 1))
		default:
			w.simDraw(seat)
		}
	}
	return w, n
}

// simPlay is Apply's play of card (naming color) by seat in place, announcing "Last card!" with
// it when it leaves one card (the simulated players always call).
func (s *State) simPlay(seat int, card sdk.Card, color string) {
	hand := s.Hands[seat]
	if len(hand) == 2 && !s.Called[seat] {
		s.Called[seat] = true
	}
	i := slices.Index(hand, card)
	s.Hands[seat] = slices.Delete(hand, i, i+1)
	s.Pile = append(s.Pile, card)
	s.Drawn = nil
	s.Exposed = sdk.NoSeat
	if len(s.Hands[seat]) == 0 {
		s.scoreRound(seat)
		return
	}
	if isJoker(card) {
		s.Color = color
	} else {
		s.Color = colorOf(card)
	}
	if len(s.Hands[seat]) == 1 && !s.Called[seat] {
		if s.Settings.LastCardMode == modeAuto {
			s.simDrawInto(seat, 2)
		} else {
			s.Exposed = seat
		}
	}
	switch card.Value() {
	case sdk.ValueSkip:
		s.simMoveTo(s.next(seat, 2))
	case sdk.ValueReverse:
		if s.seats() == 2 {
			s.simMoveTo(s.next(seat, 2))
		} else {
			s.Direction = -s.Direction
			s.simMoveTo(s.next(seat, 1))
		}
	case sdk.ValueDrawTwo:
		s.Penalty += 2
		s.PenaltyKind = kindDrawTwo
		s.simMoveTo(s.next(seat, 1))
	default:
		if card == sdk.WildDrawFour {
			s.Penalty = 4
			s.PenaltyKind = kindDrawFour
		}
		s.simMoveTo(s.next(seat, 1))
	}
}

// simDraw is Apply's draw in place: the pending penalty, or one card kept for a play when it fits.
func (s *State) simDraw(seat int) {
	s.Exposed = sdk.NoSeat
	if s.Penalty > 0 {
		n := s.Penalty
		s.Penalty, s.PenaltyKind = 0, ""
		s.simDrawInto(seat, n)
		s.simMoveTo(s.next(seat, 1))
		return
	}
	if s.simDrawInto(seat, 1) == 1 {
		hand := s.Hands[seat]
		if c := hand[len(hand)-1]; s.playable(c, hand) {
			s.Drawn = &c
			return
		}
	}
	s.simMoveTo(s.next(seat, 1))
}

// simMoveTo gives the turn to seat, as Apply's moveTo does.
func (s *State) simMoveTo(seat int) {
	s.Turn = seat
	s.Drawn = nil
}

// simDrawInto is Apply's drawInto in place (the pile turned into a new deck with the state's RNG
// when the deck runs out); it returns the number of cards drawn.
func (s *State) simDrawInto(seat, n int) int {
	got := 0
	for range n {
		if len(s.Deck) == 0 && len(s.Pile) > 1 {
			top := s.top()
			rest := slices.Clone(s.Pile[:len(s.Pile)-1])
			s.RNG.ShuffleCards(sdk.DrawShuffle, rest)
			s.Deck = append(s.Deck, rest...)
			s.Pile = append(s.Pile[:0], top)
		}
		if len(s.Deck) == 0 {
			break
		}
		s.Hands[seat] = append(s.Hands[seat], s.Deck[0])
		s.Deck = s.Deck[1:]
		got++
	}
	if got > 0 {
		s.Called[seat] = false
	}
	return got
}

// handColour is the colour hand holds most of (a random one when it holds no coloured card).
func handColour(hand []sdk.Card, rng *sdk.RNG) string {
	var n [4]int
	for _, c := range hand {
		if i := colourAt(c); i >= 0 {
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

// Evaluate estimates each seat's chance of winning the game from s. A game over is won by its
// winner. At the end of a round of a game played to a target, the chances come from the scores
// (gameChances). In a round cut short, each seat's chance of winning the round is a softmax of
// minus the cards in hand (a card more is worth about half the odds; the seat in turn a little
// ahead, a pending penalty counted against its victim), and each possible winner's points (the
// cards the others hold) move the scores as the round's end would.
func (r *Rules) Evaluate(s *State) []float64 {
	n := s.seats()
	out := make([]float64, n)
	target, multi := targetOf(s.Settings)
	switch s.Phase {
	case sdk.PhaseGameOver:
		if s.Winner >= 0 && s.Winner < n {
			out[s.Winner] = 1
		}
		return out
	case sdk.PhaseRoundOver:
		if multi {
			return gameChances(s.Scores, target)
		}
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
	if !multi {
		return out
	}
	points := make([]int, n)
	all := 0
	for seat, h := range s.Hands {
		for _, c := range h {
			points[seat] += Points(c)
		}
		all += points[seat]
	}
	value := make([]float64, n)
	scores := slices.Clone(s.Scores)
	for w, q := range out {
		scores[w] += all - points[w]
		if scores[w] >= target {
			value[w] += q
		} else {
			for seat, p := range gameChances(scores, target) {
				value[seat] += q * p
			}
		}
		scores[w] = s.Scores[w]
	}
	return value
}

// targetOf is the game's target score and whether the game has several rounds.
func targetOf(st Settings) (int, bool) {
	t, err := strconv.Atoi(st.Target)
	return t, err == nil && t > 0
}

// roundPoints is about what the winner of a two-seat round scores (the loser's hand: some five
// cards of 11.5 points on average, and more after a penalty); a winner scores from every other
// hand, so a round of n seats is worth about n-1 times as much.
const roundPoints = 75

// gameChances estimates each seat's chance of winning a game played to target from the scores:
// a seat needs about (target - score) / roundPoints more round wins (at least one), and two
// seats race to their wins as in a series of even rounds (raceTable); with more seats each
// seat's chance is the product of its pairwise races, normalised.
func gameChances(scores []int, target int) []float64 {
	n := len(scores)
	per := float64(roundPoints * max(1, n-1))
	need := make([]float64, n)
	for i, sc := range scores {
		need[i] = max(1, float64(target-sc)/per+0.5)
	}
	out := make([]float64, n)
	total := 0.0
	for i := range out {
		p := 1.0
		for j := range out {
			if j != i {
				p *= race(need[i], need[j])
			}
		}
		out[i] = p
		total += p
	}
	for i := range out {
		out[i] /= total
	}
	return out
}

// raceSize bounds raceTable: a seat needs at most some ten round wins in any game Last Card offers.
const raceSize = 24

// raceTable[m][n] is the chance that a seat needing m more wins of even rounds gets them before
// another needing n: 1 for m = 0 < n, 0 for n = 0 < m, else the mean of one round either way.
var raceTable = func() (t [raceSize + 1][raceSize + 1]float64) {
	for m := range raceSize + 1 {
		for n := range raceSize + 1 {
			switch {
			case m == 0 && n == 0:
				t[m][n] = 0.5
			case m == 0:
				t[m][n] = 1
			case n == 0:
				t[m][n] = 0
			default:
				t[m][n] = (t[m-1][n] + t[m][n-1]) / 2
			}
		}
	}
	return t
}()

// race is raceTable at fractional needs (bilinear interpolation; needs above raceSize clamped).
func race(m, n float64) float64 {
	m, n = min(m, raceSize), min(n, raceSize)
	m0, n0 := int(m), int(n)
	m1, n1 := min(m0+1, raceSize), min(n0+1, raceSize)
	fm, fn := m-float64(m0), n-float64(n0)
	t := &raceTable
	return (1-fm)*(1-fn)*t[m0][n0] + fm*(1-fn)*t[m1][n0] + (1-fm)*fn*t[m0][n1] + fm*fn*t[m1][n1]
}
