package adapter

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	pb "cardhouse/sdk/plugin/internal/pb/rulesetv1"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
)

// waitFor fails the test when ch yields nothing within a generous bound (a hang, not a timing).
func waitFor[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(20 * time.Second):
		t.Fatalf("gave up waiting for %s", what)
		panic("unreachable")
	}
}

func TestWatchdogExpiresOnlyWhatIsDue(t *testing.T) {
	t.Parallel()
	w := newWatchdog()
	defer w.stop()
	fired := make(chan string, 10)
	now := time.Now()
	w.add(1, now.Add(time.Millisecond), func() { fired <- "removed" })
	w.add(2, now.Add(2*time.Millisecond), func() { fired <- "first" })
	w.add(3, now.Add(30*time.Millisecond), func() { fired <- "second" })
	if !w.remove(1) {
		t.Fatal("remove of a watched call reported it unwatched")
	}
	// Call 3 expires after 2 and after 1 would have: by then, 1 would have fired if it could.
	var got []string
	for len(got) < 2 {
		got = append(got, waitFor(t, fired, "the watchdog"))
	}
	if diff := cmp.Diff([]string{"first", "second"}, got); diff != "" {
		t.Errorf("expiries (-want +got):\n%s", diff)
	}
	if w.remove(2) || w.remove(3) {
		t.Error("an expired call is still watched")
	}
	// Re-armed from idle: a new call after everything expired still expires.
	w.add(4, time.Now().Add(time.Millisecond), func() { fired <- "again" })
	if got := waitFor(t, fired, "the re-armed watchdog"); got != "again" {
		t.Errorf("got %q", got)
	}
}

func TestWatchdogStopped(t *testing.T) {
	t.Parallel()
	w := newWatchdog()
	w.stop()
	w.add(1, time.Now().Add(-time.Second), func() { t.Error("a stopped watchdog expired a call") })
	if w.remove(1) {
		t.Error("a stopped watchdog took a call")
	}
}

// socketPair returns the two ends of a unix socket connection.
func socketPair(t *testing.T) (net.Conn, net.Conn) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := l.Accept()
		if err != nil {
			close(accepted)
			return
		}
		accepted <- c
	}()
	a, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	b := waitFor(t, accepted, "the accept")
	if b == nil {
		t.Fatal("accept failed")
	}
	t.Cleanup(func() { a.Close(); b.Close() })
	return a, b
}

func TestFramesSurviveInterruptionsAndSizes(t *testing.T) {
	t.Parallel()
	a, b := socketPair(t)
	r := newSocketWire(b)
	big := bytes.Repeat([]byte("views!"), readBufSize) // several times the read buffer
	frames := [][]byte{[]byte("small"), {}, big, []byte("after the big one")}
	var stream []byte
	for _, f := range frames {
		stream = binary.LittleEndian.AppendUint32(stream, uint32(len(f)))
		stream = append(stream, f...)
	}
	// Half of the first frame, then a read that times out: nothing may be lost.
	if _, err := a.Write(stream[:6]); err != nil {
		t.Fatal(err)
	}
	_ = b.SetReadDeadline(time.Now().Add(-time.Second))
	if _, err := r.readFrame(); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("an interrupted read: %v, want a deadline error", err)
	}
	_ = b.SetReadDeadline(time.Time{})
	go func() { _, _ = a.Write(stream[6:]) }()
	for i, want := range frames {
		got, err := r.readFrame()
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("frame %d: %d bytes, want %d", i, len(got), len(want))
		}
	}
	if len(r.buf) != readBufSize {
		t.Errorf("the read buffer stayed at %d bytes after the big frame, want %d", len(r.buf), readBufSize)
	}
	// A header announcing more than the limit is refused, naming the size.
	if _, err := a.Write(binary.LittleEndian.AppendUint32(nil, MaxMessage+1)); err != nil {
		t.Fatal(err)
	}
	if _, err := r.readFrame(); err == nil || !strings.Contains(err.Error(), fmt.Sprint(MaxMessage+1)) {
		t.Errorf("an oversized frame: %v, want an error naming its size", err)
	}
	// The peer closing mid-frame is an unexpected EOF.
	if _, err := b.Write([]byte{9, 0, 0, 0, 'x'}); err != nil {
		t.Fatal(err)
	}
	a.Close()
	w2 := newSocketWire(a)
	if _, err := w2.readFrame(); err == nil {
		t.Error("reading a closed connection succeeded")
	}
}

// fakeEngine answers Act with a state naming the action; an action "wait" blocks until release
// is closed or its context ends.
type fakeEngine struct {
	engine.Engine
	release chan struct{}
	started chan string
	ended   chan error // receives the context's error of a "wait" the context ended
}

func (fakeEngine) Describe(context.Context) (*engine.Description, error) {
	return &engine.Description{Info: sdk.Info{ID: "fake"}}, nil
}

