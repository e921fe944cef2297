package ginrummy

import (
	"context"
	"slices"
	"time"

	"cardhouse/sdk"
	"cardhouse/sdk/search"
)

// drawBot is the label of a bot's own random choices.
const drawBot = "bot"

var _ sdk.Bots = (*Rules)(nil)

// Bot chooses an action for req.Seat from its view alone (never the state). Level 1 makes a
// random legal move. Level 2 plays by rules of thumb: it takes the discard pile's top card when
// that card makes a meld, discards the card that leaves the least deadwood while keeping its meld
// candidates (pairs and near runs among its loose cards; the highest card among equals), knocks
// as soon as it may (gin when it can), and lays off every card it can. Levels 3 to 5 search
// (sdk/search over Sample's worlds, budgets growing with the level) from keen's move: level 2's
// rules with what the seat has seen of the other's play (heuristic.go).
func (r *Rules) Bot(ctx context.Context, req sdk.BotRequest) (*sdk.Action, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	v := req.View
	if v.Phase != sdk.PhasePlaying || v.Turn != req.Seat || len(v.Actions) == 0 {
		return nil, nil
	}
	rng := req.RNG
	if rng == nil {
		g := sdk.NewRNG(uint64(req.Seat))
		rng = &g
	}
	b := botView{seat: req.Seat, view: v, rng: rng}
	switch {
	case req.Level <= 1:
		return b.random(), nil
	case req.Level >= 3:
		// Levels 3 to 5: sdk/search's determinised Monte Carlo over worlds sampled from the view
		// (search.go), from keen's move (level 2's rules and the seat's sight, heuristic.go).
		req.RNG = rng
		g := sightOfView(&b, req.History)
		return r.searchBot(ctx, req, b.smartWith(&g))
	}
	return b.smart(), nil
}

// searchLevels are the budgets of levels 3 to 5, each three times the one below, and how many
// standard errors of the paired difference a move must beat keen's by before the level plays
// it instead: the fewer its playouts, the more a level's departures come from noise, so the small
// searches keep to keen's move unless it is clearly beaten. sdk/search's generic budgets (60,
// 240 and 900 playouts) left levels 3 to 5 level with level 2 and with each other; Simulate makes
// a playout cheap enough for level 5 to weigh 1,800 within its 280 ms.
var searchLevels = map[int]search.Config{
	3: {Iterations: 200, Time: 60 * time.Millisecond, Confidence: 1.5},
	4: {Iterations: 600, Time: 150 * time.Millisecond, Confidence: 1.25},
	5: {Iterations: 1800, Time: 280 * time.Millisecond, Confidence: 1},
}

// searchBot is levels 3 to 5: sdk/search over Sample's worlds with the level's searchLevels,
// departing from keen's move h only with confidence. Its playouts go to the hand's end:
// cutting them short and scoring the deadwood left (a horizon of 10 actions) made level 5 three
// times faster but pulled it toward shedding high cards, against level 2's rule of keeping meld
// candidates.
func (r *Rules) searchBot(ctx context.Context, req sdk.BotRequest, h *sdk.Action) (*sdk.Action, error) {
	cfg, ok := searchLevels[req.Level]
	if !ok {
		cfg = searchLevels[5]
	}
	return search.BotWith(ctx, r, req, cfg, func() (*sdk.Action, error) { return h, nil })
}

// botView is what a bot reads of its view.
type botView struct {
	seat int
	view sdk.View
	rng  *sdk.RNG
}

func (b *botView) hand() []sdk.Card {
	z, _ := b.view.Zone(handZone(b.seat))
	return z.Cards
}

func (b *botView) top() sdk.Card {
	z, _ := b.view.Zone("pile")
	if len(z.Cards) == 0 {
		return 0
	}
	return z.Cards[len(z.Cards)-1]
}

func (b *botView) act(t string) *sdk.Action { return &sdk.Action{Seat: b.seat, Type: t} }

// layoffs lists the single-card layoffs the view's layoff action allows, as actions.
func (b *botView) layoffs() []sdk.Action {
	spec, ok := b.view.Action(sdk.ActLayoff)
	if !ok {
		return nil
	}
	var out []sdk.Action
	for _, id := range spec.Zones {
		z, _ := b.view.Zone(id)
		for _, c := range spec.Cards {
			if z.Meld != nil && IsMeld(append(slices.Clone(z.Cards), c)) {
				owner, i := z.Owner, *z.Meld
				out = append(out, sdk.Action{Seat: b.seat, Type: sdk.ActLayoff, Cards: []sdk.Card{c}, Target: &owner, Index: &i})
			}
		}
	}
	return out
}

