package plugin

import (
	"sync/atomic"
	"time"
)

// latencyBounds are the upper bounds of the latency histogram's buckets. They bracket the cost of
// a call across the boundary (~0.1 ms) and stretch to the default call timeout.
var latencyBounds = [...]time.Duration{
	50 * time.Microsecond, 100 * time.Microsecond, 200 * time.Microsecond, 500 * time.Microsecond,
	time.Millisecond, 2 * time.Millisecond, 5 * time.Millisecond, 10 * time.Millisecond,
	25 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond, 250 * time.Millisecond,
	500 * time.Millisecond, time.Second, 2500 * time.Millisecond, 5 * time.Second, 10 * time.Second,
}

// Latency is a histogram of call latencies in the shape Prometheus wants for a constant
// histogram: Counts[i] is the number of calls that took at most Bounds[i] (cumulative); calls
// slower than the last bound count only in Count.
type Latency struct {
	Count  uint64          `json:"count"`
	Sum    time.Duration   `json:"sum"`
	Bounds []time.Duration `json:"bounds"`
	Counts []uint64        `json:"counts"`
}

// histogram counts latencies without locks.
type histogram struct {
	count, sum atomic.Uint64
	buckets    [len(latencyBounds)]atomic.Uint64 // not cumulative
}

func (h *histogram) observe(d time.Duration) {
	h.count.Add(1)
	h.sum.Add(uint64(d))
	for i, b := range latencyBounds {
		if d <= b {
			h.buckets[i].Add(1)
			return
		}
	}
}

func (h *histogram) snapshot() Latency {
	l := Latency{Count: h.count.Load(), Sum: time.Duration(h.sum.Load()),
		Bounds: append([]time.Duration(nil), latencyBounds[:]...), Counts: make([]uint64, len(latencyBounds))}
	var run uint64
	for i := range latencyBounds {
		run += h.buckets[i].Load()
		l.Counts[i] = run
	}
	return l
}
