package lastcard

import (
	"context"
	"time"

	"cardhouse/sdk"
	"cardhouse/sdk/search"
)

// Levels 3 to 5, as the rule document's "About the AI" describes them (docs/rulings/lastcard.md,
// "The computer players", L-11):
//
//   - 3 saves its Jokers and remembers the colours played (memoryPolicy): level 2's rules, plus it
//     keeps a Joker (even one just drawn) while anything else goes and no opponent is close to
//     going out, and it plays into the colours the others have been shedding.
//   - 4 deduces the colours each opponent lacks from its draws (deduce) and simulates short round
//     endings: flat determinised Monte Carlo over its moves in worlds sampled under those
//     deductions, each playout cut after a few dozen plies and scored by Evaluate.
//   - 5 simulates thousands of rounds on every move, to their end, in worlds sampled under the
//     same deductions; and it sometimes bluffs about its colour, drawing on purpose when the
//     search rates the draw about as well as its best play.
//
// Both searches start from level 3's move (search.Config.Default): they play another only when
// their simulations show it better with confidence, so they are never the worse for their noise.
// Their playouts and their scores count the game, not just the round: Evaluate values a round's
// end by the game's scores when it is played to a target. Every level reads only the
// sdk.BotRequest (L-11): the searches sample the cards the seat cannot see from its view and
// history (Sample), never from the state.

// Search budgets of levels 4 and 5, spaced so that each level beats the one below (docs/bots.md
// has the tournament figures). Level 5's time budget keeps a move under 300 ms on one core; its
// node budget takes some 35 ms on average there (75 ms at the slowest), so on an idle machine the
// choice does not depend on the clock.
var (
	level4Search = search.Config{Iterations: 300, Time: 150 * time.Millisecond, Horizon: 24}
	level5Search = search.Config{Iterations: 4000, Time: 280 * time.Millisecond}
)

// bluffMargin is how much worse than the best play (in chance of winning) a draw may look for
// the level 5 bot to bluff with it; bluffOdds is the chance it does when it may.
const (
	bluffMargin = 0.02
	bluffOdds   = 4 // one time in four
)

// searchPolicy is a level that searches: it needs the request, not only what perceive read.
type searchPolicy interface {
	decide(ctx context.Context, r *Rules, req sdk.BotRequest, k *seen, rng *sdk.RNG) (*sdk.Action, error)
}

// searchPolicies are the levels that search, by level.
var searchPolicies = map[int]searchPolicy{
	4: searchLevel{cfg: level4Search},
	5: searchLevel{cfg: level5Search, bluff: true},
}

// memoryPolicy is level 3: level 2's rules (catch, call, stack, attack a player close to going
// out), plus it saves its Jokers for when nothing else goes or its next card could end the round
// (it keeps a Joker it has just drawn unless an opponent is close to going out), and remembers
// the colours played: it keeps the turn in a colour it holds and the others have been shedding
// (the more of a colour has gone, the fewer the opponents can hold), and names that colour with
// a Joker. Its weights were tuned in tournaments against level 2 (see memoryHeld).
type memoryPolicy struct{}

// Weights of memoryPolicy's score per point of a card (shed costly cards first), per card of the
// play's colour still held and per card of that colour played this round. A held card counts for
// about one played card: both say the opponents are less likely to hold the colour. (Tuned over
// 4,000 one-round games against level 2: 12 and 2, level 2's own balance, won 51.5%; 6 and 5 won
// 54.4%, and keeping a drawn Joker too 55.6%.)
const (
	memoryPoints = 1
	memoryHeld   = 6
	memoryPlayed = 5
)

