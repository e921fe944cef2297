package admin_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"cardhouse/admin"
	"cardhouse/platform/cluster"
	"cardhouse/platform/room"
	"cardhouse/platform/server"
	"cardhouse/platform/store"
	"cardhouse/platform/store/storetest"
	"cardhouse/plugins/builtin"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/plugin"

	"github.com/coder/websocket"
	"golang.org/x/crypto/bcrypt"
)

// pluginEnv makes this test binary serve a built-in variant as a plugin process.
const pluginEnv = "CARDHOUSE_ADMIN_TEST_PLUGIN"

func TestMain(m *testing.M) {
	if id := os.Getenv(pluginEnv); id != "" {
		newEngine, ok := builtin.Engines()[id]
		if !ok {
			fmt.Fprintf(os.Stderr, "no built-in variant %q\n", id)
			os.Exit(2)
		}
		plugin.Serve(newEngine())
		return
	}
	code := m.Run()
	plugin.CleanupClients(5 * time.Second)
	os.Exit(code)
}

// waitFor bounds every wait on an event: tests wait on events, never sleep.
const waitFor = 20 * time.Second

// hotspotPlugin runs Hotspot in a real plugin process: this test binary, re-executed.
func hotspotPlugin(t *testing.T) *plugin.Process {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := plugin.NewProcess(plugin.Spec{Path: exe, Env: []string{pluginEnv + "=hotspot"}}, plugin.Config{})
	t.Cleanup(func() { p.Close() })
	return p
}

// env is a running server with the admin area mounted, over a fresh database, with Hotspot as a
// real plugin process.
type env struct {
	t      *testing.T
	dsn    string
	st     *store.Store
	rooms  *room.Manager
	adm    *admin.Admin
	srv    *server.Server
	http   *httptest.Server
	plugin *plugin.Process
	// skew moves the admin area's clock ahead of the real one (nanoseconds): rooms look as idle
	// as they would that much later.
	skew *atomic.Int64
}

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func newEnv(t *testing.T, dialect string) *env {
	t.Helper()
	storetest.SkipUnlessAvailable(t, dialect)
	return startEnv(t, storetest.DSN(t, dialect, t.TempDir()), "", nil)
}

// newCluster starts a node of a cluster named node on a fresh database of dialect, routing over
// bus; (*env).nodeOn starts more on its database.
func newCluster(t *testing.T, dialect, node string, bus cluster.Bus) *env {
	t.Helper()
	storetest.SkipUnlessAvailable(t, dialect)
	return startEnv(t, storetest.DSN(t, dialect, t.TempDir()), node, bus)
}

// nodeOn starts another node of e's cluster, with its own plugin process, on e's database.
func (e *env) nodeOn(node string, bus cluster.Bus) *env {
	e.t.Helper()
	return startEnv(e.t, e.dsn, node, bus)
}

// startEnv starts a server on the database at dsn: a single one (node "") or a node of a cluster
// named node that routes over bus, with short leases.
func startEnv(t *testing.T, dsn, node string, bus cluster.Bus) *env {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, store.Config{DSN: dsn, OnStatement: storetest.CountStatements})
	if err != nil {
		t.Fatalf("opening the store: %v", err)
	}
	p := hotspotPlugin(t)
	rcfg := room.Config{Store: st, Engines: map[string]engine.Engine{"hotspot": p}, Logger: quietLogger()}
	scfg := server.Config{Store: st, Logger: quietLogger(), BcryptCost: bcrypt.MinCost, LoginAttempts: 10000}
	if node != "" {
		rcfg.Node, rcfg.LeaseTTL, rcfg.Bus = node, 3*time.Second, bus
		scfg.Node, scfg.Bus = node, bus
	}
	rooms, err := room.NewManager(ctx, rcfg)
	if err != nil {
		t.Fatal(err)
	}
	scfg.Rooms = rooms
	srv := server.New(scfg)
	if err := srv.StartRouting(); err != nil {
		t.Fatal(err)
	}
	skew := &atomic.Int64{}
	adm, err := admin.New(ctx, admin.Config{Store: st, Rooms: rooms, Logger: quietLogger(), BcryptCost: bcrypt.MinCost,
		Now: func() time.Time { return time.Now().Add(time.Duration(skew.Load())) }})
	if err != nil {
		t.Fatal(err)
	}
	adm.Mount(srv.Echo())
	e := &env{t: t, dsn: dsn, st: st, rooms: rooms, adm: adm, srv: srv, http: httptest.NewServer(srv.Handler()), plugin: p, skew: skew}
	t.Cleanup(func() {
		e.http.Config.SetKeepAlivesEnabled(false)
		rooms.Close()
		srv.CloseConnections()
		srv.StopRouting()
		e.http.Close()
		st.Close()
	})
	return e
}

