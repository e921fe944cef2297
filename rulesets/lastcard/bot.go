package lastcard

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"cardhouse/sdk"
)

// A bot decides in two stages, so that stronger levels add to it without rework:
//
//  1. perceive reads the sdk.BotRequest (the seat's View and History, never the state, L-11) into
//     a seen: what the seat knows, and every legal move spelled out as a ready sdk.Action.
//  2. a policy picks one of those moves. Level 1 (randomPolicy) and level 2 (simplePolicy) read
//     only seen's present; level 3 (memoryPolicy) adds a memory of the colours played
//     (seen.History); levels 4 and 5 (searchLevel, bot_levels.go) deduce the colours each
//     opponent lacks from its draws and search worlds sampled consistently with seen, played out
//     with this package's Apply (search.go, sdk/search).
//
// Because a policy can only return one of seen.Moves, levels 1 to 3 are legal by construction;
// the searches return one of Moves of a world whose view is the seat's, which is legal too.

// policy chooses one of k.Moves (nil: nothing to do now). rng is the bot's own randomness.
type policy interface {
	choose(k *seen, rng *sdk.RNG) *sdk.Action
}

// policies are the bot levels, by level. Info.BotLevels lists the same keys.
var policies = map[int]policy{
	1: randomPolicy{},
	2: simplePolicy{},
	3: memoryPolicy{},
}

// BotLevels are the levels Bot plays: 1 to 3 are policies, 4 and 5 searches (bot_levels.go).
var BotLevels = []int{1, 2, 3, 4, 5}

// Bot chooses the action of req.Seat with the policy of req.Level, from what the seat sees. It
// returns nil for a seat that has nothing to do (not in turn, nothing to catch; or the round is
// over). The action is always one the view offers, so Apply accepts it.
func (r *Rules) Bot(ctx context.Context, req sdk.BotRequest) (*sdk.Action, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, ok := policies[req.Level]
	sp, searches := searchPolicies[req.Level]
	if !ok && !searches {
		return nil, sdk.Refuse(sdk.CodeNotAvailable, "Last Card has no bot of level %d (it has %v)", req.Level, BotLevels)
	}
	k, err := perceive(req)
	if err != nil {
		return nil, err
	}
	if len(k.Moves) == 0 {
		return nil, nil
	}
	rng := req.RNG
	if rng == nil {
		r := sdk.NewRNG(0)
		rng = &r
	}
	if searches {
		a, err := sp.decide(ctx, r, req, k, rng)
		if err == nil || ctx.Err() != nil {
			return a, err
		}
		// A search that cannot run here (the view shows a seat that is not the one deciding)
		// falls back on level 3's habits.
		return memoryPolicy{}.choose(k, rng), nil
	}
	return p.choose(k, rng), nil
}

// moveKind sorts the legal moves.
type moveKind int

const (
	movePlay moveKind = iota + 1
	moveDraw
	movePass
	moveCall
	moveCatch
)

// move is one legal action with what a policy needs to weigh it.
type move struct {
	Kind   moveKind
	Action sdk.Action
	// Card is the card a play lays; Color the colour a Joker names.
	Card  sdk.Card
	Color string
	// Calls is true when the play announces "Last card!" with it.
	Calls bool
}

// seen is what a seat knows when it decides: its hand, the public table and its history.
type seen struct {
	Seat, Seats int
	// Turn is the seat in turn, or sdk.NoSeat when the round is over.
	Turn      int
	Direction int
	Hand      []sdk.Card
	Top       sdk.Card
	// Color is the colour in play ("" for any).
	Color   string
	Penalty int
	// Counts are the hand sizes per seat, Scores the game's scores.
	Counts []int
	Scores []int
	// Called marks the seats that have announced "Last card!"; Exposed is the seat that may be
	// caught out (sdk.NoSeat for none); Opener the round's opener.
	Called  []bool
	Exposed int
	Opener  int
	Round   int
	// Pile is the discard pile, bottom first; DeckCount the cards left to draw.
	Pile      []sdk.Card
	DeckCount int
	// Drawn is the card the seat has just drawn and may still play (0 for none).
	Drawn sdk.Card
	// Settings are the room's rule options, as the view's indicators tell them.
	Settings Settings
	History  []sdk.Event
	// Moves are every legal action for the seat now.
	Moves []move
}

