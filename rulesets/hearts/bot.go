package hearts

import (
	"context"
	"slices"
	"time"

	"cardhouse/sdk"
	"cardhouse/sdk/search"
)

// Bot chooses seat's action from its view and history only (never the state): level 1 a random
// legal move, level 2 the rules of thumb of passHeuristic and playHeuristic, levels 3 to 5 the SDK's
// search (search.go) grown from level 2's move.
func (r *Rules) Bot(ctx context.Context, req sdk.BotRequest) (*sdk.Action, error) {
	level2 := func() (*sdk.Action, error) { return heuristic(req), nil }
	switch {
	case req.Level <= 1:
		return random(req), nil
	case req.Level == 2:
		return level2()
	}
	cfg, ok := searchLevels[req.Level]
	if !ok {
		cfg = searchLevels[5]
	}
	return search.BotWith(ctx, r, req, cfg, level2)
}

// searchLevels are the budgets of levels 3 to 5: sdk/search's for 3 and 4 (60 and 240 playouts),
// and for 5 ten times level 4's. With the generic 900, level 5 won only some 54% of its games
// against level 4 (docs/bots.md); a Hearts playout is cheap (Simulate), so level 5's move stays
// well within its 280 ms.
var searchLevels = map[int]search.Config{
	3: {Iterations: 60, Time: 60 * time.Millisecond},
	4: {Iterations: 240, Time: 150 * time.Millisecond},
	5: {Iterations: 2400, Time: 280 * time.Millisecond},
}

// random is level 1: three random cards to pass, a random legal card to play.
func random(req sdk.BotRequest) *sdk.Action {
	rng := req.RNG
	if rng == nil {
		g := sdk.NewRNG(uint64(req.Seat) + 1)
		rng = &g
	}
	if a, ok := req.View.Action(sdk.ActPassCards); ok && len(a.Cards) >= a.Count {
		cards := slices.Clone(a.Cards)
		rng.ShuffleCards("bot", cards)
		return &sdk.Action{Seat: req.Seat, Type: sdk.ActPassCards, Cards: cards[:a.Count]}
	}
	if a, ok := req.View.Action(sdk.ActPlay); ok && len(a.Cards) > 0 {
		return &sdk.Action{Seat: req.Seat, Type: sdk.ActPlay, Cards: []sdk.Card{a.Cards[rng.Intn("bot", len(a.Cards))]}}
	}
	return nil
}

// heuristic is level 2.
func heuristic(req sdk.BotRequest) *sdk.Action {
	if a, ok := req.View.Action(sdk.ActPassCards); ok && len(a.Cards) >= a.Count {
		return &sdk.Action{Seat: req.Seat, Type: sdk.ActPassCards, Cards: passHeuristic(a.Cards)}
	}
	a, ok := req.View.Action(sdk.ActPlay)
	if !ok || len(a.Cards) == 0 {
		return nil
	}
	hand := handOf(req.View, req.Seat)
	var trick []Play
	if req.View.Trick != nil {
		for _, p := range req.View.Trick.Plays {
			trick = append(trick, Play{Seat: p.Seat, Card: p.Card})
		}
	}
	c := playHeuristic(hand, a.Cards, trick, playedCards(req.History)[queenSpades])
	return &sdk.Action{Seat: req.Seat, Type: sdk.ActPlay, Cards: []sdk.Card{c}}
}

// handOf is the viewer's own hand in a view.
func handOf(v sdk.View, seat int) []sdk.Card {
	if z, ok := v.Zone(zoneID("hand", seat)); ok {
		return z.Cards
	}
	return nil
}

// playedCards are the cards the history shows played this hand.
func playedCards(history []sdk.Event) map[sdk.Card]bool {
	gone := map[sdk.Card]bool{}
	for _, e := range history {
		if e.Name == "played" {
			for _, c := range e.Cards {
				gone[c] = true
			}
		}
	}
	return gone
}

