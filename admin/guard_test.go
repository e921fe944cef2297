package admin_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"cardhouse/admin"
	"cardhouse/platform/store"

	"github.com/coder/websocket"
)

func asClose(err error, ce *websocket.CloseError) bool { return errors.As(err, ce) }

// TestEveryAdminRouteRefusesNonAdmins walks Echo's whole route table under /admin: a signed-in
// player and a signed-in guest get 403 on every route but the public ones, and an anonymous
// visitor is sent to the login page (pages) or gets 401 (API). The requests carry real ids and a
// valid CSRF token, so a route that forgot the guard would act: the test then checks nothing
// happened (no ban, no role change, no audit entry).
func TestEveryAdminRouteRefusesNonAdmins(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	player, guest := e.register("Pat"), e.guest("Gus")
	host := e.register("Hana")
	info := host.createRoom(map[string]any{"ruleset": "hotspot", "seats": 2})
	player.must("POST", "/api/rooms/"+info.Code+"/join", nil, nil)

	fill := func(path string) string {
		r := strings.NewReplacer(":id", itoa(player.id), ":code", info.Code, ":n", "1", "*", "admin.css")
		return r.Replace(path)
	}
	var walked []string
	for _, rt := range e.srv.Echo().Routes() {
		if !strings.HasPrefix(rt.Path, admin.Prefix) || rt.Method == "echo_route_not_found" {
			continue
		}
		key := rt.Method + " " + rt.Path
		if slices.Contains(walked, key) {
			continue
		}
		walked = append(walked, key)
		if slices.Contains(admin.PublicRoutes, key) {
			continue
		}
		path := fill(rt.Path)
		var body any
		if rt.Method != http.MethodGet {
			body = map[string]any{}
		}
		for _, u := range []*user{player, guest} {
			st, data := u.raw(rt.Method, path, body)
			if st != http.StatusForbidden {
				t.Errorf("%s (%s) as %s: status %d, want 403: %.200s", key, path, u.name, st, data)
			}
		}
		anon := e.anonymous()
		resp := anon.do(rt.Method, path, body)
		resp.Body.Close()
		api := strings.HasPrefix(rt.Path, admin.Prefix+"/api")
		switch {
		case api && resp.StatusCode != http.StatusUnauthorized:
			t.Errorf("%s anonymous: status %d, want 401", key, resp.StatusCode)
		case !api && (resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), admin.Prefix+"/login?next=")):
			t.Errorf("%s anonymous: status %d to %q, want 303 to the login page", key, resp.StatusCode, resp.Header.Get("Location"))
		}
	}
	// The walk must have covered the area: every page and every action.
	for _, want := range []string{"GET /admin", "GET /admin/users/:id", "POST /admin/api/users/:id/ban", "POST /admin/api/users/:id/delete",
		"POST /admin/api/rooms/:code/close", "POST /admin/api/plugins/:id/restart", "POST /admin/api/houserules/versions/:id/approve", "GET /admin/api/audit"} {
		if !slices.Contains(walked, want) {
			t.Errorf("the route table has no %s", want)
		}
	}
	if len(walked) < 35 {
		t.Errorf("walked %d admin routes, want at least 35: %v", len(walked), walked)
	}
	for _, pub := range admin.PublicRoutes {
		if !slices.Contains(walked, pub) {
			t.Errorf("public route %s is not in the route table", pub)
		}
	}

	// Nothing happened.
	ctx := context.Background()
	u, err := e.st.UserByID(ctx, player.id)
	if err != nil {
		t.Fatal(err)
	}
	if u.Banned || u.Role != store.RolePlayer {
		t.Errorf("player after the walk: banned %v, role %s", u.Banned, u.Role)
	}
	if _, n, _ := e.st.Audit(ctx, store.AuditQuery{}); n != 0 {
		t.Errorf("the audit log has %d entries after the walk, want 0", n)
	}
	if got := player.roomInfo(info.Code); got.Status != store.RoomOpen || len(got.Members) != 2 {
		t.Errorf("room after the walk: %+v", got)
	}

	// The public routes really are public, and the login page links nowhere off-site.
	anon := e.anonymous()
	checkLoginNext(t, anon)
	if st, _ := anon.raw("GET", "/admin/assets/admin.js", nil); st != http.StatusOK {
		t.Errorf("admin.js: %d", st)
	}
}

// evilNexts are login "next" values a browser would read as another host (it drops tabs and
// newlines and reads a backslash as a slash), or that leave the admin area.
var evilNexts = []string{
	"//evil.example/", "/%09/evil.example/", "/%0a/evil.example/", "/%0d%0a/evil.example/",
	"/%5cevil.example/", "/%5C%5Cevil.example/", `/\evil.example/`, "https://evil.example/",
	"http:evil.example", "javascript:alert(1)", "/admin%0a/../..//evil.example", "/%20/evil.example",
	"/%00/evil.example", "evil.example", "/admin/../../evil.example", "/api/rooms", "/%2f%2fevil.example",
}

// checkLoginNext: the login page keeps a path of the admin area and sends anything else to /admin.
func checkLoginNext(t *testing.T, anon *user) {
	t.Helper()
	for _, next := range evilNexts {
		st, page := anon.raw("GET", "/admin/login?next="+next, nil)
		if st != http.StatusOK || !strings.Contains(string(page), `data-next="/admin"`) {
			t.Errorf("login page with next=%s: %d, next not reset to /admin", next, st)
		}
	}
	for next, want := range map[string]string{"/admin/rooms%3Fpage%3D2": "/admin/rooms?page=2", "/admin": "/admin", "/admin/users/7": "/admin/users/7"} {
		st, page := anon.raw("GET", "/admin/login?next="+next, nil)
		if st != http.StatusOK || !strings.Contains(string(page), `data-next="`+want+`"`) {
			t.Errorf("login page with next=%s: %d, want data-next %q", next, st, want)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
