package admin

// The server-rendered pages. They only read: every button is a form whose data-api attribute
// names the JSON API route it posts to (assets/admin.js sends it with the CSRF header). Templates
// are html/template (contextual escaping); the pages load no external asset and have no inline
// script or style, so the server's Content-Security-Policy (default-src 'self') holds.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"

	"cardhouse/platform/server"
	"cardhouse/platform/store"

	"github.com/labstack/echo/v4"
)

// pageNames are the page templates under templates/, each rendered inside layout.html.
var pageNames = []string{"dashboard", "users", "user", "rooms", "room", "plugins", "houserules", "houserule", "audit", "nodes", "status", "login", "problems", "replay"}

type pageSet struct {
	byName map[string]*template.Template
}

var funcs = template.FuncMap{
	"when": func(t any) string {
		switch v := t.(type) {
		case time.Time:
			if v.IsZero() {
				return "—"
			}
			return v.UTC().Format("2006-01-02 15:04:05 UTC")
		case *time.Time:
			if v == nil || v.IsZero() {
				return "—"
			}
			return v.UTC().Format("2006-01-02 15:04:05 UTC")
		}
		return fmt.Sprint(t)
	},
	"json": func(v any) string {
		var raw json.RawMessage
		switch x := v.(type) {
		case json.RawMessage:
			raw = x
		default:
			raw, _ = json.Marshal(v)
		}
		var buf bytes.Buffer
		if json.Indent(&buf, raw, "", "  ") != nil {
			return string(raw)
		}
		return buf.String()
	},
	"compact": func(raw json.RawMessage) string {
		var buf bytes.Buffer
		if json.Compact(&buf, raw) != nil {
			return string(raw)
		}
		return buf.String()
	},
	"num":   func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) },
	"fixed": func(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) },
	"seat": func(s int) string {
		if s < 0 {
			return "—"
		}
		return strconv.Itoa(s)
	},
}

func parsePages() (*pageSet, error) {
	ps := &pageSet{byName: map[string]*template.Template{}}
	for _, name := range pageNames {
		t, err := template.New("layout.html").Funcs(funcs).ParseFS(files, "templates/layout.html", "templates/parts.html", "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("admin: parsing page %s: %w", name, err)
		}
		ps.byName[name] = t
	}
	return ps, nil
}

// pageData is what every page template gets: Data is the page's own.
type pageData struct {
	Title string
	Nav   string
	Me    string
	CSRF  string
	Query url.Values
	Data  any
	// Pager is the list's paging, when the page is a list.
	Pager *pager
}

// pager links the pages of a list.
type pager struct {
	Page, Pages int
	Total       int64
	Prev, Next  string
}

func newPager(c echo.Context, p Page) *pager {
	pg := &pager{Page: p.Offset/max(p.Limit, 1) + 1, Total: p.Total}
	pg.Pages = int((p.Total + int64(p.Limit) - 1) / int64(max(p.Limit, 1)))
	link := func(n int) string {
		q := c.QueryParams()
		v := url.Values{}
		for k, vs := range q {
			if k != "page" {
				v[k] = vs
			}
		}
		v.Set("page", strconv.Itoa(n))
		return c.Request().URL.Path + "?" + v.Encode()
	}
	if pg.Page > 1 {
		pg.Prev = link(pg.Page - 1)
	}
	if pg.Page < pg.Pages {
		pg.Next = link(pg.Page + 1)
	}
	return pg
}

func (a *Admin) render(c echo.Context, status int, name, title, nav string, data any, pg *pager) error {
	t, ok := a.pages.byName[name]
	if !ok {
		return fmt.Errorf("admin: no page %q", name)
	}
	pd := pageData{Title: title, Nav: nav, CSRF: server.CSRFTokenOf(c), Query: c.QueryParams(), Data: data, Pager: pg}
	if u := server.UserOf(c); u != nil {
		pd.Me = accountName(u)
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, pd); err != nil {
		return fmt.Errorf("admin: rendering page %s: %w", name, err)
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "no-store")
	return c.HTMLBlob(status, buf.Bytes())
}

// renderStatus renders a page saying why a request was refused.
func (a *Admin) renderStatus(c echo.Context, status int, title, message string) error {
	return a.render(c, status, "status", title, "", map[string]any{"Status": status, "Message": message}, nil)
}

// listPage reads the 1-based page query parameter into q's offset for limit rows a page.
func listPage(c echo.Context, limit int) (int, error) {
	p, err := queryInt(c, "page")
	if err != nil {
		return 0, err
	}
	if p <= 1 {
		return 0, nil
	}
	return (p - 1) * limit, nil
}

func (a *Admin) loginPage(c echo.Context) error {
	return a.render(c, http.StatusOK, "login", "Sign in", "", map[string]any{"Next": safeNext(c.QueryParam("next"))}, nil)
}

