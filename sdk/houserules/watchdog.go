package houserules

import (
	"context"
	"errors"
	"runtime/metrics"
	"sync"
	"time"
)

// The watchdog. gopher-lua stops a call only through its context, checked before every Lua
// instruction, and has no memory limit. So while hook calls run, one goroutine looks at them every
// watchInterval and cancels, with the reason as the context's cause:
//   - a call whose OS thread (the call holds it) has used more than its CPU-time budget: CPU time,
//     not wall-clock time, so a busy machine never makes a small hook fail (at load 17 on 2 cores
//     a hook of microseconds was seen to take over 200 ms of wall-clock time);
//   - a call during which the process allocated more than the memory cap. The counter is
//     process-wide, so a call running beside a memory bomb may be stopped with it (its action is
//     refused and can be sent again); a call of microseconds rarely overlaps one. A call's baseline
//     is the first sample after it started: reading the metric can itself block for long on a
//     loaded machine (178 ms was seen), so calls never read it. The plugin process is the last wall.
const watchInterval = time.Millisecond

const allocsMetric = "/gc/heap/allocs:bytes"

var (
	// errMemory is the cause of a call stopped for allocating too much.
	errMemory = errors.New("memory cap")
	// errCPU is the cause of a call stopped for using too much CPU time.
	errCPU = errors.New("time budget")
	// errWall is the cause of a call given up on the wall-clock backstop.
	errWall = errors.New("wall-clock deadline")
)

type watched struct {
	allocStart uint64 // 0 until the first sample after the call started
	memCap     uint64
	clock      int32
	hasClock   bool
	cpuStart   time.Duration
	cpuBudget  time.Duration
	wallEnd    time.Time
	cancel     context.CancelCauseFunc
}

var dog struct {
	once  sync.Once
	mu    sync.Mutex
	calls map[*watched]struct{}
	wake  chan struct{}
}

func allocated() uint64 {
	s := [1]metrics.Sample{{Name: allocsMetric}}
	metrics.Read(s[:])
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// watch puts the calling goroutine's call under the watchdog until the returned function is
// called. The caller must hold its OS thread (runtime.LockOSThread) for the CPU budget and the
// wall-clock backstop to apply; it reports whether they do (false: no thread CPU clock here, and
// the caller sets a wall-clock deadline of its own).
func watch(memCap uint64, cpuBudget, wall time.Duration, cancel context.CancelCauseFunc) (unwatch func(), cpu bool) {
	dog.once.Do(func() {
		dog.calls = map[*watched]struct{}{}
		dog.wake = make(chan struct{}, 1)
		go watchLoop()
	})
	w := &watched{memCap: memCap, cpuBudget: cpuBudget, wallEnd: time.Now().Add(wall), cancel: cancel}
	if clock, ok := threadClock(); ok {
		if start, ok := cpuTime(clock); ok {
			w.clock, w.hasClock, w.cpuStart = clock, true, start
		}
	}
	dog.mu.Lock()
	dog.calls[w] = struct{}{}
	dog.mu.Unlock()
	select {
	case dog.wake <- struct{}{}:
	default:
	}
	return func() {
		dog.mu.Lock()
		delete(dog.calls, w)
		dog.mu.Unlock()
	}, w.hasClock
}

func watchLoop() {
	t := time.NewTicker(watchInterval)
	defer t.Stop()
	var calls []*watched
	for {
		<-dog.wake
		for {
			<-t.C
			dog.mu.Lock()
			calls = calls[:0]
			for w := range dog.calls {
				calls = append(calls, w)
			}
			dog.mu.Unlock()
			if len(calls) == 0 {
				break
			}
			wallNow := time.Now()
			for _, w := range calls {
				if !w.hasClock {
					continue
				}
				if now, ok := cpuTime(w.clock); ok && now-w.cpuStart > w.cpuBudget {
					w.cancel(errCPU)
				} else if wallNow.After(w.wallEnd) {
					w.cancel(errWall)
				}
			}
			now := allocated()
			dog.mu.Lock()
			for _, w := range calls {
				if _, live := dog.calls[w]; !live {
					continue
				}
				if w.allocStart == 0 {
					w.allocStart = now
				} else if now-w.allocStart > w.memCap {
					w.cancel(errMemory)
				}
			}
			dog.mu.Unlock()
		}
	}
}
