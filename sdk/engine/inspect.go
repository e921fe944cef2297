package engine

import (
	"context"

	"cardhouse/sdk"
)

// InspectRequest reads a state through an Engine. With a GameRef, State may be nil (ActRequest).
type InspectRequest struct {
	GameRef
	State []byte `json:"state"`
	Views bool   `json:"views,omitempty"`
}

// Inspection is what Inspect reads from a state.
type Inspection struct {
	Status      sdk.Status      `json:"status"`
	Observation sdk.Observation `json:"observation"`
	Cards       []sdk.Card      `json:"cards"`
	Views       [][]byte        `json:"views,omitempty"`
	Spectator   []byte          `json:"spectator,omitempty"`
}

func (e *engine[S]) Inspect(ctx context.Context, req *InspectRequest) (in *Inspection, err error) {
	defer e.guard("inspect", &err)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s, env, err := e.resolve(ctx, req.GameRef, req.State)
	if err != nil {
		return nil, err
	}
	in = &Inspection{Status: e.r.Status(s), Observation: e.r.Observe(s), Cards: e.r.Cards(s)}
	env.House.decorateStatus(&in.Status)
	if req.Views {
		in.Views, in.Spectator = e.views(s, in.Status.Seats, nil, env.House, true, nil)
	}
	return in, nil
}
