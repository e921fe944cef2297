package adapter

import (
	"sync"
	"time"
)

// watchdog expires calls past their deadlines with one timer for a whole channel, armed for the
// earliest deadline. Removing a call does not touch the timer (when it fires early it finds nothing
// due and re-arms for what is left), so a steady flow of calls costs no timer operation per call:
// arming a timer per call (context.WithTimeout, time.AfterFunc) wakes the network poller, a
// system call or two each time, a real share of a call's cost across a process boundary.
//
// A deadline is enforced within the timer's precision, never early.
type watchdog struct {
	mu       sync.Mutex
	timer    *time.Timer
	armedFor time.Time // zero: not armed
	entries  map[uint64]watchEntry
	stopped  bool
}

type watchEntry struct {
	deadline time.Time
	expire   func()
}

func newWatchdog() *watchdog {
	w := &watchdog{entries: map[uint64]watchEntry{}}
	w.timer = time.AfterFunc(time.Hour, w.fire)
	w.timer.Stop()
	return w
}

// add watches call id: expire runs (on the watchdog's goroutine, without locks held) once the
// deadline has passed, unless remove came first.
func (w *watchdog) add(id uint64, deadline time.Time, expire func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	w.entries[id] = watchEntry{deadline: deadline, expire: expire}
	if w.armedFor.IsZero() || deadline.Before(w.armedFor) {
		w.armedFor = deadline
		w.timer.Reset(time.Until(deadline))
	}
}

// remove stops watching id; it reports whether id was still watched (false: it expired, or was
// never added).
func (w *watchdog) remove(id uint64) bool {
	w.mu.Lock()
	_, ok := w.entries[id]
	delete(w.entries, id)
	w.mu.Unlock()
	return ok
}

// fire expires what is due and re-arms for the earliest deadline left.
func (w *watchdog) fire() {
	w.mu.Lock()
	now := time.Now()
	var due []func()
	var next time.Time
	for id, e := range w.entries {
		if !e.deadline.After(now) {
			due = append(due, e.expire)
			delete(w.entries, id)
		} else if next.IsZero() || e.deadline.Before(next) {
			next = e.deadline
		}
	}
	w.armedFor = next
	if !next.IsZero() && !w.stopped {
		w.timer.Reset(next.Sub(now))
	}
	w.mu.Unlock()
	for _, f := range due {
		f()
	}
}

// stop disarms the watchdog for good; later adds are ignored.
func (w *watchdog) stop() {
	w.mu.Lock()
	w.stopped = true
	w.timer.Stop()
	clear(w.entries)
	w.mu.Unlock()
}
