package server_test

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
	"slices"
	"strings"
	"testing"
	"time"

	"cardhouse/platform/room"
	"cardhouse/platform/server"
	"cardhouse/platform/store"
	"cardhouse/platform/store/storetest"
	"cardhouse/platform/viewpatch"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"

	"github.com/coder/websocket"
	"github.com/glebarez/sqlite"
	"golang.org/x/crypto/bcrypt"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// waitFor bounds every wait for a message: tests wait on events, never sleep.
const waitFor = 20 * time.Second

// env is one running server over a store, with a fake clock.
type env struct {
	t       testing.TB
	dsn     string
	engines map[string]engine.Engine
	clock   *room.FakeClock
	st      *store.Store
	rooms   *room.Manager
	srv     *server.Server
	http    *httptest.Server
	// tune, when set, changes the room and server configuration before each start.
	tune func(*room.Config, *server.Config)
}

func quietLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// newEnv starts a server on a fresh database of dialect.
func newEnv(t testing.TB, dialect string, engines map[string]engine.Engine) *env {
	t.Helper()
	return newEnvTuned(t, dialect, engines, nil)
}

// newEnvTuned is newEnv with tune applied to the configurations (nil: as newEnv).
func newEnvTuned(t testing.TB, dialect string, engines map[string]engine.Engine, tune func(*room.Config, *server.Config)) *env {
	t.Helper()
	storetest.SkipUnlessAvailable(t, dialect)
	e := &env{t: t, dsn: storetest.DSN(t, dialect, t.TempDir()), engines: engines, clock: room.NewFakeClock(time.Unix(1_800_000_000, 0)), tune: tune}
	e.start()
	t.Cleanup(e.stop)
	return e
}

func (e *env) start() {
	t := e.t
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, store.Config{DSN: e.dsn})
	if err != nil {
		t.Fatalf("opening the store: %v", err)
	}
	rcfg := room.Config{Store: st, Engines: e.engines, Clock: e.clock, Logger: quietLogger(),
		Grace: 20 * time.Second, PauseLimit: 5 * time.Minute}
	scfg := server.Config{Store: st, Logger: quietLogger(), BcryptCost: bcrypt.MinCost, LoginAttempts: 1000}
	if e.tune != nil {
		e.tune(&rcfg, &scfg)
	}
	rooms, err := room.NewManager(ctx, rcfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := rooms.LoadAll(ctx); err != nil {
		t.Fatal(err)
	}
	e.st, e.rooms = st, rooms
	scfg.Rooms = rooms
	e.srv = server.New(scfg)
	if err := e.srv.StartRouting(); err != nil {
		t.Fatal(err)
	}
	e.http = httptest.NewServer(e.srv.Handler())
}

// stop shuts the server down as `cardhouse serve` does.
func (e *env) stop() {
	if e.http == nil {
		return
	}
	e.http.Config.SetKeepAlivesEnabled(false)
	e.rooms.Close()
	e.srv.CloseConnections()
	e.srv.StopRouting()
	e.http.Close()
	e.st.Close()
	e.http = nil
}

// user is a browser: a cookie jar and the CSRF token of its session.
type user struct {
	e    *env
	name string
	c    *http.Client
	csrf string
	id   int64
}

func (e *env) browser(name string) *user {
	jar, _ := cookiejar.New(nil)
	return &user{e: e, name: name, c: &http.Client{Jar: jar}}
}

