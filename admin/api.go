package admin

// The JSON API under /admin/api (docs/api.md, "Admin"). Handlers are thin: parse, call the action
// or query, answer.

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"cardhouse/platform/room"
	"cardhouse/platform/server"
	"cardhouse/platform/store"

	"github.com/labstack/echo/v4"
)

// bind decodes a JSON body strictly (server.DecodeJSON): malformed JSON, text after the value,
// unknown fields and wrong types are a 400 bad_json naming where. An empty body leaves v as it is.
func bind(c echo.Context, v any) error {
	if err := server.BindBody(c.Request(), v); err != nil {
		return errorf(http.StatusBadRequest, "bad_json", "%s", err.Error())
	}
	return nil
}

func pathID(c echo.Context, name string) (int64, error) {
	id, err := strconv.ParseInt(c.Param(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, errorf(http.StatusBadRequest, "bad_path", "%s must be a positive number, got %q", name, c.Param(name))
	}
	return id, nil
}

// queryInt reads an optional non-negative integer query parameter.
func queryInt(c echo.Context, name string) (int, error) {
	v := c.QueryParam(name)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, errorf(http.StatusBadRequest, "bad_query", "query %s must be a number of 0 or more, got %q", name, v)
	}
	return n, nil
}

// queryBool reads an optional boolean query parameter ("", "1", "true", "0", "false"; "on" for
// a checked checkbox).
func queryBool(c echo.Context, name string) (*bool, error) {
	switch v := c.QueryParam(name); v {
	case "":
		return nil, nil
	case "1", "true", "on", "yes":
		t := true
		return &t, nil
	case "0", "false", "no":
		f := false
		return &f, nil
	default:
		return nil, errorf(http.StatusBadRequest, "bad_query", "query %s must be true or false, got %q", name, v)
	}
}

func oneOf(c echo.Context, name string, allowed ...string) (string, error) {
	v := c.QueryParam(name)
	if v == "" {
		return "", nil
	}
	for _, a := range allowed {
		if v == a {
			return v, nil
		}
	}
	return "", errorf(http.StatusBadRequest, "bad_query", "query %s must be one of %s, got %q", name, strings.Join(allowed, ", "), v)
}

// userQuery reads the account list's filters: q, role, banned, guests, deleted, offset, limit.
func userQuery(c echo.Context) (store.UserQuery, error) {
	var q store.UserQuery
	var err error
	q.Search = strings.TrimSpace(c.QueryParam("q"))
	if q.Role, err = oneOf(c, "role", store.RolePlayer, store.RoleAdmin); err != nil {
		return q, err
	}
	if q.Banned, err = queryBool(c, "banned"); err != nil {
		return q, err
	}
	for name, dst := range map[string]*bool{"guests": &q.Guests, "deleted": &q.Deleted} {
		b, err := queryBool(c, name)
		if err != nil {
			return q, err
		}
		*dst = b != nil && *b
	}
	if q.Offset, err = queryInt(c, "offset"); err != nil {
		return q, err
	}
	q.Limit, err = queryInt(c, "limit")
	return q, err
}

// roomQuery reads the room list's filters: code, status, ruleset, mode, user, offset, limit.
func roomQuery(c echo.Context) (store.RoomQuery, error) {
	var q store.RoomQuery
	var err error
	q.Code = strings.TrimSpace(c.QueryParam("code"))
	q.Ruleset = strings.TrimSpace(c.QueryParam("ruleset"))
	if q.Status, err = oneOf(c, "status", store.RoomOpen, store.RoomClosed); err != nil {
		return q, err
	}
	if q.Mode, err = oneOf(c, "mode", store.ModeOnline, store.ModeComputer, store.ModeDevice); err != nil {
		return q, err
	}
	user, err := queryInt(c, "user")
	if err != nil {
		return q, err
	}
	q.UserID = int64(user)
	if q.Offset, err = queryInt(c, "offset"); err != nil {
		return q, err
	}
	q.Limit, err = queryInt(c, "limit")
	return q, err
}

