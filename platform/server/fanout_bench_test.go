package server

import (
	"context"
	"strings"
	"syscall"
	"testing"

	"cardhouse/platform/room"

	"github.com/coder/websocket"
)

// fanoutConn is the server's side of one connection of BenchmarkFanOut.
type fanoutConn struct {
	client *room.Client
	w      *wsWriter
}

// fanOut does what a room's actor does for one action: it queues msg for every connection (and
// accepted for the first when extra), then flushes them (room.Client's push and flush).
func fanOut(conns []fanoutConn, msg, accepted []byte, extra bool) {
	for _, c := range conns {
		c.w.Queue(msg)
	}
	if extra {
		conns[0].w.Queue(accepted)
	}
	for _, c := range conns {
		c.w.Flush()
	}
}

// fanoutSockets opens n real WebSockets over loopback TCP, served by serveWSWriter (a sink client
// each), and reads each in a goroutine of its own that
// signals got for every message.
func fanoutSockets(b *testing.B, n int, got chan<- struct{}) []fanoutConn {
	clients := make(chan fanoutConn, n)
	srv := serveWSWriter(b, 64, 0, func(w *wsWriter) *room.Client {
		c := room.NewSinkClient(1, w)
		clients <- fanoutConn{c, w}
		return c
	})
	out := make([]fanoutConn, n)
	for i := range out {
		conn, _, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { conn.CloseNow() })
		go func() {
			for {
				if _, _, err := conn.Read(context.Background()); err != nil {
					return
				}
				got <- struct{}{}
			}
		}()
		out[i] = <-clients
	}
	return out
}

// BenchmarkFanOut sends one message of 400 bytes (about a Last Card patch) to each of four
// connections, as a room's actor does for one action ("views"), or also a second to the first
// ("act": the acting player's "accepted"), and waits until the four clients have read them.
// cpu-ns/op is the process's CPU (user and system) per round, the clients' reads included.
func BenchmarkFanOut(b *testing.B) {
	msg := []byte(`{"v":2,"type":"patch"` + strings.Repeat(" ", 360) + `,"seq":1}`)
	accepted := []byte(`{"v":1,"type":"accepted","id":"a1","seq":1}`)
	for _, tc := range []struct {
		name  string
		extra bool
	}{{"views", false}, {"act", true}} {
		b.Run(tc.name, func(b *testing.B) {
			got := make(chan struct{}, 64)
			clients := fanoutSockets(b, 4, got)
			want := len(clients)
			if tc.extra {
				want++
			}
			b.ReportAllocs()
			var ru0, ru1 syscall.Rusage
			_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
			b.ResetTimer()
			for range b.N {
				fanOut(clients, msg, accepted, tc.extra)
				for range want {
					<-got
				}
			}
			b.StopTimer()
			_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
			cpu := (ru1.Utime.Nano() + ru1.Stime.Nano()) - (ru0.Utime.Nano() + ru0.Stime.Nano())
			b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}
