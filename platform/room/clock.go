package room

import (
	"sync"
	"time"
)

// Clock is the room's source of time and timers. The real one is [SystemClock]; tests use
// [FakeClock] and advance it.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine once d has passed; Stop cancels it.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a pending AfterFunc call.
type Timer interface {
	// Stop cancels the call; it reports whether the call was still pending.
	Stop() bool
}

// SystemClock is the wall clock.
type SystemClock struct{}

// Now returns time.Now().
func (SystemClock) Now() time.Time { return time.Now() }

// AfterFunc is time.AfterFunc.
func (SystemClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }

// FakeClock is a manual clock for tests: time moves only by Advance, which runs every timer that
// falls due (each in its own goroutine, as time.AfterFunc does). A timer of zero or negative
// duration runs at once.
type FakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers map[*fakeTimer]struct{}
}

type fakeTimer struct {
	c  *FakeClock
	at time.Time
	f  func()
}

// NewFakeClock returns a fake clock at start.
func NewFakeClock(start time.Time) *FakeClock {
	return &FakeClock{now: start, timers: map[*fakeTimer]struct{}{}}
}

// Now returns the fake time.
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc schedules f at Now()+d.
func (c *FakeClock) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{c: c, at: c.now.Add(d), f: f}
	if d <= 0 {
		go f()
		return t
	}
	c.timers[t] = struct{}{}
	return t
}

// Advance moves the clock on by d and runs the timers that fell due.
func (c *FakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []*fakeTimer
	for t := range c.timers {
		if !t.at.After(c.now) {
			due = append(due, t)
			delete(c.timers, t)
		}
	}
	c.mu.Unlock()
	for _, t := range due {
		go t.f()
	}
}

// Pending reports how many timers wait.
func (c *FakeClock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	_, ok := t.c.timers[t]
	delete(t.c.timers, t)
	return ok
}
