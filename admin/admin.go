package admin

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"cardhouse/platform/room"
	"cardhouse/platform/server"
	"cardhouse/platform/store"

	"github.com/labstack/echo/v4"
	"golang.org/x/crypto/bcrypt"
)

//go:embed assets templates
var files embed.FS

// Config is what the admin area works on.
type Config struct {
	Store *store.Store
	Rooms *room.Manager
	// Logger receives the admin actions as they happen (default slog.Default()).
	Logger *slog.Logger
	// BcryptCost is the cost of reset passwords (default bcrypt.DefaultCost; tests lower it).
	BcryptCost int
	// Now is the clock of audit entries and dashboard windows (default time.Now).
	Now func() time.Time
}

// Admin is the admin area. Its methods in actions.go are the admin actions; each writes an audit
// entry when it succeeds.
type Admin struct {
	st    *store.Store
	rooms *room.Manager
	log   *slog.Logger
	cost  int
	now   func() time.Time
	pages *pageSet
}

// New builds the admin area and applies the stored state it owns to the room manager (the
// rulesets disabled for new rooms).
func New(ctx context.Context, cfg Config) (*Admin, error) {
	if cfg.Store == nil || cfg.Rooms == nil {
		return nil, errors.New("admin: Config.Store and Config.Rooms are required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.BcryptCost == 0 {
		cfg.BcryptCost = bcrypt.DefaultCost
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	pages, err := parsePages()
	if err != nil {
		return nil, err
	}
	a := &Admin{st: cfg.Store, rooms: cfg.Rooms, log: cfg.Logger, cost: cfg.BcryptCost, now: cfg.Now, pages: pages}
	disabled, err := cfg.Store.DisabledRulesets(ctx)
	if err != nil {
		return nil, fmt.Errorf("admin: reading the disabled rulesets: %w", err)
	}
	ids := map[string]string{}
	for _, d := range disabled {
		ids[d.Ruleset] = d.Reason
	}
	cfg.Rooms.LoadDisabledRulesets(ids)
	return a, nil
}

// Prefix is where the admin area is mounted.
const Prefix = "/admin"

// PublicRoutes are the admin routes anyone may open: the login page and the style sheet and
// script it needs. Every other route under Prefix requires an admin.
var PublicRoutes = []string{"GET " + Prefix + "/login", "GET " + Prefix + "/assets/*"}

// Mount registers every admin route on e (the platform server's Echo, whose middleware has already
// read the session and checked the CSRF header of state-changing requests).
func (a *Admin) Mount(e *echo.Echo) {
	assets, _ := fs.Sub(files, "assets")
	e.GET(Prefix+"/login", a.loginPage)
	e.GET(Prefix+"/assets/*", echo.WrapHandler(http.StripPrefix(Prefix+"/assets/", http.FileServer(http.FS(assets)))))

	g := e.Group(Prefix, a.guard)
	g.GET("", a.dashboardPage)
	g.GET("/", a.dashboardPage)
	g.GET("/users", a.usersPage)
	g.GET("/users/:id", a.userPage)
	g.GET("/rooms", a.roomsPage)
	g.GET("/rooms/:code", a.roomPage)
	g.GET("/rooms/:code/games/:n/replay", a.replayPage)
	g.GET("/problems", a.problemsPage)
	g.GET("/plugins", a.pluginsPage)
	g.GET("/houserules", a.houseRulesPage)
	g.GET("/houserules/:id", a.houseRulePage)
	g.GET("/audit", a.auditPage)
	g.GET("/nodes", a.nodesPage)

	api := e.Group(Prefix+"/api", a.guard)
	api.GET("/dashboard", a.apiDashboard)
	api.GET("/users", a.apiUsers)
	api.GET("/users/:id", a.apiUser)
	api.POST("/users/bulk", a.apiBulkUsers)
	api.POST("/users/:id/ban", a.apiBan)
	api.POST("/users/:id/unban", a.apiUnban)
	api.POST("/users/:id/role", a.apiRole)
	api.POST("/users/:id/password", a.apiResetPassword)
	api.POST("/users/:id/delete", a.apiDeleteUser)
	api.GET("/rooms", a.apiRooms)
	api.GET("/rooms/:code", a.apiRoom)
	api.GET("/rooms/:code/games/:n", a.apiGameLog)
	api.GET("/rooms/:code/games/:n/replay", a.apiReplay)
	api.POST("/rooms/close", a.apiCloseRooms)
	api.GET("/problems", a.apiProblems)
	api.POST("/rooms/:code/close", a.apiCloseRoom)
	api.POST("/rooms/:code/kick", a.apiKick)
	api.POST("/rooms/:code/host", a.apiSetHost)
	api.POST("/rooms/:code/bans/:user/lift", a.apiLiftRoomBan)
	api.GET("/plugins", a.apiPlugins)
	api.POST("/plugins/rescan", a.apiRescanPlugins)
	api.POST("/plugins/:id/restart", a.apiRestartPlugin)
	api.POST("/plugins/:id/disable", a.apiDisablePlugin)
	api.POST("/plugins/:id/enable", a.apiEnablePlugin)
	api.GET("/houserules", a.apiHouseRules)
	api.GET("/houserules/:id", a.apiHouseRule)
	api.POST("/houserules/versions/:id/approve", a.apiApproveVersion)
	api.POST("/houserules/versions/:id/reject", a.apiRejectVersion)
	api.POST("/houserules/versions/:id/disable", a.apiDisableVersion)
	api.POST("/houserules/versions/:id/dryrun", a.apiDryRunVersion)
	api.GET("/audit", a.apiAudit)
	api.GET("/nodes", a.apiNodes)
}

// isAPI reports whether the request is for the JSON API (errors in JSON) or a page (errors and
// log-in prompts in HTML).
func isAPI(c echo.Context) bool { return strings.HasPrefix(c.Request().URL.Path, Prefix+"/api") }

// guard lets admins through. An anonymous visitor of a page is sent to the login page (303) and of
// the API gets 401; a signed-in player or guest gets 403.
func (a *Admin) guard(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		u := server.UserOf(c)
		switch {
		case u == nil && isAPI(c):
			return c.JSON(http.StatusUnauthorized, errorBody{errorJSON{Code: "login_required", Reason: "log in as an admin first"}})
		case u == nil:
			return c.Redirect(http.StatusSeeOther, Prefix+"/login?next="+url.QueryEscape(c.Request().URL.RequestURI()))
		case u.Role != store.RoleAdmin && isAPI(c):
			return c.JSON(http.StatusForbidden, errorBody{errorJSON{Code: "admin_only", Reason: "only admins can use the admin area"}})
		case u.Role != store.RoleAdmin:
			return a.renderStatus(c, http.StatusForbidden, "Admins only", "Only admins can use the admin area. You are signed in as "+u.DisplayName+".")
		}
		err := next(c)
		if _, ok := room.Elsewhere(err); ok {
			return err // another node runs the room: the request is forwarded there
		}
		var e *Error
		if errors.As(err, &e) {
			if isAPI(c) {
				return c.JSON(e.Status, errorBody{errorJSON{Code: e.Code, Reason: e.Reason}})
			}
			return a.renderStatus(c, e.Status, http.StatusText(e.Status), e.Reason)
		}
		if err != nil && !isAPI(c) {
			if status, reason, ok := classify(err); ok {
				return a.renderStatus(c, status, http.StatusText(status), reason)
			}
		}
		// Errors of the platform (room refusals, option errors, store failures) go to the
		// server's error handler, which answers them in the API's JSON shape.
		return err
	}
}

// classify maps the platform's errors a page can meet to a status and a message.
func classify(err error) (int, string, bool) {
	if re, ok := room.AsError(err); ok {
		status := map[string]int{room.KindInvalid: 400, room.KindForbidden: 403, room.KindNotFound: 404,
			room.KindConflict: 409, room.KindUnavailable: 503}[re.Kind]
		if status == 0 {
			status = http.StatusConflict
		}
		return status, re.Reason, true
	}
	if errors.Is(err, store.ErrNotFound) {
		return http.StatusNotFound, err.Error(), true
	}
	return 0, "", false
}

// Error is a refused admin request: Status is the HTTP status, Code a stable machine word and
// Reason a sentence saying what and where.
type Error struct {
	Status int
	Code   string
	Reason string
}

// Error returns the reason.
func (e *Error) Error() string { return e.Reason }

func errorf(status int, code, format string, args ...any) *Error {
	return &Error{Status: status, Code: code, Reason: fmt.Sprintf(format, args...)}
}

// errorBody is the API's error shape, the same as the rest of the server's.
type errorBody struct {
	Error errorJSON `json:"error"`
}

type errorJSON struct {
	Code   string `json:"code"`
	Reason string `json:"reason"`
}

// Actor is who performs an admin action: an admin's account, or the command line (ID 0).
type Actor struct {
	ID   int64
	Name string
}

func actorOf(c echo.Context) Actor {
	u := server.UserOf(c)
	return Actor{ID: u.ID, Name: accountName(u)}
}

// accountName is how the admin area names an account: its username, or its display name for a
// guest.
func accountName(u *store.User) string {
	if u.Username != nil {
		return *u.Username
	}
	return u.DisplayName + " (guest)"
}

// audit appends an entry to the audit log. A failure to write it is logged: the action it records
// has already happened.
func (a *Admin) audit(ctx context.Context, by Actor, action, targetType, targetID, target, detail string) {
	e := &store.AuditEntry{Actor: by.Name, Action: action, TargetType: targetType, TargetID: targetID,
		Target: target, Detail: detail, CreatedAt: a.now().UTC()}
	if by.ID != 0 {
		id := by.ID
		e.ActorID = &id
	}
	a.log.Info("admin action", "actor", by.Name, "action", action, "target", targetType+" "+targetID, "detail", detail)
	if err := a.st.AddAudit(context.WithoutCancel(ctx), e); err != nil {
		a.log.Error("writing the audit log", "action", action, "err", err)
	}
}
