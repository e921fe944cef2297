package server_test

import (
	"context"
	"sync/atomic"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
)

// gatedEngine holds the room's next action inside the engine until released: the room's actor
// is busy (as one waiting for a slow commit is) for as long as the test wants.
type gatedEngine struct {
	engine.Engine
	armed    atomic.Bool
	entered  chan struct{} // closed when the held call has begun
	release  chan struct{} // closed by the test
	timedOut atomic.Int32  // held calls that ended on their deadline instead
}

func (g *gatedEngine) Act(ctx context.Context, req *engine.ActRequest) (*engine.Step, error) {
	if g.armed.CompareAndSwap(true, false) {
		close(g.entered)
		select {
		case <-g.release:
		case <-ctx.Done():
			g.timedOut.Add(1)
			return nil, ctx.Err()
		}
	}
	return g.Engine.Act(ctx, req)
}

// A heartbeat is answered by the connection, never behind the room: while the room's actor is
// held inside one player's action (as it is while an action waits for its commit), the other
// player's ping gets its pong, and the held action then goes on and is accepted. When the ping
// went through the room, the pong waited for the actor: a client heard nothing for as long as
// the room was held, and a heartbeat of a few seconds took the socket for dead.
func TestPingIsAnsweredWhileTheRoomIsBusy(t *testing.T) {
	eng := &gatedEngine{Engine: matcherEngine(), entered: make(chan struct{}), release: make(chan struct{})}
	e := newEnv(t, "sqlite", map[string]engine.Engine{matcherID: eng})
	_, _, _, ca, cb := twoSeats(e, map[string]any{"hand_size": 6, "call_seconds": 0})
	v := ca.latestView()
	cb.latestView()
	mover, other := ca, cb
	if v.Turn != 0 {
		mover, other = cb, ca
	}
	eng.armed.Store(true)
	mover.send(map[string]any{"type": "act", "id": "held", "action": map[string]any{"type": sdk.ActDraw}})
	<-eng.entered // the room's actor is inside the action now

	other.send(map[string]any{"type": "ping", "id": "beat"})
	for {
		m := other.next()
		if str(m["type"]) == "pong" && str(m["id"]) == "beat" {
			break
		}
	}
	if n := eng.timedOut.Load(); n != 0 {
		t.Fatalf("the pong came only after the held action's engine call ran out of time (%d times): it waited for the room", n)
	}
	close(eng.release)
	if m := mover.expect("accepted"); str(m["id"]) != "held" {
		t.Fatalf("the held action's answer: %s", m)
	}
}
