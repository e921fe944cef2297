package engine

import (
	"context"
	"fmt"

	"cardhouse/sdk"
)

// ActRequest applies an action to a state through an Engine.
//
// With a GameRef (a sticky engine: Description.Sticky), State may be nil: the engine then uses its
// copy of the game after Seq actions, or fails with ErrNeedState. The zero GameRef, OmitState and
// DryRun are a call as to any engine: State is the state and the step carries the new one.
type ActRequest struct {
	GameRef
	State   []byte     `json:"state"`
	Action  sdk.Action `json:"action"`
	Now     int64      `json:"now"`
	NoViews bool       `json:"no_views,omitempty"`
	// NoSpectator skips the spectators' view (Step.Spectator is nil): nobody watches. The seats'
	// views still come unless NoViews.
	NoSpectator bool `json:"no_spectator,omitempty"`
	// ViewBuf, when its capacity is enough, is where the step's views are written, from its start
	// (else, and when it is nil, the engine makes a buffer). A caller that reuses buffers passes
	// one and must not reuse it while it still holds the step's views: the plugin server does,
	// and so does a platform room, whose plugin client (sdk/plugin, on its socket channel) moves
	// the reply's views into it. It never crosses the plugin boundary; other Engines, and the
	// plugin client's other transports, may ignore it.
	ViewBuf []byte `json:"-"`
	// OmitState (with a GameRef) leaves Step.State nil unless the step's phase is not Phase: a
	// host stores a state only every few actions and at every phase change, and keeps the
	// actions in between to send as a Tail should the engine lose its copy.
	OmitState bool   `json:"omit_state,omitempty"`
	Phase     string `json:"phase,omitempty"`
	// DryRun (with a GameRef) is a check: the step is not the game's, and the engine's copy stays
	// the game after Seq actions.
	DryRun bool `json:"dry_run,omitempty"`
	// Patches (with a GameRef) asks for Step.Patches: some viewer takes patches. The engine keeps
	// the views either way, so that the step after can patch them.
	Patches bool `json:"patches,omitempty"`
	// PatchesOnly (with Patches) leaves the views out of a step that carries the patch of every
	// view asked for (Step.Patches, and Step.SpectatorPatch unless NoSpectator), none of them as
	// large as a view: Step.Views and Step.Spectator are then nil and Step.Actions holds each
	// seat's open actions, which is all a host that keeps the views as the patches make them needs
	// with every action. Any other step (the engine kept no views to patch from, a view cannot be
	// patched, a patch is as large as a view) carries the full views as without it.
	PatchesOnly bool `json:"patches_only,omitempty"`
	// Trace asks for every house-rule hook call of the step in Step.House (a rule author's
	// `rules check --trace`); what the rules print comes either way.
	Trace bool `json:"trace,omitempty"`
}

func (e *engine[S]) Act(ctx context.Context, req *ActRequest) (step *Step, err error) {
	defer e.guard("act", &err)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// The views the game's copy was kept with, read before the call replaces it: the patches'
	// base (none when the host sends the state: its copy was lost).
	var prev *keptViews
	if req.Game != "" && len(req.State) == 0 && req.Patches {
		prev = e.games.views(req.Game, req.Seq)
	}
	s, env, err := e.resolve(ctx, req.GameRef, req.State)
	if err != nil {
		return nil, err
	}
	next, events, hs, err := e.apply(ctx, s, env, req.Action, req.Now, req.Trace)
	if err != nil {
		return nil, err
	}
	sticky := req.Game != ""
	st := &Step{Events: events, Status: e.r.Status(next), House: hs.takeReport()}
	hs.decorateStatus(&st.Status)
	house := len(env.HouseRules) > 0 || hs != nil
	// The stored form is written when the host takes it, and for a game with house rules, whose
	// copy is kept in that form.
	omit := sticky && req.OmitState && st.Status.Phase == req.Phase
	var blob []byte
	if !omit || (house && !req.DryRun) {
		if blob, err = e.encode(next, env.HouseRules, hs, !sticky); err != nil {
			return nil, err
		}
	}
	if !omit {
		st.State = blob
	}
	// A game without house rules keeps its views with its state: the next step patches them (a
	// dry run's are patched from the game's too, and kept by nobody).
	keep := sticky && !house && !req.NoViews && st.Status.Phase != sdk.PhaseGameOver
	var kept *keptViews
	if !req.NoViews {
		made := e.makeViews(next, st.Status.Seats, events, hs, !req.NoSpectator)
		if keep && req.Patches && len(req.State) == 0 {
			st.Patches, st.SpectatorPatch = prev.patches(made)
		}
		if req.PatchesOnly && e.patchesSuffice(st, made) {
			st.Actions = made.actions()
		} else {
			st.Views, st.Spectator = e.encodeViews(made, req.ViewBuf)
		}
		if keep && !req.DryRun {
			kept = made
		}
	}
	switch {
	case !sticky:
		e.cache.drop(req.State) // the host goes on from blob (and decodes req.State again should it retry)
	case req.DryRun:
	case st.Status.Phase == sdk.PhaseGameOver:
		e.games.forget(req.Game) // nothing follows the end: a host that asks again sends the state
	default:
		e.remember(req.Game, req.Seq+1, next, envelope{Ruleset: e.info.ID, Version: e.info.StateVersion, HouseRules: env.HouseRules, House: hs}, blob, kept)
	}
	return st, nil
}

// apply is one action on a decoded state, with the game's house rules, checked for the card
// invariant: the new state, its events and the house rules' memory after it (nil without house
// rules), whose report holds what the hooks printed (and with trace every hook call). A refusal
// wraps *sdk.RuleError.
func (e *engine[S]) apply(ctx context.Context, s S, env envelope, a sdk.Action, now int64, trace bool) (S, []sdk.Event, *houseState, error) {
	before := e.r.Cards(s)
	var res sdk.ApplyResponse[S]
	var hs *houseState
	if len(env.HouseRules) > 0 {
		h, err := e.house(ctx, env)
		if err != nil {
			return s, nil, nil, err
		}
		h.st.trace = trace
		if res.State, res.Events, err = h.act(ctx, s, &ActRequest{Action: a, Now: now}); err != nil {
			return s, nil, nil, houseActErr(err)
		}
		hs = h.st
	} else {
		var err error
		if res, err = e.r.Apply(ctx, sdk.ApplyRequest[S]{State: s, Action: a, Now: now}); err != nil {
			return s, nil, nil, e.fail("act", err)
		}
	}
	if diff := sdk.CardDiff(before, e.r.Cards(res.State)); diff != "" {
		return s, nil, nil, &sdk.FailureError{Ruleset: e.info.ID, Op: "act", Err: fmt.Errorf("%s action of seat %d broke the card invariant: %s", a.Type, a.Seat, diff)}
	}
	return res.State, res.Events, hs, nil
}

// house readies the house rules a stored game started with. A game whose rules cannot run here
// (no runner, a script that no longer compiles) is a ruleset failure: the host pauses it.
func (e *engine[S]) house(ctx context.Context, env envelope) (*house[S], error) {
	st := env.House
	if st == nil {
		st = &houseState{}
	}
	h, err := e.openHouse(ctx, env.HouseRules, st)
	if err != nil {
		return nil, &sdk.FailureError{Ruleset: e.info.ID, Op: "house rules", Err: err}
	}
	return h, nil
}
