package ginrummy

import (
	"errors"
	"slices"
	"strconv"
	"sync"

	"cardhouse/sdk"
	"cardhouse/sdk/search"
)

// This file gives Gin Rummy to sdk/search (bot levels 3 to 5): sampling worlds consistent with a
// seat's view, the moves of a state spelled out, a cheap rollout policy (level 2's rules of thumb
// on the whole state) and an estimate of each seat's chance to win the game.

var (
	_ sdk.Sampler[*State]   = (*Rules)(nil)
	_ sdk.Mover[*State]     = (*Rules)(nil)
	_ sdk.Rollout[*State]   = (*Rules)(nil)
	_ sdk.Evaluator[*State] = (*Rules)(nil)
)

// maxDiscards is how many discards Moves offers the search.
const maxDiscards = 4

// sampleTries bounds the hands Sample draws for the other to keep the one of least deadwood;
// it draws one more per sampleEvery discards the other made.
var (
	sampleTries = 3
	sampleEvery = 2
)

var errNoGame = errors.New("ginrummy: the view shows no hand in play")

// Sample returns a State consistent with seat's view: its hand, the whole discard pile, the cards
// the other took from the pile (zone taken.N), the hands laid out after a knock, the counts, the
// scores and the options shown; the cards it cannot see (the rest of the other hand, the stock,
// a face-down knock card, cards out of play) are dealt at random with rng. It reads nothing but
// its arguments.
func (r *Rules) Sample(seat int, v sdk.View, history []sdk.Event, rng *sdk.RNG) (*State, error) {
	if v.Phase != sdk.PhasePlaying || seat < 0 || seat >= Seats || len(v.Players) != Seats {
		return nil, errNoGame
	}
	opp := 1 - seat
	s := &State{
		KnockLimit: 10, Target: 100, Knocker: sdk.NoSeat, Turn: v.Turn, Stage: StagePlay,
		Phase: sdk.PhasePlaying, Winner: sdk.NoSeat, Hand: v.Round, Game: 1,
		Scores: make([]int, Seats), HandsWon: make([]int, Seats),
		Hands: [][]sdk.Card{{}, {}}, Known: [][]sdk.Card{{}, {}}, RNG: sdk.NewRNG(rng.Uint64()),
	}
	for _, in := range v.Indicators {
		n, _ := strconv.Atoi(in.Value)
		switch in.ID {
		case OptKnockLimit:
			s.KnockLimit = n
		case OptTarget:
			s.Target = n
		case OptBigGin:
			s.BigGin = in.Value == "true"
		}
	}
	for _, p := range v.Players {
		if p.Score != nil {
			s.Scores[p.Seat] = *p.Score
		}
		if slices.Contains(p.Tags, "dealer") {
			s.Dealer = p.Seat
		}
		if slices.Contains(p.Tags, "knocked") {
			s.Knocker = p.Seat
		}
	}
	if v.Sheet != nil {
		for _, row := range v.Sheet.Rows {
			for i, c := range row.Cells {
				if c > 0 && i < Seats {
					s.HandsWon[i]++
				}
			}
		}
	}
	seen := make([]sdk.Card, 0, 52)
	oppCount, stockCount, knockHidden := 0, 0, false
	for _, z := range v.Zones {
		switch {
		case z.ID == handZone(seat):
			s.Hands[seat] = slices.Clone(z.Cards)
		case z.ID == handZone(opp):
			oppCount = z.Count
		case z.ID == takenZone(opp):
			s.Known[opp] = slices.Clone(z.Cards) // seen: part of the other hand, not of the pool
		case z.ID == "pile":
			s.Pile = slices.Clone(z.Cards)
		case z.ID == "deck":
			stockCount = z.Count
		case z.ID == "knock":
			if z.Hidden {
				knockHidden = true
			} else {
				s.KnockCard = z.Cards[0]
			}
		case z.Kind == sdk.ZoneMeld && z.Meld != nil:
			if s.Melds == nil {
				s.Melds, s.Dead = [][][]sdk.Card{{}, {}}, [][]sdk.Card{{}, {}}
			}
			for len(s.Melds[z.Owner]) <= *z.Meld {
				s.Melds[z.Owner] = append(s.Melds[z.Owner], nil)
			}
			s.Melds[z.Owner][*z.Meld] = slices.Clone(z.Cards)
		case z.Kind == sdk.ZoneDeadwood:
			if s.Melds == nil {
				s.Melds, s.Dead = [][][]sdk.Card{{}, {}}, [][]sdk.Card{{}, {}}
			}
			s.Dead[z.Owner] = slices.Clone(z.Cards)
		}
		seen = append(seen, z.Cards...)
	}
	if s.laidOut() {
		s.Stage = StageLayoff
	}
	draw, canDraw := v.Action(sdk.ActDraw)
	switch {
	case canDraw && v.Has(sdk.ActPass):
		s.Stage = StageUpcard
		if seat == s.Dealer {
			s.Passes = 1
		}
	case canDraw:
		s.MustStock = len(s.Pile) > 0 && !slices.Contains(draw.Choices, sdk.FromDiscard)
		if s.MustStock {
			s.Passes = 2
		}
	case v.Has(sdk.ActDiscard):
		s.Drawn = true
		d, _ := v.Action(sdk.ActDiscard)
		for _, c := range s.Hands[seat] {
			if !slices.Contains(d.Cards, c) {
				s.Taken = c
			}
		}
	}
	pool, ok := sdk.RemoveCards(sdk.FrenchDeck(1, 0), seen)
	if !ok {
		return nil, errors.New("ginrummy: the view shows a card twice")
	}
	rng.ShuffleCards(sdk.DrawShuffle, pool)
	take := func(n int) []sdk.Card {
		n = max(0, min(n, len(pool)))
		out := slices.Clone(pool[:n])
		pool = pool[n:]
		return out
	}
	var oppShed, refused []sdk.Card
	for _, e := range history {
		if e.Name == EvShed && (e.Seat == seat || e.Seat == opp) {
			if s.Shed == nil {
				s.Shed = [][]sdk.Card{{}, {}}
			}
			s.Shed[e.Seat] = append(s.Shed[e.Seat], e.Cards...)
		}
		switch {
		case e.Name != EvShed:
		case e.Seat == opp:
			oppShed = append(oppShed, e.Cards...)
		case e.Seat == seat:
			for _, c := range e.Cards {
				if slices.Contains(s.Pile, c) {
					refused = append(refused, c)
				}
			}
		}
	}
	// The other has played its turns to lower its deadwood, as a dealt hand has not: of a few
	// hands drawn (one more per two discards it made, at most sampleTries), the world keeps the
	// one with the least. A world of a random hand for the other overrates slow plans.
	weights := oppWeights(pool, s.Known[opp], oppShed, refused)
	need := oppCount - len(s.Known[opp])
	known := setOf(s.Known[opp])
	var hidden []sdk.Card
	best := 1 << 10
	for range 1 + min(len(oppShed)/sampleEvery, sampleTries-1) {
		p, w := slices.Clone(pool), slices.Clone(weights)
		h := weightedTake(p, w, need, rng)
		if d := deadwood(known | setOf(h)); d < best {
			hidden, best = h, d
		}
	}
	held := setOf(hidden)
	pool = slices.DeleteFunc(pool, func(c sdk.Card) bool { return held&bitOf(c) != 0 })
	rng.ShuffleCards(sdk.DrawShuffle, pool) // the stock's order, whatever the draws above moved
	s.Hands[opp] = append(slices.Clone(s.Known[opp]), hidden...)
	s.Stock = take(stockCount)
	if knockHidden {
		s.KnockCard = take(1)[0]
	}
	s.Out = pool
	return s, nil
}

