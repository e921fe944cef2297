package rulesettest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
)

// StickyConfig is a run of CheckSticky.
type StickyConfig struct {
	// Game is the game to play; each game of the run gets its own Seed from it.
	Game  engine.NewGameRequest
	Games int // default 3
	// MaxActions ends a game that has not ended by then (default 400).
	MaxActions int
	// StateEvery is how often the host takes the state back besides the phase changes (default 5).
	StateEvery int
	// Level is the bots' level (default 1).
	Level int
	// Fresh returns an engine holding no game: it checks that a call with the host's stored state
	// and tail gives what the engine's copy gave.
	Fresh func() engine.Engine
	// Restart, called at random moments, makes e lose every game it holds (a new in-process
	// engine, a plugin process killed) and returns the engine to go on with.
	Restart func(tb testing.TB, e engine.Engine) engine.Engine
	// Retry says whether a failed call is tried again (up to eight times), as a host does after a
	// plugin crash.
	Retry func(error) bool
	// Seed drives the random choices of the run (which seat acts, when to restart).
	Seed uint64
}

// CheckSticky plays bot games through a sticky engine (engine.Description.Sticky) as a host does:
// each call names the game and its action count and carries no state, the state comes back only
// every StateEvery actions and at phase changes, and when the engine says it does not hold the
// game (engine.ErrNeedState) the host sends the state it stored last and the actions since. Every
// step (events, status, every view, the state when it comes back), bot choice, check and
// inspection must be byte for byte what ref gives from the whole state bytes; so must the same
// call to a fresh engine given the stored state and the tail. A copy one action ahead (a step the
// host did not keep: a failed commit) or behind must not be taken for the game's state.
func CheckSticky(tb testing.TB, sticky, ref engine.Engine, cfg StickyConfig) {
	tb.Helper()
	cfg = cfg.withDefaults()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x5717c))
	if d, err := sticky.Describe(ctx); err != nil || !d.Sticky {
		tb.Fatalf("the engine is not sticky (description %+v, %v)", d, err)
	}
	h := &stickyHost{tb: tb, e: sticky, cfg: cfg}
	for g := range cfg.Games {
		req := cfg.Game
		req.Seed = cfg.Game.Seed + uint64(g)*7919
		h.play(ctx, ref, &req, fmt.Sprintf("game %d (seed %d)", g+1, req.Seed), rng)
	}
	if h.restarts > 0 && h.misses == 0 {
		tb.Errorf("%d restarts and no call answered ErrNeedState", h.restarts)
	}
	tb.Logf("sticky: %d actions, %d restarts, %d calls answered ErrNeedState", h.actions, h.restarts, h.misses)
}

// maxTries bounds the tries of one call that fails as StickyConfig.Retry allows.
const maxTries = 8

func (c StickyConfig) withDefaults() StickyConfig {
	if c.Games <= 0 {
		c.Games = 3
	}
	if c.MaxActions <= 0 {
		c.MaxActions = 400
	}
	if c.StateEvery <= 0 {
		c.StateEvery = 5
	}
	if c.Level <= 0 {
		c.Level = 1
	}
	if c.Retry == nil {
		c.Retry = func(error) bool { return false }
	}
	return c
}

// stickyHost holds one game as a host does: the state it stored last (base, after storedSeq
// actions) and the actions since (tail).
type stickyHost struct {
	tb  testing.TB
	e   engine.Engine
	cfg StickyConfig

	key       string
	seq       int
	storedSeq int
	base      []byte
	tail      []engine.Logged
	phase     string

	actions, restarts, misses int
}

// with runs call by name, then with the stored state and tail if the engine asks; a call that
// fails as Retry allows is tried again.
func (h *stickyHost) with(call func(state []byte, ref engine.GameRef) error) error {
	var err error
	for range maxTries {
		ref := engine.GameRef{Game: h.key, Seq: h.seq}
		if err = call(nil, ref); errors.Is(err, engine.ErrNeedState) {
			h.misses++
			ref.Tail = h.tail
			err = call(h.base, ref)
		}
		if err == nil || !h.cfg.Retry(err) {
			return err
		}
	}
	return err
}

