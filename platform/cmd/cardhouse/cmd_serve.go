package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"cardhouse/admin"
	"cardhouse/platform/cluster"
	"cardhouse/platform/room"
	"cardhouse/platform/server"
	"cardhouse/platform/store"
	"cardhouse/web"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/spf13/cobra"
)

// serveOptions are the flags of `cardhouse serve`; each has an environment variable.
type serveOptions struct {
	addr, data, db, plugins string
	origins                 []string
	secureCookies           bool
	botDelay, grace, pause  time.Duration
	reaction                time.Duration
	maxRooms                int
	admin                   string
	logLevel                string
	// signinRate is the sign-in attempts per minute per address (0: no limit); pprof mounts
	// net/http/pprof under /debug/pprof/.
	signinRate int
	pprof      bool
	// maxSpectators bounds each room's spectators (and join requests).
	maxSpectators int
	// cluster is the NATS broker's URL of a node of a cluster (empty: a single node); node is the
	// node's name and lease how long its room leases last (cmd_serve_cluster.go).
	cluster, node string
	lease         time.Duration
	// metricsAddr is the address of a listener serving /metrics to anyone (a Prometheus scraper);
	// publicMetrics serves /metrics to anyone on --addr too. Neither: /metrics on --addr takes an
	// admin's session.
	metricsAddr   string
	publicMetrics bool
	// sqliteSync is SQLite's synchronous setting (store.ParseSynchronous): full or normal.
	sqliteSync string
}

// envInt is the environment variable name as a number, or def when it is unset or not one.
func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return n
	}
	return def
}

func envOr(name, def string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return def
}

