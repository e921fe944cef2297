package main

import (
	"context"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// The collector of `cardhouse serve`. Most of what the server allocates lives for one action (the
// plugin's reply, the messages), so a larger heap between collections costs memory, not work: at
// 250 rooms this tuning takes about 7% off the server's CPU per action (docs/performance.md). The
// server therefore runs at GOGC 300 under a soft memory limit of the larger of serveMemoryFloor and
// serveLiveFactor times the live heap, re-read every serveTuneEvery: a small site gets the cheaper
// collector within a bounded footprint, and a large one (a live heap over a third of the floor)
// gets a heap of about 2.5 times its live data, close to GOGC 150, rather than a collector that
// runs without pause against a fixed limit. GOGC or GOMEMLIMIT in the environment turn it off.
const (
	serveGCPercent   = 300
	serveMemoryFloor = 256 << 20
	serveLiveFactor  = 2.5
	serveTuneEvery   = 2 * time.Second
)

// tuneGC sets the server's collector as above until ctx ends. It reports whether it did.
func tuneGC(ctx context.Context) bool {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return false
	}
	debug.SetGCPercent(serveGCPercent)
	debug.SetMemoryLimit(memoryLimitFor(liveHeap()))
	go func() {
		t := time.NewTicker(serveTuneEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				debug.SetMemoryLimit(memoryLimitFor(liveHeap()))
			}
		}
	}()
	return true
}

// memoryLimitFor is the soft memory limit for a live heap of live bytes.
func memoryLimitFor(live uint64) int64 {
	return max(serveMemoryFloor, int64(serveLiveFactor*float64(live)))
}

// liveHeap reads the heap marked live by the last collection.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
