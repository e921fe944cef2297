package hotspot

import (
	"context"
	"slices"

	"cardhouse/sdk"
	"cardhouse/sdk/search"
)

// drawBot is the label of a bot's own random choices.
const drawBot = "bot"

// searchLimit caps the plays the level-2 bot weighs per decision, so a hand full of Queens stays
// cheap.
const searchLimit = 4000

// Bot chooses an action for req.Seat from its view alone (never the state). Level 1 plays a
// random legal play (nine times in ten when it has one, else draws) and remembers LAST CARD three
// times in four. Level 2 always calls, answers a penalty with its 2s, keeps its Aces for when
// nothing else goes, sheds as many cards as a Queen sequence or a group allows, names the suit it
// holds most of and hits a player close to going out with a King or a 2. Levels 3 to 5 search
// (sdk/search over Sample's worlds, budgets growing with the level). A seat not in turn gets a
// LAST CARD call or nil.
func (r *Rules) Bot(ctx context.Context, req sdk.BotRequest) (*sdk.Action, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rng := req.RNG
	if rng == nil {
		g := sdk.NewRNG(uint64(req.Seat))
		rng = &g
	}
	v := req.View
	if v.Has(sdk.ActCall) && (req.Level >= 2 || rng.Intn(drawBot, 4) > 0) {
		return &sdk.Action{Seat: req.Seat, Type: sdk.ActCall}, nil
	}
	if v.Phase != sdk.PhasePlaying || v.Turn != req.Seat {
		return nil, nil
	}
	b := botTurn{seat: req.Seat, view: v, pos: PositionOf(v), hand: HandOf(v), rng: rng}
	if req.Level >= 3 {
		// Levels 3 to 5: sdk/search's determinised Monte Carlo over worlds sampled from the view
		// (search.go), level 2's choice where the search cannot run.
		req.RNG = rng
		return search.Bot(ctx, r, req, func() (*sdk.Action, error) { return b.smart(), nil })
	}
	if req.Level >= 2 {
		return b.smart(), nil
	}
	return b.random(), nil
}

type botTurn struct {
	seat int
	view sdk.View
	pos  Position
	hand []sdk.Card
	rng  *sdk.RNG
}

// fallback is what the seat does without a play: pass where it may, else draw.
func (b *botTurn) fallback() *sdk.Action {
	if b.view.Has(sdk.ActPass) {
		return &sdk.Action{Seat: b.seat, Type: sdk.ActPass}
	}
	return &sdk.Action{Seat: b.seat, Type: sdk.ActDraw}
}

// action makes a play action of cards, naming the suit the rest of the hand holds most of when
// it ends with an Ace.
func (b *botTurn) action(cards []sdk.Card) *sdk.Action {
	a := &sdk.Action{Seat: b.seat, Type: sdk.ActPlay, Cards: cards}
	if pc := checkOnly(b.pos, b.hand, cards); pc.NeedSuit && !pc.Wins {
		*a = a.WithChoice(string(rune(b.bestSuit(cards))))
	}
	return a
}

func (b *botTurn) bestSuit(played []sdk.Card) sdk.Suit {
	rest, _ := sdk.RemoveCards(b.hand, played)
	best, most := sdk.Suits[b.rng.Intn(drawBot, 4)], -1
	for _, su := range sdk.Suits {
		n := 0
		for _, c := range rest {
			if c.Suit() == su && c.Rank() != rankAce {
				n++
			}
		}
		if n > most {
			best, most = su, n
		}
	}
	return best
}

