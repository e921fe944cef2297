package viewpatch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"cardhouse/plugins/builtin"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest"
)

// stickyHost plays a sticky engine as a room does: each game is named (GameRef), and an action on
// a state the engine produced goes without the state bytes, so that the engine answers from its
// copy and writes the step's patches (engine.Step.Patches). A state it does not know goes whole.
type stickyHost struct {
	engine.Engine
	mu    sync.Mutex
	games int
	// seqs names each state the engine returned: its game and action count.
	seqs map[string]engine.GameRef
}

func (h *stickyHost) NewGame(ctx context.Context, req *engine.NewGameRequest) (*engine.Step, error) {
	h.mu.Lock()
	h.games++
	r := *req
	r.Game = fmt.Sprintf("game-%d", h.games)
	h.mu.Unlock()
	st, err := h.Engine.NewGame(ctx, &r)
	if err == nil {
		h.name(st.State, engine.GameRef{Game: r.Game})
	}
	return st, err
}

func (h *stickyHost) name(state []byte, ref engine.GameRef) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.seqs == nil {
		h.seqs = map[string]engine.GameRef{}
	}
	h.seqs[string(state)] = ref
}

func (h *stickyHost) Act(ctx context.Context, req *engine.ActRequest) (*engine.Step, error) {
	h.mu.Lock()
	ref, ok := h.seqs[string(req.State)]
	h.mu.Unlock()
	if !ok || req.DryRun {
		return h.Engine.Act(ctx, req)
	}
	r := *req
	r.GameRef, r.State, r.Patches = ref, nil, true
	st, err := h.Engine.Act(ctx, &r)
	if errors.Is(err, engine.ErrNeedState) {
		r.State = req.State
		st, err = h.Engine.Act(ctx, &r)
	}
	if err == nil {
		h.name(st.State, engine.GameRef{Game: ref.Game, Seq: ref.Seq + 1})
	}
	return st, err
}

// TestEnginePatchesRebuildEveryView: a sticky engine's patches (written from the typed views, no
// JSON read), applied to the views of the step before, give exactly the step's views, for every
// seat and the spectators, in random games of every variant; they come with nearly every
// action, and the spectators' never carry a hand's cards.
func TestEnginePatchesRebuildEveryView(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	variants := 0
	for id, mk := range builtin.Engines() {
		variants++
		inner := mk()
		desc, err := inner.Describe(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			seats := desc.MinSeats + i%(min(desc.MaxSeats, 5)-desc.MinSeats+1)
			name := fmt.Sprintf("%s/%d-seats/seed-%d", id, seats, i+1)
			h := &stickyHost{Engine: inner}
			patched, unpatched := 0, 0
			pc := rulesettest.PlayoutConfig{Seats: seats, Seed: uint64(i + 1), Random: 0.3, Views: true, Games: 2, MaxSteps: 600,
				OnAct: func(_ context.Context, a rulesettest.Attempt) error {
					if a.Err != nil {
						return nil
					}
					st, before := a.Step, a.BeforeStep
					if st.Patches == nil {
						unpatched++
						return nil
					}
					patched++
					if len(st.Patches) != len(st.Views) || len(before.Views) != len(st.Views) {
						t.Fatalf("%s: %d patches for %d views (%d before)", name, len(st.Patches), len(st.Views), len(before.Views))
					}
					check := func(viewer string, held, p, want []byte) {
						got, err := Apply(nil, held, p)
						if err != nil {
							t.Fatalf("%s %s: applying %s: %v", name, viewer, p, err)
						}
						if c, w := canonical(t, got), canonical(t, want); c != w {
							t.Fatalf("%s %s: the patched view differs\npatch %s\ngot  %s\nwant %s", name, viewer, p, c, w)
						}
					}
					for s := range st.Views {
						check(fmt.Sprintf("seat %d", s), before.Views[s], st.Patches[s], st.Views[s])
					}
					if st.SpectatorPatch == nil {
						t.Fatalf("%s: a step with patches but none for the spectators", name)
					}
					if phaseOf(t, st.Spectator) == sdk.PhasePlaying { // once over, every hand left is shown
						spectatorPatchHidesHands(t, name, patched, before.Spectator, st.SpectatorPatch)
					}
					check("spectators", before.Spectator, st.SpectatorPatch, st.Spectator)
					return nil
				}}
			if _, err := rulesettest.Playout(ctx, h, pc); err != nil && !errors.Is(err, rulesettest.ErrNotEnded) {
				t.Fatalf("%s: %v", name, err)
			}
			// The first action of each game has none: the engine keeps the views of actions only.
			if patched < 10 || unpatched > 2*pc.Games+patched/20 {
				t.Errorf("%s: %d steps with patches, %d without: want patches nearly always", name, patched, unpatched)
			}
		}
	}
	if variants != len(builtin.Engines()) || variants == 0 {
		t.Fatalf("played %d variants", variants)
	}
}

