package houserules

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
)

// Limits of one hook call. The defaults are generous for a hook (a small one takes microseconds)
// and small enough that a hostile script costs a player one refused action, not the process.
const (
	// DefaultCallTimeout is a hook call's time budget: CPU time of the call's thread (see
	// watchdog.go), so a busy machine does not make a small hook fail. Where thread CPU clocks are
	// unavailable it is wall-clock time.
	DefaultCallTimeout = engine.HouseCallTimeout
	// wallFactor sets the wall-clock backstop of a call budgeted in CPU time: a call starved that
	// long is given up (a script cannot block, so only an overloaded machine gets there).
	wallFactor = 50
	// DefaultMemoryCap is how much a hook call may allocate (the process-wide allocation counter,
	// sampled every millisecond while calls run).
	DefaultMemoryCap = engine.HouseMemoryCap
	// DefaultMaxString caps the strings string.rep and string.format may make.
	DefaultMaxString = 1 << 20
	// DefaultPatternSteps caps one string.find/match/gmatch/gsub: about 10 ms here (a step costs
	// ~40 ns); matching a card code takes a few dozen.
	DefaultPatternSteps = 200_000
	// maxCachedScripts bounds the compiled-script cache; past it the cache starts afresh.
	maxCachedScripts = 512
)

// Config sets a Runner's limits; zero fields take the defaults above.
type Config struct {
	CallTimeout  time.Duration
	MemoryCap    uint64
	MaxString    int
	PatternSteps int
	// Log, when set, receives what scripts print (one line a call of print), with the rule's name.
	Log func(rule, line string)
}

// Runner runs house rules written in Lua: it is an engine.HouseRuleRunner. Scripts are compiled once
// per source and the compiled form is shared; each call runs on a sandboxed Lua state taken from a
// pool (a state is only ever used by one goroutine at a time, and one that failed is thrown away).
// A Runner is safe for concurrent use.
type Runner struct {
	cfg  Config
	pool sync.Pool

	mu      sync.RWMutex
	scripts map[string]*script
}

var _ engine.HouseRuleRunner = (*Runner)(nil)

// New returns a Runner with the given limits.
func New(cfg Config) *Runner {
	if cfg.CallTimeout <= 0 {
		cfg.CallTimeout = DefaultCallTimeout
	}
	if cfg.MemoryCap == 0 {
		cfg.MemoryCap = DefaultMemoryCap
	}
	if cfg.MaxString <= 0 {
		cfg.MaxString = DefaultMaxString
	}
	if cfg.PatternSteps <= 0 {
		cfg.PatternSteps = DefaultPatternSteps
	}
	r := &Runner{cfg: cfg, scripts: map[string]*script{}}
	r.pool.New = func() any { return newVM(r) }
	return r
}

// Enable is the engine option that runs house rules in Lua with the default limits:
//
//	plugin.Serve(engine.New(lastcard.New(), houserules.Enable()))
func Enable() engine.Option { return engine.WithHouseRules(New(Config{})) }

// Describe compiles the rule (once per source) and returns what it declares.
func (r *Runner) Describe(ctx context.Context, rule sdk.HouseRule) (engine.HouseRuleInfo, error) {
	sc, err := r.script(ctx, rule)
	if err != nil {
		return engine.HouseRuleInfo{}, err
	}
	return sc.info, nil
}

// Compile checks a script on its own, as an upload form or `cardhouse rules check` does: it
// compiles it, runs its top level in the sandbox and validates what it declares.
func Compile(ctx context.Context, source string) (engine.HouseRuleInfo, error) {
	return defaultRunner().Describe(ctx, sdk.HouseRule{Source: source})
}

// defaultRunner serves Compile, so checking many scripts reuses its states and cache.
var defaultRunner = sync.OnceValue(func() *Runner { return New(Config{}) })

// script returns the compiled script of a rule's source, compiling it on first use. Failures are
// cached too, and named with this rule's name and version.
func (r *Runner) script(ctx context.Context, rule sdk.HouseRule) (*script, error) {
	r.mu.RLock()
	sc, ok := r.scripts[rule.Source]
	r.mu.RUnlock()
	if !ok {
		sc = r.compile(ctx, rule.Source)
		if sc.err != nil && sc.transient {
			return nil, sc.err.named(rule)
		}
		r.mu.Lock()
		if len(r.scripts) >= maxCachedScripts {
			r.scripts = map[string]*script{}
		}
		r.scripts[rule.Source] = sc
		r.mu.Unlock()
	}
	if sc.err != nil {
		return nil, sc.err.named(rule)
	}
	if rule.Name != "" && rule.Name != sc.info.Name {
		return nil, (&Error{Msg: fmt.Sprintf("the script declares the name %q", sc.info.Name)}).named(rule)
	}
	return sc, nil
}

