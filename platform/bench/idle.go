package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"
)

// IdleConfig is a run of idle connections: Rooms rooms of Sockets members each (four players and
// Sockets-4 spectators), every member on its own WebSocket, held open for Hold while nobody plays,
// to measure what holding connections costs the server (its resident memory, and its CPU while
// they idle). With Deal, each room's host deals once first, so every room holds a live game whose
// players are all thinking.
type IdleConfig struct {
	Rooms, Sockets int
	Hold           time.Duration
	Deal           bool
	Variant        string

	// As Config's: the server to target or start, its database, the rooms set up at once, the
	// progress lines.
	Server     string
	ServerPID  int
	Exe        string
	DB         string
	KeepSchema bool
	ServerArgs []string
	Parallel   int
	Progress   io.Writer
}

// IdleResult is what an idle run measured.
type IdleResult struct {
	Rooms    int    `json:"rooms"`
	Sockets  int    `json:"sockets"`
	Database string `json:"database"`
	Dealt    bool   `json:"dealt"`
	// Setup is how long setting up every room and connection took.
	Setup time.Duration `json:"-"`
	Hold  time.Duration `json:"-"`
	// FileLimit is this process's open-file limit as raised for the run.
	FileLimit uint64 `json:"file_limit"`
	// BaseRSS is the summed resident set of the server and its plugins before the first room was
	// set up; HeldRSS at the end of the hold, with every connection open; PeakRSS the peak sampled
	// every 250 ms from the server's start to the end of the hold (bytes; -1 unknown).
	BaseRSS int64 `json:"server_base_rss_bytes"`
	HeldRSS int64 `json:"server_held_rss_bytes"`
	PeakRSS int64 `json:"server_peak_rss_bytes"`
	// PerSocket is (HeldRSS - BaseRSS) / Sockets.
	PerSocket int64 `json:"server_rss_bytes_per_socket"`
	// ServerProcs are the server's processes, each with its resident set at the end of the hold
	// and its own peak.
	ServerProcs []IdleProc `json:"server_processes,omitempty"`
	// ServerCPU is the CPU seconds of the server and its plugins over the hold (-1 unknown).
	ServerCPU float64 `json:"server_cpu_seconds"`
	// Lost counts the connections that closed during the hold; FirstErrors shows a few.
	Lost        int64    `json:"lost_connections"`
	FirstErrors []string `json:"first_errors,omitempty"`
}

// IdleProc is one server process at the end of an idle run.
type IdleProc struct {
	PID     int    `json:"pid"`
	Command string `json:"command"`
	RSS     int64  `json:"rss_bytes"`
	HWM     int64  `json:"peak_rss_bytes"`
}

// raiseFileLimit raises this process's soft limit of open files to its hard limit and returns
// it: each socket is a file on both ends (Go does so at start on Linux; a caller may have
// lowered it since).
func raiseFileLimit() uint64 {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0
	}
	if lim.Cur < lim.Max {
		lim.Cur = lim.Max
		_ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
		_ = syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim)
	}
	return lim.Cur
}

