package engine

import (
	"context"
	"fmt"

	"cardhouse/sdk"
)

// NewGameRequest starts a game through an Engine.
type NewGameRequest struct {
	Seats      int                 `json:"seats"`
	Options    map[string]any      `json:"options,omitempty"`
	Seed       uint64              `json:"seed"`
	HouseRules []sdk.HouseRule     `json:"house_rules,omitempty"`
	Deal       *sdk.Deal           `json:"deal,omitempty"`
	Forced     map[string][]string `json:"forced,omitempty"`
	Opener     *int                `json:"opener,omitempty"`
	Now        int64               `json:"now"`
	// NoViews skips the views (scenario runs, playouts).
	NoViews bool `json:"no_views,omitempty"`
	// Trace asks for every house-rule hook call of the start in Step.House (ActRequest.Trace).
	Trace bool `json:"trace,omitempty"`
	// Game, for a sticky engine (Description.Sticky), is the key (GameRef.Game) under which the
	// engine keeps the new game, after 0 actions.
	Game string `json:"game,omitempty"`
}

func (e *engine[S]) NewGame(ctx context.Context, req *NewGameRequest) (step *Step, err error) {
	defer e.guard("start", &err)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	opts, err := sdk.CheckOptions(e.info, e.r, req.Seats, req.Options)
	if err != nil {
		return nil, &sdk.RuleError{Code: sdk.CodeBadOption, Reason: err.Error()}
	}
	rules := req.HouseRules
	var h *house[S]
	if len(rules) > 0 {
		// Checked before the ruleset starts: a game with a house rule that cannot run never starts.
		if h, err = e.prepareHouse(ctx, req); err != nil {
			return nil, houseErr(err)
		}
		rules = h.rules
	}
	rng := sdk.NewRNG(req.Seed)
	for label, vals := range req.Forced {
		rng.Force(label, vals...)
	}
	s, err := e.r.Start(ctx, sdk.StartRequest{
		Seats: req.Seats, Options: opts, Seed: req.Seed, HouseRules: rules,
		Deal: req.Deal, RNG: rng, Opener: req.Opener, Now: req.Now,
	})
	if err != nil {
		return nil, e.fail("start", err)
	}
	var events []sdk.Event
	var hs *houseState
	if h != nil {
		// A failing start hook refuses the start: the host sees why and can disable the rule.
		before := e.r.Cards(s)
		h.st.trace = req.Trace
		if s, events, err = h.start(ctx, s); err != nil {
			return nil, houseErr(err)
		}
		if diff := sdk.CardDiff(before, e.r.Cards(s)); diff != "" {
			return nil, &sdk.FailureError{Ruleset: e.info.ID, Op: "start", Err: fmt.Errorf("house rules' start broke the card invariant: %s", diff)}
		}
		hs = h.st
	}
	blob, err := e.encode(s, rules, hs, req.Game == "")
	if err != nil {
		return nil, err
	}
	if req.Game != "" {
		e.remember(req.Game, 0, s, envelope{Ruleset: e.info.ID, Version: e.info.StateVersion, HouseRules: rules, House: hs}, blob, nil)
	}
	st := e.step(s, blob, events, !req.NoViews, hs)
	st.House = hs.takeReport()
	return st, nil
}
