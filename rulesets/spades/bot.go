package spades

import (
	"context"
	"slices"
	"time"

	"cardhouse/sdk"
	"cardhouse/sdk/search"
)

// Bot chooses seat's action from its view and history alone (never the state). Level 1 plays a
// random legal card and bids a random 1 to 4 (Nil one time in eight); level 2 is the heuristic
// of heuristic.go; levels 3 to 5 play with sdk/search from level 2's move, and bid as level 2.
func (r *Rules) Bot(ctx context.Context, req sdk.BotRequest) (*sdk.Action, error) {
	v := req.View
	if v.Phase != sdk.PhasePlaying {
		return nil, nil
	}
	if v.Turn != req.Seat {
		return nil, nil // looking out of turn is never needed: a bot looks when it bids
	}
	if req.Level <= 1 {
		return levelOne(req), nil
	}
	k := perceive(req.Seat, v, req.History)
	if v.Has(sdk.ActBid) {
		return k.bid(req.Seat), nil
	}
	if req.Level >= 3 {
		cfg, ok := searchLevels[req.Level]
		if !ok {
			cfg = searchLevels[5]
		}
		return search.BotWith(ctx, r, req, cfg, func() (*sdk.Action, error) { return k.play(req.Seat), nil })
	}
	return k.play(req.Seat), nil
}

// searchLevels are the node budgets of levels 3 to 5, four and six times the one below: the
// generic budgets (search.Level: 60, 240 and 900 playouts) left level 3 only some 53% ahead of
// level 2 (60 playouts weigh a trick's cards on a few dozen worlds, within the noise of level 2's
// own rules) and level 5 some 55% ahead of level 4; a playout costs some 40 microseconds, so
// level 5's 3,600 stay well inside its 280 ms.
var searchLevels = map[int]search.Config{
	3: {Iterations: 150, Time: 60 * time.Millisecond},
	4: {Iterations: 600, Time: 150 * time.Millisecond},
	5: {Iterations: 3600, Time: 280 * time.Millisecond},
}

// levelOne is the random bot.
func levelOne(req sdk.BotRequest) *sdk.Action {
	v := req.View
	if spec, ok := v.Action(sdk.ActPlay); ok && len(spec.Cards) > 0 {
		return &sdk.Action{Seat: req.Seat, Type: sdk.ActPlay, Cards: []sdk.Card{spec.Cards[req.RNG.Intn("bot", len(spec.Cards))]}}
	}
	if v.Has(sdk.ActBid) {
		choice := itoa(1 + req.RNG.Intn("bot", 4))
		if req.RNG.Intn("bot", 8) == 0 {
			choice = BidNil
		}
		return bidAction(req.Seat, choice)
	}
	return nil
}

func bidAction(seat int, choice string) *sdk.Action {
	return &sdk.Action{Seat: seat, Type: sdk.ActBid, Args: map[string]string{"choice": choice}}
}

// knowledge is what a seat knows of the hand from its view and history.
type knowledge struct {
	hand   []sdk.Card
	looked bool
	// trick is the trick being played (empty when the seat leads).
	trick  []Play
	played cardSet
	// void[seat][suit index] is set when seat failed to follow that suit.
	void   [Seats][4]bool
	bids   [Seats]int
	tricks [Seats]int
	scores [2]int
	broken bool
	blind  bool // blind nil may be bid now
}

func suitIdx(su sdk.Suit) int { return slices.Index(sdk.Suits, su) }

// perceive reads seat's view and history.
func perceive(seat int, v sdk.View, history []sdk.Event) *knowledge {
	k := &knowledge{}
	if z, ok := v.Zone("hand." + itoa(seat)); ok && !z.Hidden {
		k.hand, k.looked = slices.Clone(z.Cards), true
	}
	if v.Trick != nil && v.Trick.Winner == nil {
		for _, p := range v.Trick.Plays {
			k.trick = append(k.trick, Play{Seat: p.Seat, Card: p.Card})
		}
	}
	for _, p := range v.Players {
		if p.Seat < 0 || p.Seat >= Seats {
			continue
		}
		k.bids[p.Seat] = parseWords(p.Bid)
		if p.Tricks != nil {
			k.tricks[p.Seat] = *p.Tricks
		}
	}
	for _, t := range v.Teams {
		if t.ID == 0 || t.ID == 1 {
			k.scores[t.ID] = t.Score
		}
	}
	for _, in := range v.Indicators {
		if in.ID == "broken" {
			k.broken = in.Value == "true"
		}
	}
	if spec, ok := v.Action(sdk.ActBid); ok {
		k.blind = slices.Contains(spec.Choices, BidBlindNil)
	}
	// the voids, from the history's tricks
	var cur []Play
	for _, e := range history {
		if e.Name != "played" || len(e.Cards) != 1 || e.Seat < 0 || e.Seat >= Seats {
			continue
		}
		c := e.Cards[0]
		k.played = k.played.add(c)
		if len(cur) == Seats {
			cur = nil
		}
		if len(cur) > 0 && c.Suit() != cur[0].Card.Suit() {
			k.void[e.Seat][suitIdx(cur[0].Card.Suit())] = true
		}
		cur = append(cur, Play{Seat: e.Seat, Card: c})
	}
	return k
}

// cardSet is a set of French cards without jokers, a bit per card.
type cardSet uint64

func cardBit(c sdk.Card) cardSet { return 1 << (suitIdx(c.Suit())*13 + c.Rank() - 1) }

func (cs cardSet) add(c sdk.Card) cardSet { return cs | cardBit(c) }
func (cs cardSet) has(c sdk.Card) bool    { return cs&cardBit(c) != 0 }

// parseWords reads a bid as the view words it.
func parseWords(w string) int {
	switch w {
	case "":
		return noBid
	case "Nil":
		return bidNil
	case "Blind nil":
		return bidBlindNil
	}
	if b, ok := parseBid(w); ok {
		return b
	}
	return noBid
}
