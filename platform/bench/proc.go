package bench

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// clockTicks is the kernel's USER_HZ, the unit of utime and stime in /proc/PID/stat. It is 100 on
// every Linux architecture Go runs on (sysconf(_SC_CLK_TCK) is fixed by the ABI).
const clockTicks = 100

// pageSize converts the page counts of /proc/PID/statm to bytes.
var pageSize = int64(os.Getpagesize())

// procTree returns pid and its descendants (the server and its plugin processes), read from
// /proc/PID/task/TID/children. A pid that has gone returns nothing.
func procTree(pid int) []int {
	out := []int{}
	var walk func(int)
	walk = func(p int) {
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", p)); err != nil {
			return
		}
		out = append(out, p)
		tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", p))
		for _, t := range tasks {
			b, err := os.ReadFile(t)
			if err != nil {
				continue
			}
			for _, f := range bytes.Fields(b) {
				if c, err := strconv.Atoi(string(f)); err == nil {
					walk(c)
				}
			}
		}
	}
	walk(pid)
	return out
}

// procCPUTicks is utime+stime of pid in clock ticks (false when the process is gone).
func procCPUTicks(pid int) (int64, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	// The command name (field 2) may hold spaces and parentheses: fields count from the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := bytes.Fields(b[i+1:])
	// f[0] is field 3 (state); utime and stime are fields 14 and 15.
	if len(f) < 13 {
		return 0, false
	}
	u, err1 := strconv.ParseInt(string(f[11]), 10, 64)
	s, err2 := strconv.ParseInt(string(f[12]), 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return u + s, true
}

// cpuSnapshot is the CPU ticks of each process of a tree at one moment.
type cpuSnapshot map[int]int64

func takeCPU(pid int) cpuSnapshot {
	snap := cpuSnapshot{}
	for _, p := range procTree(pid) {
		if t, ok := procCPUTicks(p); ok {
			snap[p] = t
		}
	}
	return snap
}

// since is the CPU seconds the tree spent from before to s: a process born in between counts
// whole; one that ended in between is lost (its last ticks are not readable).
func (s cpuSnapshot) since(before cpuSnapshot) float64 {
	var ticks int64
	for p, t := range s {
		ticks += t - before[p]
	}
	return float64(ticks) / clockTicks
}

// procRSS is the resident set of pid in bytes (0 when gone).
func procRSS(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/statm", pid))
	if err != nil {
		return 0
	}
	f := bytes.Fields(b)
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.ParseInt(string(f[1]), 10, 64)
	return n * pageSize
}

// procStatus reads a "kB" field of /proc/PID/status (VmHWM, VmRSS) in bytes, and the process name.
func procStatus(pid int, field string) (name string, bytesValue int64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "", 0
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		k, v, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		switch string(k) {
		case "Name":
			name = string(bytes.TrimSpace(v))
		case field:
			f := bytes.Fields(v)
			if len(f) > 0 {
				n, _ := strconv.ParseInt(string(f[0]), 10, 64)
				bytesValue = n << 10
			}
		}
	}
	return name, bytesValue
}

// cmdline is a short form of the process's command line: "cardhouse plugin serve lastcard".
func cmdline(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return ""
	}
	parts := bytes.Split(bytes.TrimRight(b, "\x00"), []byte{0})
	if len(parts) == 0 {
		return ""
	}
	parts[0] = []byte(filepath.Base(string(parts[0])))
	// The words before the first flag: "cardhouse serve", "cardhouse plugin serve lastcard".
	n := 1
	for n < len(parts) && n < 5 && !bytes.HasPrefix(parts[n], []byte("-")) {
		n++
	}
	return string(bytes.Join(parts[:n], []byte(" ")))
}

// rssSampler samples the summed resident set of process trees (the nodes and their plugins) until
// stopped, keeping the peak.
type rssSampler struct {
	roots []int
	peak  int64
	stop  chan struct{}
	done  chan struct{}
}

func startRSSSampler(roots []int, every time.Duration) *rssSampler {
	s := &rssSampler{roots: roots, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		t := time.NewTicker(every)
		defer t.Stop()
		var pids []int
		for n := 0; ; n++ {
			if n%20 == 0 {
				pids = pids[:0] // a restarted plugin is a new process
				for _, r := range roots {
					pids = append(pids, procTree(r)...)
				}
			}
			var sum int64
			for _, p := range pids {
				sum += procRSS(p)
			}
			s.peak = max(s.peak, sum)
			select {
			case <-s.stop:
				return
			case <-t.C:
			}
		}
	}()
	return s
}

// Stop ends the sampling and returns the peak summed RSS in bytes.
func (s *rssSampler) Stop() int64 {
	close(s.stop)
	<-s.done
	return s.peak
}

// selfCPU is this process's own user+system CPU time (RUSAGE_SELF: not the server it started,
// which is a child).
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
