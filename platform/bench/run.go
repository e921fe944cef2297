package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"cardhouse/sdk"
)

// Seats is the number of players per room: four, as the peers' benchmarks play.
const Seats = 4

// Config is one bench run.
type Config struct {
	// Rooms is the number of rooms played at once; each has Seats players and Spectators
	// spectators, every one on its own WebSocket.
	Rooms      int
	Spectators int
	// Warmup is played first and not counted; Duration is the measured window.
	Warmup, Duration time.Duration
	// Think is how long a player waits after a view before it acts (0: at once).
	Think time.Duration
	// Protocol is the protocol version the sockets speak (docs/protocol.md): 2 (the default, 0)
	// receives patches after a full view and applies them to the views it holds; 1 full views.
	Protocol int
	// Variants are the ruleset ids played; rooms take them in turn.
	Variants []string
	// Bots are the variants' bots, by ruleset id, which the players run in this process to choose
	// from their views (level 1).
	Bots map[string]sdk.Bots

	// Server is the base URL of a running server to target ("http://127.0.0.1:8080"). Empty: the
	// bench starts `Exe serve` on a free port of 127.0.0.1 with a fresh data folder and no sign-in
	// limit, and stops it at the end.
	Server string
	// ServerPID is the process of a targeted Server, for its CPU and memory figures (0: none).
	ServerPID int
	// MetricsURL is where a targeted Server's metrics are read (empty: Server + "/metrics",
	// which a server serves to anyone only with `serve --public-metrics`; else its
	// --metrics-addr listener's /metrics). The started server gets --public-metrics.
	MetricsURL string
	// Exe is the cardhouse binary to start (os.Executable() for the command itself).
	Exe string
	// DB is a PostgreSQL DSN for the started server (empty: SQLite in its data folder). The bench
	// creates a schema of its own on that database and drops it at the end, unless KeepSchema.
	DB         string
	KeepSchema bool
	// ServerArgs are more flags for the started server's serve command.
	ServerArgs []string
	// ServerProfile, when set, is a file to write the server's CPU profile of the measured window
	// to (net/http/pprof; a started server gets --pprof, a targeted one must have it).
	ServerProfile string

	// Parallel bounds the rooms set up at once (default 16).
	Parallel int
	// Seed seeds the players' bots (each player gets its own stream).
	Seed uint64
	// Progress, when set, receives a line per step of the setup and run.
	Progress io.Writer
}

func (cfg *Config) check() error {
	if cfg.Rooms < 1 {
		return fmt.Errorf("bench: rooms must be at least 1, got %d", cfg.Rooms)
	}
	if cfg.Duration <= 0 {
		return fmt.Errorf("bench: the duration must be positive, got %s", cfg.Duration)
	}
	if cfg.Protocol == 0 {
		cfg.Protocol = 2
	}
	if cfg.Protocol != 1 && cfg.Protocol != 2 {
		return fmt.Errorf("bench: protocol must be 1 or 2, got %d", cfg.Protocol)
	}
	if cfg.Warmup < 0 || cfg.Think < 0 || cfg.Spectators < 0 {
		return errors.New("bench: warm-up, think time and spectators cannot be negative")
	}
	if len(cfg.Variants) == 0 {
		return errors.New("bench: no variant to play")
	}
	for _, v := range cfg.Variants {
		if cfg.Bots[v] == nil {
			return fmt.Errorf("bench: no bot for variant %q (bots for: %s)", v, strings.Join(slices.Sorted(maps.Keys(cfg.Bots)), ", "))
		}
	}
	if cfg.Parallel < 1 {
		cfg.Parallel = 16
	}
	if cfg.Progress == nil {
		cfg.Progress = io.Discard
	}
	return nil
}

// benchRoom is one room of the run.
type benchRoom struct {
	code    string
	variant string
	players []*player // seat order, the host first
	specs   []*player
}

