package store_test

import (
	"context"
	"testing"
	"time"

	"cardhouse/platform/store"
	"cardhouse/platform/store/storetest"

	"github.com/google/go-cmp/cmp"
)

// The nodes of a cluster as the database lists them: each with its row (started, seen, lease) and
// the rooms of its live leases; a node holding a lease without a row is listed all the same; a
// restart under the same name starts its row again; a graceful stop deletes it.
func TestNodes(t *testing.T) {
	for _, dialect := range storetest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			st := storetest.Open(t, dialect)
			ctx := context.Background()
			r1, _ := leaseGame(t, st, "NODES1")
			r2, _ := leaseGame(t, st, "NODES2")
			r3, _ := leaseGame(t, st, "NODES3")
			if err := st.NodeSeen(ctx, "node-a", 3*time.Second, true); err != nil {
				t.Fatal(err)
			}
			if err := st.NodeSeen(ctx, "node-b", time.Second, true); err != nil {
				t.Fatal(err)
			}
			for _, l := range []struct {
				room int64
				node string
			}{{r1, "node-a"}, {r2, "node-a"}, {r3, "node-x"}} {
				if _, err := st.AcquireLease(ctx, l.room, l.node, time.Hour); err != nil {
					t.Fatal(err)
				}
			}
			nodes, now, err := st.Nodes(ctx)
			if err != nil {
				t.Fatal(err)
			}
			type row struct {
				Name  string
				Lease int64
				Live  bool
				Rooms []string
			}
			var got []row
			for _, n := range nodes {
				got = append(got, row{n.Name, n.LeaseMs, n.Live(now), n.Rooms})
				if n.Name != "node-x" && (n.StartedMs == 0 || n.SeenMs < n.StartedMs || n.SeenMs > now) {
					t.Errorf("%s: started %d, seen %d, now %d", n.Name, n.StartedMs, n.SeenMs, now)
				}
			}
			want := []row{{"node-a", 3000, true, []string{"NODES1", "NODES2"}}, {"node-b", 1000, true, nil}, {"node-x", 0, false, []string{"NODES3"}}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("nodes (-want +got):\n%s", diff)
			}

			owners, err := st.RoomOwners(ctx, []int64{r1, r3, r3 + 1000})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(map[int64]string{r1: "node-a", r3: "node-x"}, owners); diff != "" {
				t.Errorf("room owners (-want +got):\n%s", diff)
			}

			// Seen again: started stays; restarted: started moves; a graceful stop: gone.
			started := nodes[0].StartedMs
			waitTick(t, st, now)
			if err := st.NodeSeen(ctx, "node-a", 3*time.Second, false); err != nil {
				t.Fatal(err)
			}
			if n := nodeNamed(t, st, "node-a"); n.StartedMs != started || n.SeenMs <= now {
				t.Errorf("seen again: started %d → %d, seen %d (was %d)", started, n.StartedMs, n.SeenMs, now)
			}
			if err := st.NodeSeen(ctx, "node-a", 3*time.Second, true); err != nil {
				t.Fatal(err)
			}
			if n := nodeNamed(t, st, "node-a"); n.StartedMs <= started {
				t.Errorf("restarted: started %d, was %d", n.StartedMs, started)
			}
			if err := st.NodeLeft(ctx, "node-b"); err != nil {
				t.Fatal(err)
			}
			if n := nodeNamed(t, st, "node-b"); n != nil {
				t.Errorf("node-b stopped and is still listed: %+v", n)
			}
		})
	}
}

// waitTick waits until the database's clock is past ms.
func waitTick(t *testing.T, st *store.Store, ms int64) {
	t.Helper()
	for range 1000 {
		if _, now, err := st.Leases(context.Background()); err != nil || now > ms {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

func nodeNamed(t *testing.T, st *store.Store, name string) *store.Node {
	t.Helper()
	nodes, _, err := st.Nodes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i := range nodes {
		if nodes[i].Name == name {
			return &nodes[i]
		}
	}
	return nil
}
