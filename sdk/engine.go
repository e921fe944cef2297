package sdk

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sync/atomic"
)

// Version is the SDK's version; the wire protocol has its own number in sdk/plugin.
const Version = "0.1.0"

// Engine is a ruleset as the host sees it: states are opaque bytes the host keeps, and every call
// is coarse (one call per action returns the new state, its events, the status and every view).
// NewEngine makes one from a Ruleset in-process; sdk/plugin's client is one across a process.
type Engine interface {
	Describe(ctx context.Context) (*Description, error)
	// NewGame starts a game; its options are raw and are validated here.
	NewGame(ctx context.Context, req *NewGameRequest) (*Step, error)
	// Act applies one action. A refusal returns an error wrapping *RuleError and no step.
	Act(ctx context.Context, req *ActRequest) (*Step, error)
	// Inspect reads a state: its status, scenario observation, every card, and optionally views.
	Inspect(ctx context.Context, req *InspectRequest) (*Inspection, error)
	// Bot asks the ruleset's bot of a level for a seat's action (nil: nothing to do).
	Bot(ctx context.Context, req *BotCall) (*BotAnswer, error)
}

// Description is a ruleset's Info and the SDK version it was built with.
type Description struct {
	Info
	SDKVersion string `json:"sdk_version"`
	// HouseRules is true when the engine runs house rules (WithHouseRules) and the ruleset can take
	// them (TableEditor).
	HouseRules bool `json:"house_rules,omitempty"`
	// HouseHooks are the questions the ruleset asks house rules (the HouseHooks extra).
	HouseHooks []HouseHook `json:"house_hooks,omitempty"`
}

// NewGameRequest starts a game through an Engine.
type NewGameRequest struct {
	Seats      int                 `json:"seats"`
	Options    map[string]any      `json:"options,omitempty"`
	Seed       uint64              `json:"seed"`
	HouseRules []HouseRule         `json:"house_rules,omitempty"`
	Deal       *Deal               `json:"deal,omitempty"`
	Forced     map[string][]string `json:"forced,omitempty"`
	Opener     *int                `json:"opener,omitempty"`
	Now        int64               `json:"now"`
	// NoViews skips the views (scenario runs, playouts).
	NoViews bool `json:"no_views,omitempty"`
}

