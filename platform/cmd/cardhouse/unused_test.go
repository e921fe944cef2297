package main

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"testing"
)

// TestStopDoesNotWaitForUnusedConnections shuts a server down while a client holds a connection
// it has sent nothing on (a browser's preconnect): the shutdown must close it itself rather than
// wait for net/http to count it idle (five seconds after it was opened), while a request in
// flight on another connection is still answered.
func TestStopDoesNotWaitForUnusedConnections(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	inHandler, release := make(chan struct{}), make(chan struct{})
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(inHandler)
		<-release
		_, _ = io.WriteString(w, "answered")
	})}
	opened := make(chan struct{}, 4)
	hs.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			opened <- struct{}{}
		}
	}
	var unused unusedConns
	unused.track(hs)
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()

	// A request in flight: the stop waits for it.
	answer := make(chan string, 1)
	go func() {
		resp, err := http.Get("http://" + ln.Addr().String() + "/")
		if err != nil {
			answer <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		answer <- string(b)
	}()
	<-opened
	<-inHandler
	// A connection that sends nothing.
	idle, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	<-opened

	stopped := make(chan error, 1)
	go func() { stopped <- hs.Shutdown(context.Background()) }()
	// The unused connection is closed by the stop, while the request is still in its handler.
	if n, err := idle.Read(make([]byte, 1)); n != 0 || !errors.Is(err, io.EOF) {
		t.Fatalf("the unused connection read %d bytes, %v: want it closed by the stop (EOF)", n, err)
	}
	select {
	case err := <-stopped:
		t.Fatalf("the stop returned (%v) with a request still in its handler", err)
	default:
	}
	if got := unused.closed.Load(); got != 1 {
		t.Fatalf("the stop closed %d unused connections, want 1 (net/http closed it itself: the stop waited for it)", got)
	}
	close(release)
	if err := <-stopped; err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	if got := <-answer; got != "answered" {
		t.Errorf("the request in flight got %q, want its answer", got)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		t.Errorf("Serve returned %v", err)
	}
}