// call sends a JSON request and decodes the JSON answer into out; it returns the status.
func (u *user) call(method, path string, body, out any) int {
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
	req.Header.Set("Content-Type", "application/json")
	if u.csrf != "" {
		req.Header.Set(server.CSRFHeader, u.csrf)
	}
	resp, err := u.c.Do(req)
	if err != nil {
		u.e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if out != nil && len(data) > 0 {
		if err := json.Unmarshal(data, out); err != nil {
			u.e.t.Fatalf("%s %s: decoding %s: %v", method, path, data, err)
		}
	}
	return resp.StatusCode
}

func (u *user) must(method, path string, body, out any) {
	u.e.t.Helper()
	var raw json.RawMessage
	st := u.call(method, path, body, &raw)
	if st >= 300 {
		u.e.t.Fatalf("%s %s as %s: status %d: %s", method, path, u.name, st, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			u.e.t.Fatal(err)
		}
	}
}

type accountResp struct {
	User struct {
		ID          int64  `json:"id"`
		DisplayName string `json:"display_name"`
	} `json:"user"`
	CSRFToken string `json:"csrf_token"`
}

type apiErr struct {
	Error struct {
		Code   string `json:"code"`
		Reason string `json:"reason"`
		Fields []struct {
			Field  string `json:"field"`
			Reason string `json:"reason"`
		} `json:"fields"`
	} `json:"error"`
}

func (u *user) signedIn(a accountResp) *user {
	u.csrf, u.id = a.CSRFToken, a.User.ID
	return u
}

func (e *env) register(name string) *user {
	u := e.browser(name)
	var a accountResp
	u.must("POST", "/api/register", map[string]string{"username": strings.ToLower(name), "password": "correct horse", "display_name": name}, &a)
	return u.signedIn(a)
}

func (e *env) guest(name string) *user {
	u := e.browser(name)
	var a accountResp
	u.must("POST", "/api/guest", map[string]string{"name": name}, &a)
	return u.signedIn(a)
}

type roomResp struct {
	Room room.Info `json:"room"`
}

func (u *user) createRoom(req map[string]any) room.Info {
	var r roomResp
	u.must("POST", "/api/rooms", req, &r)
	return r.Room
}

func (u *user) roomInfo(code string) room.Info {
	var r roomResp
	u.must("GET", "/api/rooms/"+code, nil, &r)
	return r.Room
}

// conn is a browser's WebSocket to a room, read by a goroutine into a channel.
type conn struct {
	u    *user
	ws   *websocket.Conn
	msgs chan map[string]json.RawMessage
	raw  chan []byte
	n    int
	// last is the last view received and lastSeq its action count; onView, when set, sees every
	// view message received.
	last    *sdk.View
	lastSeq int
	onView  func(seat int, v sdk.View)
	// closeErr is the read error that ended the connection (valid once msgs is closed).
	closeErr error
	// bytes counts the bytes of the messages read.
	bytes int
	// room is the room as this connection last learnt it: from hello and room messages, with the
	// members deltas applied (next keeps it).
	room room.Info
	// Protocol v2 (connectV2): held are the views as rebuilt from the full views and patches
	// received, by seat, and heldSeq their action counts; patches and fulls count the patch and
	// view messages, gaps the patches whose base was not the seq held (answered with a resync).
	// dropNext makes the connection ignore the next patch, as if it were lost.
	v2             bool
	held           map[int][]byte
	heldSeq        map[int]int
	patches, fulls int
	gaps           int
	dropNext       bool
	patchBytes     int
}

func (u *user) dial(code string) (*conn, *http.Response, error) { return u.dialQuery(code, "") }

// connectV2 connects speaking protocol v2 (?v=2): the connection rebuilds its views from patches.
func (u *user) connectV2(code string) *conn {
	u.e.t.Helper()
	c, _, err := u.dialQuery(code, "?v=2")
	if err != nil {
		u.e.t.Fatalf("%s connecting to %s with v2: %v", u.name, code, err)
	}
	u.e.t.Cleanup(func() { c.ws.CloseNow() })
	c.v2, c.held, c.heldSeq = true, map[int][]byte{}, map[int]int{}
	if m := c.expect("hello"); num(m["protocol"]) != room.ProtocolPatches {
		u.e.t.Fatalf("%s: hello says protocol %s, want %d", u.name, m["protocol"], room.ProtocolPatches)
	}
	return c
}

func (u *user) dialQuery(code, query string) (*conn, *http.Response, error) {
	url := "ws" + strings.TrimPrefix(u.e.http.URL, "http") + "/api/rooms/" + code + "/ws" + query
	ws, resp, err := websocket.Dial(context.Background(), url, &websocket.DialOptions{HTTPClient: u.c})
	if err != nil {
		return nil, resp, err
	}
	ws.SetReadLimit(1 << 22)
	c := &conn{u: u, ws: ws, msgs: make(chan map[string]json.RawMessage, 4096), raw: make(chan []byte, 4096)}
	go func() {
		defer close(c.msgs)
		for {
			_, data, err := ws.Read(context.Background())
			if err != nil {
				c.closeErr = err
				return
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(data, &m); err != nil {
				panic(fmt.Sprintf("server sent non-JSON %q", data))
			}
			c.raw <- data
			c.msgs <- m
		}
	}()
	return c, resp, nil
}

func (u *user) connect(code string) *conn {
	u.e.t.Helper()
	c, _, err := u.dial(code)
	if err != nil {
		u.e.t.Fatalf("%s connecting to %s: %v", u.name, code, err)
	}
	u.e.t.Cleanup(func() { c.ws.CloseNow() })
	c.expect("hello")
	return c
}

func (c *conn) send(m any) {
	c.u.e.t.Helper()
	b, _ := json.Marshal(m)
	c.sendRaw(b)
}

func (c *conn) sendRaw(b []byte) {
	c.u.e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	if err := c.ws.Write(ctx, websocket.MessageText, b); err != nil {
		c.u.e.t.Fatalf("%s writing: %v", c.u.name, err)
	}
}

// next returns the next message, whatever its type.
func (c *conn) next() map[string]json.RawMessage {
	c.u.e.t.Helper()
	select {
	case m, ok := <-c.msgs:
		if !ok {
			c.u.e.t.Fatalf("%s: connection closed", c.u.name)
		}
		c.bytes += len(<-c.raw)
		c.n++
		switch str(m["type"]) {
		case "hello", "room":
			_ = json.Unmarshal(m["room"], &c.room)
		case "members":
			var d struct {
				Members []room.MemberInfo `json:"members"`
				Gone    []int64           `json:"gone"`
			}
			_ = json.Unmarshal(m["members"], &d.Members)
			_ = json.Unmarshal(m["gone"], &d.Gone)
			c.room.Members = slices.DeleteFunc(c.room.Members, func(x room.MemberInfo) bool { return slices.Contains(d.Gone, x.ID) })
			for _, x := range d.Members {
				if i := slices.IndexFunc(c.room.Members, func(y room.MemberInfo) bool { return y.ID == x.ID }); i >= 0 {
					c.room.Members[i] = x
				} else {
					c.room.Members = append(c.room.Members, x)
				}
			}
		}
		if str(m["type"]) == "view" {
			v := view(m)
			c.last, c.lastSeq = &v, num(m["seq"])
			if c.held != nil {
				c.fulls++
				c.held[num(m["seat"])], c.heldSeq[num(m["seat"])] = slices.Clone(m["view"]), num(m["seq"])
			}
			if c.onView != nil {
				c.onView(num(m["seat"]), v)
			}
		}
		if str(m["type"]) == "patch" {
			c.patched(m)
		}
		return m
	case <-time.After(waitFor):
		c.u.e.t.Fatalf("%s: no message within %s", c.u.name, waitFor)
	}
	return nil
}

// patched applies a patch message to the view held for its seat, or, when its base is not the
// seq held (a patch was lost), asks for the full views again.
func (c *conn) patched(m map[string]json.RawMessage) {
	t := c.u.e.t
	t.Helper()
	if !c.v2 {
		t.Fatalf("%s: a v1 connection received a patch: %v", c.u.name, m)
	}
	// The envelope says only what the connection does not know (docs/protocol.md): no v, no
	// game, the seat only when several views are held, the base only when it is not seq-1.
	if m["v"] != nil || m["game"] != nil || m["seq"] == nil {
		t.Fatalf("%s: patch message with v or game, or without seq: %v", c.u.name, m)
	}
	// The clock only with a change of the deadlines, the only members read against it.
	if deadlines := bytes.Contains(m["patch"], []byte(`"deadlines":`)); deadlines != (m["now"] != nil) {
		t.Fatalf("%s: patch message with now %s for a patch that changes the deadlines: %v", c.u.name, m["now"], deadlines)
	}
	seq := num(m["seq"])
	base := seq - 1
	if m["base"] != nil {
		base = num(m["base"])
		if base == seq-1 {
			t.Fatalf("%s: patch message with a base of seq-1: %v", c.u.name, m)
		}
	}
	seat := 0
	switch {
	case m["seat"] != nil:
		seat = num(m["seat"])
		if len(c.held) < 2 {
			t.Fatalf("%s: patch message with a seat, holding %d views: %v", c.u.name, len(c.held), m)
		}
	case len(c.held) == 1:
		for s := range c.held {
			seat = s
		}
	default:
		t.Fatalf("%s: patch message without a seat, holding %d views: %v", c.u.name, len(c.held), m)
	}
	c.patches++
	c.patchBytes += len(m["patch"])
	if c.dropNext {
		c.dropNext = false
		return
	}
	held, ok := c.held[seat]
	if !ok || c.heldSeq[seat] != base {
		c.gaps++
		c.send(map[string]any{"type": "resync"})
		return
	}
	next, err := viewpatch.Apply(nil, held, m["patch"])
	if err != nil {
		t.Fatalf("%s: applying patch %s to %s: %v", c.u.name, m["patch"], held, err)
	}
	c.held[seat], c.heldSeq[seat] = next, seq
	var v sdk.View
	if err := json.Unmarshal(next, &v); err != nil {
		t.Fatalf("%s: the patched view is not a view: %v: %s", c.u.name, err, next)
	}
	c.last, c.lastSeq = &v, seq
	if c.onView != nil {
		c.onView(seat, v)
	}
}

// waitMember reads messages until the room as this connection knows it has a game and a member
// named name for whom want holds, and returns that member.
func (c *conn) waitMember(name string, want func(room.MemberInfo) bool) room.MemberInfo {
	c.u.e.t.Helper()
	c.sync() // what was queued before now is read first: a state older than the wait says nothing
	for {
		if mi, ok := memberNamed(c.room, name); ok && c.room.Game != nil && want(mi) {
			return mi
		}
		c.next()
	}
}

// expect skips messages until one of type typ arrives, which it returns. Skipped messages go
// through seen (may be nil).
func (c *conn) expectSeen(typ string, seen func(map[string]json.RawMessage)) map[string]json.RawMessage {
	c.u.e.t.Helper()
	for {
		m := c.next()
		if str(m["type"]) == typ {
			return m
		}
		if str(m["type"]) == "error" && typ != "error" {
			c.u.e.t.Fatalf("%s: unexpected error while waiting for %s: %s %s", c.u.name, typ, m["code"], m["reason"])
		}
		if seen != nil {
			seen(m)
		}
	}
}

func (c *conn) expect(typ string) map[string]json.RawMessage { return c.expectSeen(typ, nil) }

// sync sends a message the room answers in its turn (a check without an action, refused with
// bad_message) and returns the messages received before that answer: everything the room had
// queued for this connection until then. (A ping is answered by the connection itself, not
// behind the room's queue, so it is no barrier.)
func (c *conn) sync() []map[string]json.RawMessage {
	c.u.e.t.Helper()
	id := fmt.Sprintf("sync-%d", c.n)
	c.send(map[string]any{"type": "check", "id": id})
	var before []map[string]json.RawMessage
	for {
		m := c.next()
		if str(m["type"]) == "error" && str(m["id"]) == id && str(m["code"]) == "bad_message" {
			return before
		}
		before = append(before, m)
	}
}

func str(raw json.RawMessage) string {
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

func num(raw json.RawMessage) int {
	var n int
	_ = json.Unmarshal(raw, &n)
	return n
}

func view(m map[string]json.RawMessage) sdk.View {
	var v sdk.View
	if err := json.Unmarshal(m["view"], &v); err != nil {
		panic(err)
	}
	return v
}

// latestView drains queued messages (via sync) and returns the last view received, if any.
func (c *conn) latestView() *sdk.View {
	c.sync()
	return c.last
}

func strconvI(n int64) string { return fmt.Sprint(n) }

// eachDialect runs f on SQLite and on PostgreSQL (skipped with a message when
// CARDHOUSE_TEST_POSTGRES_DSN is unset), in parallel.
func eachDialect(t *testing.T, f func(t *testing.T, dialect string)) {
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			f(t, dialect)
		})
	}
}

// openRaw opens a connection of the test's own to the database behind dsn (storetest.DSN), to
// break or inspect it beneath the server; closed when the test ends.
func openRaw(t *testing.T, dialect, dsn string) *gorm.DB {
	t.Helper()
	dial := postgres.Open(dsn)
	if dialect != "postgres" {
		dial = sqlite.Open(strings.TrimPrefix(dsn, "sqlite:") + "?_pragma=busy_timeout(5000)")
	}
	db, err := gorm.Open(dial, &gorm.Config{Logger: logger.Discard})
	if err != nil {
		t.Fatalf("opening the test database: %v", err)
	}
	t.Cleanup(func() {
		if sqlDB, err := db.DB(); err == nil {
			sqlDB.Close()
		}
	})
	return db
}
