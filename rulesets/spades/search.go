package spades

import (
	"errors"
	"math"
	"slices"

	"cardhouse/sdk"
	"cardhouse/sdk/search"
)

// This file gives Spades to sdk/search (bot levels 3 to 5): worlds sampled consistent with what
// a seat has seen (its hand, every card played, the suits each seat has shown it lacks), the
// moves of a state, a cheap playout policy stepped in place, and what a hand's end is worth.

var (
	_ sdk.Sampler[*State]      = (*Rules)(nil)
	_ sdk.Mover[*State]        = (*Rules)(nil)
	_ sdk.Rollout[*State]      = (*Rules)(nil)
	_ sdk.Evaluator[*State]    = (*Rules)(nil)
	_ search.Simulator[*State] = (*Rules)(nil)
)

// errNoGame is Sample's answer for a view that shows no hand in play.
var errNoGame = errors.New("spades: the view shows no hand in play")

// Sample returns a State consistent with seat's view and history: the bids, the tricks played
// (from the history), the scores, bags and score sheet; the cards the seat cannot see are dealt
// at random (with rng) to the other hands, never giving a seat a card of a suit it has failed to
// follow when that can be helped. It reads nothing but its arguments.
func (r *Rules) Sample(seat int, v sdk.View, history []sdk.Event, rng *sdk.RNG) (*State, error) {
	if v.Phase != sdk.PhasePlaying || seat < 0 || seat >= Seats || len(v.Players) != Seats {
		return nil, errNoGame
	}
	s := &State{
		Target: 500, Mercy: true, Phase: sdk.PhasePlaying, Winner: sdk.NoSeat, Turn: v.Turn, Game: 1,
		Hands: make([][]sdk.Card, Seats), Bids: make([]int, Seats), Looked: make([]bool, Seats),
		RNG: sdk.NewRNG(rng.Uint64()), Simulated: true,
	}
	for _, in := range v.Indicators {
		switch in.ID {
		case "target":
			s.Target = atoiOr(in.Value, 500)
		case "broken":
			s.Broken = in.Value == "true"
		case "mercy":
			s.Mercy = in.Value == "true"
		case "blind_nil":
			s.BlindNil = in.Value == "true"
		}
	}
	for _, t := range v.Teams {
		if t.ID == 0 || t.ID == 1 {
			s.Scores[t.ID] = t.Score
			if t.Bags != nil {
				s.Bags[t.ID] = *t.Bags
			}
		}
	}
	if v.Sheet != nil {
		for _, row := range v.Sheet.Rows {
			var h HandScore
			copy(h.Points[:], row.Cells)
			copy(h.Notes[:], row.Notes)
			s.Sheet = append(s.Sheet, h)
		}
	}
	s.Stage = StagePlay
	for _, p := range v.Players {
		if p.Seat < 0 || p.Seat >= Seats {
			return nil, errNoGame
		}
		s.Bids[p.Seat] = parseWords(p.Bid)
		if slices.Contains(p.Tags, "dealer") {
			s.Dealer = p.Seat
		}
	}
	if !s.biddingDone() {
		s.Stage = StageBid
	}
	k := perceive(seat, v, history)
	for i := range s.Looked {
		s.Looked[i] = s.Stage == StagePlay || !slices.Contains(v.Players[i].Tags, "blind")
	}
	// the tricks, from the history's cards
	var cur *Trick
	for _, e := range history {
		if e.Name != "played" || len(e.Cards) != 1 || e.Seat < 0 || e.Seat >= Seats {
			continue
		}
		if cur == nil {
			cur = &Trick{Leader: e.Seat, Winner: sdk.NoSeat}
		}
		cur.Plays = append(cur.Plays, Play{Seat: e.Seat, Card: e.Cards[0]})
		if len(cur.Plays) == Seats {
			cur.Winner, _ = cur.winning()
			s.Done = append(s.Done, *cur)
			cur = nil
		}
	}
	s.Cur = cur
	pool := sdk.FrenchDeck(1, 0)
	known := slices.Clone(k.hand)
	for _, c := range sdk.FrenchDeck(1, 0) {
		if k.played.has(c) {
			known = append(known, c)
		}
	}
	var ok bool
	if pool, ok = sdk.RemoveCards(pool, known); !ok {
		return nil, errors.New("spades: the view and history show a card twice")
	}
	need := [Seats]int{}
	for _, p := range v.Players {
		if p.Seat == seat && k.looked {
			s.Hands[seat] = slices.Clone(k.hand)
			continue
		}
		need[p.Seat] = p.HandCount
	}
	hands, out := dealHidden(pool, need, k.void, rng)
	for i := range Seats {
		if !(i == seat && k.looked) {
			s.Hands[i] = hands[i]
		}
	}
	s.Out = out
	return s, nil
}