func (h *stickyHost) play(ctx context.Context, ref engine.Engine, req *engine.NewGameRequest, name string, rng *rand.Rand) {
	tb := h.tb
	want, err := ref.NewGame(ctx, req)
	if err != nil {
		tb.Fatalf("%s: starting it: %v", name, err)
	}
	h.key, h.seq, h.storedSeq, h.tail = fmt.Sprintf("%s/%d", name, rng.Uint64()), 0, 0, nil
	sreq := *req
	sreq.Game = h.key
	var got *engine.Step
	if err := h.retry(func() (err error) { got, err = h.e.NewGame(ctx, &sreq); return err }); err != nil {
		tb.Fatalf("%s: starting it by name: %v", name, err)
	}
	if d := stepDiff(want, got, true); d != "" {
		tb.Fatalf("%s: the start differs: %s", name, d)
	}
	full := want.State // the reference's state after h.seq actions
	h.base, h.phase = got.State, got.Status.Phase
	status := want.Status
	now := req.Now
	for h.seq < h.cfg.MaxActions && status.Phase != sdk.PhaseGameOver {
		at := fmt.Sprintf("%s, after %d actions", name, h.seq)
		if rng.IntN(10) == 0 && h.cfg.Restart != nil {
			h.e = h.cfg.Restart(tb, h.e)
			h.restarts++
		}
		a, ok := h.choose(ctx, ref, full, status, at, rng)
		if !ok {
			break
		}
		if a.Seat == sdk.Clock {
			for _, d := range status.Deadlines {
				if d.ID == a.Deadline {
					now = max(now, d.At)
				}
			}
		}
		now++
		h.check(ctx, ref, full, a, now, at)
		// A copy the engine holds that is not the game after h.seq actions is never taken for it.
		for _, seq := range []int{h.seq + 1, h.seq - 1} {
			if seq < 0 {
				continue
			}
			_, err := h.e.Act(ctx, &engine.ActRequest{GameRef: engine.GameRef{Game: h.key, Seq: seq}, Action: a, Now: now, NoViews: true})
			if !errors.Is(err, engine.ErrNeedState) && !h.cfg.Retry(err) {
				tb.Fatalf("%s: a call naming the game after %d actions got %v, want engine.ErrNeedState", at, seq, err)
			}
		}
		if rng.IntN(8) == 0 {
			// A step the host does not keep (its commit failed): the engine's copy goes one
			// action ahead, and the next call must not use it.
			_ = h.with(func(state []byte, r engine.GameRef) error {
				_, err := h.e.Act(ctx, &engine.ActRequest{GameRef: r, State: state, Action: a, Now: now, NoViews: true})
				return err
			})
		}
		want, err := ref.Act(ctx, &engine.ActRequest{State: full, Action: a, Now: now})
		if err != nil {
			tb.Fatalf("%s: the reference refused its own bot's %s of seat %d: %v", at, a.Type, a.Seat, err)
		}
		due := h.seq+1-h.storedSeq >= h.cfg.StateEvery
		act := func(e engine.Engine, state []byte, r engine.GameRef) (*engine.Step, error) {
			return e.Act(ctx, &engine.ActRequest{GameRef: r, State: state, Action: a, Now: now, OmitState: !due, Phase: h.phase})
		}
		var got *engine.Step
		if err := h.with(func(state []byte, r engine.GameRef) (err error) { got, err = act(h.e, state, r); return err }); err != nil {
			tb.Fatalf("%s: %s of seat %d: %v", at, a.Type, a.Seat, err)
		}
		if d := stepDiff(want, got, false); d != "" {
			tb.Fatalf("%s: %s of seat %d differs from the reference's: %s", at, a.Type, a.Seat, d)
		}
		stores := due || got.Status.Phase != h.phase
		if stores != (got.State != nil) {
			tb.Fatalf("%s: the host stores a state here: %v; the step carries one: %v", at, stores, got.State != nil)
		}
		if h.cfg.Fresh != nil && rng.IntN(3) == 0 {
			r := engine.GameRef{Game: h.key + "/fresh", Seq: h.seq, Tail: h.tail}
			cold, err := act(h.cfg.Fresh(), h.base, r)
			if err != nil {
				tb.Fatalf("%s: a fresh engine given the stored state and %d actions: %v", at, len(h.tail), err)
			}
			if d := stepDiff(want, cold, false); d != "" {
				tb.Fatalf("%s: a fresh engine given the stored state and %d actions differs: %s", at, len(h.tail), d)
			}
		}
		h.seq++
		h.actions++
		if got.State != nil {
			h.base, h.tail, h.storedSeq = got.State, nil, h.seq
		} else {
			h.tail = append(h.tail, engine.Logged{Action: a, Now: now})
		}
		full, status, h.phase = want.State, want.Status, got.Status.Phase
	}
	wantIn, err := ref.Inspect(ctx, &engine.InspectRequest{State: full, Views: true})
	if err != nil {
		tb.Fatalf("%s: inspecting the end: %v", name, err)
	}
	var gotIn *engine.Inspection
	if err := h.with(func(state []byte, r engine.GameRef) (err error) {
		gotIn, err = h.e.Inspect(ctx, &engine.InspectRequest{GameRef: r, State: state, Views: true})
		return err
	}); err != nil {
		tb.Fatalf("%s: inspecting the end by name: %v", name, err)
	}
	if d := inspectionDiff(wantIn, gotIn); d != "" {
		tb.Fatalf("%s: the end differs: %s", name, d)
	}
}

