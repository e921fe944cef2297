//go:build !linux

package houserules

import "time"

// threadClock is unavailable here: hook calls are budgeted in wall-clock time instead.
func threadClock() (int32, bool) { return 0, false }

func cpuTime(int32) (time.Duration, bool) { return 0, false }
