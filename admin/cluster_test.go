package admin_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"slices"
	"testing"
	"time"

	"cardhouse/admin"
	"cardhouse/platform/cluster"
	"cardhouse/platform/cluster/clustertest"
	"cardhouse/platform/room"
	"cardhouse/platform/store"
)

// natsBus connects to the test broker as node node, under the test's own namespace; the test is
// skipped when there is none.
func natsBus(t *testing.T, node string) cluster.Bus { return clustertest.NATS(t, node) }

// nodeName is a name of the test's own: the broker may be shared with other tests.
func nodeName(prefix string) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return prefix + "-" + hex.EncodeToString(b[:])
}

// until waits (bounded) for cond, saying what it waited for.
func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for range 2000 {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("waited in vain for %s", what)
}

// An admin signed in on node-a acts on a room node-b runs, over the real broker: the room reads
// live (forwarded to node-b) and names its owner; a kick, a new host, a ban and a close made on
// node-a reach the room and the sockets (those node-a relays to node-b, and node-b's own); a plugin
// restart on node-a restarts node-b's plugin process too, and disabling a ruleset on node-a
// refuses it on node-b. The nodes page lists both nodes and the room's owner.
func TestAdminActsOnRoomsOfAnotherNode(t *testing.T) {
	eachDialect(t, testAdminActsOnRoomsOfAnotherNode)
}