// RunIdle sets up the rooms and their connections, holds them for cfg.Hold, and returns the
// server's memory and CPU. It always closes its connections and stops the server it started.
func RunIdle(ctx context.Context, cfg IdleConfig) (res *IdleResult, err error) {
	if cfg.Rooms < 1 || cfg.Sockets < Seats {
		return nil, fmt.Errorf("bench: idle rooms must be at least 1 and sockets per room at least %d, got %d and %d", Seats, cfg.Rooms, cfg.Sockets)
	}
	if cfg.Hold < 0 {
		return nil, fmt.Errorf("bench: the hold cannot be negative, got %s", cfg.Hold)
	}
	if cfg.Variant == "" {
		cfg.Variant = "lastcard"
	}
	bcfg := Config{Rooms: cfg.Rooms, Spectators: cfg.Sockets - Seats, Duration: time.Second, Protocol: 2,
		Variants: []string{cfg.Variant}, Bots: nil, Server: cfg.Server, ServerPID: cfg.ServerPID, Exe: cfg.Exe,
		DB: cfg.DB, KeepSchema: cfg.KeepSchema, ServerArgs: cfg.ServerArgs, Parallel: cfg.Parallel, Progress: cfg.Progress}
	if err := bcfg.checkNodes(); err != nil {
		return nil, err
	}
	if len(bcfg.servers()) > 1 {
		return nil, fmt.Errorf("bench: idle connections are held on one server, got %d in %q", len(bcfg.servers()), cfg.Server)
	}
	if bcfg.Parallel < 1 {
		bcfg.Parallel = 16
	}
	if bcfg.Progress == nil {
		bcfg.Progress = io.Discard
	}
	res = &IdleResult{Rooms: cfg.Rooms, Sockets: cfg.Rooms * cfg.Sockets, Database: "sqlite", Dealt: cfg.Deal,
		BaseRSS: -1, HeldRSS: -1, PeakRSS: -1, ServerCPU: -1}
	if cfg.DB != "" {
		res.Database = "postgres"
	}
	res.FileLimit = raiseFileLimit()
	if need := uint64(res.Sockets) + 256; res.FileLimit < need {
		return nil, fmt.Errorf("bench: %d sockets need about %d open files, and this process may open %d (raise the hard limit: ulimit -Hn)", res.Sockets, need, res.FileLimit)
	}
	base, pid := cfg.Server, cfg.ServerPID
	if base == "" {
		fmt.Fprintf(bcfg.Progress, "starting %s serve (%s)\n", bcfg.Exe, res.Database)
		ss, err := startServers(ctx, &bcfg)
		if err != nil {
			return nil, err
		}
		base, pid = ss.nodes[0].base, ss.nodes[0].pid()
		defer func() {
			if serr := ss.stop(); serr != nil && err == nil {
				err = serr
			}
		}()
	} else {
		res.Database = "the target's"
	}
	base = strings.TrimRight(base, "/")
	var rss *rssSampler
	if pid > 0 {
		res.BaseRSS = treeRSS(pid)
		rss = startRSSSampler([]int{pid}, 250*time.Millisecond)
		defer func() {
			if rss != nil {
				rss.Stop()
			}
		}()
	}
	a := newAPI(base, bcfg.Parallel)
	if err := checkVariants(ctx, a, bcfg.Variants); err != nil {
		return nil, err
	}
	r := &run{protocol: bcfg.Protocol, bases: []string{base}}
	start := time.Now()
	rooms, setupErr := setup(ctx, []*api{a}, r, &bcfg)
	defer func() {
		r.phase.Store(phaseStopped)
		closeAll(rooms)
		if cfg.Server != "" {
			leaveAll([]*api{a}, rooms, bcfg.Parallel)
		}
	}()
	if setupErr != nil {
		return nil, setupErr
	}
	if cfg.Deal {
		// The players never act: they act only in a bench's warm-up and window.
		dealAll(rooms)
	}
	res.Setup = time.Since(start)
	fmt.Fprintf(bcfg.Progress, "holding %d connections in %d rooms for %s\n", res.Sockets, len(rooms), cfg.Hold)
	var cpu0 cpuSnapshot
	if pid > 0 {
		cpu0 = takeCPU(pid)
	}
	t0 := time.Now()
	if err := sleep(ctx, cfg.Hold); err != nil {
		return nil, err
	}
	res.Hold = time.Since(t0)
	if pid > 0 {
		res.ServerCPU = takeCPU(pid).since(cpu0)
		res.HeldRSS = treeRSS(pid)
		// The held reading is a sample too: the sampler's last may be older than it.
		res.PeakRSS = max(rss.Stop(), res.HeldRSS)
		rss = nil
		res.PerSocket = (res.HeldRSS - res.BaseRSS) / int64(res.Sockets)
		for _, p := range procTree(pid) {
			name, hwm := procStatus(p, "VmHWM")
			if name != "" {
				res.ServerProcs = append(res.ServerProcs, IdleProc{PID: p, Command: cmdline(p), RSS: procRSS(p), HWM: hwm})
			}
		}
		slices.SortFunc(res.ServerProcs, func(a, b IdleProc) int { return strings.Compare(a.Command, b.Command) })
	}
	for _, rm := range rooms {
		for _, p := range slices.Concat(rm.players, rm.specs) {
			p.mu.Lock()
			res.Lost += p.st.errors["disconnect"]
			p.mu.Unlock()
		}
	}
	r.mu.Lock()
	res.FirstErrors = slices.Clone(r.firstErrors)
	r.mu.Unlock()
	return res, nil
}

// treeRSS is the summed resident set of pid and its children (the plugins), in bytes.
func treeRSS(pid int) int64 {
	var sum int64
	for _, p := range procTree(pid) {
		sum += procRSS(p)
	}
	return sum
}

// Print writes the idle run's figures as a table.
func (res *IdleResult) Print(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	mb := func(b int64) string {
		if b < 0 {
			return "unknown"
		}
		return fmt.Sprintf("%.0f MB", float64(b)/1e6)
	}
	dealt := "no game (lobby)"
	if res.Dealt {
		dealt = "one game dealt, nobody acting"
	}
	fmt.Fprintf(tw, "idle connections\t%d in %d rooms (%s), %s\n", res.Sockets, res.Rooms, dealt, res.Database)
	fmt.Fprintf(tw, "set up in\t%s (open-file limit %d)\n", res.Setup.Round(time.Millisecond), res.FileLimit)
	fmt.Fprintf(tw, "server RSS, before the rooms\t%s\n", mb(res.BaseRSS))
	fmt.Fprintf(tw, "server RSS, connections held\t%s (%.1f KB per connection over the base)\n", mb(res.HeldRSS), float64(res.PerSocket)/1e3)
	fmt.Fprintf(tw, "server peak RSS\t%s\n", mb(res.PeakRSS))
	for _, p := range res.ServerProcs {
		fmt.Fprintf(tw, "  %s (pid %d)\t%s, peak %s\n", p.Command, p.PID, mb(p.RSS), mb(p.HWM))
	}
	if res.ServerCPU >= 0 && res.Hold > 0 {
		fmt.Fprintf(tw, "server CPU while held\t%.2f s over %s (%.3f cores)\n", res.ServerCPU, res.Hold.Round(time.Millisecond), res.ServerCPU/res.Hold.Seconds())
	}
	fmt.Fprintf(tw, "connections lost\t%d\n", res.Lost)
	for _, e := range res.FirstErrors {
		fmt.Fprintf(tw, "  %s\n", e)
	}
	return tw.Flush()
}

// JSON writes the idle run's figures as JSON.
func (res *IdleResult) JSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(res)
}
