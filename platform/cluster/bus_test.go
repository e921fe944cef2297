package cluster_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"cardhouse/platform/cluster"
)

// NATSEnv names the variable holding the URL of the test broker (.ci/run sets it).
const NATSEnv = "CARDHOUSE_TEST_NATS_URL"

// buses runs f on the in-process bus and, when NATSEnv is set, on two connections to the real
// broker (as two nodes hold): what one publishes, the other receives.
func buses(t *testing.T, f func(t *testing.T, pub, sub cluster.Bus, prefix string)) {
	var b [6]byte
	_, _ = rand.Read(b[:])
	prefix := "test." + hex.EncodeToString(b[:]) // the broker may be shared: subjects of our own
	t.Run("local", func(t *testing.T) {
		t.Parallel()
		bus := cluster.NewLocalBus()
		t.Cleanup(func() { bus.Close() })
		f(t, bus, bus, prefix+".local")
	})
	t.Run("nats", func(t *testing.T) {
		t.Parallel()
		url := os.Getenv(NATSEnv)
		if url == "" {
			t.Skipf("%s is not set: skipping the run on the NATS broker (.ci/run starts one)", NATSEnv)
		}
		var nodes [2]cluster.Bus
		for i := range nodes {
			nb, err := cluster.DialNATS(context.Background(), url, fmt.Sprintf("test-node-%d", i), nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { nb.Close() })
			nodes[i] = nb
		}
		f(t, nodes[0], nodes[1], prefix+".nats")
	})
}

// collect subscribes and returns what arrives, in order.
type collected struct {
	mu   sync.Mutex
	msgs []string
	got  chan struct{}
}

func collect(t *testing.T, bus cluster.Bus, pattern string) (*collected, cluster.Subscription) {
	t.Helper()
	c := &collected{got: make(chan struct{}, 1<<16)}
	s, err := bus.Subscribe(pattern, func(m cluster.Msg) {
		c.mu.Lock()
		c.msgs = append(c.msgs, m.Subject+"="+string(m.Data))
		c.mu.Unlock()
		c.got <- struct{}{}
	})
	if err != nil {
		t.Fatal(err)
	}
	return c, s
}

func (c *collected) wait(t *testing.T, n int) []string {
	t.Helper()
	for range n {
		select {
		case <-c.got:
		case <-time.After(10 * time.Second):
			t.Fatalf("got %v, want %d messages", c.msgs, n)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.msgs...)
}

func TestBusPublishSubscribe(t *testing.T) {
	buses(t, func(t *testing.T, pub, sub cluster.Bus, p string) {
		exact, _ := collect(t, sub, p+".room.AB12.in")
		star, _ := collect(t, sub, p+".room.*.in")
		tail, _ := collect(t, sub, p+".room.>")
		const n = 200
		buf := make([]byte, 0, 8)
		for i := range n {
			buf = fmt.Appendf(buf[:0], "%d", i) // the publisher reuses its buffer
			if err := pub.Publish(p+".room.AB12.in", buf); err != nil {
				t.Fatal(err)
			}
		}
		if err := pub.Publish(p+".room.CD34.out", []byte("x")); err != nil {
			t.Fatal(err)
		}
		if err := pub.Publish(p+".room.AB12.in.more", []byte("y")); err != nil {
			t.Fatal(err)
		}
		got := exact.wait(t, n)
		for i, m := range got {
			if want := fmt.Sprintf("%s.room.AB12.in=%d", p, i); m != want {
				t.Fatalf("exact subscription: message %d is %q, want %q (in order)", i, m, want)
			}
		}
		if got := star.wait(t, n); len(got) != n {
			t.Errorf("the * subscription got %d messages, want %d", len(got), n)
		}
		got = tail.wait(t, n+2)
		if got[n] != p+".room.CD34.out=x" || got[n+1] != p+".room.AB12.in.more=y" {
			t.Errorf("the > subscription's last two: %q", got[n:])
		}
		// Nothing more arrives at the exact or * subscriptions (neither matches those two).
		if err := pub.Publish(p+".room.AB12.in", []byte("last")); err != nil {
			t.Fatal(err)
		}
		if got := exact.wait(t, 1); got[len(got)-1] != p+".room.AB12.in=last" {
			t.Errorf("exact subscription got %q after the last publish", got[len(got)-1])
		}
		if got := star.wait(t, 1); len(got) != n+1 {
			t.Errorf("the * subscription got %d messages, want %d", len(got), n+1)
		}
	})
}

func TestBusRequest(t *testing.T) {
	buses(t, func(t *testing.T, pub, sub cluster.Bus, p string) {
		if _, err := sub.Subscribe(p+".owner.>", func(m cluster.Msg) {
			if err := m.Respond(append([]byte("owner says "), m.Data...)); err != nil {
				t.Error(err)
			}
		}); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		got, err := pub.Request(ctx, p+".owner.AB12", []byte("hi"))
		if err != nil || string(got) != "owner says hi" {
			t.Fatalf("request: %q, %v", got, err)
		}
		if _, err := pub.Request(ctx, p+".nobody.here", []byte("hi")); !errors.Is(err, cluster.ErrNoResponders) {
			t.Errorf("a request nobody hears gave %v, want ErrNoResponders", err)
		}
		var m cluster.Msg
		if err := m.Respond(nil); !errors.Is(err, cluster.ErrNoReply) {
			t.Errorf("answering a message that asked for none gave %v", err)
		}
		// A subscriber that never answers: the request ends with its context.
		if _, err := sub.Subscribe(p+".silent", func(cluster.Msg) {}); err != nil {
			t.Fatal(err)
		}
		short, stop := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer stop()
		if _, err := pub.Request(short, p+".silent", nil); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("a request without an answer gave %v, want the context's deadline", err)
		}
	})
}