// auditQuery reads the audit log's filters: actor (an admin's id), admin (an admin's name), action, target_type, target_id, offset, limit.
func auditQuery(c echo.Context) (store.AuditQuery, error) {
	var q store.AuditQuery
	actor, err := queryInt(c, "actor")
	if err != nil {
		return q, err
	}
	q.ActorID = int64(actor)
	q.ActorName = strings.TrimSpace(c.QueryParam("admin"))
	q.Action = strings.TrimSpace(c.QueryParam("action"))
	q.TargetType = strings.TrimSpace(c.QueryParam("target_type"))
	q.TargetID = strings.TrimSpace(c.QueryParam("target_id"))
	if q.Offset, err = queryInt(c, "offset"); err != nil {
		return q, err
	}
	q.Limit, err = queryInt(c, "limit")
	return q, err
}

func (a *Admin) apiDashboard(c echo.Context) error {
	d, err := a.Dashboard(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, d)
}

func (a *Admin) apiUsers(c echo.Context) error {
	q, err := userQuery(c)
	if err != nil {
		return err
	}
	l, err := a.Users(c.Request().Context(), q)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, l)
}

func (a *Admin) apiUser(c echo.Context) error {
	id, err := pathID(c, "id")
	if err != nil {
		return err
	}
	d, err := a.User(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, d)
}

// reasonBody is the body of actions that take a reason.
type reasonBody struct {
	Reason string `json:"reason"`
}

// userAction runs f on the user of the path and answers with the user as it is after.
func (a *Admin) userAction(c echo.Context, body any, f func(id int64) error) error {
	id, err := pathID(c, "id")
	if err != nil {
		return err
	}
	if err := bind(c, body); err != nil {
		return err
	}
	if err := f(id); err != nil {
		return err
	}
	d, err := a.User(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, d)
}

func (a *Admin) apiBan(c echo.Context) error {
	var b reasonBody
	return a.userAction(c, &b, func(id int64) error { return a.Ban(c.Request().Context(), actorOf(c), id, b.Reason) })
}

func (a *Admin) apiUnban(c echo.Context) error {
	var b reasonBody
	return a.userAction(c, &b, func(id int64) error { return a.Unban(c.Request().Context(), actorOf(c), id, b.Reason) })
}

func (a *Admin) apiRole(c echo.Context) error {
	var b struct {
		Role string `json:"role"`
	}
	return a.userAction(c, &b, func(id int64) error { return a.SetRole(c.Request().Context(), actorOf(c), id, b.Role) })
}

func (a *Admin) apiResetPassword(c echo.Context) error {
	id, err := pathID(c, "id")
	if err != nil {
		return err
	}
	pw, err := a.ResetPassword(c.Request().Context(), actorOf(c), id)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]any{"id": id, "password": pw,
		"note": "give this password to the user; it is shown only once and every session of the user has ended"})
}

func (a *Admin) apiDeleteUser(c echo.Context) error {
	id, err := pathID(c, "id")
	if err != nil {
		return err
	}
	var b struct {
		Confirm string `json:"confirm"`
	}
	if err := bind(c, &b); err != nil {
		return err
	}
	if err := a.DeleteUser(c.Request().Context(), actorOf(c), id, b.Confirm); err != nil {
		return err
	}
	d, err := a.User(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, d)
}

func (a *Admin) apiRooms(c echo.Context) error {
	q, err := roomQuery(c)
	if err != nil {
		return err
	}
	activity, minutes, err := roomActivity(c)
	if err != nil {
		return err
	}
	l, err := a.Rooms(c.Request().Context(), q, activity, minutes)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, l)
}

func (a *Admin) apiRoom(c echo.Context) error {
	n, err := queryInt(c, "game")
	if err != nil {
		return err
	}
	d, err := a.Room(c.Request().Context(), c.Param("code"), n)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, d)
}

func (a *Admin) apiGameLog(c echo.Context) error {
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil || n <= 0 {
		return errorf(http.StatusBadRequest, "bad_path", "game number must be a positive number, got %q", c.Param("n"))
	}
	ctx := c.Request().Context()
	sr, err := a.storedRoom(ctx, c.Param("code"))
	if err != nil {
		return err
	}
	l, err := a.GameLog(ctx, sr, n)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, l)
}

// roomAction runs f on the room of the path and answers with the room as it is after.
func (a *Admin) roomAction(c echo.Context, body any, f func(code string) error) error {
	if err := bind(c, body); err != nil {
		return err
	}
	code := strings.ToUpper(c.Param("code"))
	if err := f(code); err != nil {
		return err
	}
	d, err := a.Room(c.Request().Context(), code, 0)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, d)
}

