package server_test

import (
	"testing"

	"github.com/coder/websocket"
)

// When another node takes a room (its owner died, froze past its lease or restarted under its
// name), the nodes relaying sockets to the old owner end them at once on hearing that the room
// moved (room.RoomMoved, a new lease epoch), so that their clients reconnect and land on the new
// owner, rather than after the old owner's heartbeats are found missing or its lists found
// without them (4 s and more). Here node-a loses the room and its close frames are lost (as when
// it died: nobody tells node-b), while it keeps beating; node-c takes the room: Bob's and Carol's
// sockets on node-b are closed with 1001, ended because the room moved.
func TestMovedRoomEndsRelayedSockets(t *testing.T) {
	eachBus(t, func(t *testing.T, busFor dialBus) {
		p := newRelayPair(t, "sqlite", busFor)
		p.alice.connect(p.code)
		relayed := []*conn{p.bob.connect(p.code), p.carol.connectV2(p.code)}
		waitFigureFor(t, p.a, "cardhouse_cluster_relayed_sockets", map[string]string{"side": "owner"}, 2)
		dropRelayFrames(p.busA, "conn", 'c') // node-a's closes never reach node-b

		nameC := nodeName("node-c")
		c := p.a.nodeOn(nameC, &faultyBus{Bus: busFor(t, nameC)})
		// node-a's lease runs out (released, as if by a stop that said nothing more): its next
		// renewal finds it gone and it drops the room; node-c takes it on a request.
		raw := openRaw(t, "sqlite", p.a.dsn)
		if err := raw.Exec("UPDATE room_leases SET node = '', expires_ms = 0").Error; err != nil {
			t.Fatal(err)
		}
		dave := c.guest("Dave")
		dave.must("GET", "/api/rooms/"+p.code, nil, nil)
		waitOwned(t, c, p.code)

		for _, rc := range relayed {
			if st := closedWith(rc); st != websocket.StatusGoingAway {
				t.Errorf("%s's relayed socket closed with %v, want going away", rc.u.name, st)
			}
		}
		if got := figure(t, p.b, "cardhouse_cluster_relays_ended_total", map[string]string{"side": "edge", "reason": "moved"}); got != 2 {
			t.Errorf("node-b's relays ended because the room moved: %v, want 2 (forgotten: %v, silent: %v)", got,
				figure(t, p.b, "cardhouse_cluster_relays_ended_total", map[string]string{"side": "edge", "reason": "forgotten"}),
				figure(t, p.b, "cardhouse_cluster_relays_ended_total", map[string]string{"side": "edge", "reason": "silent"}))
		}
		// The clients land on the new owner.
		p.bob.via(c).connect(p.code)
	})
}
