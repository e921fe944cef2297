package server_test

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"
	"testing"
	"time"

	"cardhouse/platform/cluster"
	"cardhouse/platform/cluster/clustertest"
	"cardhouse/platform/room"
	"cardhouse/platform/server"
	"cardhouse/sdk"

	"github.com/coder/websocket"
)

// natsBus connects to the test broker as node name, under the test's own namespace; the test is
// skipped when there is none.
func natsBus(t testing.TB, name string) cluster.Bus { return clustertest.NATS(t, name) }

// nodeName is a name of the test's own: the broker may be shared with other tests.
func nodeName(prefix string) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return prefix + "-" + hex.EncodeToString(b[:])
}

// onBus tunes a server into a node of a cluster that routes over bus.
func onBus(name string, bus cluster.Bus) func(*room.Config, *server.Config) {
	return func(rc *room.Config, sc *server.Config) {
		asNode(name)(rc, sc)
		rc.Bus, sc.Bus, sc.Node = bus, bus, name
	}
}

// nodeOn starts another node on e's database, routing over bus.
func (e *env) nodeOn(name string, bus cluster.Bus) *env {
	e.t.Helper()
	n := &env{t: e.t, dsn: e.dsn, engines: e.engines, clock: room.NewFakeClock(time.Unix(1_800_000_000, 0)), tune: onBus(name, bus)}
	n.start()
	e.t.Cleanup(n.stop)
	return n
}

// noForeignCards fails the test when c receives a view showing the cards of a hand not seat's.
func noForeignCards(t *testing.T, c *conn, seat int) {
	c.onView = func(_ int, v sdk.View) {
		for _, z := range v.Zones {
			if z.Kind == sdk.ZoneHand && z.Owner != seat && len(z.Cards) > 0 {
				t.Errorf("%s (seat %d) was shown the cards of %s", c.u.name, seat, z.ID)
			}
		}
	}
}

// closedWith waits for the server to close c and returns the close status.
func closedWith(c *conn) websocket.StatusCode {
	for {
		select {
		case _, ok := <-c.msgs:
			if !ok {
				return websocket.CloseStatus(c.closeErr)
			}
			<-c.raw
		case <-time.After(waitFor):
			c.u.e.t.Fatalf("%s: the connection was not closed within %s", c.u.name, waitFor)
		}
	}
}

// Two nodes over the real NATS broker: node-a runs a room, node-b's lobby lists it, and its
// players and spectator use it through node-b: HTTP requests (reads, posts with their CSRF token, refusals) are forwarded to
// node-a and answered as node-a answers them, and WebSockets on node-b are relayed to node-a's
// room, each connection getting only its own seat's view, in protocol v1 or v2 as it asked.
// When node-a goes silent on the bus (as when it dies), node-b closes the relayed sockets with
// "going away" and answers "try again" while node-a holds the lease; when node-a stops, node-b
// takes the room and the game goes on from every action accepted, each once.
func TestRoomsRoutedBetweenNodes(t *testing.T) { eachDialect(t, testRoomsRoutedBetweenNodes) }

