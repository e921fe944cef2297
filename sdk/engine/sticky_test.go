package engine

import (
	"context"
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
