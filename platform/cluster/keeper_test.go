package cluster_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"cardhouse/platform/cluster"
	"cardhouse/platform/store"
	"cardhouse/platform/store/storetest"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

type lostLog struct {
	mu   sync.Mutex
	lost map[int64]error
	ch   chan int64
}

func newLostLog() *lostLog { return &lostLog{lost: map[int64]error{}, ch: make(chan int64, 16)} }

func (l *lostLog) onLost(room int64, err error) {
	l.mu.Lock()
	l.lost[room] = err
	l.mu.Unlock()
	l.ch <- room
}

// takeWhenFree retries Take until the other node's lease has expired (the database's clock
// decides when).
func takeWhenFree(t *testing.T, k *cluster.Keeper, room int64) store.Fence {
	t.Helper()
	for range 2000 {
		f, err := k.Take(context.Background(), room)
		if err == nil {
			return f
		}
		if !errors.Is(err, store.ErrLeaseHeld) {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("%s never took room %d", k.Node(), room)
	return store.Fence{}
}

// Two nodes' keepers on one database: the renewing holder keeps its room past its lease's
// duration; frozen (its renewals stopped), it loses the room to the other node, learns so when it
// resumes (onLost, ErrFenced) and no longer offers a fence; a graceful stop hands its rooms over
// at once.
func TestKeeper(t *testing.T) {
	for _, dialect := range storetest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			nodes := storetest.OpenNodes(t, dialect, 2)
			room := storetest.NewRoom(t, nodes[0], "KEEP01").ID
			other := storetest.NewRoom(t, nodes[0], "KEEP02").ID
			const ttl = 2 * time.Second
			lostA := newLostLog()
			a := cluster.NewKeeper(nodes[0], "node-a", ttl, lostA.onLost, nil)
			b := cluster.NewKeeper(nodes[1], "node-b", ttl, nil, nil)
			mA, mB := cluster.NewMetrics(nil), cluster.NewMetrics(nil)
			a.Instrument(mA)
			b.Instrument(mB)
			ctx := context.Background()

			fa, err := a.Take(ctx, room)
			if err != nil || fa.RoomID != room || fa.Epoch != 1 {
				t.Fatalf("node-a's take: %+v, %v", fa, err)
			}
			if again, err := a.Take(ctx, room); err != nil || again != fa {
				t.Fatalf("node-a's second take: %+v, %v; want the lease it holds", again, err)
			}
			if _, err := b.Take(ctx, room); !errors.Is(err, store.ErrLeaseHeld) {
				t.Fatalf("node-b took a held room: %v", err)
			}
			figures(t, "node-a after its take", mA, 1, 1, 0)
			figures(t, "node-b refused", mB, 0, 0, 0)

			// Renewing, node-a keeps the room for two lease durations.
			runA, stopA := context.WithCancel(ctx)
			doneA := make(chan struct{})
			go func() { defer close(doneA); a.Run(runA) }()
			for range 2 {
				l, err := nodes[1].LeaseOf(ctx, room)
				if err != nil {
					t.Fatal(err)
				}
				for {
					now, err := dbNow(nodes[1])
					if err != nil {
						t.Fatal(err)
					}
					if now > l.ExpiresMs {
						break // the lease as read has run out: it must have been renewed since
					}
					time.Sleep(10 * time.Millisecond)
				}
				if _, err := b.Take(ctx, room); !errors.Is(err, store.ErrLeaseHeld) {
					t.Fatalf("node-b took the room node-a renews: %v", err)
				}
			}

			// node-a freezes: its renewals stop; node-b takes the room once the lease expired.
			stopA()
			<-doneA
			fb := takeWhenFree(t, b, room)
			if fb.Epoch != fa.Epoch+1 {
				t.Fatalf("node-b's epoch %d, want %d", fb.Epoch, fa.Epoch+1)
			}
			if _, ok := a.Fence(room); ok {
				t.Error("node-a still offers a fence for a lease past its validity")
			}
			if err := nodes[0].CommitFenced(ctx, fa, 1, &store.ActionRecord{Seq: 1, Action: "{}"}, nil); !errors.Is(err, store.ErrFenced) {
				t.Errorf("node-a's write under its old lease gave %v, want ErrFenced", err)
			}

			// node-a resumes: its next renewal finds the room taken and reports it lost.
			runA, stopA = context.WithCancel(ctx)
			defer stopA()
			go a.Run(runA)
			select {
			case r := <-lostA.ch:
				if r != room || !errors.Is(lostA.lost[room], store.ErrFenced) {
					t.Fatalf("node-a lost room %d (%v), want room %d fenced", r, lostA.lost[room], room)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("node-a never learnt it lost the room")
			}
			if len(a.Held()) != 0 {
				t.Errorf("node-a still holds %+v", a.Held())
			}
			figures(t, "node-a after its loss", mA, 0, 1, 1)

			// A graceful stop: node-b hands its rooms over and node-a takes them at once.
			if _, err := b.Take(ctx, other); err != nil {
				t.Fatal(err)
			}
			figures(t, "node-b holding two", mB, 2, 2, 0)
			if err := b.ReleaseAll(ctx); err != nil {
				t.Fatal(err)
			}
			figures(t, "node-b after its stop", mB, 0, 2, 0)
			for _, r := range []int64{room, other} {
				if _, err := a.Take(ctx, r); err != nil {
					t.Errorf("node-a could not take room %d after node-b released it: %v", r, err)
				}
			}
		})
	}
}

// figures checks a keeper's lease figures: rooms owned, leases taken, leases lost to another node.
func figures(t *testing.T, when string, m *cluster.Metrics, owned, taken, lost float64) {
	t.Helper()
	got := [3]float64{testutil.ToFloat64(m.RoomsOwned), testutil.ToFloat64(m.LeasesTaken), testutil.ToFloat64(m.LeasesLost.WithLabelValues("taken"))}
	if want := [3]float64{owned, taken, lost}; got != want {
		t.Errorf("%s: owned, taken, lost = %v, want %v", when, got, want)
	}
}

func dbNow(st *store.Store) (int64, error) {
	_, now, err := st.Leases(context.Background())
	return now, err
}
