package search

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"cardhouse/sdk"
)

// Config sets one search: its budgets and its shape.
type Config struct {
	// Iterations is the node budget: how many playouts are run per decision. The tree search
	// samples a world per playout; the flat search samples a world and plays every root move out
	// in it (so it samples Iterations / moves worlds). 0 means DefaultIterations.
	Iterations int
	// Time is the time budget per decision; 0 means none. The search stops at whichever budget
	// runs out first, or at ctx's deadline. A search that stops on time depends on the machine's
	// speed: tests use Iterations only (see WithOverride).
	Time time.Duration
	// Tree selects information-set Monte Carlo tree search (single observer: one tree over the
	// moves of every seat, keyed by the moves' content, each node counting how often it was
	// available). When false the search is flat: determinised Monte Carlo over the root moves
	// only, every playout played out by the rollout policy.
	Tree bool
	// Horizon cuts a playout this many plies after it leaves the tree and scores it with the
	// ruleset's Evaluator ("short round endings"); 0, or a ruleset without an Evaluator, plays to
	// the end of the round.
	Horizon int
	// MaxPlies bounds one playout (a guard against rounds that cycle); 0 means DefaultMaxPlies.
	// A playout that reaches it is scored by the Evaluator, or as a draw among the seats.
	MaxPlies int
	// Exploration is the UCB1 constant; 0 means DefaultExploration.
	Exploration float64
	// Default, when set and among the deciding seat's moves, is the move the flat search keeps
	// unless another beats it with confidence: by Confidence standard errors of their paired
	// difference over the worlds sampled (common random numbers make the pairs). It is how a
	// search bot stays at least as good as the heuristic it grows from: with a small budget the
	// noise of the playouts cannot talk it out of a sound rule of thumb, and with a large one
	// it overrides the rule wherever the simulations say so clearly. The tree search ignores it.
	Default *sdk.Action
	// Confidence is the z-score of the Default test; 0 means DefaultConfidence.
	Confidence float64
}

// Defaults of Config.
const (
	// DefaultIterations is a few hundred simulated rounds: what the Last Card document promises
	// its level 5 ("simulates hundreds of possible rounds on every move").
	DefaultIterations = 400
	// DefaultMaxPlies is far beyond a normal round of any built-in variant (a two-player Last
	// Card round is some 40 to 120 plies) yet bounds a round that cycles.
	DefaultMaxPlies = 600
	// DefaultExploration is below the textbook sqrt(2): rewards are win rates of noisy playouts,
	// and a lower constant spends more of a small budget on the moves that look best.
	DefaultExploration = 0.7
	// DefaultConfidence is one standard error: a one-sided test at about 84%. Moves are compared
	// on the same worlds, so even a small budget separates a clearly better move from the
	// default, while a difference within the noise keeps the default.
	DefaultConfidence = 1.0
)

// Stat is what the search learned about one root move.
type Stat struct {
	Action sdk.Action
	// Visits is how many iterations tried it; Value its mean reward for the deciding seat (0 to 1).
	Visits int
	Value  float64
}

// Result is a search's choice and what it is based on.
type Result struct {
	// Action is the root move most visited (ties: the higher value, then the first listed); with
	// Config.Default, the default unless that move beats it with confidence.
	Action sdk.Action
	// Defaulted reports that the search kept Config.Default against a move of higher mean value
	// it could not separate from it.
	Defaulted bool
	// Stats has one entry per root move, in the order the ruleset's Moves listed them.
	Stats []Stat
	// Iterations counts the playouts run; Plies the actions applied in all of them (the nodes/s
	// figure divides Plies by Elapsed).
	Iterations int
	Plies      int
	Elapsed    time.Duration
}

// Simulator is an optional extra of a ruleset for the search: it plays a simulated world on with
// its own rollout policy (the choices sdk.Rollout's RolloutMove would make, drawn from rng) until
// the round ends or limit actions have been played, and returns the state reached and the number
// of actions played. It must leave state as it was. A ruleset offers it when it can step its
// state in place much faster than one Apply per action; the search then uses it for every
// playout instead of RolloutMove and Apply.
type Simulator[S any] interface {
	Simulate(state S, limit int, rng *sdk.RNG) (S, int)
}

