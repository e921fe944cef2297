package adapter

import (
	"bytes"
	"fmt"
	"net"
	"runtime"
	"testing"
)

// TestFramesWrittenMeanwhileCrossInOneBatch holds one writer in its system call (a net.Pipe
// write lasts until the other end reads) while others write: they return at once, their frames
// waiting, and the writer in the call sends them all in one more write when it is back. Every
// frame arrives whole, each writer's in its order.
func TestFramesWrittenMeanwhileCrossInOneBatch(t *testing.T) {
	t.Parallel()
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	w, r := newSocketWire(a), newSocketWire(b)
	first := make(chan error, 1)
	go func() { first <- w.writeFrame([]byte("first")) }()
	for { // until the first writer is in its call (the pipe holds it there until a read)
		w.wmu.Lock()
		in := w.writing
		w.wmu.Unlock()
		if in {
			break
		}
		runtime.Gosched()
	}
	var want []string
	for i := range 5 {
		f := fmt.Sprint("meanwhile ", i)
		if err := w.writeFrame([]byte(f)); err != nil {
			t.Fatal(err)
		}
		want = append(want, f)
	}
	if got, err := r.readFrame(); err != nil || !bytes.Equal(got, []byte("first")) {
		t.Fatalf("first frame %q, %v", got, err)
	}
	for _, f := range want {
		got, err := r.readFrame()
		if err != nil || string(got) != f {
			t.Fatalf("frame %q, %v; want %q", got, err, f)
		}
	}
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if n := w.batches.Load(); n != 1 {
		t.Errorf("%d batched writes, want the 5 frames in 1", n)
	}
	// Alone again, a writer writes its own frame at once.
	go func() { first <- w.writeFrame([]byte("alone")) }()
	if got, err := r.readFrame(); err != nil || string(got) != "alone" || <-first != nil || w.batches.Load() != 1 {
		t.Errorf("a lone frame: %q, %v, %d batches", got, err, w.batches.Load())
	}
}

// TestBatchedFramesUnderLoad has many writers send frames of every size, some past the size of a
// kept batch buffer, to a reader that falls behind: every frame arrives whole and each writer's
// in its order.
func TestBatchedFramesUnderLoad(t *testing.T) {
	t.Parallel()
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	w, r := newSocketWire(a), newSocketWire(b)
	const writers, frames = 8, 40
	errs := make(chan error, writers)
	for g := range writers {
		go func() {
			for i := range frames {
				size := 16 + (g*7919+i*104729)%5000
				if i%13 == 0 {
					size = 300 << 10 // a few of these make a batch too large to keep
				}
				f := bytes.Repeat([]byte{byte(g)}, size)
				copy(f, fmt.Sprintf("%d:%d:", g, i))
				if err := w.writeFrame(f); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	next := make([]int, writers)
	for range writers * frames {
		f, err := r.readFrame()
		if err != nil {
			t.Fatal(err)
		}
		var g, i int
		if _, err := fmt.Sscanf(string(f[:min(len(f), 16)]), "%d:%d:", &g, &i); err != nil || g < 0 || g >= writers || i != next[g] {
			t.Fatalf("frame %.16q: want writer %d's frame %d next", f, g, next[max(0, min(g, writers-1))])
		}
		head := len(fmt.Sprintf("%d:%d:", g, i))
		if bytes.Count(f[head:], []byte{byte(g)}) != len(f)-head {
			t.Fatalf("writer %d's frame %d is corrupt", g, i)
		}
		next[g]++
	}
	for range writers {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d frames in %d batched writes", writers*frames, w.batches.Load())
}
