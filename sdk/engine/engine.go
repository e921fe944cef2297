package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sync/atomic"

	"cardhouse/sdk"
)

// Engine is a ruleset as the host sees it: states are opaque bytes the host keeps, and every call
// is coarse (one call per action returns the new state, its events, the status and every view).
// New makes one from a Ruleset in-process; sdk/plugin's client is one across a process.
type Engine interface {
	Describe(ctx context.Context) (*Description, error)
	// NewGame starts a game; its options are raw and are validated here.
	NewGame(ctx context.Context, req *NewGameRequest) (*Step, error)
	// Act applies one action. A refusal returns an error wrapping *RuleError and no step.
	Act(ctx context.Context, req *ActRequest) (*Step, error)
	// Inspect reads a state: its status, scenario observation, every card, and optionally views.
	Inspect(ctx context.Context, req *InspectRequest) (*Inspection, error)
	// Bot asks the bot of a level for a seat's action (nil: nothing to do): the ruleset's own, or
	// at GenericLevel the generic bot when the ruleset has none of that level. Description.BotLevels
	// are the levels it answers (Levels); it refuses any other with sdk.CodeNotAvailable.
	Bot(ctx context.Context, req *BotCall) (*BotAnswer, error)
}

// Description is a ruleset's Info and the SDK version it was built with. Its BotLevels are the
// levels the engine's Bot answers (Levels), which include GenericLevel even when the ruleset
// declares no bot.
type Description struct {
	sdk.Info
	SDKVersion string `json:"sdk_version"`
	// HouseRules is true when the engine runs house rules (WithHouseRules) and the ruleset can take
	// them (TableEditor).
	HouseRules bool `json:"house_rules,omitempty"`
	// HouseHooks are the questions the ruleset asks house rules (the HouseHooks extra).
	HouseHooks []sdk.HouseHook `json:"house_hooks,omitempty"`
	// Sticky says the engine keeps named games' decoded states between calls (GameRef): a host
	// may then send a game's state only when the engine asks for it (ErrNeedState).
	Sticky bool `json:"sticky,omitempty"`
}

// New erases a Ruleset's state type: states become versioned bytes, options are validated,
// panics are recovered as ruleset failures, and after every action the SDK checks that no card was
// lost or invented. Options add capabilities: WithHouseRules runs games' house-rule scripts
// (sdk/houserules.Enable() is the Lua one); without it a game naming house rules is refused.
func New[S any](r sdk.Ruleset[S], opts ...Option) Engine {
	e := &engine[S]{r: r, info: r.Info()}
	e.plainHead, _ = json.Marshal(envelope{Ruleset: e.info.ID, Version: e.info.StateVersion}) // strings and ints: always encodes
	for _, o := range opts {
		o(&e.cfg)
	}
	return e
}

type engine[S any] struct {
	r     sdk.Ruleset[S]
	info  sdk.Info
	cfg   engineConfig
	cache stateCache[S]
	// games are the named games' states (sticky.go).
	games gameCache[S]
	// viewSize is the mean size of the last step's views: the next step's buffer starts a little
	// bigger than that many views, so encoding them seldom grows it.
	viewSize atomic.Int64
	// stateSize is the largest state a StateAppender has written, for the same reason.
	stateSize atomic.Int64
	// plainHead is the header line of a game without house rules, the same for every state.
	plainHead []byte
}

func (e *engine[S]) fail(op string, err error) error {
	if err == nil || errors.Is(err, sdk.ErrIllegal) || errors.Is(err, sdk.ErrRuleset) ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return &sdk.FailureError{Ruleset: e.info.ID, Op: op, Err: err}
}

// guard turns a panic inside the ruleset into a ruleset failure (or a forced-draw error).
func (e *engine[S]) guard(op string, err *error) {
	if p := recover(); p != nil {
		if fe, ok := p.(*sdk.ForcedDrawError); ok {
			*err = &sdk.FailureError{Ruleset: e.info.ID, Op: op, Err: fe}
			return
		}
		*err = &sdk.FailureError{Ruleset: e.info.ID, Op: op, Err: fmt.Errorf("panic: %v\n%s", p, debug.Stack())}
	}
}

func (e *engine[S]) Describe(ctx context.Context) (*Description, error) {
	d := &Description{Info: e.info, SDKVersion: sdk.Version, Sticky: true}
	_, bots := e.r.(sdk.Bots)
	d.BotLevels = Levels(e.info, bots)
	_, editor := any(e.r).(sdk.TableEditor[S])
	d.HouseRules = editor && e.cfg.house != nil
	if hh, ok := e.r.(sdk.HouseHooks); ok {
		d.HouseHooks = hh.HouseHooks()
	}
	return d, ctx.Err()
}
