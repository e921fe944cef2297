package room_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"cardhouse/platform/room"
	"cardhouse/platform/store"
	"cardhouse/platform/store/storetest"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest/toy"
)

// TestSlowClientIsDropped: a client that never reads its outbox is dropped (close code 1013)
// when the outbox fills, and the room goes on serving everyone else.
func TestSlowClientIsDropped(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := storetest.Open(t, "sqlite")
	m, err := room.NewManager(ctx, room.Config{Store: st, Engines: map[string]engine.Engine{toy.ID: engine.New(toy.Ruleset{})},
		Clock: room.NewFakeClock(time.Unix(0, 0)), Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), ChatBurst: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	users := make([]*store.User, 2)
	for i := range users {
		users[i] = &store.User{DisplayName: fmt.Sprint("u", i), Guest: true}
		if err := st.CreateUser(ctx, users[i]); err != nil {
			t.Fatal(err)
		}
	}
	r, err := m.Create(ctx, users[0], room.CreateRequest{Ruleset: toy.ID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Join(ctx, users[1], true); err != nil {
		t.Fatal(err)
	}
	slow := room.NewClient(users[1].ID, 4)
	if err := r.Attach(ctx, users[1], slow, nil); err != nil {
		t.Fatal(err)
	}
	fast := room.NewClient(users[0].ID, 1000)
	if err := r.Attach(ctx, users[0], fast, nil); err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		if _, err := r.Say(ctx, users[0], fmt.Sprint("line ", i)); err != nil {
			t.Fatalf("chat line %d: %v", i, err)
		}
	}
	<-slow.Gone()
	if code, reason := slow.Reason(); code != room.CloseTooSlow {
		t.Fatalf("slow client dropped with %d %q, want %d", code, reason, room.CloseTooSlow)
	}
	select {
	case <-fast.Gone():
		t.Fatal("the fast client was dropped too")
	default:
	}
	if got := len(fast.Out()); got < 10 {
		t.Fatalf("the fast client has %d messages queued, want at least the 10 chat lines", got)
	}
}
