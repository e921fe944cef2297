package room

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestNewCode(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for range 2000 {
		c := newCode()
		if len(c) != CodeLength || strings.ContainsAny(c, "ILO01") || strings.Trim(c, codeLetters) != "" {
			t.Fatalf("code %q: want %d letters of %s", c, CodeLength, codeLetters)
		}
		seen[c] = true
	}
	if len(seen) < 1990 {
		t.Fatalf("only %d distinct codes in 2000", len(seen))
	}
}

func TestFakeClock(t *testing.T) {
	t.Parallel()
	c := NewFakeClock(time.Unix(0, 0))
	var fired atomic.Int32
	done := make(chan struct{}, 3)
	c.AfterFunc(10*time.Second, func() { fired.Add(1); done <- struct{}{} })
	stopped := c.AfterFunc(5*time.Second, func() { t.Error("a stopped timer fired") })
	if !stopped.Stop() || stopped.Stop() {
		t.Fatal("Stop reports a pending timer once")
	}
	c.Advance(9 * time.Second)
	if c.Pending() != 1 || fired.Load() != 0 {
		t.Fatalf("after 9 s: %d pending, %d fired", c.Pending(), fired.Load())
	}
	c.Advance(time.Second)
	<-done
	if c.Pending() != 0 || fired.Load() != 1 || c.Now() != time.Unix(10, 0) {
		t.Fatalf("after 10 s: %d pending, %d fired, now %v", c.Pending(), fired.Load(), c.Now())
	}
	c.AfterFunc(0, func() { done <- struct{}{} })
	<-done
}