// Decider is the seat in turn, or sdk.NoSeat once the hand is over.
func (r *Rules) Decider(s *State) int {
	if !s.playing() {
		return sdk.NoSeat
	}
	return s.Turn
}

// Moves lists seat's sensible actions: in the upcard offer take or pass; before drawing each pile
// it may draw from; after drawing the maxDiscards discards that leave the least deadwood and level
// 2's and keen's (the default of levels 3 to 5), the knock that leaves the least and level 2's,
// and big gin where allowed; when laying off each single card onto each meld it extends, and
// pass.
func (r *Rules) Moves(s *State, seat int) []sdk.Action {
	if !s.playing() || seat != s.Turn {
		return nil
	}
	act := func(t string) sdk.Action { return sdk.Action{Seat: seat, Type: t} }
	switch s.Stage {
	case StageUpcard:
		a := act(sdk.ActDraw)
		a.From = sdk.FromDiscard
		return []sdk.Action{a, act(sdk.ActPass)}
	case StageLayoff:
		out := layoffMoves(s, seat)
		return append(out, act(sdk.ActPass))
	}
	var out []sdk.Action
	if !s.Drawn {
		if len(s.Stock) > 0 {
			a := act(sdk.ActDraw)
			a.From = sdk.FromStock
			out = append(out, a)
		}
		if len(s.Pile) > 0 && !s.MustStock {
			a := act(sdk.ActDraw)
			a.From = sdk.FromDiscard
			out = append(out, a)
		}
		return out
	}
	hand := setOf(s.Hands[seat])
	// The discards worth weighing: the maxDiscards that leave the least deadwood (the highest
	// card first among equals), and the knock that leaves the least. Fewer candidates keep the
	// search's comparisons sharp: with eleven discards and as many knocks, one of them always looks
	// better than the default by chance.
	type option struct {
		c    sdk.Card
		dead int
	}
	opts := make([]option, 0, len(s.Hands[seat]))
	for _, c := range s.Hands[seat] {
		if c != s.Taken {
			opts = append(opts, option{c, deadwood(hand &^ bitOf(c))})
		}
	}
	slices.SortStableFunc(opts, func(a, b option) int {
		if a.dead != b.dead {
			return a.dead - b.dead
		}
		return Value(b.c) - Value(a.c)
	})
	// Level 2's own discard and knock (its card kept for its meld candidates) and keen's discard
	// are always among them: keen's move is the search's default, which it keeps unless another
	// move beats it (keen's knock is the knock that leaves the least).
	allowed := make([]sdk.Card, 0, len(opts))
	var knockable []sdk.Card
	for _, o := range opts {
		allowed = append(allowed, o.c)
		if o.dead <= s.KnockLimit {
			knockable = append(knockable, o.c)
		}
	}
	if len(knockable) > 0 {
		k := act(sdk.ActKnock)
		k.Cards = []sdk.Card{knockable[0]}
		out = append(out, k)
		if c := bestDiscard(s.Hands[seat], knockable); c != knockable[0] {
			k := act(sdk.ActKnock)
			k.Cards = []sdk.Card{c}
			out = append(out, k)
		}
	}
	l2 := bestDiscard(s.Hands[seat], allowed)
	keen := keenDiscard(s.Hands[seat], allowed, sightOfState(s, seat))
	for i, o := range opts {
		if i < maxDiscards || o.c == l2 || o.c == keen {
			a := act(sdk.ActDiscard)
			a.Cards = []sdk.Card{o.c}
			out = append(out, a)
		}
	}
	if s.BigGin && deadwood(hand) == 0 {
		out = append(out, act(sdk.ActKnock))
	}
	return out
}

