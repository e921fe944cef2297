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
	"sync/atomic"
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

	// Server is the base URL of a running server to target ("http://127.0.0.1:8080"), or of
	// several nodes of a cluster, comma-separated: each room is made on one node and its sockets
	// spread over the nodes (see setupRoom), so that many sit on a node that does not run their
	// room. Empty: the bench starts Nodes nodes of `Exe serve` on free ports of 127.0.0.1 with
	// fresh data folders and no sign-in limit, and stops them at the end.
	Server string
	// ServerPID is the process of a targeted Server, for its CPU and memory figures (0: none);
	// ServerPIDs those of several nodes, in the order of Server's URLs (ServerPID is the first).
	ServerPID  int
	ServerPIDs []int
	// Nodes is how many nodes to start (0 or 1: one). More than one needs DB and Cluster: the
	// nodes share the bench's schema and the broker, each under a name of its own.
	Nodes int
	// Cluster is the NATS URL the started nodes reach each other over (serve --cluster); with one
	// node, a cluster of one (leases, no routing). Empty: a single server.
	Cluster string
	// StopNodeAfter, when set, stops the last started node (SIGTERM) this long into the measured
	// window: its sockets, and those relayed to its rooms, are closed with 1001 and the players
	// reconnect to the other nodes. Needs two nodes or more.
	StopNodeAfter time.Duration
	// FreezeNode, with StopNodeAfter, freezes the node (SIGSTOP) instead: it accepts connections
	// and says nothing, as a node paused or cut off would, so its players must find it silent
	// (the heartbeat, watchSilent) and reconnect elsewhere; its rooms move when their leases run
	// out. It is killed at the window's end.
	FreezeNode bool
	// Lease is the started nodes' room lease (serve --lease; 0: serve's default).
	Lease time.Duration
	// BrokerPID is the broker's process (nats-server), for its CPU in the window (0: none). Give
	// it only when the broker serves this run alone: its CPU is counted whole.
	BrokerPID int
	// MetricsURL is where a targeted Server's metrics are read (empty: Server + "/metrics",
	// which a server serves to anyone only with `serve --public-metrics`; else its
	// --metrics-addr listener's /metrics). With several nodes it is the first node's; the
	// others' are read at their /metrics. Started servers and nodes get --public-metrics.
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

// servers are the base URLs of Server, without trailing slashes.
func (cfg *Config) servers() []string {
	var out []string
	for _, u := range strings.Split(cfg.Server, ",") {
		if u = strings.TrimRight(strings.TrimSpace(u), "/"); u != "" {
			out = append(out, u)
		}
	}
	return out
}

// checkNodes refuses a node setting that cannot work: targeted and started nodes mixed, a
// cluster without its database or broker, a stop with no node to take over.
func (cfg *Config) checkNodes() error {
	servers := cfg.servers()
	for _, u := range servers {
		if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
			return fmt.Errorf("bench: server %q: want a base URL such as http://127.0.0.1:8080", u)
		}
	}
	pids := cfg.serverPIDs()
	switch {
	case cfg.Nodes < 0:
		return fmt.Errorf("bench: nodes must be at least 1, got %d", cfg.Nodes)
	case len(servers) > 0 && (cfg.Nodes > 1 || cfg.Cluster != "" || cfg.DB != ""):
		return errors.New("bench: a server to target (--server) and servers to start (--nodes, --cluster, --db) exclude each other")
	case len(pids) > max(len(servers), 1):
		return fmt.Errorf("bench: %d server pids for %d servers", len(pids), len(servers))
	case cfg.Nodes > 1 && (cfg.DB == "" || cfg.Cluster == ""):
		return fmt.Errorf("bench: %d nodes need --db (PostgreSQL, which they share) and --cluster (the NATS broker they reach each other over)", cfg.Nodes)
	case cfg.Cluster != "" && cfg.DB == "":
		return errors.New("bench: --cluster needs --db: the nodes of a cluster share a PostgreSQL database")
	case cfg.StopNodeAfter < 0:
		return fmt.Errorf("bench: the time to stop a node cannot be negative, got %s", cfg.StopNodeAfter)
	case cfg.FreezeNode && cfg.StopNodeAfter == 0:
		return errors.New("bench: FreezeNode needs StopNodeAfter: when to freeze the node")
	case cfg.StopNodeAfter > 0 && cfg.Nodes < 2:
		return errors.New("bench: stopping a node needs two started nodes or more (--nodes), so the players have one to reconnect to")
	case cfg.StopNodeAfter >= cfg.Duration && cfg.StopNodeAfter > 0:
		return fmt.Errorf("bench: the node is to stop %s into the window, which lasts %s", cfg.StopNodeAfter, cfg.Duration)
	}
	return nil
}