// Call runs one hook of one rule on a pooled Lua state.
func (r *Runner) Call(ctx context.Context, c *engine.HookCall) (res *engine.HookResult, err error) {
	sc, err := r.script(ctx, c.Rule)
	if err != nil {
		return nil, err
	}
	v := r.pool.Get().(*vm)
	healthy := false
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, (&Error{Hook: c.Hook, Msg: fmt.Sprintf("crashed the script engine: %v", p)}).named(c.Rule)
		}
		if healthy {
			r.pool.Put(v)
		} else {
			v.L.Close()
		}
	}()
	res, err = v.call(ctx, sc, c)
	healthy = err == nil
	return res, err
}

// call runs one hook on this state under the call's budget.
func (v *vm) call(parent context.Context, sc *script, c *engine.HookCall) (*engine.HookResult, error) {
	ctx, cancel := v.r.budget(parent)
	defer cancel()
	v.L.SetContext(ctx)
	defer v.L.RemoveContext()

	cs := &callState{call: c, rng: c.RNG, seat: sdk.NoSeat}
	if c.Action != nil {
		cs.seat = c.Action.Seat
	}
	if cs.rng == nil {
		rng := sdk.NewRNG(0)
		cs.rng = &rng
	}
	v.cur, v.sc = cs, sc
	defer func() { v.cur, v.sc = nil, nil }()

	env, err := v.load(sc)
	if err != nil {
		return nil, v.fail(parent, ctx, c, err)
	}
	fn, nargs := v.prepare(env, c)
	if fn == nil {
		// The rule does not have this hook: it lets everything through and changes nothing.
		return &engine.HookResult{Table: c.Table, Memory: c.Memory}, nil
	}
	if err := v.L.PCall(nargs, 1, nil); err != nil {
		return nil, v.fail(parent, ctx, c, err)
	}
	if ctx.Err() != nil { // a script that swallowed its own deadline still overran it
		return nil, v.fail(parent, ctx, c, ctx.Err())
	}
	ret := v.L.Get(-1)
	v.L.Pop(1)
	res, err := v.result(c, ret)
	if err != nil {
		e, ok := err.(*Error)
		if !ok {
			e = &Error{Msg: err.Error()}
		}
		e.Hook = c.Hook
		return nil, e.named(c.Rule)
	}
	for _, line := range cs.log {
		res.Log = append(res.Log, line)
		if v.r.cfg.Log != nil {
			v.r.cfg.Log(c.Rule.Name, line)
		}
	}
	return res, nil
}

// budget returns the context of one call on the calling goroutine, which it pins to its OS thread
// until cancel. The watchdog cancels it past the CPU budget, the memory cap or the wall-clock
// backstop; where CPU time cannot be read, the budget is a wall-clock deadline.
func (r *Runner) budget(parent context.Context) (context.Context, context.CancelFunc) {
	runtime.LockOSThread()
	ctx, cancelCause := context.WithCancelCause(parent)
	unwatch, cpu := watch(r.cfg.MemoryCap, r.cfg.CallTimeout, r.cfg.CallTimeout*wallFactor, cancelCause)
	cancelWall := func() {}
	if !cpu {
		ctx, cancelWall = context.WithTimeoutCause(ctx, r.cfg.CallTimeout, errWall)
	}
	return ctx, func() {
		cancelWall()
		unwatch()
		cancelCause(nil)
		runtime.UnlockOSThread()
	}
}

// hasCPUClock reports whether calls are budgeted in CPU time here.
func hasCPUClock() bool {
	_, ok := threadClock()
	return ok
}

// fail turns a Lua error into an Error naming the rule, the hook and the line. A call its caller
// cancelled returns the caller's error, so the engine passes it on as a cancellation.
func (v *vm) fail(parent, ctx context.Context, c *engine.HookCall, err error) error {
	line, msg := splitLuaError(err)
	e := &Error{Hook: c.Hook, Line: line, Msg: explainLen(v.sc.explainCall(line, msg))}
	// The VM raises the context's error when it finds the call cancelled; any other error is the
	// script's own, even when the budget ran out while it was being raised.
	if ctx.Err() != nil && (errors.Is(err, ctx.Err()) || strings.Contains(msg, ctx.Err().Error())) {
		switch {
		case parent.Err() != nil:
			return fmt.Errorf("house rule %q: %w", c.Rule.Name, parent.Err())
		case errors.Is(context.Cause(ctx), errMemory):
			e.Msg = fmt.Sprintf("allocated more than %d MiB in one call (the memory cap)", v.r.cfg.MemoryCap>>20)
		case errors.Is(context.Cause(ctx), errWall) && hasCPUClock():
			e.Msg = fmt.Sprintf("did not finish in %v of wall-clock time (is the machine overloaded?)", v.r.cfg.CallTimeout*wallFactor)
		default:
			e.Msg = fmt.Sprintf("ran past its time budget of %v", v.r.cfg.CallTimeout)
		}
	}
	return e.named(c.Rule)
}