func TestBusStopAndClose(t *testing.T) {
	buses(t, func(t *testing.T, pub, sub cluster.Bus, p string) {
		gone, s := collect(t, sub, p+".a")
		kept, _ := collect(t, sub, p+".>")
		if err := pub.Publish(p+".a", []byte("1")); err != nil {
			t.Fatal(err)
		}
		gone.wait(t, 1)
		if err := s.Stop(); err != nil {
			t.Fatal(err)
		}
		if err := pub.Publish(p+".a", []byte("2")); err != nil {
			t.Fatal(err)
		}
		kept.wait(t, 2) // the second message went round: the stopped subscription had its chance
		if got := gone.wait(t, 0); len(got) != 1 {
			t.Errorf("a stopped subscription got %q", got)
		}
		for _, bad := range []string{"", "a..b", "a b", ".a", "a.", "a.*", "a.>"} {
			if err := pub.Publish(bad, nil); err == nil {
				t.Errorf("publishing to %q was accepted", bad)
			}
		}
		for _, bad := range []string{"", "a..b", "a.>.b", "a.b*", "x >"} {
			if _, err := sub.Subscribe(bad, func(cluster.Msg) {}); err == nil {
				t.Errorf("subscribing to %q was accepted", bad)
			}
		}
	})
}

func TestLocalBusClosed(t *testing.T) {
	bus := cluster.NewLocalBus()
	c, _ := collect(t, bus, "x")
	bus.Close()
	if err := bus.Publish("x", nil); !errors.Is(err, cluster.ErrClosed) {
		t.Errorf("publishing on a closed bus gave %v", err)
	}
	if _, err := bus.Subscribe("x", func(cluster.Msg) {}); !errors.Is(err, cluster.ErrClosed) {
		t.Errorf("subscribing on a closed bus gave %v", err)
	}
	if got := c.wait(t, 0); len(got) != 0 {
		t.Errorf("got %q", got)
	}
}

// TestNamespaced: two clusters on one bus (as on a shared broker), each under its own namespace,
// hear only their own: subscriptions, wildcards and requests stay inside the namespace, and the
// subjects a node receives carry no namespace.
func TestNamespaced(t *testing.T) {
	buses(t, func(t *testing.T, pub, sub cluster.Bus, p string) {
		ns := func(b cluster.Bus, name string) cluster.Bus {
			nb, err := cluster.Namespaced(b, name)
			if err != nil {
				t.Fatal(err)
			}
			return nb
		}
		base := strings.ReplaceAll(p, ".", "-")
		pubA, subA, pubB, subB := ns(pub, base+"-a"), ns(sub, base+"-a"), ns(pub, base+"-b"), ns(sub, base+"-b")
		inA, _ := collect(t, subA, "all.>")
		inB, _ := collect(t, subB, "all.*")
		for _, m := range []struct {
			bus  cluster.Bus
			data string
		}{{pubA, "a1"}, {pubB, "b1"}, {pubA, "a2"}} {
			if err := m.bus.Publish("all.disconnect", []byte(m.data)); err != nil {
				t.Fatal(err)
			}
		}
		if got := inA.wait(t, 2); !slices.Equal(got, []string{"all.disconnect=a1", "all.disconnect=a2"}) {
			t.Errorf("namespace a heard %q", got)
		}
		if got := inB.wait(t, 1); !slices.Equal(got, []string{"all.disconnect=b1"}) {
			t.Errorf("namespace b heard %q", got)
		}
		// A request is answered in its own namespace only.
		s, err := subA.Subscribe("node.x", func(m cluster.Msg) { _ = m.Respond([]byte("from a")) })
		if err != nil {
			t.Fatal(err)
		}
		defer s.Stop()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if got, err := pubA.Request(ctx, "node.x", nil); err != nil || string(got) != "from a" {
			t.Errorf("request in namespace a: %q, %v", got, err)
		}
		if got, err := pubB.Request(ctx, "node.x", nil); !errors.Is(err, cluster.ErrNoResponders) {
			t.Errorf("request in namespace b: %q, %v; want ErrNoResponders", got, err)
		}
		// One publisher's messages keep their order: had a's leaked into b, they came before b2.
		if err := pubB.Publish("all.disconnect", []byte("b2")); err != nil {
			t.Fatal(err)
		}
		if got := inB.wait(t, 1); !slices.Equal(got, []string{"all.disconnect=b1", "all.disconnect=b2"}) {
			t.Errorf("namespace b heard %q in all", got)
		}
	})
	// A namespaced bus says whether its own connection is up (a node's /healthz asks).
	lb := cluster.NewLocalBus()
	nb, err := cluster.Namespaced(lb, "up")
	if err != nil {
		t.Fatal(err)
	}
	if !cluster.Connected(nb) {
		t.Error("a namespaced open bus says it is not connected")
	}
	lb.Close()
	if cluster.Connected(nb) {
		t.Error("a namespaced closed bus says it is connected")
	}
	for _, bad := range []string{"", "a.b", "a*", ">", "a b"} {
		if _, err := cluster.Namespaced(cluster.NewLocalBus(), bad); err == nil {
			t.Errorf("namespace %q accepted", bad)
		}
	}
}