func testAdminActsOnRoomsOfAnotherNode(t *testing.T, dialect string) {
	nameA, nameB := nodeName("admin-a"), nodeName("admin-b")
	busA, busB := natsBus(t, nameA), natsBus(t, nameB)
	b := newCluster(t, dialect, nameB, busB)
	a := b.nodeOn(nameA, busA)
	root := a.admin("Root")
	alice := b.register("Alice")
	code := alice.createRoom(map[string]any{"ruleset": "hotspot", "seats": 3}).Code
	bob, carol := a.register("Bob"), a.register("Carol")
	bob.must("POST", "/api/rooms/"+code+"/join", nil, nil)
	carol.must("POST", "/api/rooms/"+code+"/join", nil, nil)
	ca := alice.connect(code)                        // on node-b, the owner
	cb, cc := bob.connect(code), carol.connect(code) // on node-a, relayed to node-b

	// node-a's admin reads the room live from node-b, owner named; the list names it too.
	var d admin.RoomDetail
	root.must("GET", "/admin/api/rooms/"+code, nil, &d)
	if d.Room.Owner != nameB || !d.Room.Running || d.Room.Connected != 3 {
		t.Fatalf("the room as node-a's admin reads it: owner %q, running %v, %d connected; want %s, running, 3", d.Room.Owner, d.Room.Running, d.Room.Connected, nameB)
	}
	var list admin.RoomList
	root.must("GET", "/admin/api/rooms?status=open", nil, &list)
	if i := slices.IndexFunc(list.Rooms, func(r admin.RoomSummary) bool { return r.Code == code }); i < 0 || list.Rooms[i].Owner != nameB {
		t.Errorf("node-a's room list: %+v, want %s owned by %s", list.Rooms, code, nameB)
	}

	// A kick and a new host from node-a.
	info := alice.roomInfo(code)
	root.must("POST", "/admin/api/rooms/"+code+"/kick", map[string]any{"member": memberID(t, info, bob), "reason": "spamming the chat"}, nil)
	if m := cb.expect("bye"); str(m["code"]) != "kicked" {
		t.Errorf("Bob's relayed socket: bye %s, want kicked", m["code"])
	}
	root.must("POST", "/admin/api/rooms/"+code+"/host", map[string]any{"member": memberID(t, info, carol)}, nil)
	if host := alice.roomInfo(code).HostID; host != carol.id {
		t.Errorf("the host after node-a's admin passed it to Carol: user %d, want %d", host, carol.id)
	}

	// A plugin restart on node-a restarts node-b's process too; a ruleset disabled on node-a is
	// refused on node-b, and enabled again there.
	pidB := b.plugin.Stats().PID
	root.must("POST", "/admin/api/plugins/hotspot/restart", nil, nil)
	until(t, "node-b's plugin process to restart", func() bool { s := b.plugin.Stats(); return s.Running && s.PID != pidB })
	root.must("POST", "/admin/api/plugins/hotspot/disable", map[string]any{"reason": "a fix is coming"}, nil)
	until(t, "node-b to disable hotspot", func() bool { _, off := b.rooms.DisabledRulesets()["hotspot"]; return off })
	alice.refused("POST", "/api/rooms", map[string]any{"ruleset": "hotspot"}, 409, "ruleset_disabled")
	root.must("POST", "/admin/api/plugins/hotspot/enable", nil, nil)
	until(t, "node-b to enable hotspot", func() bool { _, off := b.rooms.DisabledRulesets()["hotspot"]; return !off })

	// A ban on node-a closes Carol's socket node-a relays; a close on node-a ends the room and
	// Alice's socket on node-b.
	root.must("POST", "/admin/api/users/"+itoa(carol.id)+"/ban", map[string]any{"reason": "cheating"}, nil)
	if m := cc.expect("bye"); str(m["code"]) != "banned" {
		t.Errorf("Carol's relayed socket: bye %s, want banned", m["code"])
	}
	// Deleting an account on node-a takes it out of the room node-b runs.
	dave := a.register("Dave")
	dave.must("POST", "/api/rooms/"+code+"/join", nil, nil)
	cd := dave.connect(code)
	root.must("POST", "/admin/api/users/"+itoa(dave.id)+"/delete", map[string]any{"confirm": "dave"}, nil)
	if m := cd.expect("bye"); str(m["code"]) != "deleted" {
		t.Errorf("Dave's relayed socket: bye %s, want deleted", m["code"])
	}
	until(t, "node-b's room to lose the deleted Dave", func() bool {
		return !slices.ContainsFunc(alice.roomInfo(code).Members, func(m room.MemberInfo) bool { return m.UserID == dave.id })
	})

	var nodes admin.NodeList
	root.must("GET", "/admin/api/nodes", nil, &nodes)
	byName := map[string]admin.NodeInfo{}
	for _, n := range nodes.Nodes {
		byName[n.Name] = n
	}
	if na, nb := byName[nameA], byName[nameB]; !nodes.Cluster || nodes.This != nameA || !na.Live || !na.This || !nb.Live || nb.This ||
		!slices.Equal(nb.Rooms, []string{code}) || len(na.Rooms) != 0 || nb.SeenAt == nil || nb.Lease != 3 {
		t.Errorf("node-a's nodes: %+v; want %s live with room %s and %s live with none", nodes, nameB, code, nameA)
	}
	root.must("POST", "/admin/api/rooms/"+code+"/close", map[string]any{"reason": "the tournament is over"}, nil)
	if m := ca.expect("bye"); str(m["code"]) != "closed" {
		t.Errorf("Alice's socket on node-b: bye %s, want closed", m["code"])
	}
	if sr, err := a.st.RoomByCode(context.Background(), code); err != nil || sr.Status != store.RoomClosed {
		t.Errorf("the room after node-a's close: %+v, %v", sr, err)
	}
	entries, _, err := a.st.Audit(context.Background(), store.AuditQuery{Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, e := range entries {
		if e.Actor != "root" {
			t.Errorf("audit entry %s by %q, want root", e.Action, e.Actor)
		}
		actions = append(actions, e.Action)
	}
	slices.Sort(actions)
	if want := []string{"plugin.disable", "plugin.enable", "plugin.restart", "room.close", "room.host", "room.kick", "user.ban", "user.delete"}; !slices.Equal(actions, want) {
		t.Errorf("the audit log: %v, want %v", actions, want)
	}
}
