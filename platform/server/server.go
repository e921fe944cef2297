package server

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"cardhouse/platform/cluster"
	"cardhouse/platform/room"
	"cardhouse/platform/store"
	"cardhouse/web"

	"github.com/coder/websocket"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Config configures the HTTP server.
type Config struct {
	Store *store.Store
	Rooms *room.Manager
	// Gatherer serves /metrics (nil: prometheus.DefaultGatherer).
	Gatherer prometheus.Gatherer
	// PublicMetrics lets anyone read /metrics; otherwise it takes an admin's session (401
	// login_required, 403 admin_only), and a scraper reads MetricsHandler on a listener of its
	// own (`serve --metrics-addr`).
	PublicMetrics bool
	Logger        *slog.Logger
	// OriginPatterns are the extra hosts whose pages may open WebSockets and send state-changing
	// requests (same-origin is always allowed), as coder/websocket patterns ("example.com").
	OriginPatterns []string
	// SecureCookies sets the Secure flag on cookies (serve behind TLS).
	SecureCookies bool
	// SessionTTL is how long a session lasts (default 30 days).
	SessionTTL time.Duration
	// BcryptCost is the password hash cost (default bcrypt.DefaultCost; tests lower it).
	BcryptCost int
	// LoginAttempts per LoginWindow per client address (default 10 per minute) limit logins,
	// registrations and guest sign-ins; a negative LoginAttempts lifts the limit (a load
	// benchmark signing in a thousand players from one address: `cardhouse serve --signin-rate 0`).
	LoginAttempts int
	LoginWindow   time.Duration
	// MaxMessage is the largest WebSocket message answered with an error (default 16 KiB); a
	// message over 64 times that closes the connection.
	MaxMessage int
	// QueueSize is each connection's outbox (default 64).
	QueueSize int
	// Bus and Node make the server a node of a cluster (routing.go): a request or a WebSocket for
	// a room another node runs goes to that node over the bus. Nil: a single node.
	Bus  cluster.Bus
	Node string
	// Cluster counts what the node routes (forwarded requests, relayed sockets, bus latency;
	// default: not registered). Give it the room manager's Config.ClusterMetrics, so that one
	// /metrics shows both.
	Cluster *cluster.Metrics
	// HouseRuleDryRun bounds the bot games played with an uploaded house rule (zero: room.DryRun's
	// defaults).
	HouseRuleDryRun room.DryRun
}

// Server is the HTTP application.
type Server struct {
	cfg   Config
	e     *echo.Echo
	log   *slog.Logger
	login *limiter

	mu    sync.Mutex
	conns map[*websocket.Conn]struct{}
	// subs are the node's subscriptions on the bus (routing.go).
	subs []cluster.Subscription
	// peers are the sockets relayed with other nodes, and their heartbeat (beat.go).
	peers peers
	// quick seats quick-play players one at a time on this node; lobbyFeed pushes the lobby to
	// its watchers (quickplay.go).
	quick     sync.Mutex
	lobbyFeed lobbyFeed
}

// New builds the application.
func New(cfg Config) *Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Gatherer == nil {
		cfg.Gatherer = prometheus.DefaultGatherer
	}
	if cfg.SessionTTL == 0 {
		cfg.SessionTTL = 30 * 24 * time.Hour
	}
	if cfg.LoginAttempts == 0 {
		cfg.LoginAttempts = 10
	}
	if cfg.LoginWindow == 0 {
		cfg.LoginWindow = time.Minute
	}
	if cfg.MaxMessage == 0 {
		cfg.MaxMessage = 16 << 10
	}
	if cfg.QueueSize == 0 {
		cfg.QueueSize = 64
	}
	if cfg.Cluster == nil {
		cfg.Cluster = cluster.NewMetrics(nil)
	}
	s := &Server{cfg: cfg, log: cfg.Logger, login: newLimiter(cfg.LoginAttempts, cfg.LoginWindow), conns: map[*websocket.Conn]struct{}{}}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = s.errorHandler
	// Direct connections only: the address is the peer's, never a forwarded header.
	e.IPExtractor = echo.ExtractIPDirect()
	e.Use(middleware.Recover())
	e.Use(middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		LogStatus: true, LogURI: true, LogMethod: true, LogLatency: true, LogError: true,
		LogValuesFunc: func(c echo.Context, v middleware.RequestLoggerValues) error {
			s.log.Debug("http", "method", v.Method, "uri", v.URI, "status", v.Status, "latency", v.Latency, "err", v.Error)
			return nil
		},
	}))
	e.Use(middleware.SecureWithConfig(middleware.SecureConfig{
		XSSProtection: "0", ContentTypeNosniff: "nosniff", XFrameOptions: "DENY",
		ContentSecurityPolicy: "default-src 'self'; script-src 'self' " + strings.Join(web.ScriptHashes(), " ") + "; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
		ReferrerPolicy:        "same-origin", HSTSMaxAge: 31536000,
	}))
	e.Use(middleware.BodyLimit("64K"))
	e.Use(s.authenticate)
	e.Use(s.csrf)
	e.Use(s.forward)
	s.e = e
	s.routes()
	return s
}

// Handler returns the application as an http.Handler.
func (s *Server) Handler() http.Handler { return s.e }

// Echo returns the Echo instance, for mounting more routes (admin pages, the web client).
func (s *Server) Echo() *echo.Echo { return s.e }