// safeNext is where the login page sends a signed-in admin: next when it is a path of the admin
// area of this site, else the dashboard. A browser reads more as "another host" than a URL
// parser does (it drops tabs and newlines, turns backslashes into slashes, so "/\t/evil" and
// "/\\evil" become "//evil"): next must be free of control characters, backslashes and
// percent-encoded ones, parse as a bare path, and lie under Prefix. admin.js checks it again.
func safeNext(next string) string {
	if next == "" || len(next) > 2048 {
		return Prefix
	}
	for _, r := range next {
		if r < 0x20 || r == 0x7f || r == '\\' || unicode.IsSpace(r) {
			return Prefix
		}
	}
	if lower := strings.ToLower(next); strings.Contains(lower, "%5c") || strings.Contains(lower, "%2f%2f") {
		return Prefix
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" {
		return Prefix
	}
	if p := u.Path; strings.HasPrefix(p, "//") || (p != Prefix && !strings.HasPrefix(p, Prefix+"/")) || strings.Contains(p, "/../") || strings.HasSuffix(p, "/..") {
		return Prefix
	}
	return next
}

func (a *Admin) dashboardPage(c echo.Context) error {
	d, err := a.Dashboard(c.Request().Context())
	if err != nil {
		return err
	}
	return a.render(c, http.StatusOK, "dashboard", "Dashboard", "dashboard", d, nil)
}

// pageSize is the number of rows of a list page.
const pageSize = 25

func (a *Admin) usersPage(c echo.Context) error {
	q, err := userQuery(c)
	if err != nil {
		return err
	}
	q.Limit = pageSize
	if q.Offset, err = listPage(c, pageSize); err != nil {
		return err
	}
	l, err := a.Users(c.Request().Context(), q)
	if err != nil {
		return err
	}
	return a.render(c, http.StatusOK, "users", "Users", "users", l, newPager(c, l.Page))
}

func (a *Admin) userPage(c echo.Context) error {
	id, err := pathID(c, "id")
	if err != nil {
		return err
	}
	d, err := a.User(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return a.render(c, http.StatusOK, "user", "User "+d.User.DisplayName, "users", map[string]any{"D": d, "Self": server.UserOf(c).ID == id}, nil)
}

func (a *Admin) roomsPage(c echo.Context) error {
	q, err := roomQuery(c)
	if err != nil {
		return err
	}
	q.Limit = pageSize
	if q.Offset, err = listPage(c, pageSize); err != nil {
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
	ids := []string{}
	for _, d := range a.rooms.Rulesets() {
		ids = append(ids, d.ID)
	}
	return a.render(c, http.StatusOK, "rooms", "Rooms", "rooms", map[string]any{"L": l, "Rulesets": ids, "Minutes": minutes, "Now": a.now()}, newPager(c, l.Page))
}

func (a *Admin) roomPage(c echo.Context) error {
	n, err := queryInt(c, "game")
	if err != nil {
		return err
	}
	d, err := a.Room(c.Request().Context(), c.Param("code"), n)
	if err != nil {
		return err
	}
	return a.render(c, http.StatusOK, "room", "Room "+d.Room.Code, "rooms", d, nil)
}

func (a *Admin) pluginsPage(c echo.Context) error {
	return a.render(c, http.StatusOK, "plugins", "Plugins", "plugins", map[string]any{"Plugins": a.Plugins(c.Request().Context(), nil), "Refused": a.refusedPlugins(), "Folder": a.rooms.HasPluginFolder()}, nil)
}

func (a *Admin) houseRulesPage(c echo.Context) error {
	status, err := oneOf(c, "status", store.HouseRulePending, store.HouseRuleApproved, store.HouseRuleRejected, store.HouseRuleDisabled)
	if err != nil {
		return err
	}
	l, err := a.HouseRules(c.Request().Context(), status)
	if err != nil {
		return err
	}
	return a.render(c, http.StatusOK, "houserules", "House rules", "houserules", l, nil)
}

func (a *Admin) houseRulePage(c echo.Context) error {
	id, err := pathID(c, "id")
	if err != nil {
		return err
	}
	si, err := a.HouseRule(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return a.render(c, http.StatusOK, "houserule", "House rule "+si.Name, "houserules", si, nil)
}

func (a *Admin) auditPage(c echo.Context) error {
	q, err := auditQuery(c)
	if err != nil {
		return err
	}
	q.Limit = 50
	if q.Offset, err = listPage(c, 50); err != nil {
		return err
	}
	l, err := a.Audit(c.Request().Context(), q)
	if err != nil {
		return err
	}
	return a.render(c, http.StatusOK, "audit", "Audit log", "audit", l, newPager(c, l.Page))
}