// user is a browser: a cookie jar and its session's CSRF token.
type user struct {
	e    *env
	name string
	c    *http.Client
	csrf string
	id   int64
}

func (e *env) anonymous() *user {
	jar, _ := cookiejar.New(nil)
	return &user{e: e, name: "anonymous", c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

type accountResp struct {
	User struct {
		ID int64 `json:"id"`
	} `json:"user"`
	CSRFToken string `json:"csrf_token"`
}

func (u *user) signedIn(a accountResp) *user {
	u.csrf, u.id = a.CSRFToken, a.User.ID
	return u
}

const password = "correct horse"

func (e *env) register(name string) *user {
	u := e.anonymous()
	u.name = name
	var a accountResp
	u.must("POST", "/api/register", map[string]string{"username": strings.ToLower(name), "password": password, "display_name": name}, &a)
	return u.signedIn(a)
}

func (e *env) guest(name string) *user {
	u := e.anonymous()
	u.name = name + " (guest)"
	var a accountResp
	u.must("POST", "/api/guest", map[string]string{"name": name}, &a)
	return u.signedIn(a)
}

// admin registers name and makes it an admin through the store (as `cardhouse serve --admin`).
func (e *env) admin(name string) *user {
	u := e.register(name)
	if err := e.st.SetRole(context.Background(), u.id, store.RoleAdmin); err != nil {
		e.t.Fatal(err)
	}
	return u
}

// login signs in again (a fresh session) and reports the status.
func (u *user) login(username, pw string) int {
	fresh := u.e.anonymous()
	var a accountResp
	st := fresh.call("POST", "/api/login", map[string]string{"username": username, "password": pw}, &a)
	if st == http.StatusOK {
		u.c, u.csrf = fresh.c, a.CSRFToken
	}
	return st
}

// call sends a request (a JSON body unless body is a string) and decodes a JSON answer into out.
func (u *user) call(method, path string, body, out any) int {
	u.e.t.Helper()
	st, data := u.raw(method, path, body)
	if out != nil && len(data) > 0 && data[0] == '{' {
		if err := json.Unmarshal(data, out); err != nil {
			u.e.t.Fatalf("%s %s: decoding %s: %v", method, path, data, err)
		}
	}
	return st
}

func (u *user) raw(method, path string, body any) (int, []byte) {
	u.e.t.Helper()
	resp := u.do(method, path, body)
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, data
}

func (u *user) do(method, path string, body any) *http.Response {
	u.e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		raw, _ := json.Marshal(b)
		rd = bytes.NewReader(raw)
	}
	req, _ := http.NewRequest(method, u.e.http.URL+path, rd)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if u.csrf != "" {
		req.Header.Set(server.CSRFHeader, u.csrf)
	}
	resp, err := u.c.Do(req)
	if err != nil {
		u.e.t.Fatalf("%s %s: %v", method, path, err)
	}
	return resp
}

func (u *user) must(method, path string, body, out any) {
	u.e.t.Helper()
	st, data := u.raw(method, path, body)
	if st >= 300 {
		u.e.t.Fatalf("%s %s as %s: status %d: %s", method, path, u.name, st, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			u.e.t.Fatalf("%s %s: decoding %s: %v", method, path, data, err)
		}
	}
}

// refused sends a request that must fail with status and error code, and returns the reason.
func (u *user) refused(method, path string, body any, status int, code string) string {
	u.e.t.Helper()
	st, data := u.raw(method, path, body)
	var e struct {
		Error struct{ Code, Reason string } `json:"error"`
	}
	_ = json.Unmarshal(data, &e)
	if st != status || e.Error.Code != code {
		u.e.t.Fatalf("%s %s as %s: got %d %s, want %d %s", method, path, u.name, st, data, status, code)
	}
	return e.Error.Reason
}

// conn is a WebSocket to a room, read into a channel.
type conn struct {
	u        *user
	ws       *websocket.Conn
	msgs     chan map[string]json.RawMessage
	closeErr error
}

func (u *user) connect(code string) *conn {
	u.e.t.Helper()
	url := "ws" + strings.TrimPrefix(u.e.http.URL, "http") + "/api/rooms/" + code + "/ws"
	ws, _, err := websocket.Dial(context.Background(), url, &websocket.DialOptions{HTTPClient: u.c})
	if err != nil {
		u.e.t.Fatalf("%s connecting to %s: %v", u.name, code, err)
	}
	ws.SetReadLimit(1 << 22)
	c := &conn{u: u, ws: ws, msgs: make(chan map[string]json.RawMessage, 4096)}
	u.e.t.Cleanup(func() { ws.CloseNow() })
	go func() {
		defer close(c.msgs)
		for {
			_, data, err := ws.Read(context.Background())
			if err != nil {
				c.closeErr = err
				return
			}
			var m map[string]json.RawMessage
			if json.Unmarshal(data, &m) == nil {
				c.msgs <- m
			}
		}
	}()
	c.expect("hello")
	return c
}

// expect skips messages until one of type typ arrives.
func (c *conn) expect(typ string) map[string]json.RawMessage {
	c.u.e.t.Helper()
	timeout := time.After(waitFor)
	for {
		select {
		case m, ok := <-c.msgs:
			if !ok {
				c.u.e.t.Fatalf("%s: connection closed (%v) while waiting for %s", c.u.name, c.closeErr, typ)
			}
			if str(m["type"]) == typ {
				return m
			}
		case <-timeout:
			c.u.e.t.Fatalf("%s: no %s within %s", c.u.name, typ, waitFor)
		}
	}
}

// closed waits until the server closes the connection and returns the close status and reason.
func (c *conn) closed() (websocket.StatusCode, string) {
	c.u.e.t.Helper()
	timeout := time.After(waitFor)
	for {
		select {
		case _, ok := <-c.msgs:
			if !ok {
				var ce websocket.CloseError
				if asClose(c.closeErr, &ce) {
					return ce.Code, ce.Reason
				}
				return -1, fmt.Sprint(c.closeErr)
			}
		case <-timeout:
			c.u.e.t.Fatalf("%s: the connection is still open after %s", c.u.name, waitFor)
		}
	}
}

func str(raw json.RawMessage) string {
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

// roomInfo is the part of GET /api/rooms/{code} the tests read.
type roomInfo struct {
	Room room.Info `json:"room"`
}

func (u *user) createRoom(req map[string]any) room.Info {
	u.e.t.Helper()
	var r roomInfo
	u.must("POST", "/api/rooms", req, &r)
	return r.Room
}

func (u *user) roomInfo(code string) room.Info {
	u.e.t.Helper()
	var r roomInfo
	u.must("GET", "/api/rooms/"+code, nil, &r)
	return r.Room
}

// eachDialect runs f on SQLite and PostgreSQL (skipped with a message when
// CARDHOUSE_TEST_POSTGRES_DSN is unset), in parallel.
func eachDialect(t *testing.T, f func(t *testing.T, dialect string)) {
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			f(t, dialect)
		})
	}
}
