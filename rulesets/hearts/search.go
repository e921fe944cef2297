package hearts

import (
	"errors"
	"math"
	"slices"
	"strconv"

	"cardhouse/sdk"
	"cardhouse/sdk/search"
)

// This file gives Hearts to sdk/search (bot levels 3 to 5): worlds sampled consistent with what a
// seat has seen (its view and history: the cards played, the voids they showed, the cards it
// passed), the moves of a state, a cheap rollout policy played in place, and an evaluation of the
// scores a hand leaves.

var (
	_ sdk.Sampler[*State]      = (*Rules)(nil)
	_ sdk.Mover[*State]        = (*Rules)(nil)
	_ sdk.Rollout[*State]      = (*Rules)(nil)
	_ sdk.Evaluator[*State]    = (*Rules)(nil)
	_ search.Simulator[*State] = (*Rules)(nil)
)

var errNoPlay = errors.New("hearts: the view shows no trick being played")

// sampleTries bounds the attempts at a deal that respects every void before the sampler deals
// with the hand sizes alone.
const sampleTries = 24

// knowledge is what a seat knows of where the hidden cards lie, read from its view and history.
type knowledge struct {
	played map[sdk.Card]bool
	plays  []Play // every card played this hand, in order
	// void[seat] has a bit per suit (index in sdk.Suits) the seat has shown it lacks; only[seat]
	// restricts what it may still hold: onlyPoints (hearts and the Q♠) or onlyHearts.
	void  [Seats]uint8
	only  [Seats]uint8
	fixed map[sdk.Card]int // cards seat passed that their receiver still holds
}

const (
	onlyPoints = 1 << iota
	onlyHearts
)

func suitBit(su sdk.Suit) uint8 { return 1 << slices.Index(sdk.Suits, su) }

// allows reports whether seat may hold c given what it has shown.
func (k *knowledge) allows(seat int, c sdk.Card) bool {
	if k.void[seat]&suitBit(c.Suit()) != 0 {
		return false
	}
	if k.only[seat]&onlyPoints != 0 && !isPoint(c) {
		return false
	}
	return k.only[seat]&onlyHearts == 0 || c.Suit() == sdk.Hearts
}

// know reads a seat's history: the cards played trick by trick, the voids they show (a card not
// of the suit led; a heart or the Q♠ on the first trick when not following: nothing else held; a
// heart led before hearts were broken: only hearts held), and the cards it passed.
func know(seat int, v sdk.View, history []sdk.Event) (*knowledge, error) {
	k := &knowledge{played: map[sdk.Card]bool{}, fixed: map[sdk.Card]int{}}
	passedTo := sdk.NoSeat
	var passed []sdk.Card
	for _, e := range history {
		switch e.Name {
		case "played":
			if len(e.Cards) != 1 || e.Seat < 0 || e.Seat >= Seats {
				return nil, errors.New("hearts: a played event without its one card")
			}
			k.plays = append(k.plays, Play{Seat: e.Seat, Card: e.Cards[0]})
			k.played[e.Cards[0]] = true
		case "passed":
			if e.Seat == seat && len(e.Cards) > 0 {
				passed = e.Cards
				if to, err := strconv.Atoi(e.Data["target"]); err == nil && to >= 0 && to < Seats {
					passedTo = to
				}
			}
		}
	}
	broken := false
	for i, p := range k.plays {
		lead := k.plays[i-i%4]
		first := i < 4
		switch {
		case i%4 == 0:
			if p.Card.Suit() == sdk.Hearts && !broken {
				k.only[p.Seat] |= onlyHearts
			}
		case p.Card.Suit() != lead.Card.Suit():
			k.void[p.Seat] |= suitBit(lead.Card.Suit())
			if first && isPoint(p.Card) {
				k.only[p.Seat] |= onlyPoints
			}
		}
		if p.Card.Suit() == sdk.Hearts {
			broken = true
		}
	}
	if passedTo != sdk.NoSeat && passedTo != seat {
		for _, c := range passed {
			if !k.played[c] {
				k.fixed[c] = passedTo
			}
		}
	}
	return k, nil
}

// indicator is the value of the view's indicator id ("" when absent).
func indicator(v sdk.View, id string) string {
	for _, in := range v.Indicators {
		if in.ID == id {
			return in.Value
		}
	}
	return ""
}

