package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"cardhouse/sdk"
)

// TestStickyEvictsTheLeastRecentlyUsedGame fills the engine's games past gameCacheSize: the game
// used least recently is forgotten (its host is asked for the state), the one just used is kept.
func TestStickyEvictsTheLeastRecentlyUsedGame(t *testing.T) {
	t.Parallel()
	e := New[*tinyState](tiny{})
	ctx := context.Background()
	var first []byte
	for i := range gameCacheSize + 1 {
		st, err := e.NewGame(ctx, &NewGameRequest{Seats: 2, Seed: 5, Game: fmt.Sprint(i), NoViews: true})
		if err != nil {
			t.Fatal(err)
		}
		first = st.State
		if i == gameCacheSize-1 {
			// The cache is full: game 0 used again, game 1 is the least recently used.
			if _, err := e.Inspect(ctx, &InspectRequest{GameRef: GameRef{Game: "0"}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := e.Inspect(ctx, &InspectRequest{GameRef: GameRef{Game: "1"}}); !errors.Is(err, ErrNeedState) {
		t.Errorf("the least recently used game: got %v, want ErrNeedState", err)
	}
	for _, key := range []string{"0", "2", fmt.Sprint(gameCacheSize)} {
		if _, err := e.Inspect(ctx, &InspectRequest{GameRef: GameRef{Game: key}}); err != nil {
			t.Errorf("game %s: %v", key, err)
		}
	}
	// Given its state, the evicted game is back, and a refused action leaves it where it was.
	a := sdk.Action{Seat: 1, Type: sdk.ActDraw}
	if _, err := e.Act(ctx, &ActRequest{GameRef: GameRef{Game: "1"}, State: first, Action: a}); !errors.Is(err, sdk.ErrIllegal) {
		t.Fatalf("seat 1 drawing out of turn: %v", err)
	}
	if _, err := e.Act(ctx, &ActRequest{GameRef: GameRef{Game: "1"}, Action: sdk.Action{Seat: 0, Type: sdk.ActDraw}}); err != nil {
		t.Errorf("after the state was sent: %v", err)
	}
}

// TestStickyLeanStep: with PatchesOnly, a step on a game whose views the engine kept comes
// without its views, with every seat's patch and open actions (each the "actions" its full view
// holds); a step the engine cannot patch (its copy came from the state's bytes) carries the full
// views as without the flag; a dry run is patched from the game's views and keeps them.
func TestStickyLeanStep(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	full := New[*tinyState](tiny{})
	lean := New[*tinyState](tiny{})
	start, err := full.NewGame(ctx, &NewGameRequest{Seats: 3, Seed: 9, Game: "g"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lean.NewGame(ctx, &NewGameRequest{Seats: 3, Seed: 9, Game: "g", NoViews: true}); err != nil {
		t.Fatal(err)
	}
	draw := func(seq int) sdk.Action { return sdk.Action{Seat: seq % 3, Type: sdk.ActDraw} }
	state := start.State
	for seq := range 6 {
		ref := GameRef{Game: "g", Seq: seq}
		want, err := full.Act(ctx, &ActRequest{State: state, Action: draw(seq)})
		if err != nil {
			t.Fatal(err)
		}
		state = want.State
		if seq == 3 { // a dry run first: patched from the game's views, which stay
			dry, err := lean.Act(ctx, &ActRequest{GameRef: ref, Action: draw(seq), DryRun: true, Patches: true, PatchesOnly: true})
			if err != nil || dry.Views != nil || dry.Patches == nil {
				t.Fatalf("a lean dry run: %v, %d views, %d patches", err, len(dry.Views), len(dry.Patches))
			}
		}
		got, err := lean.Act(ctx, &ActRequest{GameRef: ref, Action: draw(seq), Patches: true, PatchesOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if seq == 0 { // the deal's views are not kept: nothing to patch from
			if got.Views == nil || got.Patches != nil || got.Actions != nil {
				t.Fatalf("the first action: %d views, %d patches, %d actions; want the views only", len(got.Views), len(got.Patches), len(got.Actions))
			}
			continue
		}
		if got.Views != nil || got.Spectator != nil || len(got.Patches) != 3 || got.SpectatorPatch == nil || len(got.Actions) != 3 {
			t.Fatalf("action %d: %d views, spectator %v, %d patches, %d actions; want patches and actions only", seq+1, len(got.Views), got.Spectator != nil, len(got.Patches), len(got.Actions))
		}
		for s, v := range want.Views {
			var view struct {
				Actions json.RawMessage `json:"actions"`
			}
			if err := json.Unmarshal(v, &view); err != nil {
				t.Fatal(err)
			}
			if string(view.Actions) != string(got.Actions[s]) {
				t.Fatalf("action %d, seat %d: open actions %s, the view holds %s", seq+1, s, got.Actions[s], view.Actions)
			}
		}
	}
	// The state sent whole (a fresh engine, an evicted game): no views kept, so the full views.
	got, err := lean.Act(ctx, &ActRequest{GameRef: GameRef{Game: "g", Seq: 6}, State: state, Action: draw(6), Patches: true, PatchesOnly: true})
	if err != nil || got.Views == nil || got.Patches != nil {
		t.Fatalf("a lean call with the state's bytes: %v, %d views, %d patches; want the views", err, len(got.Views), len(got.Patches))
	}
}
