package server_test

import (
	"slices"
	"testing"
	"time"

	"cardhouse/platform/cluster"
	"cardhouse/platform/cluster/clustertest"
	"cardhouse/platform/room"
	"cardhouse/platform/store"

	"github.com/coder/websocket"
)

// Events between nodes are at least once where it matters: node-a's link to the broker is cut;
// meanwhile, on node-b, Bob is banned, Carol changes her look and a ruleset is disabled, and
// node-a hears none of it (Bob's socket on node-a's room still answers a ping, nothing received);
// once the link is back, node-a reconciles with the database: Bob's socket gets the ban's bye and
// closes, Carol's look shows in the room, the ruleset is disabled there too.
func TestMissedEventsReconciledOnReconnect(t *testing.T) {
	clustertest.RequireNATS(t)
	nameA, nameB := nodeName("node-a"), nodeName("node-b")
	busA, link := clustertest.NATSLinked(t, nameA)
	a := newEnvTuned(t, "sqlite", inProcess(), onBus(nameA, busA))
	b := a.nodeOn(nameB, clustertest.NATS(t, nameB))
	alice := a.register("Alice")
	code := alice.createRoom(map[string]any{"ruleset": matcherID, "seats": 3, "options": map[string]any{"hand_size": 4, "call_seconds": 0}}).Code
	bob, carol, dave := a.register("Bob"), a.register("Carol"), a.register("Dave")
	bob.must("POST", "/api/rooms/"+code+"/join", nil, nil)
	carol.must("POST", "/api/rooms/"+code+"/join", nil, nil)
	dave.must("POST", "/api/rooms/"+code+"/join", map[string]any{"spectate": true}, nil)
	alice.connect(code) // a player at the table besides Bob
	cb, cd := bob.connect(code), dave.connect(code)

	link.Cut()
	for i := 0; cluster.Connected(busA); i++ {
		if i > 2000 {
			t.Fatal("node-a's bus still says it is connected after its link was cut")
		}
		time.Sleep(10 * time.Millisecond)
	}
	ctx := t.Context()
	if err := b.st.SetBanned(ctx, bob.id, true); err != nil {
		t.Fatal(err)
	}
	b.rooms.DisconnectUser(ctx, bob.id, "banned", "this account is banned: cheating")
	if err := b.st.DeleteAccount(ctx, dave.id, time.Now()); err != nil {
		t.Fatal(err)
	}
	b.rooms.RemoveUserElsewhere(dave.id, "deleted", "this account was deleted")
	b.rooms.DisconnectUser(ctx, dave.id, "deleted", "this account was deleted")
	carol.via(b).must("PATCH", "/api/me", map[string]any{"avatar": "moon", "colour": "#2f6fd6"}, nil)
	if err := b.st.SetRulesetDisabled(ctx, matcherID, &store.DisabledRuleset{Ruleset: matcherID, Reason: "maintenance", DisabledAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	b.rooms.SetRulesetDisabled(matcherID, true, "maintenance")
	for _, c := range []*conn{cb, cd} {
		for _, m := range c.sync() {
			if str(m["type"]) == "bye" {
				t.Fatalf("%s's socket on node-a got %s while node-a was cut off from the broker: the cut did not cut", c.u.name, m)
			}
		}
	}
	if _, off := a.rooms.DisabledRulesets()[matcherID]; off {
		t.Fatal("node-a heard the ruleset disabled while cut off from the broker")
	}

	restored := time.Now()
	link.Restore()
	if m := cb.expect("bye"); str(m["code"]) != "banned" {
		t.Errorf("Bob's socket: bye %s %s, want banned", m["code"], m["reason"])
	}
	t.Logf("Bob's socket on node-a got its bye %s after the link came back", time.Since(restored).Round(time.Millisecond))
	if st := closedWith(cb); st != websocket.StatusPolicyViolation {
		t.Errorf("Bob's socket closed with %v, want policy violation", st)
	}
	// Dave's account was deleted meanwhile: he is sent away and is no longer in the room.
	if m := cd.expect("bye"); str(m["code"]) != "deleted" {
		t.Errorf("Dave's socket: bye %s %s, want deleted", m["code"], m["reason"])
	}
	if slices.ContainsFunc(alice.roomInfo(code).Members, func(m room.MemberInfo) bool { return m.Name == "Dave" }) {
		t.Error("node-a's room still lists the deleted Dave")
	}
	// The room's members as node-a serves them (the socket's room message may have come with the
	// bye's, before any wait could start).
	for i := 0; ; i++ {
		if slices.ContainsFunc(alice.roomInfo(code).Members, func(m room.MemberInfo) bool {
			return m.Name == "Carol" && m.Avatar == "moon" && m.Colour == "#2f6fd6"
		}) {
			break
		}
		if i > 200 {
			t.Fatal("node-a's room never showed Carol's new look")
		}
		time.Sleep(50 * time.Millisecond)
	}
	waitDisabled(t, a, matcherID, true)
}
