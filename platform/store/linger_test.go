package store

import (
	"testing"
	"time"
)

// The committer lingers only after a window in which actions came at lingerRate or more.
func TestCommitterBusy(t *testing.T) {
	c := &committer{}
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	step := lingerWindow / 100
	perWindow := func(rate int) int { return int(float64(rate) * lingerWindow.Seconds()) }

	// A first window at half the rate: never busy, during it or after it.
	at := t0
	for i := range 100 {
		if c.busy(at, perWindow(lingerRate/2)/100) {
			t.Fatalf("busy at %v of a first window at half the rate (step %d)", at.Sub(t0), i)
		}
		at = at.Add(step)
	}
	// A window at twice the rate: busy only once it is over.
	for i := range 100 {
		busy := c.busy(at, perWindow(2*lingerRate)/100)
		if i == 0 && busy {
			t.Fatal("busy right after a window at half the rate")
		}
		at = at.Add(step)
	}
	if !c.busy(at, 1) {
		t.Fatal("not busy after a window at twice the rate")
	}
	// Quiet for a while: the next action finds the window's rate low again.
	at = at.Add(10 * lingerWindow)
	if c.busy(at, 1) {
		t.Fatal("still busy after a quiet second")
	}
}

// linger takes what is waiting, and what comes within lingerFor, up to maxBatch.
func TestCommitterLinger(t *testing.T) {
	c := &committer{queue: make(chan *commitReq, 4*maxBatch), stop: make(chan struct{})}
	first := &commitReq{}
	for range 3 {
		c.queue <- &commitReq{}
	}
	if got := c.linger([]*commitReq{first}); len(got) != 4 || got[0] != first {
		t.Fatalf("lingered into %d requests, want the first and the 3 waiting", len(got))
	}
	for range maxBatch + 5 {
		c.queue <- &commitReq{}
	}
	if got := c.linger([]*commitReq{first}); len(got) != maxBatch {
		t.Fatalf("lingered into %d requests, want at most maxBatch (%d)", len(got), maxBatch)
	}
	if len(c.queue) != 6 {
		t.Fatalf("%d requests left waiting, want 6", len(c.queue))
	}
}
