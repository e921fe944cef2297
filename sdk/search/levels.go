package search

import (
	"context"
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
	if !ok || req.View.Turn != req.Seat || !Searchable(r) {
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