// random is a random legal move: a random open action, with a random card or choice.
func (b *botView) random() *sdk.Action {
	if l := b.layoffs(); len(l) > 0 && b.rng.Intn(drawBot, 2) == 0 {
		return &l[b.rng.Intn(drawBot, len(l))]
	}
	var specs []sdk.ActionSpec
	for _, s := range b.view.Actions {
		if s.Type != sdk.ActLayoff {
			specs = append(specs, s)
		}
	}
	spec := specs[b.rng.Intn(drawBot, len(specs))]
	a := b.act(spec.Type)
	switch {
	case spec.Type == sdk.ActDraw:
		a.From = spec.Choices[b.rng.Intn(drawBot, len(spec.Choices))]
	case len(spec.Cards) > 0:
		a.Cards = []sdk.Card{spec.Cards[b.rng.Intn(drawBot, len(spec.Cards))]}
	}
	return a
}

// smart is level 2's move; smartWith with a sight is keen's, the default of levels 3 to 5 (its
// discards by keenDiscard, its knock by knockCard).
func (b *botView) smart() *sdk.Action { return b.smartWith(nil) }

func (b *botView) smartWith(g *sight) *sdk.Action {
	v := &b.view
	hand := b.hand()
	if slices.ContainsFunc(v.Zones, func(z sdk.Zone) bool { return z.Kind == sdk.ZoneMeld }) {
		// laid out: the defender lays off what it can, then passes
		if l := b.layoffs(); len(l) > 0 {
			return &l[0]
		}
		return b.act(sdk.ActPass)
	}
	if spec, ok := v.Action(sdk.ActDraw); ok {
		top := b.top()
		if slices.Contains(spec.Choices, sdk.FromDiscard) && top != 0 && takes(hand, top) {
			a := b.act(sdk.ActDraw)
			a.From = sdk.FromDiscard
			return a
		}
		if slices.Contains(spec.Choices, sdk.FromStock) {
			a := b.act(sdk.ActDraw)
			a.From = sdk.FromStock
			return a
		}
		return b.act(sdk.ActPass) // the upcard offer, declined
	}
	for _, s := range v.Actions {
		if s.Type == sdk.ActKnock && len(s.Cards) == 0 {
			return b.act(sdk.ActKnock) // big gin
		}
	}
	pick := bestDiscard
	if g != nil {
		pick = func(hand, allowed []sdk.Card) sdk.Card { return keenDiscard(hand, allowed, *g) }
	}
	if spec, ok := v.Action(sdk.ActKnock); ok {
		a := b.act(sdk.ActKnock)
		a.Cards = []sdk.Card{pick(hand, spec.Cards)}
		if g != nil {
			a.Cards[0], _ = knockCard(hand, spec.Cards)
		}
		return a
	}
	spec, _ := v.Action(sdk.ActDiscard)
	a := b.act(sdk.ActDiscard)
	a.Cards = []sdk.Card{pick(hand, spec.Cards)}
	return a
}

// takes reports whether level 2 takes c from the discard pile: when c makes a meld with the hand
// (the hand with c has less deadwood than without it, c counted) and the hand's deadwood after the
// best discard goes down.
func takes(hand []sdk.Card, c sdk.Card) bool {
	if c == 0 {
		return false
	}
	without := setOf(hand)
	with := without | bitOf(c)
	now := deadwood(without)
	if deadwood(with) >= now+Value(c) {
		return false
	}
	for _, d := range hand {
		if deadwood(with&^bitOf(d)) < now {
			return true
		}
	}
	return false
}

// linkCost is what keeping a meld candidate is worth to level 2, in deadwood points: a loose card
// with another loose card of its rank, or of its suit one or two ranks away, may make a meld with
// one more draw.
const linkCost = 2

// bestDiscard is level 2's discard among allowed: the card whose discard leaves hand the least
// deadwood, counting linkCost for each meld candidate it would break (a loose card's link to
// another loose card); among equals the highest card, then the first.
func bestDiscard(hand, allowed []sdk.Card) sdk.Card {
	all := setOf(hand)
	loose := arrange(all).dead
	var best sdk.Card
	bestD, bestV := 1<<10, -1
	for _, c := range allowed {
		d := deadwood(all &^ bitOf(c))
		if loose&bitOf(c) != 0 {
			d += linkCost * links(c, loose)
		}
		if d < bestD || d == bestD && Value(c) > bestV {
			best, bestD, bestV = c, d, Value(c)
		}
	}
	return best
}

// links counts the cards of loose, c aside, of c's rank or of its suit within two ranks.
func links(c sdk.Card, loose cardSet) int {
	n := 0
	for _, d := range loose.cards() {
		if d == c {
			continue
		}
		if d.Rank() == c.Rank() || d.Suit() == c.Suit() && max(d.Rank()-c.Rank(), c.Rank()-d.Rank()) <= 2 {
			n++
		}
	}
	return n
}