func (b *botTurn) random() *sdk.Action {
	spec, ok := b.view.Action(sdk.ActPlay)
	if !ok || len(spec.Cards) == 0 || b.rng.Intn(drawBot, 10) == 0 {
		return b.fallback()
	}
	cur := b.pos
	var seq []sdk.Card
	starts := spec.Cards
	for {
		c := starts[b.rng.Intn(drawBot, len(starts))]
		seq = append(seq, c)
		rest, _ := sdk.RemoveCards(b.hand, seq)
		if c.Rank() != rankQueen && countRank(rest, c.Rank()) >= 2 && b.rng.Intn(drawBot, 2) == 0 {
			for _, d := range rest {
				if d.Rank() == c.Rank() {
					seq = append(seq, d)
				}
			}
		}
		pc := checkOnly(b.pos, b.hand, seq)
		if !pc.Legal {
			return b.action([]sdk.Card{seq[0]}) // cannot happen: a legal first card is a legal play
		}
		cur = pc.After
		if !cur.ExtraGo || b.rng.Intn(drawBot, 3) == 0 {
			break
		}
		rest, _ = sdk.RemoveCards(b.hand, seq)
		starts = starts[:0:0]
		for _, d := range rest {
			if cur.Legal(d) && !slices.Contains(starts, d) {
				starts = append(starts, d)
			}
		}
		if len(starts) == 0 {
			break
		}
	}
	return b.action(seq)
}

// smart is the level-2 choice: the best-scoring play, or pass/draw when nothing scores better.
func (b *botTurn) smart() *sdk.Action {
	spec, ok := b.view.Action(sdk.ActPlay)
	if !ok || len(spec.Cards) == 0 {
		return b.fallback()
	}
	nextCount := b.nextHandCount()
	var best []sdk.Card
	bestScore := -12 // drawing a card
	if b.view.Has(sdk.ActPass) {
		bestScore = 0 // passing costs nothing
	}
	nodes := 0
	var walk func(seq []sdk.Card, cur Position, rest []sdk.Card)
	walk = func(seq []sdk.Card, cur Position, rest []sdk.Card) {
		var tried []sdk.Card
		for _, d := range rest {
			if nodes >= searchLimit {
				return
			}
			if slices.Contains(tried, d) || !cur.Legal(d) || (len(seq) == 0 && cur.Drawn != 0 && d != cur.Drawn) {
				continue
			}
			tried = append(tried, d)
			options := [][]sdk.Card{{d}}
			if d.Rank() != rankQueen && countRank(rest, d.Rank()) >= 3 {
				g := []sdk.Card{d}
				left, _ := sdk.RemoveCards(rest, g)
				for _, e := range left {
					if e.Rank() == d.Rank() {
						g = append(g, e)
					}
				}
				options = append(options, g)
			}
			for _, o := range options {
				nodes++
				s := append(slices.Clone(seq), o...)
				pc := checkOnly(b.pos, b.hand, s)
				if !pc.Legal {
					continue
				}
				if sc := b.score(s, pc, nextCount); sc > bestScore || (sc == bestScore && best != nil && b.rng.Intn(drawBot, 2) == 0) {
					best, bestScore = s, sc
				}
				if pc.After.ExtraGo && !pc.Wins {
					left, _ := sdk.RemoveCards(rest, o)
					walk(s, pc.After, left)
				}
			}
		}
	}
	walk(nil, b.pos, b.hand)
	if best == nil {
		return b.fallback()
	}
	return b.action(best)
}

func (b *botTurn) score(seq []sdk.Card, pc PlayCheck, nextCount int) int {
	if pc.Wins {
		return 1 << 20
	}
	sc := 10 * len(seq)
	for _, c := range seq {
		if c.Rank() == rankAce {
			sc -= 15 // an Ace goes on anything: keep it for when nothing else does
		}
	}
	rest, _ := sdk.RemoveCards(b.hand, seq)
	suit := pc.After.Suit
	if pc.NeedSuit {
		suit = b.bestSuit(seq)
	}
	for _, c := range rest {
		if c.Suit() == suit {
			sc += 2
		}
	}
	switch top := pc.After.Top.Rank(); {
	case top == rankTwo:
		sc += 4
		if nextCount <= 2 {
			sc += 15
		}
	case top == rankKing && nextCount <= 2:
		sc += 15
	case top == rankQueen && len(rest) > 0:
		sc -= 3 // a Queen left on top wasted its extra go
	}
	return sc
}

// nextHandCount is how many cards the next seat in the direction of play holds.
func (b *botTurn) nextHandCount() int {
	n := len(b.view.Players)
	if n == 0 {
		return 99
	}
	dir := b.view.Direction
	if dir == 0 {
		dir = 1
	}
	next := ((b.seat+dir)%n + n) % n
	return b.view.Players[next].HandCount
}
