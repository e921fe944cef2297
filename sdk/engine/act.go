package engine

import (
	"context"
	"fmt"

	"cardhouse/sdk"
)

// ActRequest applies an action to a state through an Engine.
type ActRequest struct {
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
}

func (e *engine[S]) Act(ctx context.Context, req *ActRequest) (step *Step, err error) {
	defer e.guard("act", &err)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s, env, err := e.decode(req.State)
	if err != nil {
		return nil, err
	}
	before := e.r.Cards(s)
	var res sdk.ApplyResponse[S]
	var hs *houseState
	if len(env.HouseRules) > 0 {
		h, err := e.house(ctx, env)
		if err != nil {
			return nil, err
		}
		if res.State, res.Events, err = h.act(ctx, s, req); err != nil {
			return nil, houseErr(err)
		}
		hs = h.st
	} else if res, err = e.r.Apply(ctx, sdk.ApplyRequest[S]{State: s, Action: req.Action, Now: req.Now}); err != nil {
		return nil, e.fail("act", err)
	}
	if diff := sdk.CardDiff(before, e.r.Cards(res.State)); diff != "" {
		return nil, &sdk.FailureError{Ruleset: e.info.ID, Op: "act", Err: fmt.Errorf("%s action of seat %d broke the card invariant: %s", req.Action.Type, req.Action.Seat, diff)}
	}
	blob, err := e.encode(res.State, env.HouseRules, hs)
	if err != nil {
		return nil, err
	}
	e.cache.drop(req.State) // the host goes on from blob (and decodes req.State again should it retry)
	st := e.step(res.State, blob, res.Events, false, hs)
	if !req.NoViews {
		st.Views, st.Spectator = e.views(res.State, st.Status.Seats, res.Events, hs, !req.NoSpectator, req.ViewBuf)
	}
	return st, nil
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
