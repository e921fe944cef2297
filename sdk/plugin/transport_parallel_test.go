package plugin_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/plugin"
)

// BenchmarkTransportParallel is many rooms' calls crossing one plugin process at once, as at
// saturation: 250 callers (GOMAXPROCS times the parallelism) each acting in turn. Besides the time
// per call it reports the CPU per call of the host (this process: the callers and the host's side
// of the channel) and of the plugin process, which move less with the machine's other load.
func BenchmarkTransportParallel(b *testing.B) {
	p := newProcess(b, plugin.Config{})
	st := mustNewGame(b, p)
	pid := p.Stats().PID
	req := &engine.ActRequest{State: st.State, Action: play(0, "AS")}
	ctx := context.Background()
	if _, err := p.Act(ctx, req); err != nil {
		b.Fatal(err)
	}
	b.SetParallelism(max(1, 250/max(1, testingProcs())))
	host0, plug0 := selfCPU(b), procCPU(b, pid)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := p.Act(ctx, req); err != nil && !errors.Is(err, sdk.ErrIllegal) {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	host, plug := selfCPU(b)-host0, procCPU(b, pid)-plug0
	b.ReportMetric(float64(host.Microseconds())/float64(b.N), "host-cpu-us/op")
	b.ReportMetric(float64(plug.Microseconds())/float64(b.N), "plugin-cpu-us/op")
}

func testingProcs() int {
	n, _ := strconv.Atoi(os.Getenv("GOMAXPROCS"))
	if n <= 0 {
		return 2
	}
	return n
}

// selfCPU is this process's user and system CPU so far.
func selfCPU(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// procCPU is process pid's user and system CPU so far (/proc, in clock ticks of 10 ms).
func procCPU(tb testing.TB, pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		tb.Fatal(err)
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	stt, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+stt) * 10 * time.Millisecond
}
