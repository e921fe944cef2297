package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"cardhouse/sdk"
	"cardhouse/sdk/botplay"
	"cardhouse/sdk/engine"
)

// InProcessConfig is an in-process run: the same games as Run (four seats, default options as an
// online room has them, level-1 bots choosing from each seat's view) applied straight to the
// rulesets' engines: no plugin process, no database, no sockets.
type InProcessConfig struct {
	// Rooms is the number of games played at once (one goroutine each).
	Rooms            int
	Warmup, Duration time.Duration
	Variants         []string
	// Engines make an in-process engine per variant (engine.New of the built-in rulesets).
	Engines map[string]func() engine.Engine
	Bots    map[string]sdk.Bots
	Seed    uint64
}

// InProcessResult is what an in-process run measured in its window.
type InProcessResult struct {
	Rooms    int           `json:"rooms"`
	Variants []string      `json:"variants"`
	Window   time.Duration `json:"-"`
	// Actions are the bots' actions applied; Applied adds the clock's and the deals between
	// rounds, as Result.Applied does.
	Actions          int64   `json:"actions"`
	Applied          int64   `json:"applied"`
	Games            int64   `json:"games"`
	ActionsPerSecond float64 `json:"actions_per_second"`
	// CPU is this process's CPU seconds in the window, ActionsPerCPU the actions per CPU-second of
	// the whole loop (engine, view decoding and bots).
	CPU           float64 `json:"cpu_seconds"`
	ActionsPerCPU float64 `json:"actions_per_cpu_second"`
	// EngineShare is the part of the loop's time spent in the engine (NewGame and Act, each with
	// every seat's view, as the server asks its plugin); EngineCPUPerAction is CPU × EngineShare
	// per action, in seconds: the ruleset's own cost of an action.
	EngineShare        float64 `json:"engine_share"`
	EngineCPUPerAction float64 `json:"engine_cpu_seconds_per_action"`
	WindowSeconds      float64 `json:"window_seconds"`
}

// RunInProcess plays cfg.Rooms games at once on in-process engines for the warm-up and the
// window, and measures the window.
func RunInProcess(ctx context.Context, cfg InProcessConfig) (*InProcessResult, error) {
	if cfg.Rooms < 1 || cfg.Duration <= 0 || len(cfg.Variants) == 0 {
		return nil, fmt.Errorf("bench: in-process: want rooms ≥ 1, a positive duration and a variant (got %d, %s, %v)", cfg.Rooms, cfg.Duration, cfg.Variants)
	}
	for _, v := range cfg.Variants {
		if cfg.Engines[v] == nil || cfg.Bots[v] == nil {
			return nil, fmt.Errorf("bench: in-process: no built-in engine or bot for variant %q", v)
		}
	}
	var phase atomic.Int32
	phase.Store(phaseWarmup)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	counts := make([]inCounts, cfg.Rooms)
	errs := make([]error, cfg.Rooms)
	var wg sync.WaitGroup
	for i := range cfg.Rooms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v := cfg.Variants[i%len(cfg.Variants)]
			errs[i] = playInProcess(ctx, cfg.Engines[v](), cfg.Bots[v], cfg.Seed*1_000_003+uint64(i)*64, &phase, &counts[i])
			if errs[i] != nil {
				cancel()
			}
		}()
	}
	werr := sleep(ctx, cfg.Warmup)
	cpu0 := selfCPU()
	t0 := time.Now()
	phase.Store(phaseMeasure)
	if werr == nil {
		werr = sleep(ctx, cfg.Duration)
	}
	phase.Store(phaseStopped)
	res := &InProcessResult{Rooms: cfg.Rooms, Variants: cfg.Variants, Window: time.Since(t0), CPU: (selfCPU() - cpu0).Seconds()}
	cancel()
	wg.Wait()
	if err := errors.Join(errs...); err != nil && !errors.Is(err, context.Canceled) {
		return nil, err
	}
	if werr != nil && !errors.Is(werr, context.Canceled) {
		return nil, werr
	}
	if err := ctx.Err(); err != nil && werr != nil {
		return nil, werr
	}
	var engine, other time.Duration
	for _, c := range counts {
		res.Actions += c.actions
		res.Applied += c.applied
		res.Games += c.games
		engine += c.engine
		other += c.other
	}
	res.WindowSeconds = res.Window.Seconds()
	res.ActionsPerSecond = float64(res.Actions) / res.Window.Seconds()
	if res.CPU > 0 {
		res.ActionsPerCPU = float64(res.Actions) / res.CPU
	}
	if engine+other > 0 {
		res.EngineShare = float64(engine) / float64(engine+other)
	}
	if res.Actions > 0 {
		res.EngineCPUPerAction = res.CPU * res.EngineShare / float64(res.Actions)
	}
	return res, nil
}

