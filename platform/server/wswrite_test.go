package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"cardhouse/platform/room"
	"cardhouse/platform/store"
	"cardhouse/platform/store/storetest"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest/toy"

	"github.com/coder/websocket"
)

// TestAppendFrame checks the frame header at each length encoding's edges (RFC 6455, 5.2).
func TestAppendFrame(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n    int
		head []byte
	}{
		{0, []byte{0x81, 0}},
		{125, []byte{0x81, 125}},
		{126, []byte{0x81, 126, 0, 126}},
		{65535, []byte{0x81, 126, 0xff, 0xff}},
		{65536, []byte{0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0}},
	} {
		got := appendFrame(nil, make([]byte, tc.n))
		if len(got) != len(tc.head)+tc.n || string(got[:len(tc.head)]) != string(tc.head) {
			t.Errorf("%d bytes: frame of %d bytes starting % x, want % x then the payload", tc.n, len(got), got[:min(len(got), 10)], tc.head)
		}
	}
}

// serveWSWriter serves WebSockets as the server serves a room's connections: each through a
// wsWriter (limit messages) whose socket writes from a send buffer of sndbuf bytes when it is not
// 0, attach makes the room's client, the writer goroutine is the server's writeLoop, and the
// server's reads run until the connection ends.
func serveWSWriter(tb testing.TB, limit, sndbuf int, attach func(*wsWriter) *room.Client) *httptest.Server {
	tb.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		w := newWSWriter(limit)
		conn, err := websocket.Accept(&hijackingWriter{ResponseWriter: rw, conn: w}, r, nil)
		if err != nil {
			tb.Error(err)
			return
		}
		if sndbuf > 0 {
			if err := w.Conn.(*net.TCPConn).SetWriteBuffer(sndbuf); err != nil {
				tb.Error(err)
			}
		}
		c := attach(w)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			(&Server{}).writeLoop(ctx, conn, w, c)
		}()
		for {
			if _, _, err := conn.Read(context.Background()); err != nil {
				break
			}
		}
		cancel()
		<-done
	}))
	tb.Cleanup(srv.Close)
	return srv
}

// wsPair serves one WebSocket with serveWSWriter and dials it. The dialer's socket reads into a
// receive buffer of rcvbuf bytes when it is not 0, and the server's socket writes from a send
// buffer of sndbuf bytes: small buffers fill after a few messages.
func wsPair(t *testing.T, limit, sndbuf, rcvbuf int, attach func(*wsWriter) *room.Client) *websocket.Conn {
	t.Helper()
	ready := make(chan struct{})
	srv := serveWSWriter(t, limit, sndbuf, func(w *wsWriter) *room.Client {
		defer close(ready)
		return attach(w)
	})
	dialer := &net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		if rcvbuf == 0 {
			return nil
		}
		var serr error
		err := c.Control(func(fd uintptr) { serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, rcvbuf) })
		return errors.Join(err, serr)
	}}
	hc := &http.Client{Transport: &http.Transport{DialContext: dialer.DialContext}}
	conn, _, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(srv.URL, "http"), &websocket.DialOptions{HTTPClient: hc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.CloseNow() })
	conn.SetReadLimit(1 << 20)
	<-ready
	return conn
}

// TestWSWriterMessagesArriveWhole runs the real WebSocket library over a wsWriter: messages of
// every length encoding, queued in groups and flushed, arrive whole and in order, while the
// client's pings make the library write pongs through the same writer from its reading goroutine.
func TestWSWriterMessagesArriveWhole(t *testing.T) {
	t.Parallel()
	var msgs []string
	for i, n := range []int{5, 125, 126, 10_000, 65_535, 65_536, 100_000, 3, 0, 200} {
		msgs = append(msgs, fmt.Sprintf("%03d", i)+strings.Repeat(string(rune('a'+i)), n))
	}
	var w *wsWriter
	client := room.NewClient(1, 1) // only its Gone is used
	conn := wsPair(t, 64, 0, 0, func(ww *wsWriter) *room.Client { w = ww; return client })
	ctx := context.Background()
	pings := make(chan error, 1)
	go func() { // the pongs cross the messages
		var err error
		for range 20 {
			if err = conn.Ping(ctx); err != nil {
				break
			}
		}
		pings <- err
	}()
	for i, m := range msgs {
		if !w.Queue([]byte(m)) {
			t.Fatalf("message %d refused", i)
		}
		if i%3 == 2 {
			w.Flush()
		}
	}
	w.Flush()
	for i, want := range msgs {
		_, got, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		if string(got) != want {
			t.Fatalf("message %d: got %d bytes %.20q, want %d bytes %.20q", i, len(got), got, len(want), want)
		}
	}
	go func() { // reads the pongs until the close
		for {
			if _, _, err := conn.Read(ctx); err != nil {
				return
			}
		}
	}()
	if err := <-pings; err != nil {
		t.Fatalf("pinging across the messages: %v", err)
	}
	_ = conn.Close(websocket.StatusNormalClosure, "")
}