// ActRequest applies an action to a state through an Engine.
type ActRequest struct {
	State   []byte `json:"state"`
	Action  Action `json:"action"`
	Now     int64  `json:"now"`
	NoViews bool   `json:"no_views,omitempty"`
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

// Step is the result of starting a game or applying an action.
type Step struct {
	// State is the game's new stored state. Treat its bytes as read-only: the engine keeps them to
	// recognise the state when it comes back with the next call (a changed copy is decoded afresh).
	State  []byte  `json:"state"`
	Events []Event `json:"events,omitempty"`
	Status Status  `json:"status"`
	// Views[i] is seat i's view as JSON, ready to send; Spectator is the spectators' view.
	Views     [][]byte `json:"views,omitempty"`
	Spectator []byte   `json:"spectator,omitempty"`
}

// InspectRequest reads a state through an Engine.
type InspectRequest struct {
	State []byte `json:"state"`
	Views bool   `json:"views,omitempty"`
}

// Inspection is what Inspect reads from a state.
type Inspection struct {
	Status      Status      `json:"status"`
	Observation Observation `json:"observation"`
	Cards       []Card      `json:"cards"`
	Views       [][]byte    `json:"views,omitempty"`
	Spectator   []byte      `json:"spectator,omitempty"`
}

// BotCall asks a ruleset's bot to choose for a seat.
type BotCall struct {
	State []byte `json:"state"`
	Seat  int    `json:"seat"`
	Level int    `json:"level"`
	Seed  uint64 `json:"seed"`
}

// BotAnswer is the bot's choice; Action is nil when it does nothing now.
type BotAnswer struct {
	Action *Action `json:"action,omitempty"`
}

// NewEngine erases a Ruleset's state type: states become versioned bytes, options are validated,
// panics are recovered as ruleset failures, and after every action the SDK checks that no card was
// lost or invented. Options add capabilities: WithHouseRules runs games' house-rule scripts
// (sdk/houserules.Enable() is the Lua one); without it a game naming house rules is refused.
func NewEngine[S any](r Ruleset[S], opts ...EngineOption) Engine {
	e := &engine[S]{r: r, info: r.Info()}
	e.plainHead, _ = json.Marshal(envelope{Ruleset: e.info.ID, Version: e.info.StateVersion}) // strings and ints: always encodes
	for _, o := range opts {
		o(&e.cfg)
	}
	return e
}

type engine[S any] struct {
	r     Ruleset[S]
	info  Info
	cfg   engineConfig
	cache stateCache[S]
	// viewSize is the mean size of the last step's views: the next step's buffer starts a little
	// bigger than that many views, so encoding them seldom grows it.
	viewSize atomic.Int64
	// stateSize is the largest state a StateAppender has written, for the same reason.
	stateSize atomic.Int64
	// plainHead is the header line of a game without house rules, the same for every state.
	plainHead []byte
}

// envelope is the header of a stored state: which ruleset, which state version, the house rules the
// game started with and their memory. The stored form is the header's JSON, a newline, then the
// ruleset's state as JSON (see encode): the large state is written and read once, never copied
// into or scanned out of a wrapper.
type envelope struct {
	Ruleset    string      `json:"r"`
	Version    int         `json:"v"`
	HouseRules []HouseRule `json:"h,omitempty"`
	House      *houseState `json:"hs,omitempty"`
}

func (e *engine[S]) fail(op string, err error) error {
	if err == nil || errors.Is(err, ErrIllegal) || errors.Is(err, ErrRuleset) ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return &FailureError{Ruleset: e.info.ID, Op: op, Err: err}
}

// guard turns a panic inside the ruleset into a ruleset failure (or a forced-draw error).
func (e *engine[S]) guard(op string, err *error) {
	if p := recover(); p != nil {
		if fe, ok := p.(*ForcedDrawError); ok {
			*err = &FailureError{Ruleset: e.info.ID, Op: op, Err: fe}
			return
		}
		*err = &FailureError{Ruleset: e.info.ID, Op: op, Err: fmt.Errorf("panic: %v\n%s", p, debug.Stack())}
	}
}

func (e *engine[S]) Describe(ctx context.Context) (*Description, error) {
	d := &Description{Info: e.info, SDKVersion: Version}
	_, editor := any(e.r).(TableEditor[S])
	d.HouseRules = editor && e.cfg.house != nil
	if hh, ok := e.r.(HouseHooks); ok {
		d.HouseHooks = hh.HouseHooks()
	}
	return d, ctx.Err()
}

// CheckOptions validates raw options for a game of seats seats against the ruleset's schema and its
// OptionChecker, if any.
func CheckOptions(info Info, checker any, seats int, raw map[string]any) (Options, error) {
	if seats < info.MinSeats || seats > info.MaxSeats {
		return nil, OptionErrors{{Field: "seats", Reason: fmt.Sprintf("%s is for %d to %d seats, got %d", info.Name, info.MinSeats, info.MaxSeats, seats)}}
	}
	opts, err := ValidateOptions(info.Options, raw)
	if err != nil {
		return nil, err
	}
	if oc, ok := checker.(OptionChecker); ok {
		return oc.CheckOptions(seats, opts)
	}
	return opts, nil
}

func (e *engine[S]) NewGame(ctx context.Context, req *NewGameRequest) (step *Step, err error) {
	defer e.guard("start", &err)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	opts, err := CheckOptions(e.info, e.r, req.Seats, req.Options)
	if err != nil {
		return nil, &RuleError{Code: CodeBadOption, Reason: err.Error()}
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
	rng := NewRNG(req.Seed)
	for label, vals := range req.Forced {
		rng.Force(label, vals...)
	}
	s, err := e.r.Start(ctx, StartRequest{
		Seats: req.Seats, Options: opts, Seed: req.Seed, HouseRules: rules,
		Deal: req.Deal, RNG: rng, Opener: req.Opener, Now: req.Now,
	})
	if err != nil {
		return nil, e.fail("start", err)
	}
	var events []Event
	var hs *houseState
	if h != nil {
		// A failing start hook refuses the start: the host sees why and can disable the rule.
		before := e.r.Cards(s)
		if s, events, err = h.start(ctx, s); err != nil {
			return nil, houseErr(err)
		}
		if diff := CardDiff(before, e.r.Cards(s)); diff != "" {
			return nil, &FailureError{Ruleset: e.info.ID, Op: "start", Err: fmt.Errorf("house rules' start broke the card invariant: %s", diff)}
		}
		hs = h.st
	}
	blob, err := e.encode(s, rules, hs)
	if err != nil {
		return nil, err
	}
	return e.step(s, blob, events, !req.NoViews, hs), nil
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
	var res ApplyResponse[S]
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
	} else if res, err = e.r.Apply(ctx, ApplyRequest[S]{State: s, Action: req.Action, Now: req.Now}); err != nil {
		return nil, e.fail("act", err)
	}
	if diff := CardDiff(before, e.r.Cards(res.State)); diff != "" {
		return nil, &FailureError{Ruleset: e.info.ID, Op: "act", Err: fmt.Errorf("%s action of seat %d broke the card invariant: %s", req.Action.Type, req.Action.Seat, diff)}
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
		return nil, &FailureError{Ruleset: e.info.ID, Op: "house rules", Err: err}
	}
	return h, nil
}

func (e *engine[S]) Inspect(ctx context.Context, req *InspectRequest) (in *Inspection, err error) {
	defer e.guard("inspect", &err)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s, env, err := e.decode(req.State)
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

func (e *engine[S]) Bot(ctx context.Context, req *BotCall) (ans *BotAnswer, err error) {
	defer e.guard("bot", &err)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	bots, ok := e.r.(Bots)
	if !ok {
		return nil, &RuleError{Code: CodeNotAvailable, Reason: fmt.Sprintf("%s has no bots", e.info.Name)}
	}
	if len(e.info.BotLevels) > 0 && !slices.Contains(e.info.BotLevels, req.Level) {
		return nil, &RuleError{Code: CodeNotAvailable, Reason: fmt.Sprintf("%s has no bot of level %d (it has %v)", e.info.Name, req.Level, e.info.BotLevels)}
	}
	s, env, err := e.decode(req.State)
	if err != nil {
		return nil, err
	}
	st := e.r.Status(s)
	if req.Seat < 0 || req.Seat >= st.Seats {
		return nil, &RuleError{Code: CodeBadAction, Reason: fmt.Sprintf("no seat %d in this %d-seat game", req.Seat, st.Seats)}
	}
	rng := NewRNG(req.Seed)
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
	br := BotRequest{Seat: req.Seat, Level: req.Level, View: e.r.View(s, req.Seat)}
	if h, ok := e.r.(Historian[S]); ok {
		br.History = h.History(s, req.Seat)
	}
	br.RNG = &rng
	a, err := bots.Bot(ctx, br)
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

func (e *engine[S]) step(s S, blob []byte, events []Event, withViews bool, hs *houseState) *Step {
	st := &Step{State: blob, Events: events, Status: e.r.Status(s)}
	hs.decorateStatus(&st.Status)
	if withViews {
		st.Views, st.Spectator = e.views(s, st.Status.Seats, events, hs, true, nil)
	}
	return st
}

// views are the seats' views and, with spectator, the spectators' view, as JSON. They are written
// one after another into one buffer (into, when its capacity is enough; else a new one sized from
// the last step's views), each a full slice of its own part of it, so appending to one cannot
// overwrite the next.
func (e *engine[S]) views(s S, seats int, events []Event, hs *houseState, spectator bool, into []byte) ([][]byte, []byte) {
	n := seats
	if spectator {
		n++
	}
	per := max(e.viewSize.Load(), 512)
	buf := into[:0]
	if need := int(per+per/8) * n; cap(buf) < need {
		buf = make([]byte, 0, need)
	}
	one := func(viewer int) []byte {
		v := e.r.View(s, viewer)
		v.Viewer = viewer
		hs.decorateView(&v)
		if v.Ruleset == "" {
			v.Ruleset = e.info.ID
		}
		if len(events) > 0 {
			v.Events = make([]Event, len(events))
			for i, ev := range events {
				v.Events[i] = ev.For(viewer)
			}
		}
		start := len(buf)
		buf = v.AppendJSON(buf)
		return buf[start:len(buf):len(buf)]
	}
	views := make([][]byte, seats)
	for i := range seats {
		views[i] = one(i)
	}
	var spec []byte
	if spectator {
		spec = one(Spectator)
	}
	if n > 0 {
		e.viewSize.Store(int64(len(buf) / n))
	}
	return views, spec
}

// encode writes the stored form of a state (header line, newline, state JSON) and remembers the
// decoded state for the next call that brings these bytes back.
func (e *engine[S]) encode(s S, rules []HouseRule, hs *houseState) ([]byte, error) {
	head := e.plainHead
	if len(rules) > 0 || hs != nil {
		var err error
		if head, err = json.Marshal(envelope{Ruleset: e.info.ID, Version: e.info.StateVersion, HouseRules: rules, House: hs}); err != nil {
			return nil, &FailureError{Ruleset: e.info.ID, Op: "encode state", Err: err}
		}
	}
	var b []byte
	if ap, ok := e.r.(StateAppender[S]); ok {
		b = make([]byte, 0, len(head)+1+int(e.stateSize.Load()))
		b = ap.AppendState(append(append(b, head...), '\n'), s)
		if n := int64(len(b) - len(head) - 1); n > e.stateSize.Load() {
			e.stateSize.Store(n)
		}
	} else {
		raw, err := json.Marshal(s)
		if err != nil {
			return nil, &FailureError{Ruleset: e.info.ID, Op: "encode state", Err: err}
		}
		b = make([]byte, 0, len(head)+1+len(raw))
		b = append(append(append(b, head...), '\n'), raw...)
	}
	e.cache.put(b, true, s, envelope{Ruleset: e.info.ID, Version: e.info.StateVersion, HouseRules: rules, House: hs})
	return b, nil
}

// decode reads a stored state. A state this engine produced recently comes from the cache: states
// are immutable (Apply never modifies its input), so the decoded value can be shared.
func (e *engine[S]) decode(blob []byte) (S, envelope, error) {
	if s, env, ok := e.cache.get(blob); ok {
		return s, env, nil
	}
	var zero S
	var env envelope
	cut := bytes.IndexByte(blob, '\n')
	if cut < 0 {
		return zero, env, &FailureError{Ruleset: e.info.ID, Op: "decode state", Err: errors.New("not a stored game state (no header line)")}
	}
	if err := json.Unmarshal(blob[:cut], &env); err != nil {
		return zero, env, &FailureError{Ruleset: e.info.ID, Op: "decode state", Err: fmt.Errorf("header: %w", err)}
	}
	if env.Ruleset != e.info.ID {
		return zero, env, &FailureError{Ruleset: e.info.ID, Op: "decode state", Err: fmt.Errorf("the state belongs to ruleset %q", env.Ruleset)}
	}
	raw := blob[cut+1:]
	if env.Version != e.info.StateVersion {
		up, ok := e.r.(Upgrader)
		if !ok {
			return zero, env, &FailureError{Ruleset: e.info.ID, Op: "decode state", Err: fmt.Errorf("state version %d, ruleset reads version %d and cannot upgrade", env.Version, e.info.StateVersion)}
		}
		var err error
		if raw, err = up.UpgradeState(env.Version, raw); err != nil {
			return zero, env, &FailureError{Ruleset: e.info.ID, Op: "upgrade state", Err: err}
		}
	}
	var s S
	if err := json.Unmarshal(raw, &s); err != nil {
		return zero, env, &FailureError{Ruleset: e.info.ID, Op: "decode state", Err: err}
	}
	e.cache.put(blob, false, s, env)
	return s, env, nil
}

// StateJSON returns the ruleset's own state, as JSON, out of a stored state made by an Engine of
// this SDK: for tools, admin pages and tests that read a game's state without its ruleset.
func StateJSON(blob []byte) ([]byte, error) {
	cut := bytes.IndexByte(blob, '\n')
	if cut < 0 || !json.Valid(blob[:cut]) {
		return nil, errors.New("not a stored game state (no header line)")
	}
	return blob[cut+1:], nil
}
