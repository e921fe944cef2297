package search

import (
	"context"
	"fmt"
	"time"

	"cardhouse/sdk"
)

// Generic bot levels 3 to 5 for any ruleset that implements sdk.Sampler and sdk.Mover: flat
// determinised Monte Carlo with common random numbers, each level with a larger node budget.
// Level 5 keeps a move under 300 ms on one core (its time budget) and reaches its node budget
// well before that on the built-in variants, so its choices normally depend on its inputs alone.
var levels = map[int]Config{
	3: {Iterations: 60, Time: 60 * time.Millisecond},
	4: {Iterations: 240, Time: 150 * time.Millisecond},
	5: {Iterations: 900, Time: 280 * time.Millisecond},
}

// Level returns the search Config of a generic bot level (3, 4 or 5) and whether there is one.
func Level(level int) (Config, bool) {
	c, ok := levels[level]
	return c, ok
}

// Bot is a generic search bot: for the seat the view names in turn, Search with the Config of
// req.Level and fallback's move as its Default (a ruleset's own heuristic, which may return nil),
// so the search departs from the heuristic only where its simulations show a better move with
// confidence; for any other seat, or when the search cannot run, fallback's move. It reads only
// req (L-11).
func Bot[S any](ctx context.Context, r sdk.Ruleset[S], req sdk.BotRequest, fallback func() (*sdk.Action, error)) (*sdk.Action, error) {
	cfg, ok := Level(req.Level)
	if !ok {
		return fallback()
	}
	return BotWith(ctx, r, req, cfg, fallback)
}

// BotWith is Bot with the variant's own Config for the level (its budgets, its Confidence), for a
// ruleset whose levels need other budgets than Level's to be told apart: cfg.Default is set to
// fallback's move.
func BotWith[S any](ctx context.Context, r sdk.Ruleset[S], req sdk.BotRequest, cfg Config, fallback func() (*sdk.Action, error)) (*sdk.Action, error) {
	if req.View.Turn != req.Seat || !Searchable(r) {
		return fallback()
	}
	h, err := fallback()
	if err != nil {
		return nil, err
	}
	cfg.Default = h
	res, err := Search(ctx, r, req, cfg)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return h, nil
	}
	a := res.Action
	return &a, nil
}

// BotLevels are the levels Bots plays by search, those Level knows: 3, 4 and 5.
func BotLevels() []int { return []int{3, 4, 5} }

// HeuristicLevel is the level Bots asks its heuristic at for a search level's default move (and
// for a seat the search does not decide for): the level below the searches, as Hotspot and DRUGS
// start their searches from their level 2.
const HeuristicLevel = 2

// Bots offers a ruleset's search levels in one call: bots that play levels 3 to 5 (BotLevels)
// with Bot and the Config of Level, each keeping heuristic's move (asked at HeuristicLevel) as the
// default a search departs from only with confidence, and every other level with heuristic
// itself. The hooks it uses are the ruleset's: sdk.Sampler and sdk.Mover (required: Searchable),
// and, when r has them, sdk.Rollout (the playouts' policy), sdk.Evaluator (the playouts' score),
// Simulator (faster playouts) and, through the engine, sdk.Historian (the history Sample reads).
//
// heuristic may be nil: the searches then have no default move; a seat the search does not decide
// for (not the view's seat in turn) plays a random move of Mover.Moves in a world sampled from its
// view (nil when it has none); and any level but 3 to 5 is refused (sdk.CodeNotAvailable), which
// leaves level 1 to the engine's generic bot. A ruleset declares the levels it plays,
//
//	BotLevels: search.BotLevels(), // or append([]int{1, 2}, search.BotLevels()...) with a heuristic
//
// and answers sdk.Bots with the result: func (r *Rules) Bot(ctx, req) { return search.Bots(r,
// nil).Bot(ctx, req) }. The searches read only the request (L-11).
func Bots[S any](r sdk.Ruleset[S], heuristic sdk.Bots) sdk.Bots {
	return searchBots[S]{r: r, heuristic: heuristic}
}

type searchBots[S any] struct {
	r         sdk.Ruleset[S]
	heuristic sdk.Bots
}

func (b searchBots[S]) Bot(ctx context.Context, req sdk.BotRequest) (*sdk.Action, error) {
	if _, ok := Level(req.Level); !ok {
		if b.heuristic == nil {
			return nil, sdk.Refuse(sdk.CodeNotAvailable, "%s has no bot of level %d (its search levels are %v)", b.r.Info().Name, req.Level, BotLevels())
		}
		return b.heuristic.Bot(ctx, req)
	}
	if !Searchable(b.r) {
		return nil, fmt.Errorf("%s offers search levels but %w", b.r.Info().Name, ErrNotSearchable)
	}
	if req.RNG == nil {
		g := sdk.NewRNG(uint64(req.Seat) + 1)
		req.RNG = &g
	}
	return Bot(ctx, b.r, req, func() (*sdk.Action, error) {
		if b.heuristic != nil {
			h := req
			h.Level = HeuristicLevel
			return b.heuristic.Bot(ctx, h)
		}
		return sampledMove(b.r, req)
	})
}

// sampledMove is a random move of req's seat in a world sampled from its view and history: one of
// Mover.Moves, which are legal in the sampled world and so, as they depend on what the seat can
// see, in the real one; nil when the seat has none or no world can be sampled (no game in play).
func sampledMove[S any](r sdk.Ruleset[S], req sdk.BotRequest) (*sdk.Action, error) {
	if len(req.View.Actions) == 0 {
		return nil, nil
	}
	world, err := r.(sdk.Sampler[S]).Sample(req.Seat, req.View, req.History, req.RNG)
	if err != nil {
		return nil, nil
	}
	moves := r.(sdk.Mover[S]).Moves(world, req.Seat)
	if len(moves) == 0 {
		return nil, nil
	}
	a := moves[req.RNG.Intn("bot", len(moves))]
	return &a, nil
}
