package server_test

import (
	"testing"
	"time"

	"cardhouse/platform/cluster"
	"cardhouse/platform/cluster/clustertest"

	"github.com/coder/websocket"
)

// Frames published while a node's broker link is down are lost, and a relayed socket has no
// sequence to notice it: its client would play on with a view behind the room's (seen in
// TestClusterBrokerRestartOnRealNodes: a guest waiting for a turn that had come and gone). So when
// the link comes back the node ends every socket it relays, and their clients reconnect to a whole
// view. Here node-b's link is cut briefly, shorter than relayDead: Bob's socket, relayed through
// node-b to node-a's room, is closed with "going away" once the link is back, counted as "bus".
func TestRelaysEndedWhenTheBrokerLinkComesBack(t *testing.T) {
	clustertest.RequireNATS(t)
	nameA, nameB := nodeName("node-a"), nodeName("node-b")
	busB, link := clustertest.NATSLinked(t, nameB)
	a := newEnvTuned(t, "sqlite", inProcess(), onBus(nameA, clustertest.NATS(t, nameA)))
	b := a.nodeOn(nameB, busB)
	alice := a.register("Alice")
	code := alice.createRoom(map[string]any{"ruleset": matcherID, "seats": 2, "options": map[string]any{"hand_size": 6, "call_seconds": 0}}).Code
	bob := b.guest("Bob")
	bob.must("POST", "/api/rooms/"+code+"/join", nil, nil)
	alice.connect(code)
	cb := bob.connect(code)
	waitFigureFor(t, a, "cardhouse_cluster_relayed_sockets", map[string]string{"side": "owner"}, 1)

	link.Cut()
	for i := 0; cluster.Connected(busB); i++ {
		if i > 2000 {
			t.Fatal("node-b's bus still says it is connected after its link was cut")
		}
		time.Sleep(10 * time.Millisecond)
	}
	link.Restore()
	if st := closedWith(cb); st != websocket.StatusGoingAway {
		t.Errorf("Bob's relayed socket closed with %v, want going away", st)
	}
	if got := figure(t, b, "cardhouse_cluster_relays_ended_total", map[string]string{"side": "edge", "reason": "bus"}); got != 1 {
		t.Errorf("node-b's relays ended when its broker link came back: %v, want 1 (silent: %v)", got,
			figure(t, b, "cardhouse_cluster_relays_ended_total", map[string]string{"side": "edge", "reason": "silent"}))
	}
	// Bob reconnects through node-b (connect waits for the room's hello) and is in the room again.
	bob.connect(code)
	waitFigureFor(t, a, "cardhouse_cluster_relayed_sockets", map[string]string{"side": "owner"}, 1)
}
