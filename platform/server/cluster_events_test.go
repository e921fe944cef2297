package server_test

import (
	"net/http"
	"testing"
	"time"

	"cardhouse/platform/cluster"
	"cardhouse/platform/cluster/clustertest"
	"cardhouse/platform/room"

	"github.com/coder/websocket"
)

// eachBus runs f with the bus of each node: the in-process bus that every node shares (no
// broker), and the real NATS broker, a connection per node (skipped, saying so, without
// CARDHOUSE_TEST_NATS_URL). busFor takes the test that calls it, which may be a subtest of f's t:
// a connection's skip, failure and clean-up belong to the goroutine that asked for it.
func eachBus(t *testing.T, f func(t *testing.T, busFor dialBus)) {
	t.Run("local", func(t *testing.T) {
		bus := cluster.NewLocalBus()
		t.Cleanup(func() { bus.Close() })
		f(t, func(testing.TB, string) cluster.Bus { return bus })
	})
	t.Run("nats", func(t *testing.T) {
		clustertest.RequireNATS(t)
		f(t, natsBus)
	})
}

// dialBus connects node to the test's cluster on behalf of t (the test whose goroutine calls it).
type dialBus func(t testing.TB, node string) cluster.Bus

// waitDisabled waits until node n has ruleset id disabled for new rooms (or enabled: off false).
func waitDisabled(t *testing.T, n *env, id string, off bool) {
	t.Helper()
	for range 2000 {
		if _, got := n.rooms.DisabledRulesets()[id]; got == off {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("ruleset %s disabled on a node: want %v, still not so", id, off)
}

// Three nodes: node-b runs a room; Bob's sockets are one on node-b and one on node-a, which relays
// it to node-b. What is done on node-c reaches the nodes that must act: Carol's new look shows in
// node-b's room on every socket, a ban of Bob closes both his sockets with a "bye" (Alice's stays
// open), and a ruleset disabled on node-c is refused for new rooms on node-a, and enabled again on
// node-a is offered on node-b. The figures of the events are on each node's /metrics.
func TestModerationReachesEveryNode(t *testing.T) {
	eachDialect(t, func(t *testing.T, dialect string) {
		eachBus(t, func(t *testing.T, busFor dialBus) {
			testModerationReachesEveryNode(t, dialect, busFor)
		})
	})
}

func testModerationReachesEveryNode(t *testing.T, dialect string, busFor dialBus) {
	nameA, nameB, nameC := nodeName("node-a"), nodeName("node-b"), nodeName("node-c")
	b := newEnvTuned(t, dialect, inProcess(), onBus(nameB, busFor(t, nameB)))
	a := b.nodeOn(nameA, busFor(t, nameA))
	c := b.nodeOn(nameC, busFor(t, nameC))
	alice := b.register("Alice")
	code := alice.createRoom(map[string]any{"ruleset": matcherID, "seats": 3, "options": map[string]any{"hand_size": 4, "call_seconds": 0}}).Code
	bob, carol := a.register("Bob"), c.guest("Carol")
	bob.must("POST", "/api/rooms/"+code+"/join", nil, nil)
	carol.must("POST", "/api/rooms/"+code+"/join", nil, nil)
	ca := alice.connect(code)
	bobOnA, bobOnB := bob.connect(code), bob.via(b).connect(code)
	alice.must("POST", "/api/rooms/"+code+"/deal", nil, nil)

	// A look changed on node-c: node-b's room shows it at once, to a local and a relayed socket.
	carol.must("PATCH", "/api/me", map[string]any{"avatar": "moon", "colour": "#2f6fd6"}, nil)
	for _, conn := range []*conn{ca, bobOnA} {
		conn.waitMember("Carol", func(m room.MemberInfo) bool { return m.Avatar == "moon" && m.Colour == "#2f6fd6" })
	}

	// A ban made on node-c (what the admin area's ban does): both of Bob's sockets get the bye and
	// close, the one on node-b and the one node-a relays; Alice sees him gone and stays.
	if err := c.st.SetBanned(t.Context(), bob.id, true); err != nil {
		t.Fatal(err)
	}
	c.rooms.DisconnectUser(t.Context(), bob.id, "banned", "this account is banned: cheating")
	for _, conn := range []*conn{bobOnA, bobOnB} {
		if m := conn.expect("bye"); str(m["code"]) != "banned" || str(m["reason"]) != "this account is banned: cheating" {
			t.Errorf("%s's socket: bye %s %s, want banned", conn.u.name, m["code"], m["reason"])
		}
		if st := closedWith(conn); st != websocket.StatusPolicyViolation {
			t.Errorf("%s's socket closed with %v, want policy violation", conn.u.name, st)
		}
	}
	ca.waitMember("Bob", func(m room.MemberInfo) bool { return !m.Connected })

	// A ruleset disabled on node-c is refused on node-a; enabled on node-a, node-b offers it.
	c.rooms.SetRulesetDisabled(matcherID, true, "a fix is coming")
	waitDisabled(t, a, matcherID, true)
	waitDisabled(t, b, matcherID, true)
	dave := a.guest("Dave")
	var refused apiErr
	if st := dave.call("POST", "/api/rooms", map[string]any{"ruleset": matcherID}, &refused); st != http.StatusConflict || refused.Error.Code != "ruleset_disabled" {
		t.Fatalf("a new room of a ruleset disabled on another node: %d %+v, want 409 ruleset_disabled", st, refused)
	}
	a.rooms.SetRulesetDisabled(matcherID, false, "")
	waitDisabled(t, b, matcherID, false)
	waitDisabled(t, c, matcherID, false)
	dave.via(b).must("POST", "/api/rooms", map[string]any{"ruleset": matcherID}, nil)

	// The figures: what each node sent and heard.
	nameOf := map[*env]string{a: nameA, b: nameB, c: nameC}
	for _, f := range []struct {
		node            *env
		kind, direction string
		want            float64
	}{
		{c, "look", "sent", 1}, {b, "look", "received", 1}, {a, "look", "received", 1},
		{c, "disconnect", "sent", 1}, {b, "disconnect", "received", 1}, {a, "disconnect", "received", 1},
		{c, "ruleset", "sent", 1}, {a, "ruleset", "sent", 1}, {b, "ruleset", "received", 2},
	} {
		if got := figure(t, f.node, "cardhouse_cluster_events_total", map[string]string{"kind": f.kind, "direction": f.direction}); got != f.want {
			t.Errorf("events %s %s on %s: %v, want %v", f.kind, f.direction, nameOf[f.node], got, f.want)
		}
	}
}
