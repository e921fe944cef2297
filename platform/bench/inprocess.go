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

// playInProcess plays games one after the other until ctx ends: for each step the bots of the
// seats with an action open choose from their views (out-of-turn seats first, as a catch or a
// call comes before the next play), the host deals between rounds, and when no bot acts the
// earliest deadline falls due.
func playInProcess(ctx context.Context, e engine.Engine, bot sdk.Bots, seed uint64, phase *atomic.Int32, c *inCounts) error {
	d, err := e.Describe(ctx)
	if err != nil {
		return err
	}
	opts := onlineOptions(d)
	rng := sdk.NewRNG(seed)
	var now int64 = 1_800_000_000_000
	measuring := func() bool { return phase.Load() == phaseMeasure }
	engineCall := func(f func() (*engine.Step, error)) (*engine.Step, error) {
		t := time.Now()
		st, err := f()
		if measuring() {
			c.engine += time.Since(t)
		}
		return st, err
	}
	for g := uint64(0); ctx.Err() == nil; g++ {
		st, err := engineCall(func() (*engine.Step, error) {
			return e.NewGame(ctx, &engine.NewGameRequest{Seats: Seats, Options: opts, Seed: seed + g, Now: now})
		})
		if err != nil {
			return fmt.Errorf("in-process %s: new game: %w", d.ID, err)
		}
		for ctx.Err() == nil && st.Status.Phase != sdk.PhaseGameOver {
			now += 10
			var act *sdk.Action
			if st.Status.Phase == sdk.PhaseRoundOver {
				act = &sdk.Action{Seat: sdk.Host, Type: sdk.ActDeal}
			} else {
				t := time.Now()
				actors := st.Status.Actors
				if len(actors) > 1 {
					actors = append(slices.Clone(actors[1:]), actors[0])
				}
				for _, seat := range actors {
					if seat < 0 || seat >= len(st.Views) || !bytes.Contains(st.Views[seat], []byte(`"actions":[`)) {
						continue
					}
					var v sdk.View
					if err := decodeJSON(st.Views[seat], &v); err != nil {
						return fmt.Errorf("in-process %s: decoding the view of seat %d: %w", d.ID, seat, err)
					}
					a, err := bot.Bot(ctx, sdk.BotRequest{Seat: seat, Level: botLevel, View: v, RNG: &rng})
					if err != nil {
						return fmt.Errorf("in-process %s: bot of seat %d: %w", d.ID, seat, err)
					}
					if a != nil {
						a.Seat = seat
						act = a
						break
					}
				}
				if measuring() {
					c.other += time.Since(t)
				}
			}
			byBot := act != nil && act.Seat >= 0
			if act == nil {
				dls := st.Status.Deadlines
				if len(dls) == 0 {
					return fmt.Errorf("in-process %s: no bot acts and no deadline is set (phase %s)", d.ID, st.Status.Phase)
				}
				first := slices.MinFunc(dls, func(a, b sdk.Deadline) int { return int(a.At - b.At) })
				now = max(now, first.At)
				act = &sdk.Action{Seat: sdk.Clock, Type: sdk.ActDeadline, Deadline: first.ID}
			}
			next, err := engineCall(func() (*engine.Step, error) {
				return e.Act(ctx, &engine.ActRequest{State: st.State, Action: *act, Now: now})
			})
			if err != nil {
				if ctx.Err() != nil {
					return nil
				}
				return fmt.Errorf("in-process %s: %s of seat %d refused: %w", d.ID, act.Type, act.Seat, err)
			}
			st = next
			if measuring() {
				c.applied++
				if byBot {
					c.actions++
				}
			}
		}
		if st.Status.Phase == sdk.PhaseGameOver && measuring() {
			c.games++
		}
	}
	return nil
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
