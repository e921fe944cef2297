package room_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"cardhouse/platform/room"
	"cardhouse/platform/store"
	"cardhouse/platform/store/storetest"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest/toy"
)

// TestRoomSeatsTheGenericBot: a variant that declares no bot (the toy without its bot) still
// offers level 1, the engine's generic bot, so a computer room seats it; a level above is refused
// with the levels there are.
func TestRoomSeatsTheGenericBot(t *testing.T) {
	t.Parallel()
	tb := newTable(t, storetest.Dialects()[0])
	m, err := room.NewManager(context.Background(), room.Config{Store: tb.st, Clock: tb.clock,
		Engines: map[string]engine.Engine{toy.ID: engine.New(toy.Botless{})},
		Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)), Grace: 20 * time.Second, PauseLimit: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	ctx := context.Background()
	alice := tb.user("Alice", true)
	if _, err := m.Create(ctx, alice, room.CreateRequest{Ruleset: toy.ID, Mode: store.ModeComputer, Bots: []int{2}}); err == nil || !strings.Contains(err.Error(), "no bot level 2 (levels: [1])") {
		t.Errorf("a bot of level 2: err = %v, want a refusal naming level 1", err)
	}
	if _, err := m.Create(ctx, alice, room.CreateRequest{Ruleset: toy.ID, Mode: store.ModeComputer, Bots: []int{1, 1}}); err != nil {
		t.Errorf("two generic bots of level 1: %v", err)
	}
}
