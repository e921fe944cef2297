package main

import (
	"context"
	"math"
	"runtime/debug"
	"testing"
)

func TestMemoryLimitFor(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int64
	}{
		{0, serveMemoryFloor},
		{50 << 20, serveMemoryFloor},          // a small site: the floor
		{400 << 20, int64(2.5 * (400 << 20))}, // a large one: 2.5 times its live heap
	} {
		if got := memoryLimitFor(c.live); got != c.want {
			t.Errorf("memoryLimitFor(%d MiB) = %d MiB, want %d MiB", c.live>>20, got>>20, c.want>>20)
		}
	}
}

// tuneGC sets GOGC 300 and a soft limit, unless the environment sets GOGC or GOMEMLIMIT.
func TestTuneGC(t *testing.T) {
	prevPercent, prevLimit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetGCPercent(prevPercent); debug.SetMemoryLimit(prevLimit) })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	t.Setenv("GOGC", "150")
	if tuneGC(ctx) || debug.SetGCPercent(100) != 100 {
		t.Fatal("tuneGC changed the collector although GOGC is set")
	}
	t.Setenv("GOGC", "")
	if !tuneGC(ctx) {
		t.Fatal("tuneGC did nothing without GOGC or GOMEMLIMIT")
	}
	if got := debug.SetGCPercent(100); got != serveGCPercent {
		t.Errorf("GOGC after tuneGC: %d, want %d", got, serveGCPercent)
	}
	if got := debug.SetMemoryLimit(-1); got < serveMemoryFloor || got == math.MaxInt64 {
		t.Errorf("memory limit after tuneGC: %d, want at least %d", got, serveMemoryFloor)
	}
}
