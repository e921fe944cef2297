//go:build !unix

package searchtest

import "time"

// cpuTime is not known here.
func cpuTime() (time.Duration, bool) { return 0, false }