func (h *stickyHost) retry(f func() error) error {
	var err error
	for range maxTries {
		if err = f(); err == nil || !h.cfg.Retry(err) {
			return err
		}
	}
	return err
}

// choose is the next action: the host's deal between rounds, else a bot's for one of the
// actors (the same from the engine's copy as from the bytes), else the clock's for a deadline.
func (h *stickyHost) choose(ctx context.Context, ref engine.Engine, full []byte, st sdk.Status, at string, rng *rand.Rand) (sdk.Action, bool) {
	if st.Phase == sdk.PhaseRoundOver {
		return sdk.Action{Seat: sdk.Host, Type: sdk.ActDeal}, true
	}
	actors := append([]int(nil), st.Actors...)
	rng.Shuffle(len(actors), func(i, j int) { actors[i], actors[j] = actors[j], actors[i] })
	for _, seat := range actors {
		if seat < 0 {
			continue
		}
		call := engine.BotCall{State: full, Seat: seat, Level: h.cfg.Level, Seed: rng.Uint64()}
		want, err := ref.Bot(ctx, &call)
		if err != nil {
			h.tb.Fatalf("%s: the reference's bot for seat %d: %v", at, seat, err)
		}
		var got *engine.BotAnswer
		if err := h.with(func(state []byte, r engine.GameRef) (err error) {
			c := call
			c.GameRef, c.State = r, state
			got, err = h.e.Bot(ctx, &c)
			return err
		}); err != nil {
			h.tb.Fatalf("%s: the bot for seat %d by name: %v", at, seat, err)
		}
		if w, g := jsonOf(want.Action), jsonOf(got.Action); w != g {
			h.tb.Fatalf("%s: the bot for seat %d chose %s from the bytes, %s by name", at, seat, w, g)
		}
		if want.Action != nil {
			return *want.Action, true
		}
	}
	for _, d := range st.Deadlines {
		return sdk.Action{Seat: sdk.Clock, Type: sdk.ActDeadline, Deadline: d.ID}, true
	}
	return sdk.Action{}, false
}