// Run sets up cfg.Rooms rooms, plays them for the warm-up and the measured window, and returns
// the figures of the window. It always closes its connections and stops the server it started.
func Run(ctx context.Context, cfg Config) (res *Result, err error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	res = &Result{Rooms: cfg.Rooms, Spectators: cfg.Spectators, Variants: cfg.Variants, Think: cfg.Think, Protocol: cfg.Protocol,
		Warmup: cfg.Warmup, Sockets: cfg.Rooms * (Seats + cfg.Spectators), Database: "sqlite", Server: cfg.Server,
		ServerCPU: -1, ServerPeakRSS: -1}
	if cfg.DB != "" {
		res.Database = "postgres"
	}
	base, pid := cfg.Server, cfg.ServerPID
	var srv *server
	if base == "" {
		fmt.Fprintf(cfg.Progress, "starting %s serve (%s)\n", cfg.Exe, res.Database)
		if srv, err = startServer(ctx, &cfg); err != nil {
			return nil, err
		}
		base, pid = srv.base, srv.pid()
		defer func() {
			if serr := srv.stop(); serr != nil && err == nil {
				err = serr
			}
		}()
	} else {
		res.Database = "the target's"
	}
	base = strings.TrimRight(base, "/")
	var rss *rssSampler
	if pid > 0 {
		rss = startRSSSampler(pid, 250*time.Millisecond)
		defer func() {
			if rss != nil {
				rss.Stop()
			}
		}()
	}
	a := newAPI(base, cfg.Parallel)
	a.metricsURL = cfg.MetricsURL
	if err := checkVariants(ctx, a, cfg.Variants); err != nil {
		return nil, err
	}

	r := &run{think: cfg.Think, protocol: cfg.Protocol}
	rooms, setupErr := setup(ctx, a, r, &cfg)
	defer func() {
		r.phase.Store(phaseStopped)
		closeAll(rooms)
		if srv == nil {
			leaveAll(a, rooms, cfg.Parallel)
		}
	}()
	if setupErr != nil {
		return nil, setupErr
	}

	fmt.Fprintf(cfg.Progress, "dealing in %d rooms; warm-up %s\n", len(rooms), cfg.Warmup)
	r.phase.Store(phaseWarmup)
	for _, rm := range rooms {
		h := rm.players[0]
		h.mu.Lock()
		out := h.dealMessage()
		h.mu.Unlock()
		h.write(out)
	}
	if err := sleep(ctx, cfg.Warmup); err != nil {
		return nil, err
	}

	fmt.Fprintf(cfg.Progress, "measuring for %s\n", cfg.Duration)
	var cpu0 cpuSnapshot
	if pid > 0 {
		cpu0 = takeCPU(pid)
	}
	metrics0, cerr := a.fetchMetrics(ctx)
	client0 := selfCPU()
	t0 := time.Now()
	r.phase.Store(phaseMeasure)
	profDone := make(chan error, 1)
	if cfg.ServerProfile != "" {
		go func() { profDone <- fetchProfile(base, cfg.ServerProfile, cfg.Duration) }()
	} else {
		profDone <- nil
	}
	werr := sleep(ctx, cfg.Duration)
	r.phase.Store(phaseDrain)
	res.Window = time.Since(t0)
	res.ClientCPU = (selfCPU() - client0).Seconds()
	if pid > 0 {
		cpu1 := takeCPU(pid)
		res.ServerCPU = cpu1.since(cpu0)
		res.ServerPeakRSS = rss.Stop()
		rss = nil
		for _, p := range procTree(pid) {
			name, hwm := procStatus(p, "VmHWM")
			if name != "" {
				cpu := float64(cpu1[p]-cpu0[p]) / clockTicks
				res.ServerProcs = append(res.ServerProcs, Proc{PID: p, Command: cmdline(p), CPU: cpu, HWM: hwm})
			}
		}
		slices.SortFunc(res.ServerProcs, func(a, b Proc) int { return strings.Compare(a.Command, b.Command) })
	}
	if werr != nil {
		return nil, werr
	}
	drain(ctx, rooms, drainLimit)
	r.phase.Store(phaseStopped)
	if cerr == nil {
		var metrics1 serverMetrics
		if metrics1, cerr = a.fetchMetrics(ctx); cerr == nil {
			res.Commits = int64(metrics1.batches - metrics0.batches)
			res.Committed = int64(metrics1.actions - metrics0.actions)
			for _, s := range stageMetrics {
				if h, ok := metrics1.hists[s.stage]; ok {
					res.Stages = append(res.Stages, h.since(metrics0.hists[s.stage]).stage(s.stage))
				}
			}
		}
	}
	if cerr != nil {
		res.Commits = -1
		fmt.Fprintf(cfg.Progress, "no group commit figures: %v\n", cerr)
	}
	if perr := <-profDone; perr != nil {
		r.noteError("server profile: " + perr.Error())
	}
	fmt.Fprintln(cfg.Progress, "closing the connections")
	closeAll(rooms)
	res.tally(rooms, r)
	if srv != nil {
		res.ServerLogLines = srv.log.Lines()
		if res.ServerLogLines > 0 {
			res.ServerLogTail = lastLines(srv.log.Tail(), 5)
		}
	}
	return res, nil
}

