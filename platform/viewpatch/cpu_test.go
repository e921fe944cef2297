package viewpatch

import (
	"fmt"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"
)

func threadCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(1, &ru) // RUSAGE_THREAD
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestCPUPerDiff prints the thread CPU time of Diff and Apply per viewer (a figure robust to a
// loaded machine, unlike a benchmark's wall time); set VIEWPATCH_CPU to run it.
func TestCPUPerDiff(t *testing.T) {
	if os.Getenv("VIEWPATCH_CPU") == "" {
		t.Skip("set VIEWPATCH_CPU to measure")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	pairs := viewerSteps(&testing.B{})
	for i := range pairs {
		pairs[i].Patch, _ = Diff(nil, pairs[i].Old, pairs[i].New)
	}
	var buf []byte
	for r := 0; r < 3; r++ {
		t0 := threadCPU()
		for _, p := range pairs {
			buf, _ = Diff(buf[:0], p.Old, p.New)
		}
		d := threadCPU() - t0
		t0 = threadCPU()
		for _, p := range pairs {
			buf, _ = Apply(buf[:0], p.Old, p.Patch)
		}
		a := threadCPU() - t0
		fmt.Printf("CPU per viewer: diff %v, apply %v (%d viewer-steps)\n", d/time.Duration(len(pairs)), a/time.Duration(len(pairs)), len(pairs))
	}
}
