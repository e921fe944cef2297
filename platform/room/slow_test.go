package room_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"cardhouse/platform/room"
	"cardhouse/platform/store"
	"cardhouse/platform/store/storetest"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest/toy"
)

// twoInARoom makes a room of the toy ruleset on a fresh SQLite store, hosted by users[0], that
// users[1] has joined (as a spectator when spectate); chatBurst 0 is the manager's default.
func twoInARoom(t *testing.T, chatBurst int, spectate bool) (*room.Room, []*store.User) {
	t.Helper()
	ctx := context.Background()
	st := storetest.Open(t, "sqlite")
	m, err := room.NewManager(ctx, room.Config{Store: st, Engines: map[string]engine.Engine{toy.ID: engine.New(toy.Ruleset{})},
		Clock: room.NewFakeClock(time.Unix(0, 0)), Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), ChatBurst: chatBurst})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
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
	if _, err := r.Join(ctx, users[1], spectate); err != nil {
		t.Fatal(err)
	}
	return r, users
}

// TestSlowClientIsDropped: a client that never reads its outbox is dropped (close code 1013)
// when the outbox fills, and the room goes on serving everyone else.
func TestSlowClientIsDropped(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, users := twoInARoom(t, 100, true)
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

// recordingSink is a Sink that notes the type of each message queued and each flush.
type recordingSink struct {
	mu      sync.Mutex
	events  []string
	flushed chan struct{}
}

func (s *recordingSink) Queue(b []byte) bool {
	var m struct{ Type string }
	_ = json.Unmarshal(b, &m)
	s.mu.Lock()
	s.events = append(s.events, m.Type)
	s.mu.Unlock()
	return true
}

func (s *recordingSink) Flush() {
	s.mu.Lock()
	s.events = append(s.events, "flush")
	s.mu.Unlock()
	select {
	case s.flushed <- struct{}{}:
	default:
	}
}

// take returns the events so far and forgets them.
func (s *recordingSink) take() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	ev := s.events
	s.events = nil
	return ev
}

// TestSinkFlushedOncePerStep: a sink client gets everything the actor queued for it in one step
// (attaching: the hello; a deal: the views, then the host's "accepted") followed by one flush,
// so that the server writes them together; another connection's step flushes it too.
func TestSinkFlushedOncePerStep(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, users := twoInARoom(t, 0, false)
	sinks := []*recordingSink{{flushed: make(chan struct{}, 1)}, {flushed: make(chan struct{}, 1)}}
	// until waits until s has flushed after a message of type want, and returns its events.
	until := func(s *recordingSink, want string) []string {
		for {
			s.mu.Lock()
			ev := slices.Clone(s.events)
			s.mu.Unlock()
			if i := slices.Index(ev, want); i >= 0 && slices.Contains(ev[i:], "flush") {
				return ev
			}
			select {
			case <-s.flushed:
			case <-time.After(30 * time.Second): // a flush takes microseconds: none is coming
				t.Fatalf("waiting for a flush after %q, the sink saw %q", want, ev)
			}
		}
	}
	clients := make([]*room.Client, 2)
	for i, u := range users {
		clients[i] = room.NewSinkClient(u.ID, sinks[i])
		if err := r.Attach(ctx, u, clients[i], nil); err != nil {
			t.Fatal(err)
		}
		if ev := until(sinks[i], room.MsgHello); ev[len(ev)-1] != "flush" {
			t.Fatalf("client %d's sink after attaching: %q, want a flush last", i, ev)
		}
		sinks[i].take()
	}
	if err := r.Handle(ctx, users[0], clients[0], room.Incoming{Type: room.MsgDeal, ID: "d1"}); err != nil {
		t.Fatal(err)
	}
	// The deal's step: the host's view(s), its accepted, then one flush; the other's view, then
	// a flush.
	// step returns the messages queued in the step that queued the first message of type want
	// (those between the flushes around it).
	step := func(ev []string, want string) []string {
		i := slices.Index(ev, want)
		from := 0
		for j := range ev[:i] {
			if ev[j] == "flush" {
				from = j + 1 // a members message's step may come first
			}
		}
		return ev[from : i+slices.Index(ev[i:], "flush")]
	}
	host := step(until(sinks[0], room.MsgAccepted), room.MsgAccepted)
	if !slices.Contains(host, room.MsgView) || host[len(host)-1] != room.MsgAccepted {
		t.Fatalf("the host's sink got %q in the deal's step; want its view and accepted, then one flush", host)
	}
	if other := step(until(sinks[1], room.MsgView), room.MsgView); !slices.Contains(other, room.MsgView) {
		t.Fatalf("the other sink got %q in the deal's step; want its view, then a flush", other)
	}
	for i, c := range clients {
		if c.Out() != nil {
			t.Errorf("client %d of a sink has an outbox channel", i)
		}
	}
}