// perceive reads the request into a seen. It reads the view only: a card the seat cannot see is
// not in it, so no bot can cheat (L-11).
func perceive(req sdk.BotRequest) (*seen, error) {
	v := req.View
	k := &seen{Seat: req.Seat, Seats: len(v.Players), Turn: v.Turn, Direction: v.Direction, Round: v.Round,
		Exposed: sdk.NoSeat, History: req.History, Settings: readSettings(v.Indicators)}
	if v.Phase != sdk.PhasePlaying {
		return k, nil
	}
	hand, ok := v.Zone(fmt.Sprintf("hand.%d", req.Seat))
	if !ok {
		return nil, fmt.Errorf("lastcard bot: the view of seat %d has no zone hand.%d", req.Seat, req.Seat)
	}
	k.Hand = hand.Cards
	if pile, ok := v.Zone("pile"); ok && len(pile.Cards) > 0 {
		k.Pile = pile.Cards
		k.Top = pile.Cards[len(pile.Cards)-1]
	}
	if deck, ok := v.Zone("deck"); ok {
		k.DeckCount = deck.Count
	}
	for _, ind := range v.Indicators {
		switch ind.ID {
		case "color":
			k.Color = ind.Value
		case "penalty":
			k.Penalty, _ = strconv.Atoi(ind.Value)
		case "drawn":
			k.Drawn, _ = sdk.ParseCard(ind.Value)
		}
	}
	k.Counts = make([]int, k.Seats)
	k.Scores = make([]int, k.Seats)
	k.Called = make([]bool, k.Seats)
	for _, p := range v.Players {
		if p.Seat < 0 || p.Seat >= k.Seats {
			continue
		}
		k.Counts[p.Seat] = p.HandCount
		if p.Score != nil {
			k.Scores[p.Seat] = *p.Score
		}
		k.Called[p.Seat] = slices.Contains(p.Tags, "called")
		if slices.Contains(p.Tags, "catchable") {
			k.Exposed = p.Seat
		}
		if slices.Contains(p.Tags, "opener") {
			k.Opener = p.Seat
		}
	}
	k.Moves = movesOf(req.Seat, v.Actions)
	return k, nil
}

// movesOf spells out the view's actions as ready actions: one play per card (and per colour for
// a Joker that needs one, with and without the call when it is open), one catch per target.
func movesOf(seat int, specs []sdk.ActionSpec) []move {
	var out []move
	canCall := slices.ContainsFunc(specs, func(a sdk.ActionSpec) bool { return a.Type == sdk.ActCall })
	for _, spec := range specs {
		switch spec.Type {
		case sdk.ActPlay:
			for _, c := range spec.Cards {
				colors := []string{""}
				if slices.Contains(spec.ChoiceFor, c) {
					colors = spec.Choices
				}
				for _, col := range colors {
					m := move{Kind: movePlay, Card: c, Color: col,
						Action: sdk.Action{Seat: seat, Type: sdk.ActPlay, Cards: []sdk.Card{c}, Args: playArgs(col, false)}}
					out = append(out, m)
					if canCall {
						m.Calls = true
						m.Action.Args = playArgs(col, true)
						out = append(out, m)
					}
				}
			}
		case sdk.ActDraw:
			out = append(out, move{Kind: moveDraw, Action: sdk.Action{Seat: seat, Type: sdk.ActDraw}})
		case sdk.ActPass:
			out = append(out, move{Kind: movePass, Action: sdk.Action{Seat: seat, Type: sdk.ActPass}})
		case sdk.ActCall:
			out = append(out, move{Kind: moveCall, Action: sdk.Action{Seat: seat, Type: sdk.ActCall}})
		case sdk.ActCatch:
			for _, target := range spec.Targets {
				tg := target
				out = append(out, move{Kind: moveCatch, Action: sdk.Action{Seat: seat, Type: sdk.ActCatch, Target: &tg}})
			}
		}
	}
	return out
}

// of returns the moves of the given kinds.
func (k *seen) of(kinds ...moveKind) []move {
	var out []move
	for _, m := range k.Moves {
		if slices.Contains(kinds, m.Kind) {
			out = append(out, m)
		}
	}
	return out
}

// inTurn reports whether the seat is the one to move.
func (k *seen) inTurn() bool { return k.Turn == k.Seat }

// next is the seat after the bot's in the direction of play.
func (k *seen) next() int { return ((k.Seat+k.Direction)%k.Seats + k.Seats) % k.Seats }

