//go:build linux

package houserules

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadClock returns the CPU-time clock of the calling OS thread (the caller holds it with
// runtime.LockOSThread): Linux's MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED), which any thread of the
// process may read.
func threadClock() (clock int32, ok bool) {
	return int32((^unix.Gettid())<<3 | 6), true
}

// cpuTime reads a thread CPU-time clock.
func cpuTime(clock int32) (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(clock, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
