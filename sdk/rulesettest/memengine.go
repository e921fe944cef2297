package rulesettest

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"sync"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
)

// memEngine is an in-process engine.Engine that keeps states as Go values: its state "bytes" are a
// handle to one of the last memStates states. It skips the JSON codec that dominates the cost of
// engine.New, so Run's bot playouts (thousands of steps) stay fast; the real engine is still
// checked by the random playouts and the determinism replay. Like engine.New it validates
// options, recovers panics as failures and checks the cards after every action.
type memEngine[S any] struct {
	r    sdk.Ruleset[S]
	info sdk.Info

	mu     sync.Mutex
	states map[uint64]S
	order  []uint64
	next   uint64
}

// memStates is how many recent states a memEngine keeps: a playout only reads its current state
// and the one before it.
const memStates = 64

func newMemEngine[S any](r sdk.Ruleset[S]) *memEngine[S] {
	return &memEngine[S]{r: r, info: r.Info(), states: map[uint64]S{}}
}

func (m *memEngine[S]) put(s S) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.next++
	m.states[m.next] = s
	m.order = append(m.order, m.next)
	if len(m.order) > memStates {
		delete(m.states, m.order[0])
		m.order = m.order[1:]
	}
	return binary.BigEndian.AppendUint64(nil, m.next)
}

func (m *memEngine[S]) get(b []byte) (S, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var zero S
	if len(b) != 8 {
		return zero, &sdk.FailureError{Ruleset: m.info.ID, Op: "decode state", Err: fmt.Errorf("not a state handle")}
	}
	s, ok := m.states[binary.BigEndian.Uint64(b)]
	if !ok {
		return zero, &sdk.FailureError{Ruleset: m.info.ID, Op: "decode state", Err: fmt.Errorf("state %x is no longer kept", b)}
	}
	return s, nil
}

func (m *memEngine[S]) guard(op string, err *error) {
	if p := recover(); p != nil {
		*err = &sdk.FailureError{Ruleset: m.info.ID, Op: op, Err: fmt.Errorf("panic: %v\n%s", p, debug.Stack())}
	}
}

func (m *memEngine[S]) fail(op string, err error) error {
	if _, ok := sdk.AsRefusal(err); ok {
		return err
	}
	return &sdk.FailureError{Ruleset: m.info.ID, Op: op, Err: err}
}

func (m *memEngine[S]) Describe(ctx context.Context) (*engine.Description, error) {
	d := &engine.Description{Info: m.info, SDKVersion: sdk.Version}
	_, bots := m.r.(sdk.Bots)
	d.BotLevels = engine.Levels(m.info, bots)
	return d, ctx.Err()
}

func (m *memEngine[S]) NewGame(ctx context.Context, req *engine.NewGameRequest) (st *engine.Step, err error) {
	defer m.guard("start", &err)
	opts, err := sdk.CheckOptions(m.info, m.r, req.Seats, req.Options)
	if err != nil {
		return nil, &sdk.RuleError{Code: sdk.CodeBadOption, Reason: err.Error()}
	}
	rng := sdk.NewRNG(req.Seed)
	for label, vals := range req.Forced {
		rng.Force(label, vals...)
	}
	s, err := m.r.Start(ctx, sdk.StartRequest{Seats: req.Seats, Options: opts, Seed: req.Seed, HouseRules: req.HouseRules,
		Deal: req.Deal, RNG: rng, Opener: req.Opener, Now: req.Now})
	if err != nil {
		return nil, m.fail("start", err)
	}
	return m.step(s, nil, !req.NoViews), nil
}

func (m *memEngine[S]) Act(ctx context.Context, req *engine.ActRequest) (st *engine.Step, err error) {
	defer m.guard("act", &err)
	s, err := m.get(req.State)
	if err != nil {
		return nil, err
	}
	before := m.r.Cards(s)
	res, err := m.r.Apply(ctx, sdk.ApplyRequest[S]{State: s, Action: req.Action, Now: req.Now})
	if err != nil {
		return nil, m.fail("act", err)
	}
	if d := sdk.CardDiff(before, m.r.Cards(res.State)); d != "" {
		return nil, &sdk.FailureError{Ruleset: m.info.ID, Op: "act", Err: fmt.Errorf("%s action of seat %d broke the card invariant: %s", req.Action.Type, req.Action.Seat, d)}
	}
	return m.step(res.State, res.Events, !req.NoViews), nil
}

func (m *memEngine[S]) Inspect(ctx context.Context, req *engine.InspectRequest) (in *engine.Inspection, err error) {
	defer m.guard("inspect", &err)
	s, err := m.get(req.State)
	if err != nil {
		return nil, err
	}
	in = &engine.Inspection{Status: m.r.Status(s), Observation: m.r.Observe(s), Cards: m.r.Cards(s)}
	if req.Views {
		in.Views, in.Spectator = m.views(s, in.Status.Seats, nil)
	}
	return in, nil
}

func (m *memEngine[S]) Bot(ctx context.Context, req *engine.BotCall) (ans *engine.BotAnswer, err error) {
	defer m.guard("bot", &err)
	bots, ok := m.r.(sdk.Bots)
	own, err := engine.WhoPlays(m.info, ok, req.Level)
	if err != nil {
		return nil, err
	}
	s, err := m.get(req.State)
	if err != nil {
		return nil, err
	}
	br := sdk.BotRequest{Seat: req.Seat, Level: req.Level, View: m.r.View(s, req.Seat)}
	if h, ok := m.r.(sdk.Historian[S]); ok {
		br.History = h.History(s, req.Seat)
	}
	rng := sdk.NewRNG(req.Seed)
	br.RNG = &rng
	var a *sdk.Action
	if own {
		a, err = bots.Bot(ctx, br)
	} else {
		a, err = engine.GenericMove(br.View, req.Seat, &rng, func(a sdk.Action) (bool, error) {
			_, err := m.r.Apply(ctx, sdk.ApplyRequest[S]{State: s, Action: a})
			if _, refused := sdk.AsRefusal(err); refused || err == nil {
				return err == nil, nil
			}
			return false, err
		})
	}
	if err != nil {
		return nil, m.fail("bot", err)
	}
	if a != nil {
		a.Seat = req.Seat
	}
	return &engine.BotAnswer{Action: a}, nil
}

func (m *memEngine[S]) step(s S, events []sdk.Event, views bool) *engine.Step {
	st := &engine.Step{State: m.put(s), Events: events, Status: m.r.Status(s)}
	if views {
		st.Views, st.Spectator = m.views(s, st.Status.Seats, events)
	}
	return st
}

func (m *memEngine[S]) views(s S, seats int, events []sdk.Event) ([][]byte, []byte) {
	one := func(viewer int) []byte {
		v := m.r.View(s, viewer)
		v.Viewer = viewer
		if v.Ruleset == "" {
			v.Ruleset = m.info.ID
		}
		for _, ev := range events {
			v.Events = append(v.Events, ev.For(viewer))
		}
		b, err := json.Marshal(v)
		if err != nil {
			panic(fmt.Sprintf("encoding the view of %d: %v", viewer, err))
		}
		return b
	}
	out := make([][]byte, seats)
	for i := range out {
		out[i] = one(i)
	}
	return out, one(sdk.Spectator)
}