func (a *Admin) apiCloseRoom(c echo.Context) error {
	var b reasonBody
	return a.roomAction(c, &b, func(code string) error { return a.CloseRoom(c.Request().Context(), actorOf(c), code, b.Reason) })
}

// memberBody names a member of a room, with a reason where the action takes one, and for a kick
// how long the user is kept out (minutes, or a ban from the room; neither: the room's default).
type memberBody struct {
	Member  int64  `json:"member"`
	Reason  string `json:"reason"`
	Minutes *int   `json:"minutes"`
	Ban     bool   `json:"ban"`
}

// kickOptions checks how long a kick keeps the user out.
func (m memberBody) kickOptions() (room.KickOptions, error) {
	maxMin := int(room.MaxKickCooldown / time.Minute)
	switch {
	case m.Ban && m.Minutes != nil:
		return room.KickOptions{}, errorf(http.StatusBadRequest, "bad_kick", "minutes: a ban from the room has no length: send ban or minutes, not both")
	case m.Minutes != nil && (*m.Minutes < 1 || *m.Minutes > maxMin):
		return room.KickOptions{}, errorf(http.StatusBadRequest, "bad_kick", "minutes: want 1 to %d (a day), got %d", maxMin, *m.Minutes)
	case m.Minutes != nil:
		return room.KickOptions{Cooldown: time.Duration(*m.Minutes) * time.Minute}, nil
	}
	return room.KickOptions{Ban: m.Ban}, nil
}

func (m memberBody) check() error {
	if m.Member <= 0 {
		return errorf(http.StatusBadRequest, "bad_member", "member: give the member's id (a positive number), got %d", m.Member)
	}
	return nil
}

func (a *Admin) apiKick(c echo.Context) error {
	var b memberBody
	return a.roomAction(c, &b, func(code string) error {
		if err := b.check(); err != nil {
			return err
		}
		opts, err := b.kickOptions()
		if err != nil {
			return err
		}
		return a.Kick(c.Request().Context(), actorOf(c), code, b.Member, b.Reason, opts)
	})
}

func (a *Admin) apiSetHost(c echo.Context) error {
	var b memberBody
	return a.roomAction(c, &b, func(code string) error {
		if err := b.check(); err != nil {
			return err
		}
		if b.Reason != "" || b.Minutes != nil || b.Ban {
			return errorf(http.StatusBadRequest, "bad_json", "moving the host takes only the member: no reason, minutes or ban")
		}
		return a.SetHost(c.Request().Context(), actorOf(c), code, b.Member)
	})
}

func (a *Admin) apiPlugins(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]any{"plugins": a.Plugins(c.Request().Context(), nil), "refused": a.refusedPlugins()})
}

// pluginAnswer answers a plugin action with the plugin as it is after.
func (a *Admin) pluginAnswer(c echo.Context, id string) error {
	for _, p := range a.Plugins(c.Request().Context(), nil) {
		if p.ID == id {
			return c.JSON(http.StatusOK, map[string]any{"plugin": p})
		}
	}
	return errorf(http.StatusNotFound, "no_ruleset", "no ruleset %q", id)
}

func (a *Admin) apiRestartPlugin(c echo.Context) error {
	id := c.Param("id")
	if _, err := a.RestartPlugin(c.Request().Context(), actorOf(c), id); err != nil {
		return err
	}
	return a.pluginAnswer(c, id)
}

func (a *Admin) apiDisablePlugin(c echo.Context) error {
	var b reasonBody
	if err := bind(c, &b); err != nil {
		return err
	}
	id := c.Param("id")
	if err := a.DisablePlugin(c.Request().Context(), actorOf(c), id, b.Reason); err != nil {
		return err
	}
	return a.pluginAnswer(c, id)
}

func (a *Admin) apiEnablePlugin(c echo.Context) error {
	id := c.Param("id")
	if err := a.EnablePlugin(c.Request().Context(), actorOf(c), id); err != nil {
		return err
	}
	return a.pluginAnswer(c, id)
}

func (a *Admin) apiAudit(c echo.Context) error {
	q, err := auditQuery(c)
	if err != nil {
		return err
	}
	l, err := a.Audit(c.Request().Context(), q)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, l)
}