// ErrNotSearchable is returned for a ruleset that lacks Sampler or Mover.
var ErrNotSearchable = errors.New("search: the ruleset implements neither sdk.Sampler nor sdk.Mover")

// Override, carried by a context, changes the budgets of every search run under it. Tests switch
// the clock off and scale the node budget down, so that a choice depends on its inputs alone; a
// tournament may scale budgets to trade strength for time.
type Override struct {
	// Scale multiplies Config.Iterations (at least one iteration is kept); 0 leaves it as it is.
	Scale float64
	// NoClock switches Config.Time off.
	NoClock bool
}

type overrideKey struct{}

// WithOverride returns a context whose searches follow o.
func WithOverride(ctx context.Context, o Override) context.Context {
	return context.WithValue(ctx, overrideKey{}, o)
}

// Apply returns cfg as the override carried by ctx (if any) changes it.
func (cfg Config) Apply(ctx context.Context) Config {
	o, ok := ctx.Value(overrideKey{}).(Override)
	if !ok {
		return cfg
	}
	if o.Scale > 0 {
		it := cfg.Iterations
		if it == 0 {
			it = DefaultIterations
		}
		cfg.Iterations = max(1, int(float64(it)*o.Scale))
	}
	if o.NoClock {
		cfg.Time = 0
	}
	return cfg
}

// Searchable reports whether r offers what Search needs (sdk.Sampler and sdk.Mover).
func Searchable[S any](r sdk.Ruleset[S]) bool {
	_, ok1 := r.(sdk.Sampler[S])
	_, ok2 := r.(sdk.Mover[S])
	return ok1 && ok2
}

// Search chooses req.Seat's move by simulation: every iteration samples a world consistent with
// the seat's view and history (sdk.Sampler), plays the seat's candidate moves and a simulated
// round ending in it with the ruleset's own Apply, and scores the end (1 for the round's winner).
// It reads req only (view, history, RNG): two requests that show the seat the same thing get the
// same choice when no time budget interrupts it. It needs the seat to be the one deciding
// (sdk.Mover.Decider); otherwise, or with one move only, it returns that move with no search.
func Search[S any](ctx context.Context, r sdk.Ruleset[S], req sdk.BotRequest, cfg Config) (*Result, error) {
	sampler, ok1 := r.(sdk.Sampler[S])
	mover, ok2 := r.(sdk.Mover[S])
	if !ok1 || !ok2 {
		return nil, ErrNotSearchable
	}
	cfg = cfg.Apply(ctx)
	if cfg.Iterations <= 0 {
		cfg.Iterations = DefaultIterations
	}
	if cfg.MaxPlies <= 0 {
		cfg.MaxPlies = DefaultMaxPlies
	}
	if cfg.Exploration <= 0 {
		cfg.Exploration = DefaultExploration
	}
	if cfg.Confidence <= 0 {
		cfg.Confidence = DefaultConfidence
	}
	rng := req.RNG
	if rng == nil {
		g := sdk.NewRNG(uint64(req.Seat) + 1)
		rng = &g
	}
	s := &searcher[S]{ctx: ctx, r: r, sampler: sampler, mover: mover, cfg: cfg, rng: rng, req: req}
	s.rollout, _ = r.(sdk.Rollout[S])
	s.eval, _ = r.(sdk.Evaluator[S])
	s.sim, _ = r.(Simulator[S])
	return s.run()
}

type searcher[S any] struct {
	ctx     context.Context
	r       sdk.Ruleset[S]
	sampler sdk.Sampler[S]
	mover   sdk.Mover[S]
	rollout sdk.Rollout[S]
	eval    sdk.Evaluator[S]
	sim     Simulator[S]
	cfg     Config
	rng     *sdk.RNG
	req     sdk.BotRequest
	seats   int
	plies   int
}