// dealHidden deals pool at random into hands of need[i] cards, keeping each seat's voids when it
// can (a few tries, then without them); what is left over goes out.
func dealHidden(pool []sdk.Card, need [Seats]int, void [Seats][4]bool, rng *sdk.RNG) ([Seats][]sdk.Card, []sdk.Card) {
	var hands [Seats][]sdk.Card
	for try := 0; ; try++ {
		rng.ShuffleCards(sdk.DrawShuffle, pool)
		for i := range hands {
			hands[i] = hands[i][:0]
		}
		var left []sdk.Card
		ok := true
		for _, c := range pool {
			si := suitIdx(c.Suit())
			// the seat with the most room left that may hold c
			best, room := -1, 0
			for i := range Seats {
				if r := need[i] - len(hands[i]); r > room && (try >= 8 || !void[i][si]) {
					best, room = i, r
				}
			}
			if best < 0 {
				left = append(left, c)
				continue
			}
			hands[best] = append(hands[best], c)
		}
		for i := range Seats {
			if len(hands[i]) != need[i] {
				ok = false
			}
		}
		if ok || try >= 8 {
			return hands, left
		}
	}
}

func atoiOr(s string, def int) int {
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			return def
		}
		n = n*10 + int(r-'0')
	}
	if s == "" {
		return def
	}
	return n
}

// Decider is the seat in turn, or sdk.NoSeat once the hand is over.
func (r *Rules) Decider(s *State) int {
	if s.over() {
		return sdk.NoSeat
	}
	return s.Turn
}

// Moves lists seat's actions: its bids (nil, 1 to 13, blind nil while it may) in the bidding,
// else every card it may play.
func (r *Rules) Moves(s *State, seat int) []sdk.Action {
	if s.over() || seat != s.Turn {
		return nil
	}
	var out []sdk.Action
	if s.Stage == StageBid {
		if s.BlindNil && !s.Looked[seat] {
			out = append(out, *bidAction(seat, BidBlindNil))
		}
		for _, c := range bidChoices {
			out = append(out, *bidAction(seat, c))
		}
		return out
	}
	for _, c := range s.legalCards(seat) {
		out = append(out, sdk.Action{Seat: seat, Type: sdk.ActPlay, Cards: []sdk.Card{c}})
	}
	return out
}

// RolloutMove is the simulated players' policy: bid the count of likely tricks; play as level 2
// does, from the whole (sampled) state, one time in five a random legal card instead.
func (r *Rules) RolloutMove(s *State, seat int, rng *sdk.RNG) sdk.Action {
	if s.Stage == StageBid {
		est, _ := estimate(s.Hands[seat])
		return *bidAction(seat, itoa(max(1, min(HandSize, int(est+0.5)))))
	}
	return sdk.Action{Seat: seat, Type: sdk.ActPlay, Cards: []sdk.Card{rolloutCard(s, seat, rng)}}
}

// rolloutCard is the playout's card for seat.
func rolloutCard(s *State, seat int, rng *sdk.RNG) sdk.Card {
	legal := s.legalCards(seat)
	if len(legal) == 1 {
		return legal[0]
	}
	if rolloutNoise > 0 && rng.Intn("rollout", rolloutNoise) == 0 {
		return legal[rng.Intn("rollout", len(legal))]
	}
	k := knowledge{hand: s.Hands[seat], broken: s.Broken}
	for i := range Seats {
		k.bids[i], k.tricks[i] = s.Bids[i], s.tricks(i)
	}
	if s.Cur != nil {
		k.trick = s.Cur.Plays
	}
	k.played = playedSet(s)
	return k.choose(seat, legal)
}

// rolloutNoise is how rarely (one time in rolloutNoise) a playout plays a random legal card
// instead of the heuristic's; 0 never does.
var rolloutNoise = 0

// playedSet is every card played this hand.
func playedSet(s *State) cardSet {
	var m cardSet
	for _, t := range s.Done {
		for _, p := range t.Plays {
			m = m.add(p.Card)
		}
	}
	if s.Cur != nil {
		for _, p := range s.Cur.Plays {
			m = m.add(p.Card)
		}
	}
	return m
}

// Simulate plays s on with RolloutMove's policy, in place on one copy, until the hand ends or
// limit actions have been played.
func (r *Rules) Simulate(s *State, limit int, rng *sdk.RNG) (*State, int) {
	w := s.clone()
	w.Simulated = true
	n := 0
	for ; n < limit && !w.over(); n++ {
		seat := w.Turn
		if w.Stage == StageBid {
			a := r.RolloutMove(w, seat, rng)
			b, _ := parseBid(a.Args["choice"])
			w.Bids[seat] = b
			w.Turn = (w.Turn + 1) % Seats
			if w.biddingDone() {
				w.Stage, w.Turn = StagePlay, (w.Dealer+1)%Seats
				for i := range w.Looked {
					w.Looked[i] = true
				}
			}
			continue
		}
		w.playCard(seat, rolloutCard(w, seat, rng), false, nil)
	}
	return w, n
}

// evalScale is the difference of totals (in points) that makes a team about 73% sure to win.
const evalScale = 150.0

// Evaluate is each seat's chance of winning the game: 1 or 0 once it is over, else a logistic of
// the teams' difference of totals, each total less 10 points per bag carried (ten bags will cost
// 100).
func (r *Rules) Evaluate(s *State) []float64 {
	if s.Phase == sdk.PhaseGameOver && s.Winner >= 0 {
		w := float64(team(s.Winner))
		return []float64{1 - w, w, 1 - w, w}
	}
	d := float64((s.Scores[0] - 10*s.Bags[0]) - (s.Scores[1] - 10*s.Bags[1]))
	p := 1 / (1 + math.Exp(-d/evalScale))
	return []float64{p, 1 - p, p, 1 - p}
}