func (s *Server) routes() {
	e := s.e
	e.GET("/healthz", s.healthz)
	e.GET("/readyz", s.readyz)
	e.GET("/metrics", s.metrics)

	api := e.Group("/api")
	api.GET("/rulesets", s.rulesets)
	api.POST("/register", s.register)
	api.POST("/login", s.loginHandler)
	api.POST("/guest", s.guest)
	api.POST("/logout", s.logout)
	api.GET("/me", s.me, s.needUser)
	api.PATCH("/me", s.updateMe, s.needUser)

	api.GET("/rooms", s.lobby)
	api.GET("/invites/:code", s.invitation)
	api.POST("/rooms", s.createRoom, s.needUser)
	rg := api.Group("/rooms/:code", s.needUser)
	rg.GET("", s.roomInfo)
	rg.POST("/join", s.join)
	rg.POST("/leave", s.leave)
	rg.POST("/lock", s.lock)
	rg.POST("/requests/:member", s.decide)
	rg.POST("/kick", s.kick)
	rg.GET("/bans", s.bans)
	rg.DELETE("/bans/:user", s.liftBan)
	rg.POST("/host", s.passHost)
	rg.PATCH("/members/:member", s.seatLook)
	rg.POST("/bots", s.addBot)
	rg.POST("/deal", s.deal)
	rg.POST("/act", s.act)
	rg.POST("/check", s.check)
	rg.GET("/chat", s.chatLog)
	rg.POST("/chat", s.chat)
	rg.GET("/games/:n/replay", s.replay)
	rg.GET("/ws", s.websocket)
	s.houseRuleRoutes(api, rg)
	s.playerRoutes(api)
	s.quickRoutes(api)
}

// MetricsHandler serves the Prometheus metrics of g in the text format, to anyone: mount it only
// where the network keeps strangers out (`serve --metrics-addr`).
func MetricsHandler(g prometheus.Gatherer) http.Handler {
	return promhttp.HandlerFor(g, promhttp.HandlerOpts{})
}

// metrics serves /metrics on the site's own listener: to anyone with Config.PublicMetrics, else
// to admins only (its figures tell a stranger how busy the site is and what fails).
func (s *Server) metrics(c echo.Context) error {
	if !s.cfg.PublicMetrics {
		u := userOf(c)
		switch {
		case u == nil:
			return apiError(http.StatusUnauthorized, "login_required", "/metrics is for admins: sign in as one, or read the metrics listener (serve --metrics-addr)")
		case u.Role != store.RoleAdmin:
			return apiError(http.StatusForbidden, "admin_only", "/metrics is for admins only")
		}
	}
	MetricsHandler(s.cfg.Gatherer).ServeHTTP(c.Response(), c.Request())
	return nil
}

// healthz answers 200 with the node's state while the database answers (503 when it does not):
// status "ok", the database's dialect, the rooms whose actors run here, the node's name in a
// cluster, and the bus: "none" (a single node), "connected" or "disconnected".
func (s *Server) healthz(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
	defer cancel()
	if err := s.cfg.Store.Ping(ctx); err != nil {
		return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "unhealthy", "database": err.Error()})
	}
	h := map[string]any{"status": "ok", "database": s.cfg.Store.Dialect(), "rooms": len(s.cfg.Rooms.Live()), "bus": "none"}
	if s.cfg.Node != "" {
		h["node"] = s.cfg.Node
	}
	if s.cfg.Bus != nil {
		// A node cut off from the broker still serves its own rooms: it says so, and stays "ok"
		// (the broker restarting would otherwise take every node out of a load balancer at once).
		h["bus"] = "connected"
		if !cluster.Connected(s.cfg.Bus) {
			h["bus"] = "disconnected"
		}
	}
	return c.JSON(http.StatusOK, h)
}

// readyz answers 200 when this node can take players, for a load balancer's readiness check: the
// database answers and every variant it offers answers a trial start through its plugin process
// (room.Manager.CheckRulesets), each within 2 s. Otherwise 503 with "status": "not_ready" and
// what is not: "database" (its error) or "rulesets" (each failing variant with its error). The
// server listens only once its rooms are loaded (a node of a cluster holds their leases by then),
// so a node that answers at all has them. /healthz stays the liveness check: a node whose plugin
// is down is alive and still serves every other variant's rooms.
func (s *Server) readyz(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), 3*time.Second)
	defer cancel()
	if err := s.cfg.Store.Ping(ctx); err != nil {
		return c.JSON(http.StatusServiceUnavailable, map[string]any{"status": "not_ready", "database": err.Error()})
	}
	if failed := s.cfg.Rooms.CheckRulesets(ctx, 2*time.Second); len(failed) > 0 {
		return c.JSON(http.StatusServiceUnavailable, map[string]any{"status": "not_ready", "rulesets": failed})
	}
	h := map[string]any{"status": "ready", "rulesets": len(s.cfg.Rooms.Rulesets())}
	if s.cfg.Node != "" {
		h["node"] = s.cfg.Node
	}
	return c.JSON(http.StatusOK, h)
}

// CloseConnections closes every WebSocket still open with "going away". Call it after the rooms
// have closed theirs (room.Manager.Close), as Echo's Shutdown leaves hijacked connections open.
func (s *Server) CloseConnections() {
	s.mu.Lock()
	conns := make([]*websocket.Conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, c := range conns {
		_ = c.Close(websocket.StatusGoingAway, "server shutting down")
	}
	s.lobbyFeed.closeAll()
}