func (f fakeEngine) Act(ctx context.Context, req *engine.ActRequest) (*engine.Step, error) {
	if f.started != nil {
		f.started <- req.Action.Type
	}
	switch req.Action.Type {
	case "wait":
		select {
		case <-f.release:
		case <-ctx.Done():
			if f.ended != nil {
				f.ended <- ctx.Err()
			}
			return nil, ctx.Err()
		}
	case "refuse":
		return nil, sdk.Refuse(sdk.CodeBadAction, "refused %d", req.Action.Seat)
	}
	return &engine.Step{State: []byte(fmt.Sprintf("%s/%d", req.Action.Type, req.Action.Seat)),
		Events: []sdk.Event{{Name: "did", Seat: req.Action.Seat, Cards: []sdk.Card{sdk.MustParseCards("QH")[0], 0}, Data: map[string]string{"k": "v"}}}}, nil
}

// channelOnly is a RulesetClient that reaches a Server's OpenChannel in-process.
type channelOnly struct {
	pb.RulesetClient
	s *Server
}

func (c channelOnly) OpenChannel(ctx context.Context, in *pb.OpenChannelRequest, _ ...grpc.CallOption) (*pb.OpenChannelResponse, error) {
	return c.s.OpenChannel(ctx, in)
}

// socketClient connects a Client to a Server over a real direct channel.
func socketClient(t *testing.T, e engine.Engine) (*Client, *pb.OpenChannelResponse) {
	t.Helper()
	s := NewServer(e)
	var resp *pb.OpenChannelResponse
	rpc := recordOpen{channelOnly{s: s}, &resp}
	c := NewClient(rpc)
	d, err := c.Connect(context.Background(), 10*time.Second)
	if err != nil || d.ID != "fake" {
		t.Fatalf("connect: %v %+v", err, d)
	}
	t.Cleanup(c.Close)
	return c, resp
}

type recordOpen struct {
	channelOnly
	resp **pb.OpenChannelResponse
}

func (r recordOpen) OpenChannel(ctx context.Context, in *pb.OpenChannelRequest, opts ...grpc.CallOption) (*pb.OpenChannelResponse, error) {
	resp, err := r.channelOnly.OpenChannel(ctx, in, opts...)
	*r.resp = resp
	return resp, err
}

func TestSocketRepliesFindTheirCallersOutOfOrder(t *testing.T) {
	t.Parallel()
	f := fakeEngine{release: make(chan struct{}), started: make(chan string, 10)}
	c, open := socketClient(t, f)
	if _, err := os.Stat(filepath.Dir(open.Address)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the channel's socket folder still exists after the host connected: %v", err)
	}
	ctx := context.Background()
	slow := make(chan error, 1)
	go func() {
		st, err := c.Act(ctx, &engine.ActRequest{Action: sdk.Action{Type: "wait", Seat: 1}})
		if err == nil && string(st.State) != "wait/1" {
			err = fmt.Errorf("the waiting call got state %q", st.State)
		}
		slow <- err
	}()
	if got := waitFor(t, f.started, "the slow call"); got != "wait" {
		t.Fatalf("started %q", got)
	}
	// The slow caller holds the read token; these replies come first and must reach their callers.
	var wg sync.WaitGroup
	for seat := range 8 {
		wg.Go(func() {
			typ := "play"
			if seat%2 == 1 {
				typ = "refuse"
			}
			st, err := c.Act(ctx, &engine.ActRequest{Action: sdk.Action{Type: typ, Seat: seat}})
			if typ == "refuse" {
				if re, ok := sdk.AsRefusal(err); !ok || re.Reason != fmt.Sprintf("refused %d", seat) {
					t.Errorf("seat %d: %v, want its own refusal", seat, err)
				}
				return
			}
			if err != nil {
				t.Errorf("seat %d: %v", seat, err)
				return
			}
			want := &engine.Step{State: []byte(fmt.Sprintf("play/%d", seat)),
				Events: []sdk.Event{{Name: "did", Seat: seat, Cards: []sdk.Card{sdk.MustParseCards("QH")[0], 0}, Data: map[string]string{"k": "v"}}}}
			if diff := cmp.Diff(want, st); diff != "" {
				t.Errorf("seat %d (-want +got):\n%s", seat, diff)
			}
		})
	}
	wg.Wait()
	close(f.release)
	if err := waitFor(t, slow, "the slow call's answer"); err != nil {
		t.Fatal(err)
	}
}