func newServeCmd() *cobra.Command {
	var o serveOptions
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the site: accounts, rooms and live games over HTTP and WebSocket",
		Long: `Serve the site. The database is the SQLite file cardhouse.db in --data unless --db names a
PostgreSQL DSN. Variants are the built-in ones plus the plugins found in --plugins. Every flag has an
environment variable: CARDHOUSE_ADDR, CARDHOUSE_DATA, CARDHOUSE_DB, CARDHOUSE_PLUGINS.
On SIGINT or SIGTERM the server stops taking requests, finishes the actions in flight, closes the
WebSockets with "going away" and exits.
Memory: the Go collector runs at GOGC 300 under a soft limit of 256 MiB or 2.5 times the live heap,
whichever is larger (docs/performance.md); setting GOGC or GOMEMLIMIT replaces that with your own.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runServe(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", envOr("CARDHOUSE_ADDR", "127.0.0.1:8080"), "address to listen on (env CARDHOUSE_ADDR)")
	f.StringVar(&o.data, "data", envOr("CARDHOUSE_DATA", "./data"), "folder of the embedded SQLite database (env CARDHOUSE_DATA)")
	f.StringVar(&o.db, "db", envOr("CARDHOUSE_DB", ""), "PostgreSQL DSN; empty for SQLite in --data (env CARDHOUSE_DB)")
	f.StringVar(&o.plugins, "plugins", envOr("CARDHOUSE_PLUGINS", ""), "folder of external variant plugins (env CARDHOUSE_PLUGINS)")
	f.StringSliceVar(&o.origins, "origin", nil, "extra host allowed to open WebSockets and post (repeatable)")
	f.BoolVar(&o.secureCookies, "secure-cookies", envOr("CARDHOUSE_SECURE_COOKIES", "") == "1", "mark cookies Secure (behind TLS)")
	f.DurationVar(&o.botDelay, "bot-delay", 900*time.Millisecond, "how long bots think before acting")
	f.DurationVar(&o.reaction, "reaction-time", 2500*time.Millisecond, "how long bots leave a person to call LAST CARD or catch someone out when such a window opens")
	f.IntVar(&o.maxRooms, "max-rooms", room.DefaultMaxRoomsPerHost, "open rooms one account may host at once; 0: no limit")
	f.DurationVar(&o.grace, "grace", 20*time.Second, "how long a dropped player keeps the seat before a bot covers it")
	f.DurationVar(&o.pause, "pause-limit", 5*time.Minute, "how long a game with every player dropped waits before it is abandoned")
	f.StringVar(&o.admin, "admin", envOr("CARDHOUSE_ADMIN", ""), "username to make an admin at start (env CARDHOUSE_ADMIN)")
	f.StringVar(&o.logLevel, "log-level", envOr("CARDHOUSE_LOG_LEVEL", "info"), "debug, info, warn or error")
	f.IntVar(&o.signinRate, "signin-rate", 10, "sign-ins (login, register, guest) allowed per minute per client address; 0: no limit (load benchmarks)")
	f.IntVar(&o.maxSpectators, "max-spectators", envInt("CARDHOUSE_MAX_SPECTATORS", 200), "spectators (and join requests) a room takes at most (env CARDHOUSE_MAX_SPECTATORS)")
	f.StringVar(&o.cluster, "cluster", envOr("CARDHOUSE_CLUSTER", ""), "NATS URL (nats://host:4222, several comma-separated) to run as one node of a cluster sharing --db, which must be PostgreSQL; empty: a single server (env CARDHOUSE_CLUSTER)")
	f.StringVar(&o.node, "node", envOr("CARDHOUSE_NODE", ""), "this node's name in the cluster, unique; empty: the host name and a random suffix (env CARDHOUSE_NODE)")
	f.DurationVar(&o.lease, "lease", 10*time.Second, "how long a node's hold on a room lasts unrenewed: about how long a dead node's rooms wait before another node takes them (with --cluster)")
	f.StringVar(&o.metricsAddr, "metrics-addr", envOr("CARDHOUSE_METRICS_ADDR", ""), "address of a second listener serving only /metrics to anyone, for a Prometheus scraper (keep it private: 127.0.0.1:9090, or a network only the scraper reaches); /metrics on --addr stays admin-only (env CARDHOUSE_METRICS_ADDR)")
	f.BoolVar(&o.publicMetrics, "public-metrics", envOr("CARDHOUSE_PUBLIC_METRICS", "") == "1", "serve /metrics on --addr to anyone, not only to admins (a server on a private network; cardhouse bench's own server) (env CARDHOUSE_PUBLIC_METRICS=1)")
	f.StringVar(&o.sqliteSync, "sqlite-synchronous", envOr("CARDHOUSE_SQLITE_SYNCHRONOUS", string(store.SyncFull)), "full: every SQLite commit is synced to the disk before the action is told to anyone, so an accepted action survives a power loss or an OS crash; normal: synced only at checkpoints, faster per commit, but the last accepted actions before a power loss or an OS crash may be lost (a killed process loses none either way). PostgreSQL ignores it (env CARDHOUSE_SQLITE_SYNCHRONOUS)")
	f.BoolVar(&o.pprof, "pprof", false, "serve Go profiles (net/http/pprof) under /debug/pprof/ on the same listener: for profiling under load, never in production")
	return cmd
}

func runServe(ctx context.Context, o serveOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(o.logLevel)); err != nil {
		return fmt.Errorf("--log-level: %w", err)
	}
	if o.signinRate < 0 {
		return fmt.Errorf("--signin-rate: want 0 (no limit) or more, got %d", o.signinRate)
	}
	if o.maxRooms < 0 {
		return fmt.Errorf("--max-rooms: want 0 (no limit) or more, got %d", o.maxRooms)
	}
	maxRooms := o.maxRooms
	if maxRooms == 0 {
		maxRooms = -1 // no limit
	}
	if err := checkCluster(o); err != nil {
		return err
	}
	sqliteSync, err := store.ParseSynchronous(o.sqliteSync)
	if err != nil {
		return fmt.Errorf("--sqlite-synchronous: %w", err)
	}
	log := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	slog.SetDefault(log)
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	tuneGC(ctx)

	st, err := store.Open(ctx, store.Config{DSN: clusterDSN(o), DataDir: o.data, Logger: log, Synchronous: sqliteSync})
	if err != nil {
		return err
	}
	defer st.Close()
	var bus cluster.Bus
	node := ""
	if o.cluster != "" {
		if st.Dialect() != "postgres" {
			return errors.New("--cluster needs PostgreSQL: --db names " + st.Dialect())
		}
		node = nodeName(o.node)
		log = log.With("node", node)
		slog.SetDefault(log)
		if bus, err = dialCluster(ctx, st, o.cluster, node, log); err != nil {
			return err
		}
		defer bus.Close()
	}
	if o.admin != "" {
		u, err := st.UserByUsername(ctx, o.admin)
		if err != nil {
			return fmt.Errorf("--admin %s: %w", o.admin, err)
		}
		if err := st.SetRole(ctx, u.ID, store.RoleAdmin); err != nil {
			return err
		}
	}

	engines, folder, closeEngines, err := openPlugins(ctx, o.plugins)
	if err != nil {
		return fmt.Errorf("starting the variant plugins: %w", err)
	}
	defer closeEngines()

	reg := prometheus.NewRegistry()
	roomMetrics, clusterMetrics := registerMetrics(reg, st)
	rcfg := room.Config{
		Store: st, Engines: engines, Logger: log, Metrics: roomMetrics,
		BotDelay: o.botDelay, ReactionTime: o.reaction, Grace: o.grace, PauseLimit: o.pause, MaxRoomsPerHost: maxRooms,
		MaxSpectators: o.maxSpectators, Node: node, LeaseTTL: o.lease, Bus: bus, ClusterMetrics: clusterMetrics,
		CheckPlugin: hostConfig(),
	}
	if folder != nil {
		rcfg.Plugins = folder
	}
	rooms, err := room.NewManager(ctx, rcfg)
	if err != nil {
		return err
	}
	if err := rooms.LoadAll(ctx); err != nil {
		return err
	}
	loginAttempts := o.signinRate
	if loginAttempts == 0 {
		loginAttempts = -1 // no limit
	}
	srv := server.New(server.Config{Store: st, Rooms: rooms, Gatherer: reg, Logger: log,
		OriginPatterns: o.origins, SecureCookies: o.secureCookies, LoginAttempts: loginAttempts, Bus: bus, Node: node, Cluster: clusterMetrics,
		PublicMetrics: o.publicMetrics})
	if err := srv.StartRouting(); err != nil {
		rooms.Close()
		return err
	}
	if o.pprof {
		mountPprof(srv.Echo())
	}
	// The admin area (admin/): pages and JSON API under /admin.
	adm, err := admin.New(ctx, admin.Config{Store: st, Rooms: rooms, Logger: log})
	if err != nil {
		return err
	}
	adm.Mount(srv.Echo())
	// The browser client (web/): index.html at "/", its ES modules and styles beside it.
	srv.Echo().StaticFS("/", web.Static())

	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("--addr %s: %w", o.addr, err)
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	var unused unusedConns // the stop does not wait for connections that never sent a request
	unused.track(hs)
	errc := make(chan error, 2)
	var ms *http.Server
	metricsAddr := ""
	if o.metricsAddr != "" {
		mln, err := net.Listen("tcp", o.metricsAddr)
		if err != nil {
			_ = ln.Close()
			rooms.Close()
			return fmt.Errorf("--metrics-addr %s: %w", o.metricsAddr, err)
		}
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", server.MetricsHandler(reg))
		ms = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		new(unusedConns).track(ms)
		metricsAddr = mln.Addr().String()
		go func() { errc <- ms.Serve(mln) }()
	}
	ids := make([]string, 0, len(engines))
	for id := range engines {
		ids = append(ids, id)
	}
	log.Info("serving", "addr", ln.Addr().String(), "metrics_addr", metricsAddr, "public_metrics", o.publicMetrics, "database", st.Dialect(), "cluster", o.cluster != "", "rulesets", strings.Join(ids, ","), "rooms", len(rooms.Live()))
	fmt.Fprintln(os.Stdout, openLine(ln.Addr()))
	go func() { errc <- hs.Serve(ln) }()

	select {
	case err := <-errc:
		rooms.Close()
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Error("http shutdown", "err", err)
	}
	if n := unused.closed.Load(); n > 0 {
		log.Info("closed connections that had sent no request", "conns", n)
	}
	if ms != nil {
		_ = ms.Shutdown(sctx)
	}
	rooms.Close()
	srv.CloseConnections()
	srv.StopRouting()
	log.Info("stopped")
	return nil
}

// mountPprof serves net/http/pprof's handlers under /debug/pprof/ (`serve --pprof`), so a load
// benchmark can take the server's CPU profile while it runs: `cardhouse bench --server-pprof`.
func mountPprof(e *echo.Echo) {
	g := e.Group("/debug/pprof")
	g.GET("/", echo.WrapHandler(http.HandlerFunc(pprof.Index)))
	g.GET("/cmdline", echo.WrapHandler(http.HandlerFunc(pprof.Cmdline)))
	g.GET("/profile", echo.WrapHandler(http.HandlerFunc(pprof.Profile)))
	g.GET("/symbol", echo.WrapHandler(http.HandlerFunc(pprof.Symbol)))
	g.GET("/trace", echo.WrapHandler(http.HandlerFunc(pprof.Trace)))
	g.GET("/:name", echo.WrapHandler(http.HandlerFunc(pprof.Index)))
}

// openLine is the one line `serve` prints for people: the address to open and how to stop. On an
// address that listens on every interface it names this machine's network address, which friends
// on the same network open.
func openLine(addr net.Addr) string {
	ta, ok := addr.(*net.TCPAddr)
	if !ok {
		return fmt.Sprintf("Cardhouse is running on %s. Press Ctrl+C to stop it.", addr)
	}
	port := strconv.Itoa(ta.Port)
	if !ta.IP.IsUnspecified() {
		return fmt.Sprintf("Cardhouse is running: open http://%s/ in your browser. Press Ctrl+C to stop it.", net.JoinHostPort(ta.IP.String(), port))
	}
	line := fmt.Sprintf("Cardhouse is running: open http://%s/ in your browser", net.JoinHostPort("127.0.0.1", port))
	if lan := lanAddress(); lan != "" {
		line += fmt.Sprintf("; friends on your network open http://%s/", net.JoinHostPort(lan, port))
	} else {
		line += fmt.Sprintf("; friends on your network open this computer's address with port %s", port)
	}
	return line + ". Press Ctrl+C to stop it."
}

// lanAddress is this machine's first private IPv4 address ("" when it has none).
func lanAddress() string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return ""
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && n.IP.IsPrivate() {
			return n.IP.String()
		}
	}
	return ""
}

// registerMetrics registers every series a node exports on reg (docs/api.md lists them; the alert
// rules of docs/deploy name them).
func registerMetrics(reg prometheus.Registerer, st *store.Store) (*room.Metrics, *cluster.Metrics) {
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	reg.MustRegister(st.CommitCollectors()...)
	return room.NewMetrics(reg), cluster.NewMetrics(reg)
}