// TestEnginePatchesNeedTheEnginesViews: a sticky engine writes no patches when it does not hold
// the views of the step before: the game was just dealt, or its state came whole (a fresh plugin,
// an evicted game).
func TestEnginePatchesNeedTheEnginesViews(t *testing.T) {
	ctx := context.Background()
	e := builtin.Engines()["lastcard"]()
	start, err := e.NewGame(ctx, &engine.NewGameRequest{Seats: 3, Seed: 7, Game: "g"})
	if err != nil {
		t.Fatal(err)
	}
	first := playable(t, start.Views[start.Status.Turn], start.Status.Turn)
	step, err := e.Act(ctx, &engine.ActRequest{GameRef: engine.GameRef{Game: "g"}, Action: first, Patches: true})
	if err != nil {
		t.Fatal(err)
	}
	if step.Patches != nil {
		t.Fatalf("the deal's views are not kept, yet the first action has patches")
	}
	next := playable(t, step.Views[step.Status.Turn], step.Status.Turn)
	// The state sent whole: the engine's views may not be the host's.
	whole, err := e.Act(ctx, &engine.ActRequest{GameRef: engine.GameRef{Game: "g", Seq: 1}, State: step.State, Action: next, Patches: true})
	if err != nil {
		t.Fatal(err)
	}
	if whole.Patches != nil {
		t.Fatalf("a call with the state's bytes has patches")
	}
	third := playable(t, whole.Views[whole.Status.Turn], whole.Status.Turn)
	ok, err := e.Act(ctx, &engine.ActRequest{GameRef: engine.GameRef{Game: "g", Seq: 2}, Action: third, Patches: true})
	if err != nil {
		t.Fatal(err)
	}
	if ok.Patches == nil {
		t.Fatalf("an action on the engine's own copy has no patches")
	}
	// Without Patches the engine writes none (nobody takes them), but keeps the views.
	fourth := playable(t, ok.Views[ok.Status.Turn], ok.Status.Turn)
	none, err := e.Act(ctx, &engine.ActRequest{GameRef: engine.GameRef{Game: "g", Seq: 3}, Action: fourth})
	if err != nil {
		t.Fatal(err)
	}
	if none.Patches != nil {
		t.Fatalf("patches that were not asked for")
	}
	fifth := playable(t, none.Views[none.Status.Turn], none.Status.Turn)
	ok, err = e.Act(ctx, &engine.ActRequest{GameRef: engine.GameRef{Game: "g", Seq: 4}, Action: fifth, Patches: true})
	if err != nil {
		t.Fatal(err)
	}
	if ok.Patches == nil || ok.SpectatorPatch == nil {
		t.Fatalf("an action on the engine's own copy has no patches")
	}
	for s, p := range ok.Patches {
		got, err := Apply(nil, none.Views[s], p)
		if err != nil || !bytes.Equal([]byte(canonical(t, got)), []byte(canonical(t, ok.Views[s]))) {
			t.Fatalf("seat %d: the patch does not rebuild the view (%v)", s, err)
		}
	}
}

// playable is an action seat may take in v without cards: a draw or a pass.
func playable(t *testing.T, v []byte, seat int) sdk.Action {
	t.Helper()
	var view sdk.View
	if err := json.Unmarshal(v, &view); err != nil {
		t.Fatal(err)
	}
	for _, sp := range view.Actions {
		if strings.HasPrefix(sp.Type, "draw") || sp.Type == "pass" {
			return sdk.Action{Seat: seat, Type: sp.Type}
		}
	}
	t.Fatalf("seat %d can neither draw nor pass in %s", seat, v)
	return sdk.Action{}
}
