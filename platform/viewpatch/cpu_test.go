package viewpatch

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"

	"cardhouse/sdk"
)

func threadCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(1, &ru) // RUSAGE_THREAD
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestCPUPerDiff prints the thread CPU time of Diff and Apply per viewer, and of the typed
// patch a sticky engine writes instead of Diff (sdk.AppendViewPatch) (a figure robust to a
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
	typed := make([][2]sdk.View, len(pairs))
	for i, p := range pairs {
		if json.Unmarshal(p.Old, &typed[i][0]) != nil || json.Unmarshal(p.New, &typed[i][1]) != nil {
			t.Fatal("a view does not decode")
		}
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
		t0 = threadCPU()
		for i := range typed {
			buf, _ = sdk.AppendViewPatch(buf[:0], &typed[i][0], &typed[i][1])
		}
		tp := threadCPU() - t0
		n := time.Duration(len(pairs))
		fmt.Printf("CPU per viewer: diff %v, apply %v, typed patch %v (%d viewer-steps)\n", d/n, a/n, tp/n, len(pairs))
	}
}
