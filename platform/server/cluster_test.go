package server_test

import (
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"slices"
	"testing"
	"time"

	"cardhouse/platform/cluster"
	"cardhouse/platform/room"
	"cardhouse/platform/server"
	"cardhouse/sdk"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// node starts a second server on e's database as another node of a cluster.
func (e *env) node(name string) *env {
	e.t.Helper()
	n := &env{t: e.t, dsn: e.dsn, engines: e.engines, clock: room.NewFakeClock(time.Unix(1_800_000_000, 0)), tune: asNode(name)}
	n.start()
	e.t.Cleanup(n.stop)
	return n
}

// asNode tunes a server into a node of a cluster, with short leases so that the test's rooms move
// within a second, and a /metrics of its own (a registry per start), open to the test.
func asNode(name string) func(*room.Config, *server.Config) {
	return func(rc *room.Config, sc *server.Config) {
		rc.Node, rc.LeaseTTL = name, 600*time.Millisecond
		reg := prometheus.NewRegistry()
		cm := cluster.NewMetrics(reg)
		rc.Metrics, rc.ClusterMetrics = room.NewMetrics(reg), cm
		sc.Cluster, sc.Gatherer = cm, reg
		sc.PublicMetrics = true // the test reads each node's /metrics as a scraper would
	}
}

// via returns u as the same browser (its cookies) talking to node n.
func (u *user) via(n *env) *user {
	jar, _ := cookiejar.New(nil)
	from, _ := url.Parse(u.e.http.URL)
	to, _ := url.Parse(n.http.URL)
	jar.SetCookies(to, u.c.Jar.Cookies(from))
	c := *u
	c.e, c.c = n, &http.Client{Jar: jar}
	return &c
}

// waitOwned waits until node n runs the room's actor (its sweep took the room).
func waitOwned(t *testing.T, n *env, code string) {
	t.Helper()
	for range 1000 {
		if slices.ContainsFunc(n.rooms.Live(), func(r *room.Room) bool { return r.Code() == code }) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no node took room %s", code)
}

// Two nodes on one database and no bus between them: a room runs on the node holding its lease,
// and the other refuses it (routing needs a bus: routing_test.go); a graceful stop hands the live game over and the other
// node's sweep takes it, so the players continue there from the same views; and a node whose lease
// was taken from under it writes nothing more: its next action is refused, the room stops there,
// and the game goes on under the next owner from the log as stored.
func TestRoomsMoveBetweenNodes(t *testing.T) { eachDialect(t, testRoomsMoveBetweenNodes) }

func testRoomsMoveBetweenNodes(t *testing.T, dialect string) {
	a := newEnvTuned(t, dialect, inProcess(), asNode("node-a"))
	alice, bob, code, ca, cb := twoSeats(a, map[string]any{"hand_size": 6, "call_seconds": 0})
	drawAlternately(ca, cb, 5)
	b := a.node("node-b")
	var refused apiErr
	if st := alice.via(b).call("GET", "/api/rooms/"+code, nil, &refused); st != http.StatusServiceUnavailable || refused.Error.Code != "room_elsewhere" {
		t.Fatalf("node-b answered %d %+v for a room node-a runs; want 503 room_elsewhere", st, refused)
	}

	// A graceful stop of node-a: its clients are told it goes away, and node-b takes the room.
	before, beforeB := ca.latestView(), cb.latestView()
	alice, bob = alice.via(b), bob.via(b)
	a.stop()
	waitOwned(t, b, code)
	ca, cb = alice.connect(code), bob.connect(code)
	noEvents := cmpopts.IgnoreFields(sdk.View{}, "Events")
	if diff := cmp.Diff(before, ca.latestView(), noEvents); diff != "" {
		t.Fatalf("alice's view on node-b differs from node-a's (-a +b):\n%s", diff)
	}
	if diff := cmp.Diff(beforeB, cb.latestView(), noEvents); diff != "" {
		t.Fatalf("bob's view on node-b differs from node-a's (-a +b):\n%s", diff)
	}
	drawAlternately(ca, cb, 3)

	// node-b's lease is taken from under it (as by a node that found it paused past its lease):
	// its next action is refused, stores nothing, and the room stops on node-b.
	raw := openRaw(t, dialect, a.dsn)
	if err := raw.Exec("UPDATE room_leases SET node = 'node-x', epoch = epoch + 1, expires_ms = expires_ms + 3600000").Error; err != nil {
		t.Fatal(err)
	}
	v := ca.latestView()
	c := []*conn{ca, cb}[v.Turn]
	c.send(map[string]any{"type": "act", "action": map[string]any{"type": sdk.ActDraw}})
	if answer := answerOf(t, c); answer == "accepted" {
		t.Fatal("node-b accepted an action after losing the room's lease")
	}
	for range 1000 {
		if !slices.ContainsFunc(b.rooms.Live(), func(r *room.Room) bool { return r.Code() == code }) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if slices.ContainsFunc(b.rooms.Live(), func(r *room.Room) bool { return r.Code() == code }) {
		t.Fatal("node-b still runs the room whose lease it lost")
	}
	if lost, owned := figure(t, b, "cardhouse_cluster_leases_lost_total", map[string]string{"reason": "taken"}), figure(t, b, "cardhouse_cluster_rooms_owned", nil); lost != 1 || owned != 0 {
		t.Errorf("node-b's figures after the lease was taken: %v lost, %v owned; want 1 and 0", lost, owned)
	}

	// The new owner dies without a word (its lease just runs out): node-b's sweep takes the room
	// again, under a new epoch, and the game goes on from the 8 stored actions.
	if err := raw.Exec("UPDATE room_leases SET expires_ms = 0").Error; err != nil {
		t.Fatal(err)
	}
	waitOwned(t, b, code)
	ca, cb = alice.connect(code), bob.connect(code)
	v = ca.latestView()
	c = []*conn{ca, cb}[v.Turn]
	c.send(map[string]any{"type": "act", "action": map[string]any{"type": sdk.ActDraw}})
	if m := c.expect("accepted"); num(m["seq"]) != 9 {
		t.Fatalf("the first action under the new lease was accepted as %s, want seq 9", m["seq"])
	}
	rep, err := b.rooms.Replay(t.Context(), code, 1)
	if err != nil || !rep.Matches || len(rep.Log) != 9 {
		t.Fatalf("replay: %d actions, matches %v, %v; want a match over 9", len(rep.Log), rep.Matches, err)
	}
}

// answerOf reads c's messages until the answer to the message it sent: "accepted", "error CODE",
// "bye CODE", or "closed" when the server closed the connection first.
func answerOf(t *testing.T, c *conn) string {
	t.Helper()
	for {
		select {
		case m, ok := <-c.msgs:
			if !ok {
				return "closed"
			}
			<-c.raw
			switch typ := str(m["type"]); typ {
			case "accepted":
				return typ
			case "error", "bye":
				return typ + " " + str(m["code"])
			}
		case <-time.After(waitFor):
			t.Fatalf("%s: no answer within %s", c.u.name, waitFor)
		}
	}
}

// figure reads node n's /metrics over HTTP and returns the value of the series name with labels
// (a histogram's: its count of observations), summed over the series that have those labels
// among theirs; 0 when there is none.
func figure(t *testing.T, n *env, name string, labels map[string]string) float64 {
	t.Helper()
	resp, err := http.Get(n.http.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("reading /metrics: %v", err)
	}
	var sum float64
	for _, m := range families[name].GetMetric() {
		have := map[string]string{}
		for _, lp := range m.GetLabel() {
			have[lp.GetName()] = lp.GetValue()
		}
		match := true
		for k, v := range labels {
			match = match && have[k] == v
		}
		if !match {
			continue
		}
		switch {
		case m.Counter != nil:
			sum += m.Counter.GetValue()
		case m.Gauge != nil:
			sum += m.Gauge.GetValue()
		case m.Histogram != nil:
			sum += float64(m.Histogram.GetSampleCount())
		}
	}
	return sum
}