// check is a dry run of a and of a card nobody holds, by name and from the bytes: the same
// answers, and the engine's copy stays the game after h.seq actions.
func (h *stickyHost) check(ctx context.Context, ref engine.Engine, full []byte, a sdk.Action, now int64, at string) {
	bad := a
	bad.Type = "no-such-action"
	for _, c := range []sdk.Action{a, bad} {
		_, want := ref.Act(ctx, &engine.ActRequest{State: full, Action: c, Now: now, NoViews: true})
		got := h.with(func(state []byte, r engine.GameRef) error {
			_, err := h.e.Act(ctx, &engine.ActRequest{GameRef: r, State: state, Action: c, Now: now, NoViews: true, OmitState: true, Phase: h.phase, DryRun: true})
			return err
		})
		if fmt.Sprint(want) != fmt.Sprint(got) {
			h.tb.Fatalf("%s: checking %s of seat %d: %v from the bytes, %v by name", at, c.Type, c.Seat, want, got)
		}
	}
}

// stepDiff says how got differs from want; withState compares the states too, else got's state,
// when it has one, must be want's.
func stepDiff(want, got *engine.Step, withState bool) string {
	switch {
	case (withState || got.State != nil) && !bytes.Equal(want.State, got.State):
		return fmt.Sprintf("state %s", firstDifference(want.State, got.State))
	case jsonOf(want.Status) != jsonOf(got.Status):
		return fmt.Sprintf("status %s, want %s", jsonOf(got.Status), jsonOf(want.Status))
	case jsonOf(want.Events) != jsonOf(got.Events):
		return fmt.Sprintf("events %s, want %s", jsonOf(got.Events), jsonOf(want.Events))
	case len(want.Views) != len(got.Views):
		return fmt.Sprintf("%d views, want %d", len(got.Views), len(want.Views))
	case !bytes.Equal(want.Spectator, got.Spectator):
		return fmt.Sprintf("spectators' view %s", firstDifference(want.Spectator, got.Spectator))
	}
	for i := range want.Views {
		if !bytes.Equal(want.Views[i], got.Views[i]) {
			return fmt.Sprintf("seat %d's view %s", i, firstDifference(want.Views[i], got.Views[i]))
		}
	}
	return ""
}

func inspectionDiff(want, got *engine.Inspection) string {
	if d := stepDiff(&engine.Step{Status: want.Status, Views: want.Views, Spectator: want.Spectator},
		&engine.Step{Status: got.Status, Views: got.Views, Spectator: got.Spectator}, false); d != "" {
		return d
	}
	// An empty list and none are the same observation (a plugin's come back as empty lists).
	if !sameLoosely(want.Observation, got.Observation) || jsonOf(want.Cards) != jsonOf(got.Cards) {
		return fmt.Sprintf("observation %s cards %s, want %s %s", jsonOf(got.Observation), jsonOf(got.Cards), jsonOf(want.Observation), jsonOf(want.Cards))
	}
	return ""
}

// jsonOf is v as JSON, for comparing values whose pointers and nil-or-empty lists do not matter.
func jsonOf(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("(%v)", err)
	}
	return string(b)
}

// sameLoosely compares a and b as JSON values, an empty list or object the same as null.
func sameLoosely(a, b any) bool {
	var x, y any
	if json.Unmarshal([]byte(jsonOf(a)), &x) != nil || json.Unmarshal([]byte(jsonOf(b)), &y) != nil {
		return false
	}
	return looseEqual(x, y)
}

func looseEqual(x, y any) bool {
	empty := func(v any) bool {
		switch v := v.(type) {
		case nil:
			return true
		case []any:
			return len(v) == 0
		case map[string]any:
			return len(v) == 0
		}
		return false
	}
	if empty(x) && empty(y) {
		return true
	}
	switch x := x.(type) {
	case []any:
		y, ok := y.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !looseEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := y.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			if !looseEqual(v, y[k]) {
				return false
			}
		}
		return true
	}
	return x == y
}