// checkVariants makes sure the server serves every variant asked for.
func checkVariants(ctx context.Context, a *api, variants []string) error {
	var out struct {
		Rulesets []struct {
			ID       string `json:"id"`
			MinSeats int    `json:"min_seats"`
			MaxSeats int    `json:"max_seats"`
		} `json:"rulesets"`
	}
	if err := a.do(ctx, nil, http.MethodGet, "/api/rulesets", nil, &out); err != nil {
		return fmt.Errorf("bench: listing the server's rulesets: %w", err)
	}
	var ids []string
	for _, v := range variants {
		found := false
		for _, r := range out.Rulesets {
			ids = append(ids, r.ID)
			if r.ID == v {
				found = true
				if Seats < r.MinSeats || Seats > r.MaxSeats {
					return fmt.Errorf("bench: %s is for %d to %d seats, the bench plays %d", v, r.MinSeats, r.MaxSeats, Seats)
				}
			}
		}
		if !found {
			return fmt.Errorf("bench: the server has no variant %q (it has %s)", v, strings.Join(slices.Compact(slices.Sorted(slices.Values(ids))), ", "))
		}
	}
	return nil
}

// setup creates every room (cfg.Parallel at a time): accounts, the room, the joins and the
// connections, each player attached (hello received) before it returns. The rooms set up are
// returned even on an error, so they can be closed.
func setup(ctx context.Context, a *api, r *run, cfg *Config) ([]*benchRoom, error) {
	rooms := make([]*benchRoom, cfg.Rooms)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
		done     int
	)
	start := time.Now()
	for range cfg.Parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				rm, err := setupRoom(ctx, a, r, cfg, i)
				mu.Lock()
				rooms[i] = rm
				if err != nil && firstErr == nil {
					firstErr = err
					cancel()
				}
				done++
				if err == nil && (done%max(1, cfg.Rooms/10) == 0 || done == cfg.Rooms) {
					fmt.Fprintf(cfg.Progress, "set up %d/%d rooms (%d sockets) in %s\n", done, cfg.Rooms, done*(Seats+cfg.Spectators), time.Since(start).Round(time.Millisecond))
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := range cfg.Rooms {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	out := slices.DeleteFunc(rooms, func(rm *benchRoom) bool { return rm == nil })
	if firstErr != nil {
		return out, fmt.Errorf("bench: setting up the rooms: %w", firstErr)
	}
	if err := ctx.Err(); err != nil {
		return out, err
	}
	return out, nil
}

// setupRoom sets up room i. The room comes back with the players connected so far, even on an
// error.
func setupRoom(ctx context.Context, a *api, r *run, cfg *Config, i int) (*benchRoom, error) {
	rm := &benchRoom{variant: cfg.Variants[i%len(cfg.Variants)]}
	accts := make([]*account, Seats+cfg.Spectators)
	for j := range accts {
		name := fmt.Sprintf("bench%d-%d", i, j)
		if j >= Seats {
			name = fmt.Sprintf("bench%d-s%d", i, j-Seats)
		}
		acct, err := a.guest(ctx, name)
		if err != nil {
			return nil, err
		}
		accts[j] = acct
	}
	code, err := a.createRoom(ctx, accts[0], rm.variant, Seats)
	if err != nil {
		return nil, err
	}
	rm.code = code
	bot := cfg.Bots[rm.variant]
	seed := cfg.Seed*1_000_003 + uint64(i)*64
	rm.players = append(rm.players, newPlayer(r, code, accts[0], 0, true, bot, seed))
	for j := 1; j < len(accts); j++ {
		spectate := j >= Seats
		m, err := a.join(ctx, accts[j], code, spectate)
		if err != nil {
			return rm, err
		}
		if !spectate {
			if m.Role != "player" || m.Seat < 0 {
				return rm, fmt.Errorf("room %s: %s joined as %s (seat %d), want a seat", code, accts[j].name, m.Role, m.Seat)
			}
			rm.players = append(rm.players, newPlayer(r, code, accts[j], m.Seat, false, bot, seed+uint64(j)))
		} else {
			rm.specs = append(rm.specs, newPlayer(r, code, accts[j], -1, false, nil, 0))
		}
	}
	for _, p := range slices.Concat(rm.players, rm.specs) {
		cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		err := p.connect(cctx, a.base)
		cancel()
		if err != nil {
			return rm, err
		}
	}
	return rm, nil
}

// closeAll closes every connection (at once: each close waits for the server's close frame).
// drainLimit bounds the wait for the answers and views of the window's last actions.
const drainLimit = 2 * time.Second

// drain waits, up to limit, until every action sent in the window is answered and every room's
// host has read the views its players read: the counts of accepted and applied actions then
// cover the same actions.
func drain(ctx context.Context, rooms []*benchRoom, limit time.Duration) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		if slices.IndexFunc(rooms, (*benchRoom).settling) < 0 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// settling reports whether an action of the room waits for its answer, or a player has read a
// view its host has not.
func (rm *benchRoom) settling() bool {
	host := rm.players[0]
	host.mu.Lock()
	hostGame, hostSeq := host.lastGame, host.lastSeq
	host.mu.Unlock()
	for _, p := range rm.players {
		p.mu.Lock()
		busy := p.pending != "" && p.pendingPhase == phaseMeasure
		ahead := p.viewGame > hostGame || (p.viewGame == hostGame && p.viewSeq > hostSeq)
		p.mu.Unlock()
		if busy || ahead {
			return true
		}
	}
	return false
}

func closeAll(rooms []*benchRoom) {
	var wg sync.WaitGroup
	for _, rm := range rooms {
		for _, p := range slices.Concat(rm.players, rm.specs) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p.closeOnce()
			}()
		}
	}
	wg.Wait()
}

// leaveAll takes every account out of its room on a targeted server, which then closes the room
// (no human left).
func leaveAll(a *api, rooms []*benchRoom, parallel int) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for _, rm := range rooms {
		for _, p := range slices.Concat(rm.players, rm.specs) {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				_ = a.leave(ctx, p.acct, rm.code)
			}()
		}
	}
	wg.Wait()
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// fetchProfile writes the server's CPU profile over d to file.
func fetchProfile(base, file string, d time.Duration) error {
	secs := max(1, int(d.Round(time.Second)/time.Second))
	c := &http.Client{Timeout: d + time.Minute}
	resp, err := c.Get(fmt.Sprintf("%s/debug/pprof/profile?seconds=%d", base, secs))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET /debug/pprof/profile: %s (does the server run with --pprof?)", resp.Status)
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func lastLines(s string, n int) []string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}