// inCounts are one game loop's counts of the window (written by its goroutine only).
type inCounts struct {
	actions, applied, games int64
	engine, other           time.Duration
}

// onlineOptions are the options an online room gets by default: none, but "auto" for a
// last_card_mode option (the server's L-8).
func onlineOptions(d *engine.Description) map[string]any {
	opts := map[string]any{}
	for _, o := range d.Options {
		if o.Name == "last_card_mode" && slices.Contains(o.Choices, "auto") {
			opts[o.Name] = "auto"
		}
	}
	return opts
}

// playInProcess plays games one after the other until ctx ends (botplay.Play, a game at a
// time): for each step the bots of the seats with an action open choose from their views
// (out-of-turn seats first, as a catch or a call comes before the next play), the host deals
// between rounds, and when no bot acts the earliest deadline falls due. The engine's calls and
// the bots' choices are timed apart.
func playInProcess(ctx context.Context, e engine.Engine, bot sdk.Bots, seed uint64, phase *atomic.Int32, c *inCounts) error {
	d, err := e.Describe(ctx)
	if err != nil {
		return err
	}
	measuring := func() bool { return phase.Load() == phaseMeasure }
	rng := sdk.NewRNG(seed)
	choose := func(ctx context.Context, t *botplay.Turn) (*sdk.Action, error) {
		t0 := time.Now()
		defer func() {
			if measuring() {
				c.other += time.Since(t0)
			}
		}()
		views := t.Step.Views
		if t.Seat < 0 || t.Seat >= len(views) || !bytes.Contains(views[t.Seat], []byte(`"actions":[`)) {
			return nil, nil
		}
		var v sdk.View
		if err := decodeJSON(views[t.Seat], &v); err != nil {
			return nil, fmt.Errorf("decoding the view: %w", err)
		}
		return bot.Bot(ctx, sdk.BotRequest{Seat: t.Seat, Level: botLevel, View: v, RNG: &rng})
	}
	cfg := botplay.Config{Seats: Seats, Options: onlineOptions(d), Now: 1_800_000_000_000, Views: true,
		Bot: choose, Order: botplay.OutOfTurnFirst, ThinkMS: 10,
		OnAct: func(_ context.Context, a botplay.Attempt) error {
			if a.Err == nil && measuring() {
				c.applied++
				if a.Kind == botplay.KindBot {
					c.actions++
				}
			}
			return nil
		}}
	timed := timedEngine{Engine: e, measuring: measuring, in: &c.engine}
	for g := uint64(0); ctx.Err() == nil; g++ {
		cfg.Seed = seed + g
		res, err := botplay.Play(ctx, timed, cfg)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			return fmt.Errorf("in-process %s: %w", d.ID, err)
		}
		if measuring() {
			c.games++
		}
		cfg.Now = res.Now
	}
	return nil
}

// timedEngine adds the time of each NewGame and Act, while measuring, to in.
type timedEngine struct {
	engine.Engine
	measuring func() bool
	in        *time.Duration
}

func (e timedEngine) NewGame(ctx context.Context, req *engine.NewGameRequest) (*engine.Step, error) {
	t := time.Now()
	st, err := e.Engine.NewGame(ctx, req)
	if e.measuring() {
		*e.in += time.Since(t)
	}
	return st, err
}

func (e timedEngine) Act(ctx context.Context, req *engine.ActRequest) (*engine.Step, error) {
	t := time.Now()
	st, err := e.Engine.Act(ctx, req)
	if e.measuring() {
		*e.in += time.Since(t)
	}
	return st, err
}

// Print writes the in-process figures.
func (r *InProcessResult) Print(w io.Writer) error {
	fmt.Fprintf(w, "in-process: %d games at once on the engines (no plugin, database or sockets), window %.1fs\n", r.Rooms, r.Window.Seconds())
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "FIGURE\tVALUE\n")
	fmt.Fprintf(tw, "actions\t%d (%d applied with clock and deals, %d games)\n", r.Actions, r.Applied, r.Games)
	fmt.Fprintf(tw, "actions/s\t%.0f\n", r.ActionsPerSecond)
	fmt.Fprintf(tw, "CPU\t%.2f s\n", r.CPU)
	fmt.Fprintf(tw, "actions per CPU-second\t%.0f (engine, view decoding and bots)\n", r.ActionsPerCPU)
	fmt.Fprintf(tw, "engine share of the loop\t%.0f%% (%.1f us of CPU per action)\n", 100*r.EngineShare, 1e6*r.EngineCPUPerAction)
	return tw.Flush()
}

// JSON writes the result as indented JSON.
func (r *InProcessResult) JSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
