package adapter

import (
	"context"
	"fmt"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	pb "cardhouse/sdk/plugin/internal/pb/rulesetv1"

	"google.golang.org/protobuf/proto"
)

// TestCallsCrossInBatches: with two batches in flight (two calls the plugin holds), the calls
// that come meanwhile wait and then cross together in one more write, and every caller gets its
// own reply.
func TestCallsCrossInBatches(t *testing.T) {
	t.Parallel()
	f := fakeEngine{release: make(chan struct{}), started: make(chan string, 64)}
	c, _ := socketClient(t, f)
	m := c.mux
	base := m.batches.Load()
	ctx := context.Background()
	var wg sync.WaitGroup
	for seat := range 2 {
		wg.Go(func() {
			if st, err := c.Act(ctx, &engine.ActRequest{Action: sdk.Action{Type: "wait", Seat: seat}}); err != nil || string(st.State) != fmt.Sprint("wait/", seat) {
				t.Errorf("waiting call %d: %v", seat, err)
			}
		})
		waitFor(t, f.started, "a waiting call to reach the plugin")
	}
	const n = 20
	var answered atomic.Int64
	for seat := range n {
		wg.Go(func() {
			st, err := c.Act(ctx, &engine.ActRequest{Action: sdk.Action{Type: "play", Seat: seat}})
			if err != nil || string(st.State) != fmt.Sprint("play/", seat) {
				t.Errorf("call %d: %v %v", seat, err, st)
			}
			answered.Add(1)
		})
	}
	// Until all n wait for room in flight (or, were they not held back, are answered).
	for queued := 0; queued < n && answered.Load() < n; runtime.Gosched() {
		m.sendMu.Lock()
		if m.gathering != nil {
			queued = m.gathering.left
		}
		if m.inflight != maxInflight {
			t.Errorf("%d batches in flight, want %d", m.inflight, maxInflight)
		}
		m.sendMu.Unlock()
	}
	if got := m.batches.Load() - base; got != 2 || answered.Load() > 0 {
		close(f.release)
		t.Fatalf("%d writes before the plugin answered (%d calls answered), want the 2 waiting calls alone", got, answered.Load())
	}
	close(f.release)
	wg.Wait()
	if got := m.batches.Load() - base; got != 3 {
		t.Errorf("%d writes, want 3: the %d calls that waited in one", got, n)
	}
	m.sendMu.Lock()
	defer m.sendMu.Unlock()
	if m.inflight != 0 || len(m.inBatch) != 0 || m.gathering != nil {
		t.Errorf("after every answer: %d in flight, %d calls counted, gathering %v", m.inflight, len(m.inBatch), m.gathering)
	}
}

// countingConn counts its Write calls.
type countingConn struct {
	net.Conn
	writes atomic.Int64
}

func (c *countingConn) Write(b []byte) (int, error) {
	c.writes.Add(1)
	return c.Conn.Write(b)
}

// TestPluginAnswersABatchWithOneWrite: calls that reach the plugin in one write are answered in
// one write, each with its own reply; a bot's call among them is answered on its own.
func TestPluginAnswersABatchWithOneWrite(t *testing.T) {
	t.Parallel()
	host, plugin := socketPair(t)
	pc := &countingConn{Conn: plugin}
	s := NewServer(fakeEngine{})
	go func() { _ = s.serveCalls(context.Background(), newSocketWire(pc)) }()
	const n = 16
	var out []byte
	for i := range n {
		out = appendCall(t, out, &pb.Call{Id: uint64(i + 1), Request: &pb.Call_Act{Act: &pb.ActRequest{
			Action: &pb.Action{Seat: int32(i), Type: "play"}}}})
	}
	if _, err := host.Write(out); err != nil {
		t.Fatal(err)
	}
	hw := newSocketWire(host)
	seen := map[uint64]bool{}
	for range n {
		r := &pb.Reply{}
		if err := hw.readMsg(r); err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("play/%d", r.Id-1)
		if got := string(r.GetStep().GetState()); got != want || seen[r.Id] {
			t.Errorf("reply %d: state %q, want %q (seen before: %v)", r.Id, got, want, seen[r.Id])
		}
		seen[r.Id] = true
	}
	if got := pc.writes.Load(); got != 1 {
		t.Errorf("the plugin answered %d calls read together with %d writes, want 1", n, got)
	}
}

func appendCall(t *testing.T, out []byte, c *pb.Call) []byte {
	t.Helper()
	b, err := proto.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, byte(len(b)), byte(len(b)>>8), byte(len(b)>>16), byte(len(b)>>24))
	return append(out, b...)
}

// TestBatchesUnderChurn: many callers at once, some giving up early (their context cancelled
// before or while their call waits), every other call answered with its own reply, and nothing
// left counted in flight at the end: a batch whose calls were given up never holds the channel.
func TestBatchesUnderChurn(t *testing.T) {
	t.Parallel()
	f := fakeEngine{release: make(chan struct{})}
	close(f.release) // "wait" calls return at once, unless cancelled first
	c, _ := socketClient(t, f)
	const callers, each = 64, 50
	var wg sync.WaitGroup
	for g := range callers {
		wg.Go(func() {
			for i := range each {
				ctx, cancel := context.WithCancel(context.Background())
				if (g+i)%7 == 0 {
					cancel() // given up before it is sent, or while it waits in a batch
				}
				typ := "play"
				if i%3 == 0 {
					typ = "wait"
				}
				st, err := c.Act(ctx, &engine.ActRequest{Action: sdk.Action{Type: typ, Seat: g*each + i}})
				cancel()
				if err != nil {
					if (g+i)%7 != 0 {
						t.Errorf("call %d/%d: %v", g, i, err)
					}
					continue
				}
				if want := fmt.Sprintf("%s/%d", typ, g*each+i); string(st.State) != want {
					t.Errorf("call %d/%d got %q, want %q", g, i, st.State, want)
				}
			}
		})
	}
	wg.Wait()
	m := c.mux
	// Replies of given-up calls may still be on their way: a last call reads them off.
	if _, err := c.Act(context.Background(), &engine.ActRequest{Action: sdk.Action{Type: "play"}}); err != nil {
		t.Fatal(err)
	}
	m.sendMu.Lock()
	defer m.sendMu.Unlock()
	if m.inflight != 0 || len(m.out) != 0 || m.flushing {
		t.Errorf("at rest: %d batches in flight, %d bytes unsent, flushing %v", m.inflight, len(m.out), m.flushing)
	}
	t.Logf("%d calls in %d writes", callers*each, m.batches.Load())
}
