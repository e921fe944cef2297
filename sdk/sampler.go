package sdk

// The optional extras below are what sdk/search needs to give a ruleset search bots (determinised
// Monte Carlo and information-set Monte Carlo tree search). They are small on purpose: a ruleset
// that can sample the cards a seat cannot see and list its legal moves gets strong bots for free.

// Sampler is an optional extra for search bots: Sample builds a full state consistent with what
// seat knows (its view and the history its seat has seen): View(sampled, seat) equals view, and
// the cards seat cannot see are dealt at random (with rng) among the places it cannot see. It
// reads nothing but its arguments, so a bot built on it cannot cheat (L-11). The sampled state's
// own RNG must be seeded from rng, not copied from anywhere else: a sampled world must not know
// the real game's future shuffles. It returns an error when view holds no game in play.
type Sampler[S any] interface {
	Sample(seat int, view View, history []Event, rng *RNG) (S, error)
}

// Mover is an optional extra for search bots: the moves of a state spelled out, for simulations
// that run on the ruleset's own state type (no JSON, no views per step).
type Mover[S any] interface {
	// Decider is the seat whose decision a simulated play of state asks for next, or NoSeat when
	// the round is over (a terminal of the search). A ruleset whose status names several actors
	// picks the one a simulation should ask (usually the seat in turn).
	Decider(state S) int
	// Moves lists the legal actions of seat in state, each complete (Seat set, cards, colour or
	// suit named) so that Apply accepts it, in an order that depends on state alone. A ruleset
	// may leave out moves no sensible player makes (forgetting to call "Last card!").
	Moves(state S, seat int) []Action
}

// Rollout is an optional extra for search bots: a cheap default policy for the simulated part of
// a playout. It may read the whole (sampled) state: in a sampled world nothing is secret. Without
// it the search plays uniformly random moves.
type Rollout[S any] interface {
	RolloutMove(state S, seat int, rng *RNG) Action
}

// Evaluator is an optional extra for search bots: Evaluate estimates, for each seat, its chance of
// winning the game from state (each in [0, 1]), from the whole state. The search scores the end of
// every playout with it: a playout cut short (Config.Horizon), and also a finished round, so a
// game of several rounds can value a round by the scores it leaves; for a game that is over it
// must give the winner 1 and the others 0. Without it, a round's winner scores 1.
type Evaluator[S any] interface {
	Evaluate(state S) []float64
}
