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

// A message built for one client comes out of its outbox as built; a client that is gone or full
// refuses it and the buffer goes back. Written messages give their buffers back: building,
// queueing and writing one more view allocates nothing once the pool is warm.
func TestOwnMessages(t *testing.T) {
	c := NewClient(1, 2)
	want := []string{}
	for i := range 2 {
		buf := messageBufs.Get().(*[]byte)
		*buf = appendViewMessage((*buf)[:0], i, 1, 10+i, 0, []byte(`{"hand":["R7"]}`))
		want = append(want, string(*buf))
		if !c.pushOwn(buf) {
			t.Fatalf("message %d refused", i)
		}
	}
	full := messageBufs.Get().(*[]byte)
	*full = append((*full)[:0], "overflow"...)
	if c.pushOwn(full) {
		t.Fatal("a full outbox took a third message")
	}
	select {
	case <-c.Gone():
	default:
		t.Fatal("the client whose outbox overflowed was not dropped")
	}
	for i := range 2 {
		m := <-c.Out()
		if got := string(m.Bytes()); got != want[i] {
			t.Fatalf("message %d: %s, want %s", i, got, want[i])
		}
		if !strings.Contains(want[i], `"type":"view","seat":`) {
			t.Fatalf("message %d is not a view message: %s", i, want[i])
		}
		m.Done()
	}
	view := []byte(`{"hand":["R7","B2","G9"],"pile":["Y4"]}`)
	c3 := NewClient(3, 4)
	allocs := testing.AllocsPerRun(200, func() {
		buf := messageBufs.Get().(*[]byte)
		*buf = appendViewMessage((*buf)[:0], 0, 1, 10, 0, view)
		c3.pushOwn(buf)
		m := <-c3.Out()
		m.Done()
	})
	if allocs >= 1.5 { // none; without the pool, 2 (the buffer and its pointer); under -race the pool drops a few
		t.Errorf("a view message allocates %.1f times once the pool is warm, want none", allocs)
	}
	// A shared message (push) has no buffer to give back: Done leaves its bytes alone.
	shared := []byte(`{"v":1,"type":"room"}`)
	c2 := NewClient(2, 1)
	c2.push(shared)
	m := <-c2.Out()
	m.Done()
	if string(shared) != `{"v":1,"type":"room"}` || string(m.Bytes()) != string(shared) {
		t.Fatalf("a shared message changed: %s", shared)
	}
}