// TestStuckSocketNeverStallsTheRoom: a connection whose client stops reading fills its socket's
// buffers; the room's actor, which writes to sockets itself, never waits for it: every chat line
// is still answered at once and reaches the other connection, the stuck one is dropped as too slow
// (1013) once its limit of messages waits unwritten, and when its client reads again it gets the
// lines it was sent, in order, then the close. On both databases.
func TestStuckSocketNeverStallsTheRoom(t *testing.T) {
	t.Parallel()
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			storetest.SkipUnlessAvailable(t, dialect)
			testStuckSocket(t, dialect)
		})
	}
}

// stallLimit is how long TestStuckSocketNeverStallsTheRoom waits for a chat line to be answered
// before it calls the room stalled (a line takes milliseconds; a stalled room never answers).
const stallLimit = 30 * time.Second

func testStuckSocket(t *testing.T, dialect string) {
	ctx := context.Background()
	st := storetest.Open(t, dialect)
	m, err := room.NewManager(ctx, room.Config{Store: st, Engines: map[string]engine.Engine{toy.ID: engine.New(toy.Ruleset{})},
		Clock: room.NewFakeClock(time.Unix(0, 0)), Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), ChatBurst: 1_000_000})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	users := make([]*store.User, 2)
	for i := range users {
		users[i] = &store.User{DisplayName: fmt.Sprint("u", i), Guest: true}
		if err := st.CreateUser(ctx, users[i]); err != nil {
			t.Fatal(err)
		}
	}
	r, err := m.Create(ctx, users[0], room.CreateRequest{Ruleset: toy.ID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Join(ctx, users[1], true); err != nil {
		t.Fatal(err)
	}
	attach := func(u *store.User, c **room.Client) func(*wsWriter) *room.Client {
		return func(w *wsWriter) *room.Client {
			*c = room.NewSinkClient(u.ID, w)
			if err := r.Attach(ctx, u, *c, nil); err != nil {
				t.Error(err)
			}
			return *c
		}
	}
	const limit = 8
	var stuck, fast *room.Client
	stuckConn := wsPair(t, limit, 4096, 4096, attach(users[1], &stuck))
	fastConn := wsPair(t, limit, 0, 0, attach(users[0], &fast))
	fastLines := make(chan string, 1)
	go func() {
		defer close(fastLines)
		for {
			_, b, err := fastConn.Read(ctx)
			if err != nil {
				return
			}
			var msg struct {
				Type string
				Chat struct{ Text string }
			}
			if json.Unmarshal(b, &msg) == nil && msg.Type == "chat" {
				fastLines <- msg.Chat.Text
			}
		}
	}()
	line := strings.Repeat("x", 490)
	var sent []string
	for i := 0; ; i++ {
		select {
		case <-stuck.Gone():
		default:
			if i == 2_000 {
				t.Fatalf("the stuck connection still attached after %d chat lines of %d bytes (limit %d messages)", i, len(line), limit)
			}
			text := fmt.Sprintf("%04d%s", i, line)
			said := make(chan error, 1)
			go func() { _, err := r.Say(ctx, users[0], text); said <- err }()
			stalled := time.After(stallLimit)
			select {
			case err := <-said:
				if err != nil {
					t.Fatalf("chat line %d: %v", i, err)
				}
			case <-stalled:
				t.Fatalf("chat line %d: the room did not answer within %s: it waits for the stuck socket", i, stallLimit)
			}
			select {
			case got := <-fastLines:
				if got != text {
					t.Fatalf("the other connection read line %.4q, want %.4q", got, text)
				}
			case <-stalled:
				t.Fatalf("chat line %d did not reach the other connection within %s: the room waits for the stuck socket", i, stallLimit)
			}
			sent = append(sent, text)
			continue
		}
		break
	}
	if code, reason := stuck.Reason(); code != room.CloseTooSlow {
		t.Fatalf("the stuck connection was dropped with %d %q, want %d", code, reason, room.CloseTooSlow)
	}
	select {
	case <-fast.Gone():
		t.Fatal("the other connection was dropped too")
	default:
	}
	// The stuck client reads again: the hello, then the lines it was sent, in order, then the close.
	var got []string
	for {
		_, b, err := stuckConn.Read(ctx)
		if err != nil {
			if s := websocket.CloseStatus(err); s != room.CloseTooSlow {
				t.Fatalf("the stuck connection ended with %v (status %d), want close %d", err, s, room.CloseTooSlow)
			}
			break
		}
		var msg struct {
			Type string
			Chat struct{ Text string }
		}
		if err := json.Unmarshal(b, &msg); err != nil {
			t.Fatalf("the stuck connection read %.40q: %v", b, err)
		}
		if msg.Type == "chat" {
			got = append(got, msg.Chat.Text)
		}
	}
	if len(got) == 0 || len(got) >= len(sent) {
		t.Fatalf("the stuck connection read %d of the %d lines sent, want some but not all", len(got), len(sent))
	}
	for i := range got {
		if got[i] != sent[i] {
			t.Fatalf("the stuck connection's line %d is %.4q, want %.4q", i, got[i], sent[i])
		}
	}
	t.Logf("dropped after %d lines; it had read %d", len(sent), len(got))
}