// node is a node of the search tree: the move that led to it, who made it, and its statistics
// from the point of view of that seat.
type node struct {
	key      string
	action   sdk.Action
	seat     int
	visits   int
	avail    int
	reward   float64
	children []*node
	// diff and diff2 sum the flat search's paired differences (this move's reward minus the
	// default's in the same world) and their squares.
	diff, diff2 float64
}

func (n *node) child(key string) *node {
	for _, c := range n.children {
		if c.key == key {
			return c
		}
	}
	return nil
}

func (s *searcher[S]) sample() (S, error) {
	return s.sampler.Sample(s.req.Seat, s.req.View, s.req.History, s.rng)
}

func (s *searcher[S]) run() (*Result, error) {
	start := time.Now()
	s.seats = len(s.req.View.Players)
	first, err := s.sample()
	if err != nil {
		return nil, fmt.Errorf("search: sampling a world for seat %d: %w", s.req.Seat, err)
	}
	if d := s.mover.Decider(first); d != s.req.Seat {
		return nil, fmt.Errorf("search: seat %d is not the one to decide (seat %d is)", s.req.Seat, d)
	}
	moves := s.mover.Moves(first, s.req.Seat)
	if len(moves) == 0 {
		return nil, fmt.Errorf("search: seat %d has no move", s.req.Seat)
	}
	root := &node{seat: sdk.NoSeat}
	for _, m := range moves {
		root.children = append(root.children, &node{key: Key(m), action: m, seat: s.req.Seat})
	}
	res := &Result{}
	if len(moves) > 1 {
		if err := s.loop(root, first, start, res); err != nil {
			return nil, err
		}
	}
	best := root.children[0]
	for _, c := range root.children {
		v := 0.0
		if c.visits > 0 {
			v = c.reward / float64(c.visits)
		}
		res.Stats = append(res.Stats, Stat{Action: c.action, Visits: c.visits, Value: v})
		if c.visits > best.visits || c.visits == best.visits && c.visits > 0 && v > best.reward/float64(best.visits) {
			best = c
		}
	}
	if def := s.defaultChild(root); def != nil && def != best && !s.cfg.Tree {
		if !s.separated(best, def) {
			best = def
			res.Defaulted = true
		}
	}
	res.Action = best.action
	res.Plies = s.plies
	res.Elapsed = time.Since(start)
	return res, nil
}

// loop runs iterations until a budget runs out: one sampled world each (the first is given).
// The tree search runs one iteration per world; the flat search plays every root move out in
// the world, each with the same rollout randomness (common random numbers: the moves are compared
// on the same deal and the same luck, which takes most of the noise out of their difference).
func (s *searcher[S]) loop(root *node, first S, start time.Time, res *Result) error {
	world := first
	var err error
	rewards := make([]float64, len(root.children))
	def := -1
	if d := s.defaultChild(root); d != nil {
		def = slices.Index(root.children, d)
	}
	for it := 0; it < s.cfg.Iterations; {
		if it > 0 {
			if s.ctx.Err() != nil || s.cfg.Time > 0 && time.Since(start) >= s.cfg.Time {
				return nil
			}
			if world, err = s.sample(); err != nil {
				return fmt.Errorf("search: sampling a world for seat %d: %w", s.req.Seat, err)
			}
		}
		if s.cfg.Tree {
			if err := s.iterate(root, world); err != nil {
				return err
			}
			it++
			res.Iterations++
			continue
		}
		seed := s.rng.Uint64()
		for i, c := range root.children {
			w, err := s.apply(world, c.action)
			if err != nil {
				return err
			}
			rng := sdk.NewRNG(seed)
			reward, err := s.playoutWith(w, 1, &rng)
			if err != nil {
				return err
			}
			c.visits++
			c.avail++
			c.reward += reward[c.seat]
			rewards[i] = reward[c.seat]
			it++
			res.Iterations++
		}
		if def >= 0 {
			for i, c := range root.children {
				d := rewards[i] - rewards[def]
				c.diff += d
				c.diff2 += d * d
			}
		}
	}
	return nil
}

