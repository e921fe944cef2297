package main

import (
	"net"
	"net/http"
	"sync"
	"sync/atomic"
)

// unusedConns keeps the connections of an http.Server that have not sent a byte of a request
// yet (http.StateNew), and closes them when the server shuts down.
//
// http.Server.Shutdown closes the listeners, then waits for every connection to be idle; one in
// StateNew counts as idle only once it is more than five seconds old (Go issue 22682). A client
// that opened a connection it did not use (a browser's preconnect, or Go's Transport putting a
// dial that lost its race to another connection in its pool) thus held a stopping node for up to
// 5 to 6 seconds, its rooms' sockets still open (they are closed after the HTTP drain): the 4.4 s
// SIGTERM stop seen once in 73 (docs/operations.md). Such a connection carries no request: closing
// it loses nothing (the client dials again, and finds another node).
type unusedConns struct {
	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed atomic.Int64 // how many were closed at a shutdown
}

// track makes hs report its connections' states to u and close the unused ones when it shuts
// down. Call it before serving.
func (u *unusedConns) track(hs *http.Server) {
	u.conns = map[net.Conn]struct{}{}
	prev := hs.ConnState
	hs.ConnState = func(c net.Conn, st http.ConnState) {
		u.mu.Lock()
		if st == http.StateNew {
			u.conns[c] = struct{}{}
		} else {
			delete(u.conns, c)
		}
		u.mu.Unlock()
		if prev != nil {
			prev(c, st)
		}
	}
	// Shutdown runs this once its listeners are closed: no new connection comes after it.
	hs.RegisterOnShutdown(u.closeAll)
}

func (u *unusedConns) closeAll() {
	u.mu.Lock()
	defer u.mu.Unlock()
	for c := range u.conns {
		u.closed.Add(1) // counted before the close: whoever sees the close sees the count
		delete(u.conns, c)
		_ = c.Close()
	}
}