// danger scores how much a card is worth passing (higher: pass it first): the Q♠ and the spades
// above it, high hearts, then high cards of short suits, which the pass may void.
func danger(c sdk.Card, hand []sdk.Card) int {
	n := 0
	for _, h := range hand {
		if h.Suit() == c.Suit() {
			n++
		}
	}
	r := rank(c)
	switch {
	case c == queenSpades:
		return 100
	case c.Suit() == sdk.Spades && r > 12:
		return 90 + r
	case c.Suit() == sdk.Hearts:
		return 40 + 2*r
	case c.Suit() == sdk.Spades:
		return r // low spades protect against the queen: keep them
	}
	return 2*r + 3*max(0, 4-n)
}

// passHeuristic chooses three cards to pass: the most dangerous.
func passHeuristic(hand []sdk.Card) []sdk.Card {
	cards := slices.Clone(hand)
	slices.SortStableFunc(cards, func(a, b sdk.Card) int { return danger(b, hand) - danger(a, hand) })
	return cards[:PassSize]
}

// playHeuristic chooses a card among legal: lead low, duck under the card winning the trick, win
// a trick without points cheaply when last, and discard the Q♠, high spades and high hearts when
// void. queenGone says the Q♠ has been played this hand.
func playHeuristic(hand, legal []sdk.Card, trick []Play, queenGone bool) sdk.Card {
	if len(legal) == 1 {
		return legal[0]
	}
	queenOut := queenGone || slices.Contains(hand, queenSpades)
	low := func(cards []sdk.Card) sdk.Card {
		return slices.MinFunc(cards, func(a, b sdk.Card) int { return rank(a) - rank(b) })
	}
	high := func(cards []sdk.Card) sdk.Card {
		return slices.MaxFunc(cards, func(a, b sdk.Card) int { return rank(a) - rank(b) })
	}
	if len(trick) == 0 {
		// Lead low, never a spade above the jack while the queen is out there, and not the queen.
		var safe []sdk.Card
		for _, c := range legal {
			if c == queenSpades || (!queenGone && c.Suit() == sdk.Spades && rank(c) > 12) {
				continue
			}
			safe = append(safe, c)
		}
		if len(safe) == 0 {
			safe = legal
		}
		return low(safe)
	}
	led := trick[0].Card.Suit()
	win := trick[0].Card
	points := 0
	for _, p := range trick {
		points += cardPoints(p.Card)
		if p.Card.Suit() == led && rank(p.Card) > rank(win) {
			win = p.Card
		}
	}
	if legal[0].Suit() == led {
		var under []sdk.Card
		for _, c := range legal {
			if rank(c) < rank(win) {
				under = append(under, c)
			}
		}
		if len(under) > 0 {
			return high(under) // duck with the highest card that still loses
		}
		// Every card takes the trick.
		var notQueen []sdk.Card
		for _, c := range legal {
			if c != queenSpades {
				notQueen = append(notQueen, c)
			}
		}
		if len(notQueen) == 0 {
			notQueen = legal
		}
		if len(trick) == Seats-1 {
			return high(notQueen) // last to play: take it with the highest
		}
		if led == sdk.Spades && !queenOut {
			return low(notQueen)
		}
		if points == 0 && led != sdk.Hearts {
			return high(notQueen)
		}
		return low(notQueen)
	}
	// Void in the suit led: discard what hurts most.
	if slices.Contains(legal, queenSpades) {
		return queenSpades
	}
	var big []sdk.Card
	for _, c := range legal {
		if c.Suit() == sdk.Spades && rank(c) > 12 && !queenGone {
			big = append(big, c)
		}
	}
	if len(big) > 0 {
		return high(big)
	}
	var hearts []sdk.Card
	for _, c := range legal {
		if c.Suit() == sdk.Hearts {
			hearts = append(hearts, c)
		}
	}
	if len(hearts) > 0 {
		return high(hearts)
	}
	return high(legal)
}