// defaultChild is the root child of Config.Default, nil when there is none. A move that lists
// the same cards in another order matches when nothing matches exactly (a heuristic may gather a
// group of cards in another order than the ruleset's Moves).
func (s *searcher[S]) defaultChild(root *node) *node {
	if s.cfg.Default == nil {
		return nil
	}
	k := Key(*s.cfg.Default)
	for _, c := range root.children {
		if c.key == k {
			return c
		}
	}
	d := *s.cfg.Default
	d.Cards = slices.Sorted(slices.Values(d.Cards))
	k = Key(d)
	for _, c := range root.children {
		a := c.action
		a.Cards = slices.Sorted(slices.Values(a.Cards))
		if Key(a) == k {
			return c
		}
	}
	return nil
}

// separated reports whether c beats the default move def with confidence: the mean of their
// paired differences is above Config.Confidence standard errors of it.
func (s *searcher[S]) separated(c, def *node) bool {
	n := float64(c.visits)
	if c.visits < 2 || def.visits != c.visits {
		return false
	}
	mean := c.diff / n
	v := (c.diff2/n - mean*mean) * n / (n - 1)
	se := math.Sqrt(max(v, 0) / n)
	return mean > s.cfg.Confidence*se && mean > 0
}

// iterate runs one iteration on world: selection and expansion down the tree (the root's
// children only when the search is flat), a playout, and the backup of its rewards.
func (s *searcher[S]) iterate(root *node, world S) error {
	path := []*node{root}
	cur := root
	w := world
	plies := 0
	for {
		seat := s.mover.Decider(w)
		if seat == sdk.NoSeat {
			s.backup(path, s.score(w, true))
			return nil
		}
		if cur != root && !s.cfg.Tree {
			break
		}
		var moves []sdk.Action
		if cur == root {
			// The root's moves are the seat's own, the same in every world it may be in (they
			// depend on its view alone), and already filtered.
			for _, c := range root.children {
				moves = append(moves, c.action)
			}
		} else {
			moves = s.mover.Moves(w, seat)
		}
		if len(moves) == 0 {
			return fmt.Errorf("search: seat %d has no move in a simulated world", seat)
		}
		var untried []sdk.Action
		var untriedKeys []string
		var legal []*node
		for _, m := range moves {
			k := Key(m)
			if c := cur.child(k); c != nil && c.seat == seat {
				c.avail++
				if c.visits > 0 {
					legal = append(legal, c)
					continue
				}
				untried = append(untried, m)
				untriedKeys = append(untriedKeys, k)
				continue
			}
			untried = append(untried, m)
			untriedKeys = append(untriedKeys, k)
		}
		var next *node
		if len(untried) > 0 {
			i := s.rng.Intn("search", len(untried))
			if next = cur.child(untriedKeys[i]); next == nil {
				next = &node{key: untriedKeys[i], action: untried[i], seat: seat, avail: 1}
				cur.children = append(cur.children, next)
			}
		} else {
			next = s.select_(legal)
		}
		nw, err := s.apply(w, next.action)
		if err != nil {
			return err
		}
		w = nw
		plies++
		path = append(path, next)
		cur = next
		if next.visits == 0 || plies >= s.cfg.MaxPlies {
			break // expanded a new node (or ran out of plies): play out from here
		}
	}
	reward, err := s.playout(w, plies)
	if err != nil {
		return err
	}
	s.backup(path, reward)
	return nil
}

// select_ picks the child with the best UCB1 score, availability counts standing in for the
// parent's visits (a move is judged against the times it could have been chosen).
func (s *searcher[S]) select_(legal []*node) *node {
	best, bestScore := legal[0], math.Inf(-1)
	for _, c := range legal {
		sc := c.reward/float64(c.visits) + s.cfg.Exploration*math.Sqrt(math.Log(float64(c.avail))/float64(c.visits))
		if sc > bestScore {
			best, bestScore = c, sc
		}
	}
	return best
}

func (s *searcher[S]) backup(path []*node, reward []float64) {
	for _, n := range path[1:] {
		n.visits++
		if n.seat >= 0 && n.seat < len(reward) {
			n.reward += reward[n.seat]
		}
	}
}

