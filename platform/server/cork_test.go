package server

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/coder/websocket"
)

// countingConn records every write that reaches the socket.
type countingConn struct {
	net.Conn
	mu     sync.Mutex
	writes [][]byte
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	c.writes = append(c.writes, bytes.Clone(p))
	c.mu.Unlock()
	return c.Conn.Write(p)
}

// TestCorkedConnHoldsWritesUntilUncork checks the cork itself: writes between cork and uncork
// reach the socket as one write, in order; writes outside pass straight through.
func TestCorkedConnHoldsWritesUntilUncork(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	got := make(chan []byte, 1)
	go func() {
		var all []byte
		buf := make([]byte, 64)
		for {
			n, err := b.Read(buf)
			all = append(all, buf[:n]...)
			if err != nil || len(all) >= len("0abc1") {
				got <- all
				return
			}
		}
	}()
	inner := &countingConn{Conn: a}
	c := &corkedConn{Conn: inner}
	write := func(s string) {
		if _, err := c.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	write("0")
	c.cork()
	write("a")
	write("b")
	write("c")
	if len(inner.writes) != 1 {
		t.Fatalf("%d writes reached the socket while corked, want only the one before", len(inner.writes))
	}
	if err := c.uncork(); err != nil {
		t.Fatal(err)
	}
	write("1")
	if s := string(<-got); s != "0abc1" {
		t.Errorf("the socket read %q, want %q", s, "0abc1")
	}
	want := []string{"0", "abc", "1"}
	if len(inner.writes) != len(want) {
		t.Fatalf("writes %q, want %q", inner.writes, want)
	}
	for i, w := range want {
		if string(inner.writes[i]) != w {
			t.Errorf("write %d was %q, want %q", i, inner.writes[i], w)
		}
	}
	if err := c.uncork(); err != nil { // nothing held: nothing written
		t.Fatal(err)
	}
	if len(inner.writes) != len(want) {
		t.Errorf("an empty uncork wrote: %q", inner.writes)
	}
}

// TestCorkedWebSocketMessagesArriveWhole runs the real WebSocket library over a corked
// connection: messages sent corked and uncorked, small and larger than the library's buffer,
// arrive whole and in order at a real client.
func TestCorkedWebSocketMessagesArriveWhole(t *testing.T) {
	msgs := []string{"first", strings.Repeat("x", 10_000), "third", strings.Repeat("y", 100), "last"}
	done := make(chan error, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cw := &corkingWriter{ResponseWriter: w}
		conn, err := websocket.Accept(cw, r, nil)
		if err != nil {
			done <- err
			return
		}
		ctx := context.Background()
		err = conn.Write(ctx, websocket.MessageText, []byte(msgs[0]))
		cw.conn.cork()
		for _, m := range msgs[1:4] {
			if err == nil {
				err = conn.Write(ctx, websocket.MessageText, []byte(m))
			}
		}
		if uerr := cw.conn.uncork(); err == nil {
			err = uerr
		}
		if err == nil {
			err = conn.Write(ctx, websocket.MessageText, []byte(msgs[4]))
		}
		done <- err
		_, _, _ = conn.Read(ctx) // until the client closes
	}))
	defer srv.Close()
	ctx := context.Background()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	conn.SetReadLimit(1 << 20)
	for i, want := range msgs {
		_, got, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		if string(got) != want {
			t.Fatalf("message %d: got %d bytes %.20q, want %d bytes %.20q", i, len(got), got, len(want), want)
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	_ = conn.Close(websocket.StatusNormalClosure, "")
}