func layoffMoves(s *State, seat int) []sdk.Action {
	var out []sdk.Action
	k := s.Knocker
	for i, m := range s.Melds[k] {
		for _, c := range s.Dead[seat] {
			if IsMeld(append(slices.Clone(m), c)) {
				idx, tgt := i, k
				out = append(out, sdk.Action{Seat: seat, Type: sdk.ActLayoff, Cards: []sdk.Card{c}, Index: &idx, Target: &tgt})
			}
		}
	}
	return out
}

// RolloutMove is the simulated players' policy, level 2's rules of thumb on the state: take the
// discard pile's top when it makes a meld, else the stock; knock as soon as it may (the discard
// that leaves the least deadwood); otherwise discard that card; lay off every card it can. One
// discard in eight is its second best instead, so that the playouts vary (a random card, as it
// was, often broke a meld no player would).
func (r *Rules) RolloutMove(s *State, seat int, rng *sdk.RNG) sdk.Action {
	a := sdk.Action{Seat: seat}
	hand := s.Hands[seat]
	switch s.Stage {
	case StageUpcard:
		a.Type = sdk.ActPass
		if takes(hand, s.top()) {
			a.Type, a.From = sdk.ActDraw, sdk.FromDiscard
		}
		return a
	case StageLayoff:
		if l := layoffMoves(s, seat); len(l) > 0 {
			return l[0]
		}
		a.Type = sdk.ActPass
		return a
	}
	if !s.Drawn {
		a.Type, a.From = sdk.ActDraw, sdk.FromStock
		if len(s.Pile) > 0 && !s.MustStock && (len(s.Stock) == 0 || takes(hand, s.top())) {
			a.From = sdk.FromDiscard
		}
		return a
	}
	if s.BigGin && deadwood(setOf(hand)) == 0 {
		a.Type = sdk.ActKnock
		return a
	}
	allowed := make([]sdk.Card, 0, len(hand))
	for _, c := range hand {
		if c != s.Taken {
			allowed = append(allowed, c)
		}
	}
	c := bestDiscard(hand, allowed)
	a.Cards = []sdk.Card{c}
	a.Type = sdk.ActDiscard
	if deadwood(setOf(hand)&^bitOf(c)) <= s.KnockLimit {
		a.Type = sdk.ActKnock
	} else if len(allowed) > 1 && rng.Intn("rollout", 8) == 0 {
		// the second best: variety without the blunder of breaking a meld at random
		a.Cards = []sdk.Card{bestDiscard(hand, slices.DeleteFunc(allowed, func(d sdk.Card) bool { return d == c }))}
	}
	return a
}