func (memoryPolicy) choose(k *seen, rng *sdk.RNG) *sdk.Action {
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
	mustCall := len(k.Hand) == 2 && k.canCall()
	played := playedColours(k)
	threat := false
	for seat, n := range k.Counts {
		if seat != k.Seat && n <= 2 {
			threat = true
		}
	}
	nextThreat := k.Counts[k.next()] <= 2
	if k.Drawn != 0 && isJoker(k.Drawn) && !threat {
		for _, m := range k.of(movePass) {
			a := m.Action
			return &a // keep the Joker just drawn
		}
	}
	var best []move
	bestScore := -1 << 31
	for _, m := range plays {
		if mustCall != m.Calls {
			continue
		}
		rest, _ := sdk.RemoveCards(k.Hand, []sdk.Card{m.Card})
		col := colorOf(m.Card)
		if m.Color != "" {
			col = m.Color
		}
		score := memoryPoints * Points(m.Card)
		// Keep the colour it holds, and prefer one the others have been shedding.
		held := 0
		for _, c := range rest {
			if colorOf(c) == col {
				held++
			}
		}
		score += memoryHeld*held + memoryPlayed*played[col]
		switch {
		case m.Card == sdk.WildDrawFour:
			score += attack(nextThreat, 100)
		case m.Card.Value() == sdk.ValueDrawTwo:
			score += attack(nextThreat, 90)
		case m.Card.Value() == sdk.ValueSkip:
			score += attack(nextThreat, 80)
		case m.Card.Value() == sdk.ValueReverse && k.Seats == 2:
			score += attack(nextThreat, 80)
		}
		if isJoker(m.Card) && len(rest) > 0 && !nextThreat && !(threat && len(rest) <= 1) {
			score -= 500 // a Joker is saved while anything else goes
		}
		if m.Color != "" && held == 0 && dominantColor(rest) != "" {
			score -= 40 // never name a colour it does not hold
		}
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

// attack is the bonus of an attacking card: large when the next player is close to going out.
func attack(threat bool, v int) int {
	if threat {
		return 3 * v
	}
	return v / 10
}

// canCall reports whether "Last card!" is open to the seat.
func (k *seen) canCall() bool {
	for _, m := range k.Moves {
		if m.Kind == moveCall {
			return true
		}
	}
	return false
}

// playedColours counts the coloured cards played this round, by colour code, from the history.
func playedColours(k *seen) map[string]int {
	out := map[string]int{}
	for _, e := range k.History {
		if e.Name == "played" {
			for _, c := range e.Cards {
				if col := colorOf(c); col != "" {
					out[col]++
				}
			}
		}
	}
	return out
}

// searchLevel is a level that searches: cfg's search over worlds sampled under the colours each
// opponent is deduced to lack (deduce), from level 3's move; bluff sometimes draws on purpose
// (maybeBluff).
type searchLevel struct {
	cfg   search.Config
	bluff bool
}

// decision is the ruleset as one decision's search sees it: Sample reuses what perceive and
// deduce read once, instead of reading the view and history again for every sampled world.
type decision struct {
	*Rules
	k       *seen
	beliefs [][]slot
}

// Sample deals a world from the decision's reading of the view and history.
func (d decision) Sample(_ int, _ sdk.View, _ []sdk.Event, rng *sdk.RNG) (*State, error) {
	w := sampleBelieved(d.k, d.beliefs, rng)
	if w == nil {
		return nil, errNoRound
	}
	return w, nil
}

func (l searchLevel) decide(ctx context.Context, r *Rules, req sdk.BotRequest, k *seen, rng *sdk.RNG) (*sdk.Action, error) {
	if catches := k.of(moveCatch); len(catches) > 0 {
		return pick(catches, rng), nil
	}
	if !k.inTurn() {
		return nil, nil
	}
	req.RNG = rng
	d := decision{Rules: r, k: k, beliefs: deduce(k)}
	cfg := l.cfg
	cfg.Default = memoryPolicy{}.choose(k, rng)
	res, err := search.Search[*State](ctx, d, req, cfg)
	if err != nil {
		return nil, err
	}
	a := res.Action
	if l.bluff {
		a = l.maybeBluff(k, res, rng)
	}
	return &a, nil
}

// maybeBluff is level 5's bluff: holding a card of the colour in play, four cards or more, with
// no opponent close to going out and no penalty pending, it sometimes draws instead of playing
// when the search rates the draw within bluffMargin of its choice, so that the others believe it
// lacks the colour.
func (l searchLevel) maybeBluff(k *seen, res *search.Result, rng *sdk.RNG) sdk.Action {
	a := res.Action
	if a.Type != sdk.ActPlay || len(k.Hand) < 4 || k.Penalty > 0 || k.Drawn != 0 {
		return a
	}
	for seat, n := range k.Counts {
		if seat != k.Seat && n <= 3 {
			return a
		}
	}
	holds := false
	for _, c := range k.Hand {
		if colorOf(c) == k.Color && k.Color != "" {
			holds = true
		}
	}
	if !holds {
		return a
	}
	var best, draw *search.Stat
	for i := range res.Stats {
		st := &res.Stats[i]
		if search.Key(st.Action) == search.Key(a) {
			best = st
		}
		if st.Action.Type == sdk.ActDraw {
			draw = st
		}
	}
	if best == nil || draw == nil || draw.Visits == 0 || draw.Value < best.Value-bluffMargin {
		return a
	}
	if rng.Intn("bluff", bluffOdds) == 0 {
		return draw.Action
	}
	return a
}