// playout plays w on with the rollout policy until the round ends, the horizon or the ply cap.
func (s *searcher[S]) playout(w S, plies int) ([]float64, error) {
	return s.playoutWith(w, plies, s.rng)
}

// playoutWith is playout drawing the rollout's choices from rng.
func (s *searcher[S]) playoutWith(w S, plies int, rng *sdk.RNG) ([]float64, error) {
	if s.sim != nil {
		limit := s.cfg.MaxPlies - plies
		if s.cfg.Horizon > 0 && s.eval != nil {
			limit = min(limit, s.cfg.Horizon)
		}
		end, n := s.sim.Simulate(w, max(limit, 0), rng)
		s.plies += n
		return s.score(end, s.mover.Decider(end) == sdk.NoSeat), nil
	}
	for depth := 0; ; depth++ {
		seat := s.mover.Decider(w)
		if seat == sdk.NoSeat {
			return s.score(w, true), nil
		}
		if plies >= s.cfg.MaxPlies || s.cfg.Horizon > 0 && depth >= s.cfg.Horizon && s.eval != nil {
			return s.score(w, false), nil
		}
		var a sdk.Action
		if s.rollout != nil {
			a = s.rollout.RolloutMove(w, seat, rng)
		} else {
			moves := s.mover.Moves(w, seat)
			if len(moves) == 0 {
				return nil, fmt.Errorf("search: seat %d has no move in a simulated world", seat)
			}
			a = moves[rng.Intn("search", len(moves))]
		}
		nw, err := s.apply(w, a)
		if err != nil {
			return nil, err
		}
		w = nw
		plies++
	}
}

func (s *searcher[S]) apply(w S, a sdk.Action) (S, error) {
	s.plies++
	res, err := s.r.Apply(s.ctx, sdk.ApplyRequest[S]{State: w, Action: a})
	if err != nil {
		return w, fmt.Errorf("search: a simulated world refused %s of seat %d (a ruleset's Moves or RolloutMove is wrong): %w", a.Type, a.Seat, err)
	}
	return res.State, nil
}

// score is the reward of every seat at the end of a playout. A ruleset with an Evaluator says
// what a state is worth to each seat, also at the end of a round (in a game of several rounds the
// round's winner has not won the game: its points have brought it closer). Without one, the
// round's winner gets 1 and the others 0, and a cut playout is shared as a draw.
func (s *searcher[S]) score(w S, over bool) []float64 {
	if s.eval != nil {
		if e := s.eval.Evaluate(w); len(e) == s.seats {
			return e
		}
	}
	out := make([]float64, s.seats)
	if over {
		if win := s.r.Status(w).Winner; win >= 0 && win < s.seats {
			out[win] = 1
			return out
		}
	}
	for i := range out {
		out[i] = 1 / float64(s.seats)
	}
	return out
}

// Key is a move's identity in the search tree: two actions with the same key are the same move.
// It spells out every field of sdk.Action (Args in key order).
func Key(a sdk.Action) string {
	var b strings.Builder
	b.WriteString(a.Type)
	b.WriteByte('|')
	b.WriteString(strconv.Itoa(a.Seat))
	b.WriteByte('|')
	for _, c := range a.Cards {
		b.WriteString(c.String())
		b.WriteByte(' ')
	}
	b.WriteByte('|')
	b.WriteString(a.Color)
	b.WriteString(a.Suit)
	b.WriteByte('|')
	b.WriteString(a.From)
	b.WriteByte('|')
	if a.Target != nil {
		b.WriteString(strconv.Itoa(*a.Target))
	}
	b.WriteByte('|')
	if a.Index != nil {
		b.WriteString(strconv.Itoa(*a.Index))
	}
	if len(a.Args) > 0 {
		keys := make([]string, 0, len(a.Args))
		for k := range a.Args {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			b.WriteByte('|')
			b.WriteString(k + "=" + a.Args[k])
		}
	}
	return b.String()
}
