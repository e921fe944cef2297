package server_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cardhouse/platform/cluster"
	"cardhouse/platform/room"

	"github.com/coder/websocket"
)

// relayBound is how soon a node must end the sockets relayed with a node gone silent: the
// relay's 4 s without a heartbeat, a beat, and room for a loaded shared machine.
const relayBound = 10 * time.Second

// faultyBus is a node's bus with faults put in by the test: mute makes the node silent on the
// bus (as when it freezes or is cut off: nothing it publishes leaves, nothing reaches it), drop
// loses the messages it publishes that match (the bus delivers at most once).
type faultyBus struct {
	cluster.Bus
	mute atomic.Bool
	drop atomic.Pointer[func(subject string, data []byte) bool]
}

func (f *faultyBus) Publish(subject string, data []byte) error {
	if d := f.drop.Load(); f.mute.Load() || d != nil && (*d)(subject, data) {
		return nil
	}
	return f.Bus.Publish(subject, data)
}

func (f *faultyBus) Subscribe(pattern string, fn func(cluster.Msg)) (cluster.Subscription, error) {
	return f.Bus.Subscribe(pattern, func(m cluster.Msg) {
		if !f.mute.Load() {
			fn(m)
		}
	})
}

func (f *faultyBus) Request(ctx context.Context, subject string, data []byte) ([]byte, error) {
	if f.mute.Load() {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return f.Bus.Request(ctx, subject, data)
}

// Close leaves the bus to the test's cleanup (the in-process one is shared by the nodes).
func (f *faultyBus) Close() error { return nil }

// dropRelayFrames makes f lose the relay's frames of kind (the first byte) on the relay's
// subjects of one way (conn: owner to edge, in: edge to owner).
func dropRelayFrames(f *faultyBus, way string, kind byte) {
	d := func(subject string, data []byte) bool {
		return strings.Contains(subject, "."+way+".") && len(data) > 0 && data[0] == kind
	}
	f.drop.Store(&d)
}

// relayPair is node-a running a room with Alice on it, and node-b, where Bob, seated, and
// Carol, watching, use it (their sockets relayed to node-a).
type relayPair struct {
	a, b              *env
	busA, busB        *faultyBus
	nameA, nameB      string
	alice, bob, carol *user
	code              string
}

func newRelayPair(t *testing.T, dialect string, busFor dialBus) *relayPair {
	p := &relayPair{nameA: nodeName("node-a"), nameB: nodeName("node-b")}
	p.busA, p.busB = &faultyBus{Bus: busFor(t, p.nameA)}, &faultyBus{Bus: busFor(t, p.nameB)}
	p.a = newEnvTuned(t, dialect, inProcess(), onBus(p.nameA, p.busA))
	p.b = p.a.nodeOn(p.nameB, p.busB)
	p.alice = p.a.register("Alice")
	p.code = p.alice.createRoom(map[string]any{"ruleset": matcherID, "seats": 2, "options": map[string]any{"hand_size": 6, "call_seconds": 0}}).Code
	p.bob, p.carol = p.b.guest("Bob"), p.b.guest("Carol")
	p.bob.must("POST", "/api/rooms/"+p.code+"/join", nil, nil)
	p.carol.must("POST", "/api/rooms/"+p.code+"/join", nil, nil)
	return p
}

// waitFigureFor waits (up to waitFor) until node n's figure is want.
func waitFigureFor(t *testing.T, n *env, name string, labels map[string]string, want float64) {
	t.Helper()
	deadline := time.Now().Add(waitFor)
	for {
		got := figure(t, n, name, labels)
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s%v: %v after %s, want %v", name, labels, got, waitFor, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The heartbeat between two nodes is one per pair: when the owner of a room goes silent on the
// bus (it froze, died, or was cut off), the browser's node closes every socket it relays to it
// with 1001 "going away" within the bound, so the clients reconnect; when the browser's node goes
// silent, the owner detaches the connections it relayed: its players count as dropped.
func TestSilentNodesEndRelayedSockets(t *testing.T) {
	eachDialect(t, func(t *testing.T, dialect string) {
		eachBus(t, func(t *testing.T, busFor dialBus) {
			t.Run("owner", func(t *testing.T) { testSilentOwner(t, dialect, busFor) })
			t.Run("edge", func(t *testing.T) { testSilentEdge(t, dialect, busFor) })
		})
	})
}

func testSilentOwner(t *testing.T, dialect string, busFor dialBus) {
	p := newRelayPair(t, dialect, busFor)
	p.alice.connect(p.code)
	relayed := []*conn{p.bob.connect(p.code), p.bob.connectV2(p.code), p.carol.connect(p.code)}
	waitFigureFor(t, p.a, "cardhouse_cluster_relayed_sockets", map[string]string{"side": "owner"}, 3)

	start := time.Now()
	p.busA.mute.Store(true)
	for _, c := range relayed {
		if st := closedWith(c); st != websocket.StatusGoingAway {
			t.Errorf("%s's relayed socket closed with %v, want going away", c.u.name, st)
		}
	}
	took := time.Since(start)
	t.Logf("node-b closed the 3 sockets relayed to the silent node-a in %s", took)
	if took > relayBound {
		t.Errorf("node-b closed the sockets relayed to the silent node-a after %s, want within %s", took, relayBound)
	}
	if got := figure(t, p.b, "cardhouse_cluster_relays_ended_total", map[string]string{"side": "edge", "reason": "silent"}); got != 3 {
		t.Errorf("node-b's relays ended because node-a was silent: %v, want 3", got)
	}
	waitFigureFor(t, p.b, "cardhouse_cluster_relayed_sockets", map[string]string{"side": "edge"}, 0)
}

func testSilentEdge(t *testing.T, dialect string, busFor dialBus) {
	p := newRelayPair(t, dialect, busFor)
	p.alice.connect(p.code)
	p.bob.connect(p.code)
	p.carol.connect(p.code)
	waitFigureFor(t, p.a, "cardhouse_cluster_relayed_sockets", map[string]string{"side": "owner"}, 2)
	if m := memberOf(p.alice.roomInfo(p.code), "Bob"); !m.Connected {
		t.Fatalf("Bob on node-a before node-b goes silent: %+v, want connected", m)
	}

	start := time.Now()
	p.busB.mute.Store(true)
	waitFigureFor(t, p.a, "cardhouse_cluster_relayed_sockets", map[string]string{"side": "owner"}, 0)
	took := time.Since(start)
	t.Logf("node-a detached the 2 connections relayed from the silent node-b in %s", took)
	if took > relayBound {
		t.Errorf("node-a detached the connections relayed from the silent node-b after %s, want within %s", took, relayBound)
	}
	if got := figure(t, p.a, "cardhouse_cluster_relays_ended_total", map[string]string{"side": "owner", "reason": "silent"}); got != 2 {
		t.Errorf("node-a's relays ended because node-b was silent: %v, want 2", got)
	}
	// Detached: the room no longer counts them connected (Bob's seat is in its grace).
	for range 500 {
		info := p.alice.roomInfo(p.code)
		if !memberOf(info, "Bob").Connected && !memberOf(info, "Carol").Connected {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("node-a's room still counts Bob or Carol connected: %+v", p.alice.roomInfo(p.code).Members)
}

func memberOf(info room.Info, name string) room.MemberInfo {
	i := slices.IndexFunc(info.Members, func(m room.MemberInfo) bool { return m.Name == name })
	if i < 0 {
		return room.MemberInfo{}
	}
	return info.Members[i]
}

// The heartbeats between two nodes do not grow with the sockets relayed between them: while the
// room is idle, the messages on the bus between node-a and node-b that are not frames of the
// protocol (nor requests) number about two per beat, one each way, with 1 relayed socket as with
// 50; with none, they stop.
func TestHeartbeatsArePerPairOfNodes(t *testing.T) {
	eachBus(t, func(t *testing.T, busFor dialBus) {
		p := newRelayPair(t, "sqlite", busFor)
		watch := busFor(t, nodeName("watch"))
		var mu sync.Mutex
		var others, beatsToB int
		var lastMsg time.Time
		beat := make(chan struct{}, 100)
		count := func(m cluster.Msg) {
			toks := strings.Split(m.Subject, ".")
			if len(toks) < 4 {
				return
			}
			switch toks[3] {
			case "http", "attach", "lobby":
				return
			case "in", "conn":
				if len(m.Data) > 0 && m.Data[0] == 'd' {
					return
				}
			}
			mu.Lock()
			others++
			lastMsg = time.Now()
			if m.Subject == "cardhouse.node."+p.nameB+".beat" {
				beatsToB++
				select {
				case beat <- struct{}{}:
				default:
				}
			}
			mu.Unlock()
		}
		for _, n := range []string{p.nameA, p.nameB} {
			sub, err := watch.Subscribe("cardhouse.node."+n+".>", count)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = sub.Stop() })
		}
		// measure counts the other messages over the next beats beats node-a sends node-b.
		const beats = 5
		measure := func() int {
			t.Helper()
			awaitBeat := func() {
				select {
				case <-beat:
				case <-time.After(waitFor):
					t.Fatalf("node-a sent node-b no heartbeat within %s", waitFor)
				}
			}
			awaitBeat()
			mu.Lock()
			others, beatsToB = 0, 0
			for len(beat) > 0 {
				<-beat
			}
			mu.Unlock()
			for {
				awaitBeat()
				mu.Lock()
				n, done := others, beatsToB >= beats
				mu.Unlock()
				if done {
					return n
				}
			}
		}

		conns := []*conn{p.bob.connect(p.code)}
		waitFigureFor(t, p.a, "cardhouse_cluster_relayed_sockets", map[string]string{"side": "owner"}, 1)
		one := measure()
		for range 49 {
			conns = append(conns, p.bob.connect(p.code))
		}
		waitFigureFor(t, p.a, "cardhouse_cluster_relayed_sockets", map[string]string{"side": "owner"}, 50)
		fifty := measure()
		t.Logf("messages other than the protocol's between the nodes over %d beats: %d with 1 relayed socket, %d with 50", beats, one, fifty)
		// One beat each way per beat, give or take the ends of the window.
		for _, m := range []struct {
			sockets, got int
		}{{1, one}, {50, fifty}} {
			if m.got < beats || m.got > 2*beats+2 {
				t.Errorf("with %d relayed sockets: %d messages over %d beats, want %d to %d", m.sockets, m.got, beats, beats, 2*beats+2)
			}
		}

		// With nothing relayed any more, the two nodes stop beating: the bus between them falls
		// quiet (three beats' time without a message) rather than beat on for ever.
		for _, c := range conns {
			c.ws.Close(websocket.StatusNormalClosure, "")
		}
		waitFigureFor(t, p.a, "cardhouse_cluster_relayed_sockets", map[string]string{"side": "owner"}, 0)
		deadline := time.Now().Add(waitFor)
		for {
			mu.Lock()
			quiet := time.Since(lastMsg)
			mu.Unlock()
			if quiet > 3*time.Second {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the nodes still beat each other %s after their last relayed socket closed", waitFor)
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
}

// A relayed socket whose state one side lost is found by the pair's heartbeat and ended, though
// both nodes keep beating: a socket whose detach was lost on the bus (the edge forgot it) is
// detached by the owner, and the sockets of a room whose owner restarted (and forgot them; their
// closes lost) are closed with 1001 by the edge.
func TestForgottenRelayedSocketsEnded(t *testing.T) {
	eachDialect(t, func(t *testing.T, dialect string) {
		eachBus(t, func(t *testing.T, busFor dialBus) {
			p := newRelayPair(t, dialect, busFor)
			p.alice.connect(p.code)
			cb, cc := p.bob.connect(p.code), p.carol.connect(p.code)
			waitFigureFor(t, p.a, "cardhouse_cluster_relayed_sockets", map[string]string{"side": "owner"}, 2)

			// Carol leaves; her socket's detach is lost: node-a still holds her connection until
			// the heartbeat shows node-b no longer has it.
			dropRelayFrames(p.busB, "in", 'x')
			cc.ws.Close(websocket.StatusNormalClosure, "")
			waitFigureFor(t, p.b, "cardhouse_cluster_relayed_sockets", map[string]string{"side": "edge"}, 1)
			waitFigureFor(t, p.a, "cardhouse_cluster_relayed_sockets", map[string]string{"side": "owner"}, 1)
			if got := figure(t, p.a, "cardhouse_cluster_relays_ended_total", map[string]string{"side": "owner", "reason": "forgotten"}); got != 1 {
				t.Errorf("node-a's relays ended as forgotten by node-b: %v, want 1", got)
			}
			if memberOf(p.alice.roomInfo(p.code), "Carol").Connected {
				t.Error("node-a's room still counts Carol connected")
			}

			// node-a restarts and its closes are lost, and so is its news that it took the room
			// again (the event moved, which would end the socket at once: moved_test.go): Bob's
			// socket on node-b is closed with 1001 once node-a's heartbeat shows it no longer
			// knows it.
			drop := func(subject string, data []byte) bool {
				return subject == "cardhouse.all.moved" || strings.Contains(subject, ".conn.") && len(data) > 0 && data[0] == 'c'
			}
			p.busA.drop.Store(&drop)
			p.a.stop()
			p.a.start()
			if st := closedWith(cb); st != websocket.StatusGoingAway {
				t.Errorf("Bob's relayed socket closed with %v, want going away", st)
			}
			if got := figure(t, p.b, "cardhouse_cluster_relays_ended_total", map[string]string{"side": "edge", "reason": "forgotten"}); got != 1 {
				t.Errorf("node-b's relays ended as forgotten by node-a: %v, want 1", got)
			}
			for _, n := range []*env{p.a, p.b} {
				if got := figure(t, n, "cardhouse_cluster_relays_ended_total", map[string]string{"reason": "silent"}); got != 0 {
					t.Errorf("relays ended as silent: %v, want 0 (both nodes kept beating)", got)
				}
			}
		})
	})
}