// deadwoodScale turns a difference of deadwood in a hand being played into a difference of chances
// to win (Evaluate): 60 points of deadwood apart is as good as won.
const deadwoodScale = 120

// Evaluate estimates each seat's chance to win the game: 1 and 0 once it is over; otherwise the
// chance raceWin gives the scores (each seat's points still needed to reach the target), and,
// while a hand is played (a playout cut short), the difference of the hands' deadwood too
// (deadwoodScale).
func (r *Rules) Evaluate(s *State) []float64 {
	if s.Phase == sdk.PhaseGameOver {
		out := []float64{0, 0}
		if s.Winner >= 0 {
			out[s.Winner] = 1
		}
		return out
	}
	target := max(s.Target, 1)
	p := raceWin(target-s.Scores[0], target-s.Scores[1])
	if s.playing() {
		_, d0 := s.meldsOf(0)
		_, d1 := s.meldsOf(1)
		p += float64(Points(d1)-Points(d0)) / deadwoodScale
	}
	p = min(max(p, 0.01), 0.99)
	return []float64{p, 1 - p}
}

// handPoints is how many points a hand scores its winner, as 1,000 hands of level 2 against level
// 2 scored them (in steps of five points, each step's middle, with its count).
var handPoints = [...]struct{ pts, n int }{
	{3, 146}, {8, 230}, {13, 207}, {18, 121}, {23, 104}, {28, 91}, {33, 37}, {38, 29}, {43, 7},
	{48, 12}, {58, 10}, {73, 5},
}

// maxNeed bounds raceWin's table: the largest target (500) and a little more.
const maxNeed = 510

var (
	raceOnce  sync.Once
	raceTable []float32
)

// raceWin is the chance that a seat needing a more points beats one needing b, when each hand is
// won by either seat as by a coin's toss and scores its winner handPoints. A lead of points is
// worth what it shortens the race by: at a target of 10, a knock won by 5 points brings the game
// only some way closer (the other still wins it with any hand of 10 or more), where the linear
// measure this replaces (the lead against twice the target) counted it as three quarters won and
// a gin, an undercut or a knock of 10 hardly better.
func raceWin(a, b int) float64 {
	switch {
	case a <= 0:
		return 1
	case b <= 0:
		return 0
	}
	raceOnce.Do(buildRace)
	return float64(raceTable[min(a, maxNeed)*(maxNeed+1)+min(b, maxNeed)])
}

func buildRace() {
	total := 0
	for _, h := range handPoints {
		total += h.n
	}
	w := make([]float64, len(handPoints))
	for i, h := range handPoints {
		w[i] = float64(h.n) / float64(total) / 2
	}
	t := make([]float32, (maxNeed+1)*(maxNeed+1))
	at := func(a, b int) float64 {
		switch {
		case a <= 0:
			return 1
		case b <= 0:
			return 0
		}
		return float64(t[a*(maxNeed+1)+b])
	}
	for a := 1; a <= maxNeed; a++ {
		for b := 1; b <= maxNeed; b++ {
			p := 0.0
			for i, h := range handPoints {
				p += w[i] * (at(a-h.pts, b) + at(a, b-h.pts))
			}
			t[a*(maxNeed+1)+b] = float32(p)
		}
	}
	raceTable = t
}