// Sample returns a State consistent with seat's view and history, for a seat in the play of a
// hand: its hand, the trick, every card played and the tricks taken, the scores and the sheet,
// the settings its indicators show; the cards it cannot see are dealt at random (with rng) to the
// other hands and the cards out of play, each seat getting only cards it may hold after the voids
// it has shown, and the receiver of this seat's pass the passed cards it has not played. The
// sample's own RNG is seeded from rng. It reads nothing but its arguments.
func (r *Rules) Sample(seat int, v sdk.View, history []sdk.Event, rng *sdk.RNG) (*State, error) {
	if v.Phase != sdk.PhasePlaying || v.Trick == nil || seat < 0 || seat >= Seats || len(v.Players) != Seats {
		return nil, errNoPlay
	}
	k, err := know(seat, v, history)
	if err != nil {
		return nil, err
	}
	s := &State{
		Hand: v.Round, Phase: sdk.PhasePlaying, Stage: StagePlay, Turn: v.Turn, Leader: v.Trick.Leader,
		Broken: indicator(v, IndBroken) == "true", Scores: make([]int, Seats), Winner: sdk.NoSeat,
		Moon: MoonAdd, Passing: true, RNG: sdk.NewRNG(rng.Uint64()), Simulated: true, Hands: make([][]sdk.Card, Seats),
	}
	if indicator(v, IndMoon) == moonWords[MoonSubtract] {
		s.Moon = MoonSubtract
	}
	if n, err := strconv.Atoi(indicator(v, IndTarget)); err == nil {
		s.Target = n
	}
	if indicator(v, IndPass) == passWords[PassNone] && (s.Hand-1)%4 != 3 {
		s.Passing = false
	}
	taken := 0
	for _, p := range v.Players {
		if p.Score != nil {
			s.Scores[p.Seat] = *p.Score
		}
		if p.Tricks != nil {
			taken += *p.Tricks
		}
	}
	if v.Sheet != nil {
		for _, row := range v.Sheet.Rows {
			moon := slices.Index(row.Notes, "moon")
			s.Sheet = append(s.Sheet, Row{Cells: slices.Clone(row.Cells), Moon: moon})
		}
	}
	if len(k.plays) != 4*taken+len(v.Trick.Plays) {
		return nil, errors.New("hearts: the history does not match the tricks the view shows")
	}
	s.Played = slices.Clone(k.plays[:4*taken])
	for t := range taken {
		s.Takers = append(s.Takers, trickTaker(s.Played[4*t:4*t+4]))
	}
	s.Trick = slices.Clone(k.plays[4*taken:])
	hand := slices.Clone(handOf(v, seat))
	s.Hands[seat] = hand
	outCount := 0
	if z, ok := v.Zone("out"); ok {
		outCount = z.Count
	}
	seen := map[sdk.Card]bool{}
	for _, c := range hand {
		seen[c] = true
	}
	var pool []sdk.Card
	for _, c := range sdk.FrenchDeck(1, 0) {
		if !seen[c] && !k.played[c] {
			if _, ok := k.fixed[c]; !ok {
				pool = append(pool, c)
			}
		}
	}
	need := make([]int, Seats+1) // the other seats' hands, then the cards out of play
	for _, p := range v.Players {
		if p.Seat != seat {
			need[p.Seat] = p.HandCount
		}
	}
	fixed := make([][]sdk.Card, Seats)
	for c, to := range k.fixed {
		fixed[to] = append(fixed[to], c)
	}
	for to := range fixed {
		slices.Sort(fixed[to]) // a map's order is random: sort for the same sample from the same rng
		need[to] -= len(fixed[to])
		if need[to] < 0 {
			return nil, errors.New("hearts: more passed cards than the receiver holds")
		}
	}
	need[Seats] = outCount
	total := 0
	for _, n := range need {
		total += n
	}
	if total != len(pool) {
		return nil, errors.New("hearts: the view's counts do not add up to the hidden cards")
	}
	dealt := deal(pool, need, k, seat, rng)
	for p := range Seats {
		if p != seat {
			s.Hands[p] = append(fixed[p], dealt[p]...)
		}
	}
	s.Out = dealt[Seats]
	return s, nil
}

// deal shares pool among the places of need (seats, then the cards out of play) at random,
// respecting every seat's voids when it can (the most constrained cards first), else the sizes
// alone.
func deal(pool []sdk.Card, need []int, k *knowledge, seat int, rng *sdk.RNG) [][]sdk.Card {
	n := len(need)
	allowed := func(place int, c sdk.Card) bool { return place == Seats || k.allows(place, c) }
	cards := slices.Clone(pool)
	for range sampleTries {
		rng.ShuffleCards(sdk.DrawShuffle, cards)
		options := make(map[sdk.Card]int, len(cards))
		for _, c := range cards {
			for place := range n {
				if need[place] > 0 && place != seat && allowed(place, c) {
					options[c]++
				}
			}
		}
		slices.SortStableFunc(cards, func(a, b sdk.Card) int { return options[a] - options[b] })
		left := slices.Clone(need)
		out := make([][]sdk.Card, n)
		ok := true
		for _, c := range cards {
			total := 0
			for place := range n {
				if left[place] > 0 && place != seat && allowed(place, c) {
					total += left[place]
				}
			}
			if total == 0 {
				ok = false
				break
			}
			pick := rng.Intn("sample", total)
			for place := range n {
				if left[place] > 0 && place != seat && allowed(place, c) {
					if pick < left[place] {
						out[place] = append(out[place], c)
						left[place]--
						break
					}
					pick -= left[place]
				}
			}
		}
		if ok {
			return out
		}
	}
	rng.ShuffleCards(sdk.DrawShuffle, cards)
	out := make([][]sdk.Card, n)
	for place, m := range need {
		out[place], cards = slices.Clone(cards[:m]), cards[m:]
	}
	return out
}

