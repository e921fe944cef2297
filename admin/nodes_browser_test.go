package admin_test

import (
	"strings"
	"testing"

	"cardhouse/platform/cluster"
)

// TestNodesPageInChromium: two nodes of a cluster on the in-process bus (no broker needed); the
// admin signed in on node-a sees both on the nodes page, at a desktop's and a phone's size, node-b
// with the room it runs; tapping the room's code opens its page, read live on node-b (forwarded),
// which names node-b as its owner. A single node's page says it is no cluster.
func TestNodesPageInChromium(t *testing.T) {
	ctx := newBrowser(t)
	bus := cluster.NewLocalBus()
	t.Cleanup(func() { bus.Close() })
	b := newCluster(t, "sqlite", "node-b", bus)
	a := b.nodeOn("node-a", bus)
	a.admin("Root")
	alice, bob := b.register("Alice"), a.register("Bob")
	code := alice.createRoom(map[string]any{"ruleset": "hotspot", "seats": 2}).Code
	bob.must("POST", "/api/rooms/"+code+"/join", nil, nil)
	alice.connect(code)
	bob.connect(code) // relayed by node-a

	br := &browse{t: t, ctx: ctx, e: a}
	br.open("/admin/login")
	br.submit("#login", map[string]string{"username": "root", "password": password})
	br.wait(`location.pathname === "/admin" && document.body.dataset.ready === "1"`)
	for _, size := range []struct {
		name string
		w, h int64
	}{{"desktop", 1280, 800}, {"phone", 390, 844}} {
		br.viewport(size.w, size.h, size.w < 600)
		br.open("/admin/nodes")
		if got := eval[int](br, `document.querySelectorAll("#nodes .node").length`); got != 2 {
			t.Fatalf("%s: %d nodes listed, want 2", size.name, got)
		}
		if got := br.text("#node-node-b .room-codes"); strings.TrimSpace(got) != code {
			t.Errorf("%s: node-b's rooms %q, want %s", size.name, got, code)
		}
		if got := br.text("#node-node-a h2"); !strings.Contains(got, "this node") || !strings.Contains(got, "live") {
			t.Errorf("%s: node-a's heading %q, want this node, live", size.name, got)
		}
		if got := br.text("#node-node-b .rooms-owned"); got != "1" {
			t.Errorf("%s: node-b owns %q rooms, want 1", size.name, got)
		}
		if over := eval[bool](br, `document.documentElement.scrollWidth > window.innerWidth`); over {
			t.Errorf("%s: the nodes page is wider than the window", size.name)
		}
		br.shot("admin-nodes-" + size.name)
	}

	br.tap("#node-node-b .room-codes a")
	br.wait(`location.pathname === "/admin/rooms/` + code + `" && document.body.dataset.ready === "1"`)
	if got := br.text("#room-owner"); got != "node-b" {
		t.Errorf("the room page names owner %q, want node-b", got)
	}
	if got := eval[int](br, `[...document.querySelectorAll("#members tbody tr")].filter(r => r.textContent.includes("yes")).length`); got != 2 {
		t.Errorf("the room page read on node-a shows %d members online, want 2 (read live on node-b)", got)
	}
	br.shot("admin-room-elsewhere-phone")

	single := newEnv(t, "sqlite")
	single.admin("Root")
	bs := &browse{t: t, ctx: ctx, e: single}
	bs.open("/admin/login")
	bs.submit("#login", map[string]string{"username": "root", "password": password})
	bs.wait(`location.pathname === "/admin" && document.body.dataset.ready === "1"`)
	bs.open("/admin/nodes")
	if got := bs.text("#single-node"); !strings.Contains(got, "single node") {
		t.Errorf("a single node's nodes page: %q", got)
	}
}
