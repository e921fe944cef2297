package engine

import (
	"context"
	"fmt"

	"cardhouse/sdk"
)

// BotCall asks a ruleset's bot to choose for a seat. With a GameRef, State may be nil (ActRequest).
type BotCall struct {
	GameRef
	State []byte `json:"state"`
	Seat  int    `json:"seat"`
	Level int    `json:"level"`
	Seed  uint64 `json:"seed"`
}

// BotAnswer is the bot's choice; Action is nil when it does nothing now.
type BotAnswer struct {
	Action *sdk.Action `json:"action,omitempty"`
}

func (e *engine[S]) Bot(ctx context.Context, req *BotCall) (ans *BotAnswer, err error) {
	defer e.guard("bot", &err)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	bots, ok := e.r.(sdk.Bots)
	own, err := WhoPlays(e.info, ok, req.Level)
	if err != nil {
		return nil, err
	}
	s, env, err := e.resolve(ctx, req.GameRef, req.State)
	if err != nil {
		return nil, err
	}
	st := e.r.Status(s)
	if req.Seat < 0 || req.Seat >= st.Seats {
		return nil, &sdk.RuleError{Code: sdk.CodeBadAction, Reason: fmt.Sprintf("no seat %d in this %d-seat game", req.Seat, st.Seats)}
	}
	rng := sdk.NewRNG(req.Seed)
	var h *house[S]
	if len(env.HouseRules) > 0 {
		if h, err = e.house(ctx, env); err != nil {
			return nil, err
		}
		a, err := h.bot(ctx, s, req.Seat, &rng)
		if err != nil {
			return nil, houseErr(err)
		}
		if a != nil {
			return &BotAnswer{Action: a}, nil
		}
		if b := h.st.blocking(); b != nil {
			return &BotAnswer{}, nil // the game waits for another seat's house action
		}
	}
	br := sdk.BotRequest{Seat: req.Seat, Level: req.Level, View: e.r.View(s, req.Seat)}
	if h, ok := e.r.(sdk.Historian[S]); ok {
		br.History = h.History(s, req.Seat)
	}
	br.RNG = &rng
	var a *sdk.Action
	if own {
		a, err = bots.Bot(ctx, br)
	} else {
		a, err = GenericMove(br.View, req.Seat, &rng, e.accepts(ctx, s))
	}
	if err != nil {
		return nil, e.fail("bot", err)
	}
	if a != nil {
		a.Seat = req.Seat
		if h != nil {
			if a, err = h.vetBot(ctx, s, *a, br.View, &rng); err != nil {
				return nil, houseErr(err)
			}
		}
	}
	return &BotAnswer{Action: a}, nil
}