// serverPIDs are the processes of the targeted servers, by their order in Server.
func (cfg *Config) serverPIDs() []int {
	if len(cfg.ServerPIDs) > 0 {
		return cfg.ServerPIDs
	}
	if cfg.ServerPID > 0 {
		return []int{cfg.ServerPID}
	}
	return nil
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
	if err := cfg.checkNodes(); err != nil {
		return err
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
	// owner is the node (index of run.bases) running the room: the one it was made on, until it
	// moves; -1 once the bench cannot tell (a node it did not stop went, and a socket reconnected).
	owner atomic.Int32
}

// Run sets up cfg.Rooms rooms, plays them for the warm-up and the measured window, and returns
// the figures of the window. It always closes its connections and stops the servers it started.
func Run(ctx context.Context, cfg Config) (res *Result, err error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	res = &Result{Rooms: cfg.Rooms, Spectators: cfg.Spectators, Variants: cfg.Variants, Think: cfg.Think, Protocol: cfg.Protocol,
		Warmup: cfg.Warmup, Sockets: cfg.Rooms * (Seats + cfg.Spectators), Database: "sqlite", Server: cfg.Server,
		ServerCPU: -1, ServerPeakRSS: -1, BrokerCPU: -1}
	if cfg.DB != "" {
		res.Database = "postgres"
	}
	bases, pids := cfg.servers(), cfg.serverPIDs()
	var ss *servers
	if len(bases) == 0 {
		what := "serve"
		if cfg.Nodes > 1 {
			what = fmt.Sprintf("%d nodes of serve --cluster %s", cfg.Nodes, cfg.Cluster)
		}
		fmt.Fprintf(cfg.Progress, "starting %s %s (%s)\n", cfg.Exe, what, res.Database)
		if ss, err = startServers(ctx, &cfg); err != nil {
			return nil, err
		}
		for _, s := range ss.nodes {
			bases, pids = append(bases, s.base), append(pids, s.pid())
		}
		defer func() {
			if serr := ss.stop(); serr != nil && err == nil {
				err = serr
			}
		}()
	} else {
		res.Database = "the target's"
	}
	res.Nodes, res.Cluster = len(bases), cfg.Cluster != "" || len(bases) > 1
	var rss *rssSampler
	if len(pids) > 0 {
		rss = startRSSSampler(pids, 250*time.Millisecond)
		defer func() {
			if rss != nil {
				rss.Stop()
			}
		}()
	}
	apis := make([]*api, len(bases))
	for i, b := range bases {
		apis[i] = newAPI(b, cfg.Parallel)
	}
	apis[0].metricsURL = cfg.MetricsURL
	if err := checkVariants(ctx, apis[0], cfg.Variants); err != nil {
		return nil, err
	}

	r := &run{think: cfg.Think, protocol: cfg.Protocol, bases: bases, stopsKnown: ss != nil}
	rooms, setupErr := setup(ctx, apis, r, &cfg)
	defer func() {
		r.phase.Store(phaseStopped)
		closeAll(rooms)
		if ss == nil {
			leaveAll(apis, rooms, cfg.Parallel)
		}
	}()
	if setupErr != nil {
		return nil, setupErr
	}
	wctx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	go watchSilent(wctx, rooms)
	for _, rm := range rooms {
		for _, p := range slices.Concat(rm.players, rm.specs) {
			if p.node != int(rm.owner.Load()) {
				res.CrossNodeSockets++
			}
		}
	}

	fmt.Fprintf(cfg.Progress, "dealing in %d rooms; warm-up %s\n", len(rooms), cfg.Warmup)
	r.phase.Store(phaseWarmup)
	dealAll(rooms)
	if err := sleep(ctx, cfg.Warmup); err != nil {
		return nil, err
	}

	fmt.Fprintf(cfg.Progress, "measuring for %s\n", cfg.Duration)
	cpu0 := make([]cpuSnapshot, len(pids))
	for i, pid := range pids {
		cpu0[i] = takeCPU(pid)
	}
	var broker0 cpuSnapshot
	if cfg.BrokerPID > 0 {
		broker0 = takeCPU(cfg.BrokerPID)
	}
	metrics0, merr0 := fetchAllMetrics(ctx, apis)
	client0 := selfCPU()
	t0 := time.Now()
	r.phase.Store(phaseMeasure)
	profDone := make(chan error, 1)
	if cfg.ServerProfile != "" {
		go func() { profDone <- fetchProfile(bases[0], cfg.ServerProfile, cfg.Duration) }()
	} else {
		profDone <- nil
	}
	// The node stopped mid-window: its CPU is read just before the SIGTERM (what it spends
	// shutting down is lost), and its rooms' owner becomes unknown (they move to whichever node
	// a socket reconnects to first).
	stopped, stoppedCPU, stoppedCmds := -1, cpuSnapshot(nil), map[int]string{}
	stopDone := make(chan error, 1)
	if cfg.StopNodeAfter > 0 {
		stopped = len(ss.nodes) - 1
		go func() {
			if err := sleep(ctx, cfg.StopNodeAfter); err != nil {
				stopDone <- nil
				return
			}
			stoppedCPU = takeCPU(pids[stopped])
			for p := range stoppedCPU {
				stoppedCmds[p] = cmdline(p)
			}
			for _, rm := range rooms {
				rm.owner.CompareAndSwap(int32(stopped), -1)
			}
			if cfg.FreezeNode {
				fmt.Fprintf(cfg.Progress, "freezing node %d (%s) with SIGSTOP\n", stopped+1, bases[stopped])
				stopDone <- ss.nodes[stopped].freeze()
				return
			}
			fmt.Fprintf(cfg.Progress, "stopping node %d (%s) with SIGTERM\n", stopped+1, bases[stopped])
			stopDone <- ss.nodes[stopped].stop()
		}()
		res.StoppedNode, res.FrozenNode = bases[stopped], cfg.FreezeNode
	} else {
		stopDone <- nil
	}
	werr := sleep(ctx, cfg.Duration)
	r.phase.Store(phaseDrain)
	res.Window = time.Since(t0)
	res.ClientCPU = (selfCPU() - client0).Seconds()
	if serr := <-stopDone; serr != nil {
		r.noteError(fmt.Sprintf("stopping node %d: %v", stopped+1, serr))
	}
	if cfg.FreezeNode && stopped >= 0 {
		ss.nodes[stopped].kill() // frozen for good: its /metrics cannot be read
	}
	if len(pids) > 0 {
		res.ServerCPU = 0
		for i, pid := range pids {
			cpu1 := stoppedCPU
			if i != stopped {
				cpu1 = takeCPU(pid)
			}
			res.NodeCPU = append(res.NodeCPU, cpu1.since(cpu0[i]))
			res.ServerCPU += cpu1.since(cpu0[i])
			for p, ticks := range cpu1 {
				name, hwm := procStatus(p, "VmHWM")
				command := cmdline(p)
				if i == stopped {
					command = stoppedCmds[p] + " (stopped)"
				} else if name == "" {
					continue
				}
				res.ServerProcs = append(res.ServerProcs, Proc{PID: p, Node: i + 1, Command: command, CPU: float64(ticks-cpu0[i][p]) / clockTicks, HWM: hwm})
			}
		}
		res.ServerPeakRSS = rss.Stop()
		rss = nil
		slices.SortFunc(res.ServerProcs, func(a, b Proc) int {
			if a.Node != b.Node {
				return a.Node - b.Node
			}
			return strings.Compare(a.Command, b.Command)
		})
	}
	if cfg.BrokerPID > 0 {
		res.BrokerCPU = takeCPU(cfg.BrokerPID).since(broker0)
	}
	if werr != nil {
		return nil, werr
	}
	drain(ctx, rooms, drainLimit)
	r.phase.Store(phaseStopped)
	metrics1, merr1 := fetchAllMetrics(ctx, apis)
	res.readMetrics(metrics0, metrics1, cfg.Progress)
	if merr := errors.Join(merr0, merr1); merr != nil {
		fmt.Fprintf(cfg.Progress, "reading /metrics: %v\n", merr)
	}
	if perr := <-profDone; perr != nil {
		r.noteError("server profile: " + perr.Error())
	}
	fmt.Fprintln(cfg.Progress, "closing the connections")
	closeAll(rooms)
	res.tally(rooms, r)
	if ss != nil {
		for i, s := range ss.nodes {
			n := s.log.Lines()
			res.ServerLogLines += n
			if n > 0 {
				for _, l := range lastLines(s.log.Tail(), 5) {
					if len(ss.nodes) > 1 {
						l = fmt.Sprintf("node %d: %s", i+1, l)
					}
					res.ServerLogTail = append(res.ServerLogTail, l)
				}
			}
		}
	}
	return res, nil
}

// fetchAllMetrics reads every node's /metrics; a node that does not answer is nil, and the
// reasons are joined in err.
func fetchAllMetrics(ctx context.Context, apis []*api) (_ []*serverMetrics, err error) {
	out := make([]*serverMetrics, len(apis))
	errs := make([]error, len(apis))
	var wg sync.WaitGroup
	for i, a := range apis {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, err := a.fetchMetrics(ctx)
			if err != nil {
				errs[i] = fmt.Errorf("%s: %w", a.base, err)
				return
			}
			out[i] = &m
		}()
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// readMetrics sums the changes over the window of the nodes read before and after it: the group
// commits, the stage histograms and the cluster's series (a gauge's level at the window's end).
func (res *Result) readMetrics(before, after []*serverMetrics, progress io.Writer) {
	var b, a serverMetrics
	for i := range before {
		if before[i] != nil && after[i] != nil {
			b.add(*before[i])
			a.add(*after[i])
			res.MetricsNodes++
		}
	}
	if res.MetricsNodes == 0 {
		res.Commits = -1
		fmt.Fprintln(progress, "no group commit figures: no node's /metrics could be read before and after the window")
		return
	}
	if res.MetricsNodes < len(before) {
		fmt.Fprintf(progress, "the server figures are of %d of %d nodes (the others' /metrics did not answer before and after the window)\n", res.MetricsNodes, len(before))
	}
	res.Commits = int64(a.batches - b.batches)
	res.Committed = int64(a.actions - b.actions)
	for _, s := range stageMetrics {
		if h, ok := a.hists[s.stage]; ok {
			res.Stages = append(res.Stages, h.since(b.hists[s.stage]).stage(s.stage))
		}
	}
	for name, v := range a.cluster {
		if !a.gauges[name] {
			v -= b.cluster[name] // a count: its change in the window
		}
		if v != 0 {
			if res.ClusterMetrics == nil {
				res.ClusterMetrics = map[string]float64{}
			}
			res.ClusterMetrics[name] = v
		}
	}
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
func setup(ctx context.Context, apis []*api, r *run, cfg *Config) ([]*benchRoom, error) {
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
				rm, err := setupRoom(ctx, apis, r, cfg, i)
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

// setupRoom sets up room i. The room is made on node i mod N (of N nodes), which runs it; the
// member of place j (the host 0, the other players, then the spectators) signs in, joins and
// connects on node (i+j) mod N, so that with several nodes many sockets sit on a node that does
// not run their room (half of the players' with two or three nodes) and are relayed to it. The
// room comes back with the players connected so far, even on an error.
func setupRoom(ctx context.Context, apis []*api, r *run, cfg *Config, i int) (*benchRoom, error) {
	n := len(apis)
	home := i % n
	rm := &benchRoom{variant: cfg.Variants[i%len(cfg.Variants)]}
	rm.owner.Store(int32(home))
	accts := make([]*account, Seats+cfg.Spectators)
	for j := range accts {
		name := fmt.Sprintf("bench%d-%d", i, j)
		if j >= Seats {
			name = fmt.Sprintf("bench%d-s%d", i, j-Seats)
		}
		acct, err := apis[(home+j)%n].guest(ctx, name)
		if err != nil {
			return nil, err
		}
		accts[j] = acct
	}
	code, err := apis[home].createRoom(ctx, accts[0], rm.variant, Seats)
	if err != nil {
		return nil, err
	}
	rm.code = code
	bot := cfg.Bots[rm.variant]
	seed := cfg.Seed*1_000_003 + uint64(i)*64
	rm.players = append(rm.players, newPlayer(r, rm, accts[0], 0, home, true, bot, seed))
	for j := 1; j < len(accts); j++ {
		spectate := j >= Seats
		node := (home + j) % n
		m, err := apis[node].join(ctx, accts[j], code, spectate)
		if err != nil {
			return rm, err
		}
		if !spectate {
			if m.Role != "player" || m.Seat < 0 {
				return rm, fmt.Errorf("room %s: %s joined as %s (seat %d), want a seat", code, accts[j].name, m.Role, m.Seat)
			}
			rm.players = append(rm.players, newPlayer(r, rm, accts[j], m.Seat, node, false, bot, seed+uint64(j)))
		} else {
			rm.specs = append(rm.specs, newPlayer(r, rm, accts[j], -1, node, false, nil, 0))
		}
	}
	for _, p := range slices.Concat(rm.players, rm.specs) {
		cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		err := p.connect(cctx)
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

// dealAll has each room's host deal the first game.
func dealAll(rooms []*benchRoom) {
	for _, rm := range rooms {
		h := rm.players[0]
		h.mu.Lock()
		out := h.dealMessage()
		h.mu.Unlock()
		h.write(out)
	}
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
func leaveAll(apis []*api, rooms []*benchRoom, parallel int) {
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
				p.mu.Lock()
				a := apis[p.node]
				p.mu.Unlock()
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