func testRoomsRoutedBetweenNodes(t *testing.T, dialect string) {
	nameA, nameB := nodeName("node-a"), nodeName("node-b")
	busA, busB := natsBus(t, nameA), natsBus(t, nameB)
	a := newEnvTuned(t, dialect, inProcess(), onBus(nameA, busA))
	b := a.nodeOn(nameB, busB)
	alice := a.register("Alice")
	info := alice.createRoom(map[string]any{"ruleset": matcherID, "seats": 2, "options": map[string]any{"hand_size": 6, "call_seconds": 0}})
	code := info.Code
	bob, carol := b.guest("Bob"), b.guest("Carol")

	// node-b's lobby lists the room node-a runs.
	var lobby struct{ Rooms []room.LobbyRoom }
	bob.must("GET", "/api/rooms", nil, &lobby)
	if !slices.ContainsFunc(lobby.Rooms, func(r room.LobbyRoom) bool { return r.Code == code && r.State == room.LobbyWaiting }) {
		t.Fatalf("node-b's lobby %+v does not list room %s, waiting, which node-a runs", lobby.Rooms, code)
	}

	// HTTP through node-b: a post with its CSRF token, a read, and a refusal, as node-a answers.
	bob.must("POST", "/api/rooms/"+code+"/join", nil, nil)
	carol.must("POST", "/api/rooms/"+code+"/join", nil, nil) // the seats are taken: she watches
	var got struct{ Room room.Info }
	bob.must("GET", "/api/rooms/"+code, nil, &got)
	if len(got.Room.Members) != 3 {
		t.Fatalf("the room read through node-b has %d members, want 3", len(got.Room.Members))
	}
	var refused apiErr
	if st := carol.call("POST", "/api/rooms/"+code+"/deal", nil, &refused); st != http.StatusForbidden {
		t.Fatalf("a spectator's deal through node-b: %d %+v, want node-a's 403", st, refused)
	}
	if slices.ContainsFunc(b.rooms.Live(), func(r *room.Room) bool { return r.Code() == code }) {
		t.Fatal("node-b runs the room: the requests were not forwarded but taken")
	}

	// Sockets: Alice on node-a; Bob (protocol v2) and Carol relayed by node-b.
	ca, cb, cc := alice.connect(code), bob.connectV2(code), carol.connect(code)
	noForeignCards(t, ca, 0)
	noForeignCards(t, cb, 1)
	noForeignCards(t, cc, sdk.Spectator)
	alice.must("POST", "/api/rooms/"+code+"/deal", nil, nil)
	drawAlternately(ca, cb, 6)
	if cb.patches == 0 {
		t.Error("Bob's relayed v2 connection received no patches")
	}
	if v := cc.latestView(); v == nil || v.Viewer != sdk.Spectator {
		t.Fatalf("Carol's relayed view: %+v, want the spectators'", v)
	}
	bob.must("POST", "/api/rooms/"+code+"/chat", map[string]any{"text": "hello from node-b"}, nil)
	var line room.ChatLine
	if m := ca.expect("chat"); json.Unmarshal(m["chat"], &line) != nil || line.Text != "hello from node-b" || line.Name != "Bob" {
		t.Errorf("Alice's chat message: %s", m["chat"])
	}

	// The figures of what was routed, on each node's /metrics and /healthz.
	for _, f := range []struct {
		node   *env
		name   string
		labels map[string]string
		want   float64
	}{
		{b, "cardhouse_cluster_forwarded_requests_total", map[string]string{"direction": "sent", "result": "2xx"}, 4}, // 2 joins, a read, a chat
		{b, "cardhouse_cluster_forwarded_requests_total", map[string]string{"direction": "sent", "result": "4xx"}, 1}, // Carol's deal
		{a, "cardhouse_cluster_forwarded_requests_total", map[string]string{"direction": "served", "result": "2xx"}, 4},
		{a, "cardhouse_cluster_forwarded_requests_total", map[string]string{"direction": "served", "result": "4xx"}, 1},
		{b, "cardhouse_cluster_bus_request_seconds", map[string]string{"kind": "http", "result": "ok"}, 5},
		{b, "cardhouse_cluster_bus_request_seconds", map[string]string{"kind": "attach", "result": "ok"}, 2},
		{b, "cardhouse_cluster_bus_request_seconds", map[string]string{"kind": "lobby", "result": "ok"}, 1},
		{b, "cardhouse_cluster_relayed_sockets", map[string]string{"side": "edge"}, 2},
		{a, "cardhouse_cluster_relayed_sockets", map[string]string{"side": "owner"}, 2},
		{a, "cardhouse_cluster_rooms_owned", nil, 1},
		{b, "cardhouse_cluster_rooms_owned", nil, 0},
		{a, "cardhouse_cluster_leases_taken_total", nil, 1},
	} {
		if got := figure(t, f.node, f.name, f.labels); got != f.want {
			t.Errorf("%s%v on %s: %v, want %v", f.name, f.labels, map[*env]string{a: nameA, b: nameB}[f.node], got, f.want)
		}
	}
	if h := healthOf(t, b); h.Node != nameB || h.Bus != "connected" || h.Status != "ok" {
		t.Errorf("node-b's /healthz: %+v, want its name and the bus connected", h)
	}

	// node-a goes silent on the bus: node-b closes the relayed sockets with "going away" and,
	// while node-a's lease stands, answers "try again".
	busA.Close()
	for _, c := range []*conn{cb, cc} {
		if st := closedWith(c); st != websocket.StatusGoingAway {
			t.Errorf("%s's relayed socket closed with %v, want going away", c.u.name, st)
		}
	}
	if st := bob.call("GET", "/api/rooms/"+code, nil, &refused); st != http.StatusServiceUnavailable || refused.Error.Code != "room_moving" {
		t.Errorf("a request for the silent node's room: %d %+v, want 503 room_moving", st, refused)
	}
	if got := figure(t, b, "cardhouse_cluster_forwarded_requests_total", map[string]string{"direction": "sent", "result": "unanswered"}); got != 1 {
		t.Errorf("node-b's unanswered forwarded requests: %v, want 1", got)
	}
	waitFigure(t, b, "cardhouse_cluster_relayed_sockets", map[string]string{"side": "edge"}, 0)
	if h := healthOf(t, a); h.Node != nameA || h.Bus != "disconnected" || h.Status != "ok" {
		t.Errorf("the silent node-a's /healthz: %+v, want ok with the bus disconnected", h)
	}

	// node-a stops: node-b takes the room and the game goes on from the 6 actions, each once.
	aliceB := alice.via(b)
	a.stop()
	waitOwned(t, b, code)
	ca, cb = aliceB.connect(code), bob.connect(code)
	drawAlternately(ca, cb, 2)
	rep, err := b.rooms.Replay(t.Context(), code, 1)
	if err != nil || !rep.Matches || len(rep.Log) != 8 {
		t.Fatalf("replay: %d actions, matches %v, %v; want a match over 8", len(rep.Log), rep.Matches, err)
	}
}

// health is what /healthz says.
type health struct {
	Status, Database, Node, Bus string
	Rooms                       int
}

func healthOf(t *testing.T, n *env) health {
	t.Helper()
	resp, err := http.Get(n.http.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var h health
	if err := json.NewDecoder(resp.Body).Decode(&h); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("/healthz: %d, %v", resp.StatusCode, err)
	}
	return h
}

// waitFigure waits until node n's figure (as figure reads it) is want.
func waitFigure(t *testing.T, n *env, name string, labels map[string]string, want float64) {
	t.Helper()
	var got float64
	for range 500 {
		if got = figure(t, n, name, labels); got == want {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s%v: %v, want %v", name, labels, got, want)
}