// pick returns the action of a random move of ms.
func pick(ms []move, rng *sdk.RNG) *sdk.Action {
	a := ms[rng.Intn("bot", len(ms))].Action
	return &a
}

// randomPolicy is level 1: almost random, always legal. It catches an opponent out half the
// time, plays a random playable card three times in four (calling "Last card!" half the time it
// should), and otherwise draws or keeps what it drew.
type randomPolicy struct{}

func (randomPolicy) choose(k *seen, rng *sdk.RNG) *sdk.Action {
	if catches := k.of(moveCatch); len(catches) > 0 && rng.Intn("bot", 2) == 0 {
		return pick(catches, rng)
	}
	if !k.inTurn() {
		return nil
	}
	plays := k.of(movePlay)
	others := k.of(moveDraw, movePass)
	if len(plays) > 0 && (len(others) == 0 || rng.Intn("bot", 4) != 0) {
		a := pick(plays, rng)
		return a
	}
	if len(others) > 0 {
		return pick(others, rng)
	}
	return pick(k.Moves, rng)
}

// simplePolicy is level 2, the document's simple rules: it catches every forgotten call, always
// calls "Last card!", stacks Draw Twos rather than draw, attacks with Draw Fours, Draw Twos, Skips
// and Reverses when the next player is close to going out, keeps its Jokers otherwise, imposes its
// dominant colour and sheds its costliest cards first.
type simplePolicy struct{}

func (simplePolicy) choose(k *seen, rng *sdk.RNG) *sdk.Action {
	if catches := k.of(moveCatch); len(catches) > 0 {
		return pick(catches, rng)
	}
	if !k.inTurn() {
		return nil
	}
	plays := k.of(movePlay)
	if len(plays) == 0 {
		if ms := k.of(moveDraw, movePass); len(ms) > 0 {
			return pick(ms, rng)
		}
		return pick(k.Moves, rng)
	}
	mustCall := len(k.Hand) == 2 && slices.ContainsFunc(k.Moves, func(m move) bool { return m.Kind == moveCall })
	threat := k.Counts[k.next()] <= 2
	best, bestScore := []move(nil), -1<<31
	for _, m := range plays {
		if mustCall != m.Calls {
			continue
		}
		rest, _ := sdk.RemoveCards(k.Hand, []sdk.Card{m.Card})
		dom := dominantColor(rest)
		if m.Color != "" && dom != "" && m.Color != dom {
			continue // a Joker names the dominant colour
		}
		score := k.weigh(m, rest, dom, threat)
		switch {
		case score > bestScore:
			best, bestScore = []move{m}, score
		case score == bestScore:
			best = append(best, m)
		}
	}
	if len(best) == 0 {
		return pick(plays, rng)
	}
	return pick(best, rng)
}

// weigh scores a play for simplePolicy: higher is better.
func (k *seen) weigh(m move, rest []sdk.Card, dom string, threat bool) int {
	c := m.Card
	score := Points(c) // shed costly cards first
	if col := colorOf(c); col != "" && col == dom {
		score += 30 // keep the colour it holds most of
	}
	attack := 0
	switch {
	case c == sdk.WildDrawFour:
		attack = 100
	case c.Value() == sdk.ValueDrawTwo:
		attack = 90
	case c.Value() == sdk.ValueSkip:
		attack = 80
	case c.Value() == sdk.ValueReverse:
		attack = 70
		if k.Seats > 2 {
			// The turn comes back the other way: worth it when that player holds more.
			prev := ((k.Seat-k.Direction)%k.Seats + k.Seats) % k.Seats
			if k.Counts[prev] <= k.Counts[k.next()] {
				attack = 0
			}
		}
	}
	if threat {
		score += attack * 3
	} else if isJoker(c) && len(rest) > 0 {
		score -= 200 // save Jokers for when they matter
	}
	return score
}

// dominantColor is the colour hand holds most of (ties: the higher points), "" when it holds no
// coloured card.
func dominantColor(hand []sdk.Card) string {
	count := map[string]int{}
	points := map[string]int{}
	for _, c := range hand {
		if col := colorOf(c); col != "" {
			count[col]++
			points[col] += Points(c)
		}
	}
	best := ""
	for _, col := range colorChoices {
		if count[col] == 0 {
			continue
		}
		if best == "" || count[col] > count[best] || count[col] == count[best] && points[col] > points[best] {
			best = col
		}
	}
	return best
}