// Decider is the seat a simulated hand asks next: the seat in turn, the first seat still to
// choose its pass during the pass, sdk.NoSeat once the hand is over.
func (r *Rules) Decider(s *State) int {
	if s.over() {
		return sdk.NoSeat
	}
	if s.Stage == StagePass {
		for seat, c := range s.Chosen {
			if c == nil {
				return seat
			}
		}
	}
	return s.Turn
}

// Moves lists seat's moves: each legal card to play, in hand order; during the pass, the level-2
// choice only (the 286 ways of choosing three cards are not searched).
func (r *Rules) Moves(s *State, seat int) []sdk.Action {
	if s.over() {
		return nil
	}
	if s.Stage == StagePass {
		if s.Chosen[seat] != nil {
			return nil
		}
		return []sdk.Action{{Seat: seat, Type: sdk.ActPassCards, Cards: passHeuristic(s.Hands[seat])}}
	}
	var out []sdk.Action
	for _, c := range s.Legal(seat) {
		out = append(out, sdk.Action{Seat: seat, Type: sdk.ActPlay, Cards: []sdk.Card{c}})
	}
	return out
}

// rolloutEpsilon is how often a simulated player plays a random legal card instead of the
// rollout's rule of thumb: a little noise keeps the simulated players from being predictable.
const rolloutEpsilon = 8 // in 100

// rolloutCard is the simulated players' policy on the whole (sampled) state: level 2's rules of
// thumb, the queen counted out once no hand holds it, and now and then a random legal card.
func rolloutCard(s *State, seat int, rng *sdk.RNG) sdk.Card {
	legal := legalCards(s.Hands[seat], s.Trick, s.firstTrick(), s.Broken)
	if len(legal) == 1 {
		return legal[0]
	}
	if rng.Intn("rollout", 100) < rolloutEpsilon {
		return legal[rng.Intn("rollout", len(legal))]
	}
	return playHeuristic(s.Hands[seat], legal, s.Trick, s.holder(queenSpades) == sdk.NoSeat)
}

// RolloutMove is rolloutCard as an action (and the level-2 pass during a pass).
func (r *Rules) RolloutMove(s *State, seat int, rng *sdk.RNG) sdk.Action {
	if s.Stage == StagePass {
		return sdk.Action{Seat: seat, Type: sdk.ActPassCards, Cards: passHeuristic(s.Hands[seat])}
	}
	return sdk.Action{Seat: seat, Type: sdk.ActPlay, Cards: []sdk.Card{rolloutCard(s, seat, rng)}}
}

// Simulate plays the hand on in place with rolloutCard until it ends or limit cards are played,
// reaching the state Apply would (its scoring asks no house rule: a simulated world has none);
// s itself is left as it was.
func (r *Rules) Simulate(s *State, limit int, rng *sdk.RNG) (*State, int) {
	if s.over() || s.Stage != StagePlay {
		return s, 0
	}
	c := s.clone()
	c.Played = append(make([]Play, 0, 52), c.Played...)
	n := 0
	for ; n < limit && !c.over(); n++ {
		seat := c.Turn
		_, taker, _ := c.lay(seat, rolloutCard(c, seat, rng))
		if taker != sdk.NoSeat && len(c.Hands[taker]) == 0 {
			c.closeHand(ScoreHand(c.Taken(), c.Moon))
		}
	}
	return c, n
}

// Evaluate is each seat's chance of winning the game as the scores stand: 1 shared among the
// winners of a game that is over; otherwise a softmax of the totals, lower being better, sharper
// as the leader nears the target (a hand's points matter more when few hands are left).
func (r *Rules) Evaluate(s *State) []float64 {
	out := make([]float64, Seats)
	if s.Phase == sdk.PhaseGameOver && len(s.Winners) > 0 {
		for _, w := range s.Winners {
			out[w] = 1 / float64(len(s.Winners))
		}
		return out
	}
	left := float64(max(1, s.Target-slices.Max(s.Scores)))
	temp := min(max(left/4, 4), 25)
	low := slices.Min(s.Scores)
	sum := 0.0
	for seat, v := range s.Scores {
		out[seat] = math.Exp(-float64(v-low) / temp)
		sum += out[seat]
	}
	for seat := range out {
		out[seat] /= sum
	}
	return out
}