var _ sdk.Historian[*State] = (*Rules)(nil)

// EvShed is the name of History's events: the cards Seat discarded face up this hand, in order.
const EvShed = "shed"

// History is what seat has seen happen this hand that its view no longer shows: the cards each
// seat discarded face up (both saw them go; the pile shows them but not whose they were). The
// views already carry the rest a bot needs (the whole pile, the cards the other took from it).
func (r *Rules) History(s *State, _ int) []sdk.Event {
	if !s.playing() || s.Shed == nil {
		return nil
	}
	out := make([]sdk.Event, 0, Seats)
	for seat, cards := range s.Shed {
		if len(cards) > 0 {
			out = append(out, sdk.Event{Name: EvShed, Seat: seat, Cards: slices.Clone(cards), Count: len(cards)})
		}
	}
	return out
}

// Weights of Sample's deal of the other hand: a hidden card is likelier to be there when it would
// meld with a card the other took from the pile (level 2 and better take a card only to meld it),
// and less likely when it would meld with a card the other discarded or left on the pile when it
// was the top (a player keeps its meld candidates).
const (
	wantWeight   = 3.0
	refuseWeight = 0.4
)

// related reports whether a and b could be in one meld: the same rank, or the same suit at most
// two ranks apart.
func related(a, b sdk.Card) bool {
	if a == b {
		return false
	}
	d := a.Rank() - b.Rank()
	return a.Rank() == b.Rank() || a.Suit() == b.Suit() && d >= -2 && d <= 2
}

// oppWeights are the weights of pool's cards for the other seat's hidden cards, from what seat
// has seen: the cards the other took (known), the cards it shed, and the cards seat shed that
// are still on the pile (each was the top when the other drew, and it left them).
func oppWeights(pool, known, oppShed, refused []sdk.Card) []float64 {
	w := make([]float64, len(pool))
	for i, c := range pool {
		w[i] = 1
		for _, k := range known {
			if related(c, k) {
				w[i] = wantWeight
				break
			}
		}
		for _, d := range oppShed {
			if related(c, d) {
				w[i] *= refuseWeight
			}
		}
		for _, d := range refused {
			if related(c, d) {
				w[i] *= refuseWeight
			}
		}
	}
	return w
}

// weightedTake moves n cards of pool to the front, drawn without replacement with weights w
// (rearranged alongside), and returns them.
func weightedTake(pool []sdk.Card, w []float64, n int, rng *sdk.RNG) []sdk.Card {
	n = max(0, min(n, len(pool)))
	total := 0.0
	for _, x := range w {
		total += x
	}
	for i := range n {
		x := float64(rng.Uint64()>>11) / (1 << 53) * total
		j := i
		for ; j < len(pool)-1; j++ {
			if x < w[j] {
				break
			}
			x -= w[j]
		}
		pool[i], pool[j] = pool[j], pool[i]
		w[i], w[j] = w[j], w[i]
		total -= w[i]
	}
	return slices.Clone(pool[:n])
}

var _ search.Simulator[*State] = (*Rules)(nil)

// Simulate plays the hand on with RolloutMove until it ends or limit actions are played: Apply's
// own steps on one clone of s, without a clone and an event list per action, so it reaches the
// state Apply would (a simulated world asks no house rule); s itself is left as it was.
func (r *Rules) Simulate(s *State, limit int, rng *sdk.RNG) (*State, int) {
	if !s.playing() {
		return s, 0
	}
	t := &turn{s: s.clone()}
	n := 0
	for ; n < limit && t.s.playing(); n++ {
		t.evs = t.evs[:0]
		if err := t.apply(r.RolloutMove(t.s, t.s.Turn, rng)); err != nil {
			// RolloutMove makes legal moves only (TestSimulateAgreesWithApply); stop where it did not.
			break
		}
	}
	return t.s, n
}
