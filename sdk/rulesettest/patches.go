package rulesettest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
)

// checkPatches is the kit's patch check (issue 30 change 3): a sticky engine writes each step's
// view patches from what it kept of the step before (and may build the views it patches in parts,
// sdk.ViewsMaker), never by reading the views' JSON; whatever it does, its answer must be what
// building every view whole and diffing whole views gives. It replays a random playout's accepted
// actions through a sticky engine, by name (GameRef) and asking for patches, every other step lean
// (engine.ActRequest.PatchesOnly), and on the ruleset's own state type beside it. At every step,
// for every seat and the spectators, with fresh full views made by View (the step's events as the
// viewer sees them, as the engine fills them in):
//   - a view the step carries is the fresh full view's JSON byte for byte;
//   - the step's patch is the whole-view diff, sdk.AppendViewPatch of the fresh full views before
//     and after, byte for byte (so applying it to the view before gives the fresh view exactly, as
//     platform/viewpatch's tests and the web client's check for that diff); a step has patches
//     exactly when every seat's whole-view diff exists, from the second action on;
//   - a lean step's open actions (engine.Step.Actions) are the fresh view's, as JSON.
func checkPatches[S any](ctx context.Context, tb testing.TB, r sdk.Ruleset[S], cfg Config, g game) {
	tb.Helper()
	var moves []Move
	pc := PlayoutConfig{
		Seats: g.seats, Options: g.options, Seed: g.seed, Level: cfg.BotLevel, Random: 0.5,
		MaxSteps: 2 * cfg.RandomSteps, Views: true,
		OnAct: func(_ context.Context, a Attempt) error {
			if a.Err == nil {
				moves = append(moves, Move{Action: a.Action, Now: a.Now})
			}
			return nil
		},
	}
	// The engine-level checks report the playout's own failures; here it only supplies actions.
	_, _ = Playout(ctx, newMemEngine(r), pc)

	info := r.Info()
	opts, err := sdk.CheckOptions(info, r, g.seats, g.options)
	if err != nil {
		tb.Fatalf("options: %v", err)
		return
	}
	s, err := r.Start(ctx, sdk.StartRequest{Seats: g.seats, Options: opts, Seed: g.seed, RNG: sdk.NewRNG(g.seed)})
	if err != nil {
		tb.Fatalf("start: %v", err)
		return
	}
	e := engine.New(r)
	const key = "patch-check"
	if _, err := e.NewGame(ctx, &engine.NewGameRequest{Seats: g.seats, Options: g.options, Seed: g.seed, Game: key}); err != nil {
		tb.Fatalf("new game by name: %v", err)
		return
	}
	fresh := func(s S, events []sdk.Event, viewer int) sdk.View {
		v := r.View(s, viewer)
		v.Viewer = viewer
		if v.Ruleset == "" {
			v.Ruleset = info.ID
		}
		if len(events) > 0 {
			v.Events = make([]sdk.Event, len(events))
			for i, ev := range events {
				v.Events[i] = ev.For(viewer)
			}
		}
		return v
	}
	seats := r.Status(s).Seats
	viewers := func() []int {
		out := make([]int, 0, seats+1)
		for i := range seats {
			out = append(out, i)
		}
		return append(out, sdk.Spectator)
	}
	var before []sdk.View // the fresh views of the step before (none for the deal: it keeps none)
	patched := 0
	for i, m := range moves {
		what := fmt.Sprintf("action %d (%s)", i+1, describe(m.Action))
		res, err := apply(ctx, r, s, m)
		if err != nil {
			tb.Fatalf("%s: refused in-process (%v) but accepted through the engine", what, err)
			return
		}
		s = res.State
		lean := i%2 == 1
		st, err := e.Act(ctx, &engine.ActRequest{GameRef: engine.GameRef{Game: key, Seq: i}, Action: m.Action, Now: m.Now,
			Patches: true, PatchesOnly: lean})
		if errors.Is(err, engine.ErrNeedState) {
			tb.Fatalf("%s: the engine lost the game it was playing by name", what)
			return
		}
		if err != nil {
			tb.Fatalf("%s: %v", what, err)
			return
		}
		seats = st.Status.Seats
		now := make([]sdk.View, 0, seats+1)
		for _, v := range viewers() {
			now = append(now, fresh(s, res.Events, v))
		}
		// The views the step carries are the fresh ones.
		if st.Views != nil {
			if len(st.Views) != seats || st.Spectator == nil {
				tb.Fatalf("%s: %d views and a spectators' view %v, want %d and one", what, len(st.Views), st.Spectator != nil, seats)
				return
			}
			for j, v := range viewers() {
				got := st.Spectator
				if v != sdk.Spectator {
					got = st.Views[v]
				}
				if want := now[j].AppendJSON(nil); !bytes.Equal(got, want) {
					tb.Fatalf("%s: the view of %s is not the one View builds:\n%s", what, viewerName(v), firstDifference(want, got))
					return
				}
			}
		} else {
			if !lean {
				tb.Fatalf("%s: a step without views that was not asked to be lean", what)
				return
			}
			if len(st.Actions) != seats {
				tb.Fatalf("%s: a lean step with %d seats' actions, want %d", what, len(st.Actions), seats)
				return
			}
			for v := range seats {
				var want []byte
				if len(now[v].Actions) > 0 {
					want = sdk.AppendActionsJSON(nil, now[v].Actions)
				}
				if !bytes.Equal(st.Actions[v], want) {
					tb.Fatalf("%s: a lean step's open actions of seat %d are not the view's:\n%s", what, v, firstDifference(want, st.Actions[v]))
					return
				}
			}
		}
		// The patches are the whole-view diffs.
		over := st.Status.Phase == sdk.PhaseGameOver
		want := make([][]byte, len(now))
		all := before != nil && len(before) == len(now) && !over
		for j := range now {
			if before == nil || len(before) != len(now) || over {
				break
			}
			p, ok := sdk.AppendViewPatch(nil, &before[j], &now[j])
			if ok {
				want[j] = p
			} else if j < seats {
				all = false
			}
		}
		switch {
		case !all && st.Patches != nil:
			tb.Fatalf("%s: the step has patches where the whole views' diff has none (the views before were not the engine's, or a view cannot be patched)", what)
			return
		case all && st.Patches == nil:
			tb.Fatalf("%s: the step has no patches where every seat's whole-view diff exists", what)
			return
		case all:
			patched++
			for j, v := range viewers() {
				got := st.SpectatorPatch
				if v != sdk.Spectator {
					got = st.Patches[v]
				}
				if !bytes.Equal(got, want[j]) {
					tb.Fatalf("%s: the patch of %s is not the diff of the whole views:\n got %s\nwant %s", what, viewerName(v), got, want[j])
					return
				}
			}
		}
		if over {
			break
		}
		before = now
	}
	if len(moves) > 2 && patched == 0 {
		tb.Errorf("%d actions and no step with patches: the check checked nothing", len(moves))
	}
}