func TestSocketCallTimesOutAndCancels(t *testing.T) {
	t.Parallel()
	f := fakeEngine{release: make(chan struct{}), started: make(chan string, 10), ended: make(chan error, 1)}
	c, _ := socketClient(t, f)
	c.timeout = 50 * time.Millisecond
	_, err := c.Act(context.Background(), &engine.ActRequest{Action: sdk.Action{Type: "wait"}})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want context.DeadlineExceeded", err)
	}
	// The plugin's side of the call was stopped too (by its own deadline or the host's cancel).
	if err := waitFor(t, f.ended, "the plugin's call to end"); !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
		t.Errorf("the plugin's call ended with %v", err)
	}
	// The channel still works, and a reply that comes late for an abandoned call is dropped.
	c.timeout = 10 * time.Second
	st, err := c.Act(context.Background(), &engine.ActRequest{Action: sdk.Action{Type: "play", Seat: 2}})
	if err != nil || string(st.State) != "play/2" {
		t.Fatalf("the call after a timeout: %v %+v", err, st)
	}
}

func TestSocketLostWhenThePluginSideCloses(t *testing.T) {
	t.Parallel()
	f := fakeEngine{release: make(chan struct{}), started: make(chan string, 10)}
	c, _ := socketClient(t, f)
	errc := make(chan error, 1)
	go func() {
		_, err := c.Act(context.Background(), &engine.ActRequest{Action: sdk.Action{Type: "wait"}})
		errc <- err
	}()
	waitFor(t, f.started, "the call")
	// What the host sees when the process dies: the connection ends.
	_ = c.mux.w.conn.(*net.UnixConn).CloseRead()
	err := waitFor(t, errc, "the call's failure")
	var te *TransportError
	if !errors.As(err, &te) || !te.Lost || !errors.Is(err, sdk.ErrRuleset) {
		t.Fatalf("got %v (%T), want a lost *TransportError", err, err)
	}
	if !c.Broken() {
		t.Error("Broken() is false after the channel ended")
	}
	if _, err := c.Act(context.Background(), &engine.ActRequest{Action: sdk.Action{Type: "play"}}); !errors.As(err, &te) || !te.Lost {
		t.Errorf("a call on a broken channel: %v, want a lost *TransportError", err)
	}
	close(f.release)
}

func TestChannelRefusesAWrongToken(t *testing.T) {
	t.Parallel()
	s := NewServer(fakeEngine{})
	resp, err := s.OpenChannel(context.Background(), &pb.OpenChannelRequest{})
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial(resp.Network, resp.Address)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	w := newSocketWire(conn)
	bad := bytes.Clone(resp.Token)
	bad[0] ^= 1
	if err := w.writeFrame(bad); err != nil {
		t.Fatal(err)
	}
	_ = w.writeMsg(&pb.Call{Id: 1, Request: &pb.Call_Describe{Describe: &pb.DescribeRequest{}}})
	_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second)) // a hang, not a timing
	var r pb.Reply
	if err := w.readMsg(&r); !errors.Is(err, io.EOF) {
		t.Fatalf("after a wrong token: %v (reply %v), want the connection closed", err, &r)
	}
	// The socket is gone: nobody else can connect with another guess.
	if _, err := net.Dial(resp.Network, resp.Address); err == nil {
		t.Error("the channel's socket still accepts connections")
	}
}

func TestEventsRoundTrip(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		events []sdk.Event
	}{
		{"none", nil},
		{"empty", []sdk.Event{}},
		{"full", []sdk.Event{
			{Name: "played", Seat: 2, Cards: sdk.MustParseCards("QH Y+2 W+4"), Data: map[string]string{"pile": "3"}},
			{Name: "drew", Seat: 1, Count: 2, Private: true},
			{Name: "slot", Seat: sdk.NoSeat, Cards: []sdk.Card{0, sdk.MustParseCards("AS")[0]}},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			// Through the wire bytes, as the channel carries them.
			resp, err := StepToPB(&engine.Step{Events: c.events})
			if err != nil {
				t.Fatal(err)
			}
			var back pb.StepResponse
			if err := proto.Unmarshal(mustMarshal(t, resp), &back); err != nil {
				t.Fatal(err)
			}
			got, err := StepFromPB(&back)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.events, got.Events); diff != "" {
				t.Errorf("events (-sent +read):\n%s", diff)
			}
			if (got.Events == nil) != (c.events == nil) {
				t.Errorf("nil-ness lost: read nil %v, sent nil %v", got.Events == nil, c.events == nil)
			}
		})
	}
	if _, err := StepToPB(&engine.Step{Events: []sdk.Event{{Name: "bad", Cards: []sdk.Card{999}}}}); err == nil || !strings.Contains(err.Error(), "999") {
		t.Errorf("an event with no card: %v, want an error naming it", err)
	}
	if _, err := StepFromPB(&pb.StepResponse{EventsSet: true, Events: []*pb.Event{{Name: "bad", Cards: []uint32{70000}}}}); err == nil || !strings.Contains(err.Error(), "70000") {
		t.Errorf("a card number out of range: %v, want an error naming it", err)
	}
}
