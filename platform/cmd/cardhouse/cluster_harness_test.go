package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"cardhouse/platform/room"
	"cardhouse/platform/store/storetest"
	"cardhouse/rulesets/drugs"
	"cardhouse/rulesets/hotspot"
	"cardhouse/rulesets/lastcard"
	"cardhouse/sdk"

	"github.com/coder/websocket"
	_ "github.com/glebarez/go-sqlite" // the "sqlite" database/sql driver: a single server's SQLite file
)

// The harness of the cluster tests (cluster_e2e_test.go): real `cardhouse serve` processes
// (clusterEnv) on one PostgreSQL schema and a NATS broker, or a single server on SQLite or
// PostgreSQL (server_kill_test.go), users that are browsers (e2eUser: a
// cookie jar and a CSRF token), and tables (clusterTable): one room of a variant played by a host
// and a guest, watched by a spectator, each connected to a node of its own, in a goroutine of its
// own, reconnecting whenever its socket drops or goes silent, and recording every action it saw
// accepted.

// clusterLease is how long a node's hold on a room lasts in these tests (--lease): short, so that
// a dead node's rooms move soon.
const clusterLease = 2 * time.Second

// The cardhouse binary the nodes run, built once per test binary (removed by TestMain).
var clusterBin struct {
	once      sync.Once
	dir, path string
	err       error
}

func cardhouseBinary(t *testing.T) string {
	t.Helper()
	clusterBin.once.Do(func() {
		dir, err := os.MkdirTemp("", "cardhouse-cluster-")
		if err != nil {
			clusterBin.err = err
			return
		}
		clusterBin.dir, clusterBin.path = dir, filepath.Join(dir, "cardhouse")
		if out, err := exec.Command("go", "build", "-o", clusterBin.path, "cardhouse/platform/cmd/cardhouse").CombinedOutput(); err != nil {
			clusterBin.err = fmt.Errorf("building cardhouse: %v: %s", err, out)
		}
	})
	if clusterBin.err != nil {
		t.Fatal(clusterBin.err)
	}
	return clusterBin.path
}

func removeClusterBinary() {
	if clusterBin.dir != "" {
		_ = os.RemoveAll(clusterBin.dir)
	}
}

// needCluster skips t unless a PostgreSQL server and a NATS broker are given.
func needCluster(t *testing.T) {
	if os.Getenv("CARDHOUSE_TEST_NATS_URL") == "" || os.Getenv(storetest.PostgresEnv) == "" {
		t.Skip("CARDHOUSE_TEST_NATS_URL and " + storetest.PostgresEnv + " must both be set: skipping the cluster of real nodes (.ci/run sets them)")
	}
}

// lockedBuffer is a node's stderr, written by the process and read by the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// clusterNode is one `cardhouse serve` process.
type clusterNode struct {
	name, short, url string
	cmd              *exec.Cmd
	stderr           *lockedBuffer
	exited           chan struct{} // closed once the process has ended
	exitErr          error
}

// clusterEnv is a cluster of nodes named n1, n2, n3 (their names on the bus carry the test's tag
// and pid: the broker may be shared with other tests and other runs), or, with no broker, a
// single server named n1.
type clusterEnv struct {
	t              *testing.T
	tag            string
	bin, dsn, nats string // nats is empty for a single server
	// old is set when bin is a previous release's (upgrade_test.go): it gets only the flags
	// every release knows.
	old bool
	// binOf, when it names a node, is the binary that node runs instead of bin (a rolling
	// upgrade: some nodes of the previous release, some of this one).
	binOf map[string]string
	// data is a single server's --data, kept over its restarts (its SQLite database, unless dsn
	// names a PostgreSQL one); each node of a cluster starts on a fresh folder.
	data string
	db   *sql.DB // the test's own connection to the nodes' database

	mu      sync.Mutex
	nodes   map[string]*clusterNode // the live nodes by short name
	started []*clusterNode          // every process started, for the logs of a failed test
}

// newClusterEnv prepares a cluster on a fresh PostgreSQL schema and the broker at natsURL; start
// starts its nodes.
func newClusterEnv(t *testing.T, tag, natsURL string) *clusterEnv {
	t.Helper()
	return newNodesEnv(t, tag, natsURL, "postgres")
}

// newSingleEnv prepares a single server, n1 (no broker), on a fresh database of dialect: SQLite
// in its --data (its default), or a fresh PostgreSQL schema (--db); start starts it.
func newSingleEnv(t *testing.T, tag, dialect string) *clusterEnv {
	t.Helper()
	storetest.SkipUnlessAvailable(t, dialect)
	return newNodesEnv(t, tag, "", dialect)
}

func newNodesEnv(t *testing.T, tag, natsURL, dialect string) *clusterEnv {
	t.Helper()
	ce := &clusterEnv{t: t, tag: tag, bin: cardhouseBinary(t), nats: natsURL, data: t.TempDir(), nodes: map[string]*clusterNode{}}
	var db *sql.DB
	var err error
	if dialect == "postgres" {
		ce.dsn = storetest.DSN(t, "postgres", ce.data)
		db, err = sql.Open("pgx", ce.dsn)
	} else {
		// The file the server creates in --data (its WAL lets the test read while it writes).
		db, err = sql.Open("sqlite", filepath.Join(ce.data, "cardhouse.db")+"?_pragma=busy_timeout(5000)")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ce.db = db
	t.Cleanup(func() {
		ce.mu.Lock()
		defer ce.mu.Unlock()
		for _, n := range ce.started {
			_ = n.cmd.Process.Signal(syscall.SIGKILL)
			<-n.exited
			if t.Failed() {
				log := n.stderr.String()
				if len(log) > 12000 {
					log = "..." + log[len(log)-12000:]
				}
				t.Logf("node %s (pid %d) logged:\n%s", n.name, n.cmd.Process.Pid, log)
			}
		}
	})
	return ce
}

func (ce *clusterEnv) nodeName(short string) string {
	return fmt.Sprintf("%s-%s-%d", ce.tag, short, os.Getpid())
}

// start starts node short and waits for its address.
func (ce *clusterEnv) start(short string) *clusterNode {
	t := ce.t
	t.Helper()
	name := ce.nodeName(short)
	args := []string{"serve", "--addr", "127.0.0.1:0", "--bot-delay", "0", "--reaction-time", "0",
		"--signin-rate", "0", "--grace", "5m", "--log-level", "info"}
	if !ce.old {
		args = append(args, "--public-metrics")
	}
	switch {
	case ce.nats != "":
		// application_name names the node's database sessions: the fencing test's trigger records it.
		args = append(args, "--data", t.TempDir(), "--db", ce.dsn+" application_name="+name,
			"--cluster", ce.nats, "--node", name, "--lease", clusterLease.String())
	case ce.dsn != "":
		args = append(args, "--data", ce.data, "--db", ce.dsn)
	default:
		args = append(args, "--data", ce.data)
	}
	bin := ce.bin
	if b := ce.binOf[short]; b != "" {
		bin = b
	}
	cmd := exec.Command(bin, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	n := &clusterNode{name: name, short: short, cmd: cmd, stderr: &lockedBuffer{}, exited: make(chan struct{})}
	cmd.Stderr = n.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ce.mu.Lock()
	ce.started = append(ce.started, n)
	ce.mu.Unlock()
	line, err := bufio.NewReader(out).ReadString('\n')
	go func() { _, _ = io.Copy(io.Discard, out); n.exitErr = cmd.Wait(); close(n.exited) }()
	if err != nil {
		t.Fatalf("node %s printed no address: %v; stderr: %s", name, err, n.stderr)
	}
	m := regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(line)
	if m == "" {
		t.Fatalf("node %s printed %q", name, line)
	}
	n.url = m
	ce.mu.Lock()
	ce.nodes[short] = n
	ce.mu.Unlock()
	return n
}

// node returns the live node short, or nil.
func (ce *clusterEnv) node(short string) *clusterNode {
	ce.mu.Lock()
	defer ce.mu.Unlock()
	return ce.nodes[short]
}

// names are the nodes' short names: n1 to n3, or n1 alone for a single server.
func (ce *clusterEnv) names() []string {
	if ce.nats == "" {
		return []string{"n1"}
	}
	return []string{"n1", "n2", "n3"}
}

// anyNode returns a live node, in name order.
func (ce *clusterEnv) anyNode() *clusterNode {
	for _, s := range ce.names() {
		if n := ce.node(s); n != nil {
			return n
		}
	}
	return nil
}

func (ce *clusterEnv) forget(short string) *clusterNode {
	ce.mu.Lock()
	defer ce.mu.Unlock()
	n := ce.nodes[short]
	delete(ce.nodes, short)
	return n
}

// kill ends node short with SIGKILL: no lease is released, no socket closed politely.
func (ce *clusterEnv) kill(short string) {
	n := ce.forget(short)
	_ = n.cmd.Process.Signal(syscall.SIGKILL)
	<-n.exited
}

// term stops node short with SIGTERM and waits for it to end (a graceful stop), which must be a
// clean exit.
func (ce *clusterEnv) term(short string) {
	t := ce.t
	t.Helper()
	n := ce.forget(short)
	_ = n.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-n.exited:
	case <-time.After(60 * time.Second):
		t.Fatalf("node %s did not stop within a minute of SIGTERM", n.name)
	}
	if n.exitErr != nil {
		t.Fatalf("node %s ended with %v after SIGTERM; stderr: %s", n.name, n.exitErr, n.stderr)
	}
}

// freeze stops node short with SIGSTOP and waits until the kernel says it is stopped.
func (ce *clusterEnv) freeze(short string) *clusterNode {
	t := ce.t
	t.Helper()
	n := ce.node(short)
	if err := n.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	for range 500 {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", n.cmd.Process.Pid))
		if err != nil {
			t.Fatal(err)
		}
		// pid (comm) state ...: the state follows the last ')'.
		if f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:])); len(f) > 0 && f[0] == "T" {
			return n
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("node %s is not stopped after SIGSTOP", n.name)
	return nil
}

// thaw resumes a node frozen by freeze.
func (ce *clusterEnv) thaw(short string) {
	if err := ce.node(short).cmd.Process.Signal(syscall.SIGCONT); err != nil {
		ce.t.Fatal(err)
	}
}

// lease is a room's lease as the database holds it.
type lease struct {
	node  string // short name; "" when no node of this env holds it
	epoch int64
	live  bool
}

func (ce *clusterEnv) lease(roomID int64) (lease, error) {
	var name string
	var l lease
	err := ce.db.QueryRow(`SELECT node, epoch, expires_ms > (extract(epoch from clock_timestamp()) * 1000)::bigint
FROM room_leases WHERE room_id = $1`, roomID).Scan(&name, &l.epoch, &l.live)
	if errors.Is(err, sql.ErrNoRows) {
		return lease{}, nil
	}
	for _, s := range []string{"n1", "n2", "n3"} {
		if ce.nodeName(s) == name {
			l.node = s
		}
	}
	return l, err
}

// owner waits until a node holds the room's live lease and names it.
func (ce *clusterEnv) owner(roomID int64) (string, int64) {
	t := ce.t
	t.Helper()
	for range 600 {
		l, err := ce.lease(roomID)
		if err != nil {
			t.Fatal(err)
		}
		if l.live && l.node != "" && ce.node(l.node) != nil {
			return l.node, l.epoch
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no live node holds room %d's lease", roomID)
	return "", 0
}

// checkActionLogs checks every game's action log in the database: seqs 1 to N, each once.
func (ce *clusterEnv) checkActionLogs() {
	t := ce.t
	t.Helper()
	rows, err := ce.db.Query(`SELECT game_id, count(*), count(DISTINCT seq), min(seq), max(seq) FROM actions GROUP BY game_id ORDER BY game_id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	games := 0
	for rows.Next() {
		games++
		var game, n, distinct, lo, hi int
		if err := rows.Scan(&game, &n, &distinct, &lo, &hi); err != nil {
			t.Fatal(err)
		}
		if n != distinct || lo != 1 || hi != n {
			t.Errorf("game %d's action log has %d actions, %d distinct seqs, from %d to %d: want 1 to N, each once", game, n, distinct, lo, hi)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if games == 0 {
		t.Error("the database holds no game's action log")
	}
}

// e2eUser is a browser: a cookie jar (cookies ignore the port, so every node shares them) and
// its CSRF token.
type e2eUser struct {
	name string
	c    *http.Client
	csrf string
	seat int
}

// do makes a request of the API at base; out is filled from a 2xx answer.
func (u *e2eUser) do(base, method, path string, body, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, base+path, rd)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-CSRF-Token", u.csrf)
	resp, err := u.c.Do(req)
	if err != nil {
		return 0, fmt.Errorf("%s %s as %s: %w", method, path, u.name, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil && resp.StatusCode < 300 {
		if err := json.Unmarshal(b, out); err != nil {
			return resp.StatusCode, fmt.Errorf("%s %s: %v: %s", method, path, err, b)
		}
	}
	if resp.StatusCode >= 300 {
		return resp.StatusCode, fmt.Errorf("%s %s as %s: %d %s", method, path, u.name, resp.StatusCode, b)
	}
	return resp.StatusCode, nil
}

// call is do, failing t on any error.
func (u *e2eUser) call(t *testing.T, base, method, path string, body, out any) {
	t.Helper()
	if _, err := u.do(base, method, path, body, out); err != nil {
		t.Fatal(err)
	}
}

func newE2EUser(t *testing.T, base, name string) *e2eUser {
	return signedInUser(t, base, name, "/api/guest", map[string]any{"name": name})
}

// signedInUser is a new browser signed in by a POST of body to path (/api/guest, /api/register,
// /api/login), keeping its cookie and CSRF token.
func signedInUser(t *testing.T, base, name, path string, body any) *e2eUser {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	u := &e2eUser{name: name, c: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
	var a struct {
		CSRF string `json:"csrf_token"`
	}
	u.call(t, base, "POST", path, body, &a)
	u.csrf = a.CSRF
	return u
}

// e2eConn is a user's socket to one node, read in the background.
type e2eConn struct {
	u     *e2eUser
	node  string
	ws    *websocket.Conn
	msgs  chan map[string]json.RawMessage
	heard atomic.Int64 // when the last message came (Unix nanoseconds)
	view  *sdk.View
	game  int
}

func dialE2E(u *e2eUser, n *clusterNode, code string) (*e2eConn, error) {
	// A frozen node accepts the TCP connection and never answers: give up on it soon.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(n.url, "http")+"/api/rooms/"+code+"/ws",
		&websocket.DialOptions{HTTPClient: u.c, HTTPHeader: http.Header{"Origin": {n.url}}})
	if err != nil {
		if resp != nil && resp.Body != nil {
			b, _ := io.ReadAll(io.LimitReader(resp.Body, 1000))
			err = fmt.Errorf("%w: %s (via %s)", err, b, n.short)
		}
		return nil, err
	}
	ws.SetReadLimit(1 << 22)
	c := &e2eConn{u: u, node: n.short, ws: ws, msgs: make(chan map[string]json.RawMessage, 4096)}
	c.heard.Store(time.Now().UnixNano())
	go func() {
		defer close(c.msgs)
		for {
			_, data, err := ws.Read(context.Background())
			if err != nil {
				return
			}
			c.heard.Store(time.Now().UnixNano())
			var m map[string]json.RawMessage
			if json.Unmarshal(data, &m) == nil {
				c.msgs <- m
			}
		}
	}()
	return c, nil
}

func (c *e2eConn) send(msg map[string]any) error {
	b, _ := json.Marshal(msg)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return c.ws.Write(ctx, websocket.MessageText, b)
}

// shortErr is an error's text cut to a line's length, for a timeline.
func shortErr(err error) string {
	s := err.Error()
	if len(s) > 120 {
		s = s[:120] + "..."
	}
	return s
}

func jsonStr(raw json.RawMessage) string {
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

func jsonInt(raw json.RawMessage) int {
	var n int
	_ = json.Unmarshal(raw, &n)
	return n
}

// botPlayer is what a table needs of a variant: its bot.
type botPlayer interface {
	Bot(ctx context.Context, req sdk.BotRequest) (*sdk.Action, error)
}

// clusterVariants are the variants the cluster tests play, with the options of a short game.
var clusterVariants = []struct {
	id      string
	options map[string]any
	bot     botPlayer
}{
	{"lastcard", map[string]any{"target": "single"}, lastcard.New()},
	{"hotspot", map[string]any{}, hotspot.New()},
	{"drugs", map[string]any{}, drugs.New()},
}

type gameSeq struct{ game, seq int }

// clusterTable is one room played through the cluster.
type clusterTable struct {
	ce      *clusterEnv
	variant string
	bot     botPlayer
	code    string
	roomID  int64
	host    *e2eUser
	guest   *e2eUser
	watcher *e2eUser
	users   []*e2eUser
	prefer  map[*e2eUser][]string // the nodes each user connects to, in order of preference
	conns   map[*e2eUser]*e2eConn
	down    map[*e2eUser]time.Time // when a user's socket was lost, until its next view
	rng     sdk.RNG
	nextID  int
	dealt   map[int]bool

	// more says whether to deal another game when one ends (read by the table's goroutine).
	more func() bool
	// holdHost, while set, keeps the host from acting (its turn waits); holdAll every seat.
	holdHost, holdAll atomic.Bool
	// rehome, once set, sends every user back to the node it prefers (then it is cleared).
	rehome  atomic.Bool
	rehomed time.Time // the last try

	mu           sync.Mutex // guards what follows, read by the test's goroutine
	accepted     map[gameSeq]string
	acceptedAt   []acceptedAt  // when and through which node each was seen accepted, in order
	games        int           // the latest game seen
	lastAccept   time.Time     // when the latest action was seen accepted
	longestOut   time.Duration // the longest a user went from losing a socket to its next view
	longestOutBy string
	longestGap   time.Duration // the longest between two accepted actions of one game
	reconnects   int
	byes         map[string]int // the "bye" messages heard, by code
	status       string         // where the table stood at its last turn of play (noteStatus)
	rehomeErr    error          // why a user could not go back to the node it prefers, last
	// timeline is what happened to the table's sockets, in order (lost, dialled, refused, first
	// view again, an answer that never came): the failover test splits each pause with it.
	timeline []tableEvent
}

// tableEvent is one entry of a table's timeline.
type tableEvent struct {
	at   time.Time
	what string
}

// note adds an entry to the table's timeline.
func (tb *clusterTable) note(format string, args ...any) {
	tb.mu.Lock()
	tb.timeline = append(tb.timeline, tableEvent{time.Now(), fmt.Sprintf(format, args...)})
	tb.mu.Unlock()
}

// eventsBetween is the table's timeline from a to b.
func (tb *clusterTable) eventsBetween(a, b time.Time) []tableEvent {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	var out []tableEvent
	for _, e := range tb.timeline {
		if !e.at.Before(a) && !e.at.After(b) {
			out = append(out, e)
		}
	}
	return out
}

// emptyTable is a table of variant on ce with nothing seen yet and no room or users: the caller
// sets them. seed seeds the bots' choices; more says no more games.
func (ce *clusterEnv) emptyTable(variant string, seed uint64) *clusterTable {
	tb := &clusterTable{ce: ce, variant: variant, rng: sdk.NewRNG(seed), dealt: map[int]bool{},
		conns: map[*e2eUser]*e2eConn{}, down: map[*e2eUser]time.Time{}, accepted: map[gameSeq]string{}, byes: map[string]int{}, more: func() bool { return false }}
	for _, v := range clusterVariants {
		if v.id == variant {
			tb.bot = v.bot
		}
	}
	return tb
}

// seatOn seats host (0), guest (1) and watcher (a spectator) at tb, each connecting to n1 only
// (a single server).
func (tb *clusterTable) seatOn(host, guest, watcher *e2eUser) {
	tb.host, tb.guest, tb.watcher = host, guest, watcher
	tb.users = []*e2eUser{host, guest, watcher}
	host.seat, guest.seat, watcher.seat = 0, 1, sdk.Spectator
	tb.prefer = map[*e2eUser][]string{}
	for _, u := range tb.users {
		tb.prefer[u] = []string{"n1", "n1", "n1"}
	}
}

// newClusterTable makes a room of variant on node made (its host joins there) and seats a guest
// and a spectator. Each user keeps to a node that is not made while it lives, else the next one
// (on a single server, everyone to n1).
func newClusterTable(t *testing.T, ce *clusterEnv, i int, made string) *clusterTable {
	t.Helper()
	v := clusterVariants[i%len(clusterVariants)]
	names := ce.names()
	at := 0
	for j, s := range names {
		if s == made {
			at = j
		}
	}
	a, b, c := names[at], names[(at+1)%len(names)], names[(at+2)%len(names)]
	tb := ce.emptyTable(v.id, uint64(i)+1)
	tb.host = newE2EUser(t, ce.node(a).url, fmt.Sprintf("Host%d", i))
	tb.guest = newE2EUser(t, ce.node(b).url, fmt.Sprintf("Guest%d", i))
	tb.watcher = newE2EUser(t, ce.node(c).url, fmt.Sprintf("Watcher%d", i))
	tb.users = []*e2eUser{tb.host, tb.guest, tb.watcher}
	var created struct{ Room room.Info }
	tb.host.call(t, ce.node(a).url, "POST", "/api/rooms", map[string]any{"ruleset": v.id, "seats": 2, "options": v.options}, &created)
	tb.code = created.Room.Code
	tb.guest.call(t, ce.node(b).url, "POST", "/api/rooms/"+tb.code+"/join", nil, nil)
	tb.watcher.call(t, ce.node(c).url, "POST", "/api/rooms/"+tb.code+"/join", nil, nil)
	tb.host.seat, tb.guest.seat, tb.watcher.seat = 0, 1, sdk.Spectator
	if err := ce.db.QueryRow(`SELECT id FROM rooms WHERE code = $1`, tb.code).Scan(&tb.roomID); err != nil {
		t.Fatal(err)
	}
	tb.prefer = map[*e2eUser][]string{tb.host: {b, c, a}, tb.guest: {c, b, a}, tb.watcher: {b, a, c}}
	return tb
}

// connect connects u to the first live node it prefers that lets it in.
func (tb *clusterTable) connect(u *e2eUser) error {
	var last error
	for i := range 300 {
		if n := tb.ce.node(tb.prefer[u][i%3]); n != nil {
			c, err := dialE2E(u, n, tb.code)
			if err == nil {
				tb.conns[u] = c
				tb.note("%s connected via %s", u.name, n.short)
				return nil
			}
			tb.note("%s refused via %s: %s", u.name, n.short, shortErr(err))
			last = err
		}
		if i%3 == 2 {
			time.Sleep(200 * time.Millisecond) // the room is moving: "try again"
		}
	}
	return fmt.Errorf("%s could not reconnect to room %s (%s): %v", u.name, tb.code, tb.variant, last)
}

// lost notes that u's socket is gone and connects it again.
func (tb *clusterTable) lost(u *e2eUser) error {
	if c := tb.conns[u]; c != nil {
		c.ws.CloseNow()
		tb.note("%s lost its socket via %s", u.name, c.node)
	}
	if _, ok := tb.down[u]; !ok {
		tb.down[u] = time.Now()
	}
	tb.mu.Lock()
	tb.reconnects++
	tb.mu.Unlock()
	return tb.connect(u)
}

// read takes c's next message (waiting up to wait), keeps the latest view and checks every view
// for the cards of another seat's hand while a round is played; closed is true when the socket
// has closed.
func (tb *clusterTable) read(c *e2eConn, wait time.Duration) (m map[string]json.RawMessage, closed bool, err error) {
	var timer <-chan time.Time
	if wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		timer = t.C
	} else {
		closedNow := make(chan time.Time)
		close(closedNow)
		timer = closedNow
	}
	// A message (or the close) already there is taken first: with wait 0 both cases of the select
	// below are ready, and it would pick one at random, so a closed socket could read as quiet.
	var ok, got bool
	select {
	case m, ok = <-c.msgs:
		got = true
	default:
	}
	if !got {
		select {
		case m, ok = <-c.msgs:
			got = true
		case <-timer:
		}
	}
	switch {
	case got:
		if !ok {
			return nil, true, nil
		}
		if jsonStr(m["type"]) == "bye" {
			tb.mu.Lock()
			tb.byes[jsonStr(m["code"])]++
			tb.mu.Unlock()
		}
		if jsonStr(m["type"]) != "view" {
			return m, false, nil
		}
		var v sdk.View
		if err := json.Unmarshal(m["view"], &v); err != nil {
			return nil, false, fmt.Errorf("a view that is not one: %s", m["view"])
		}
		for _, z := range v.Zones {
			// While a round is played; once it is over every hand left is shown (the reveal).
			if v.Phase == sdk.PhasePlaying && z.Kind == sdk.ZoneHand && z.Owner != c.u.seat && len(z.Cards) > 0 {
				return nil, false, fmt.Errorf("%s (seat %d, via %s) was shown the cards of %s in room %s (%s)", c.u.name, c.u.seat, c.node, z.ID, tb.code, tb.variant)
			}
		}
		if jsonInt(m["seat"]) == c.u.seat || c.u.seat == sdk.Spectator {
			c.view, c.game = &v, jsonInt(m["game"])
			if at, ok := tb.down[c.u]; ok {
				tb.note("%s saw a view via %s", c.u.name, c.node)
				out := time.Since(at)
				delete(tb.down, c.u)
				tb.mu.Lock()
				if out > tb.longestOut {
					tb.longestOut, tb.longestOutBy = out, c.u.name+" via "+c.node
				}
				tb.mu.Unlock()
			}
		}
		return m, false, nil
	default:
		return nil, false, nil
	}
}

// drain reads every message waiting on each socket, reconnects the closed ones, and pings one
// that has been silent for a while (a frozen node's socket stays open and says nothing), dropping
// it when no pong comes.
func (tb *clusterTable) drain() error {
	if tb.rehome.Load() && time.Since(tb.rehomed) > 300*time.Millisecond {
		// Every user goes back to the node it prefers (one that does not run the room), so that
		// what follows goes over relayed sockets: a new socket there, then the old one closed.
		// Until each is there, every 300 ms.
		tb.rehomed = time.Now()
		home := true
		for _, u := range tb.users {
			first := tb.ce.node(tb.prefer[u][0])
			if first == nil || tb.conns[u].node == first.short {
				continue
			}
			c, err := dialE2E(u, first, tb.code)
			if err != nil {
				home = false
				tb.mu.Lock()
				tb.rehomeErr = err
				tb.mu.Unlock()
				continue
			}
			tb.conns[u].ws.CloseNow()
			tb.conns[u] = c
		}
		if home {
			tb.rehome.Store(false)
		}
	}
	for _, u := range tb.users {
		for {
			c := tb.conns[u]
			m, closed, err := tb.read(c, 0)
			if err != nil {
				return err
			}
			if closed {
				if err := tb.lost(u); err != nil {
					return err
				}
				continue
			}
			if m == nil {
				break
			}
		}
		c := tb.conns[u]
		if time.Since(time.Unix(0, c.heard.Load())) > 3*time.Second {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			err := c.ws.Ping(ctx)
			cancel()
			if err != nil {
				tb.note("%s's silent socket via %s answered no ping", u.name, c.node)
				if err := tb.lost(u); err != nil {
					return err
				}
			} else {
				c.heard.Store(time.Now().UnixNano())
			}
		}
	}
	return nil
}

// deal has the host deal the next game, through a live node, until one says it is dealt.
func (tb *clusterTable) deal() error {
	var err error
	for range 150 {
		n := tb.ce.node(tb.conns[tb.host].node)
		if n == nil {
			n = tb.ce.anyNode()
		}
		if n != nil {
			var st int
			st, err = tb.host.do(n.url, "POST", "/api/rooms/"+tb.code+"/deal", nil, &struct{}{})
			if st > 0 && st < 300 || st == http.StatusConflict {
				return nil
			}

		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("room %s (%s): the host could not deal: %v", tb.code, tb.variant, err)
}

// play connects everyone, deals and plays games until one ends and more says no more: the
// seat with something to do acts (its bot decides) and waits for the answer.
func (tb *clusterTable) play() error {
	for _, u := range tb.users {
		if err := tb.connect(u); err != nil {
			return err
		}
	}
	if err := tb.deal(); err != nil {
		return err
	}
	tb.mu.Lock()
	tb.lastAccept = time.Now()
	tb.mu.Unlock()
	for {
		tb.mu.Lock()
		stuck := time.Since(tb.lastAccept)
		tb.mu.Unlock()
		if stuck > 90*time.Second {
			v := tb.conns[tb.host].view
			return fmt.Errorf("room %s (%s): no action accepted for %s; the host's last view: %+v", tb.code, tb.variant, stuck, v)
		}
		if err := tb.drain(); err != nil {
			return err
		}
		tb.noteStatus()
		acted := false
		for _, u := range []*e2eUser{tb.host, tb.guest} {
			c := tb.conns[u]
			if c.view == nil {
				continue
			}
			if c.view.Phase == sdk.PhaseGameOver { // one round: the game
				if !tb.more() {
					tb.mu.Lock()
					tb.games = c.game
					tb.mu.Unlock()
					return nil
				}
				if !tb.dealt[c.game] {
					if err := tb.deal(); err != nil {
						return err
					}
					tb.dealt[c.game] = true
				}
				continue
			}
			if len(c.view.Actions) == 0 || tb.holdAll.Load() || u == tb.host && tb.holdHost.Load() {
				continue
			}
			a, err := tb.bot.Bot(context.Background(), sdk.BotRequest{Seat: u.seat, Level: 2, View: *c.view, RNG: &tb.rng})
			if err != nil || a == nil {
				continue
			}
			a.Seat = u.seat
			tb.nextID++
			id := fmt.Sprintf("a%d", tb.nextID)
			if c.send(map[string]any{"type": "act", "id": id, "action": a}) != nil {
				continue
			}
			acted = true
			if err := tb.await(c, id); err != nil {
				return err
			}
			break
		}
		if !acted {
			if _, _, err := tb.read(tb.conns[tb.host], 200*time.Millisecond); err != nil { // nothing to do yet: wait for news
				return err
			}
		}
	}
}

// await reads c until the answer to action id; an answer that does not come in a few seconds
// leaves the action unseen (its socket is dropped and connected again).
func (tb *clusterTable) await(c *e2eConn, id string) error {
	for {
		m, closed, err := tb.read(c, 6*time.Second)
		if err != nil {
			return err
		}
		if closed || m == nil {
			if closed {
				tb.note("%s's socket via %s closed while awaiting %s", c.u.name, c.node, id)
			} else {
				tb.note("%s heard no answer to %s via %s", c.u.name, id, c.node)
			}
			return tb.lost(c.u) // lost with its connection: not seen accepted
		}
		if jsonStr(m["id"]) != id {
			continue
		}
		switch jsonStr(m["type"]) {
		case "accepted":
			gs := gameSeq{c.game, jsonInt(m["seq"])}
			now := time.Now()
			tb.mu.Lock()
			defer tb.mu.Unlock()
			if who, twice := tb.accepted[gs]; twice {
				return fmt.Errorf("room %s (%s): game %d seq %d accepted twice (%s, then %s via %s)", tb.code, tb.variant, gs.game, gs.seq, who, c.u.name, c.node)
			}
			tb.accepted[gs] = c.u.name + " via " + c.node
			tb.acceptedAt = append(tb.acceptedAt, acceptedAt{now, c.node})
			if gap := now.Sub(tb.lastAccept); gs.seq > 1 && gap > tb.longestGap {
				tb.longestGap = gap
			}
			tb.lastAccept = now
			return nil
		case "error":
			return nil
		}
	}
}

// noteStatus records where the table stands, for a failure's message.
func (tb *clusterTable) noteStatus() {
	var b strings.Builder
	for _, u := range tb.users {
		c := tb.conns[u]
		fmt.Fprintf(&b, "%s on %s", u.name, c.node)
		if v := c.view; v != nil {
			fmt.Fprintf(&b, " (game %d %s, turn %d, %d actions)", c.game, v.Phase, v.Turn, len(v.Actions))
		}
		b.WriteString("; ")
	}
	tb.mu.Lock()
	tb.status = b.String()
	tb.mu.Unlock()
}

// String says where the table stands.
func (tb *clusterTable) String() string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return fmt.Sprintf("room %s (%s): %d actions accepted; %s(rehome: %v)", tb.code, tb.variant, len(tb.accepted), tb.status, tb.rehomeErr)
}

type acceptedAt struct {
	at   time.Time
	node string
}

// acceptedVia counts the actions seen accepted since a moment through a node other than owner:
// over a relayed socket.
func (tb *clusterTable) acceptedVia(since time.Time, owner string) int {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	n := 0
	for _, a := range tb.acceptedAt {
		if a.at.After(since) && a.node != owner {
			n++
		}
	}
	return n
}

// progress is how many actions the table has seen accepted.
func (tb *clusterTable) progress() int {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return len(tb.accepted)
}

// check checks, through the API, that every game of the table is over, that its replay matches
// its stored state, and that every action a client saw accepted is in its replay exactly once.
func (tb *clusterTable) check(t *testing.T) {
	t.Helper()
	for g := 1; g <= tb.games; g++ {
		var rep room.Replay
		var err error
		for range 100 {
			var st int
			if st, err = tb.host.do(tb.ce.anyNode().url, "GET", fmt.Sprintf("/api/rooms/%s/games/%d/replay", tb.code, g), nil, &rep); st == http.StatusOK {
				break
			}
			time.Sleep(200 * time.Millisecond)
		}
		if err != nil {
			t.Fatalf("room %s (%s) game %d: %v", tb.code, tb.variant, g, err)
		}
		if !rep.Matches || rep.Status == "live" {
			t.Errorf("room %s (%s) game %d: the replay (%s, %d actions) does not match the stored state or the game is not over", tb.code, tb.variant, g, rep.Status, len(rep.Log))
		}
		inLog := map[int]int{}
		for _, la := range rep.Log {
			inLog[la.Seq]++
		}
		for gs, who := range tb.accepted {
			if gs.game == g && inLog[gs.seq] != 1 {
				t.Errorf("room %s (%s) game %d: action %d, seen accepted by %s, is %d times in the replay", tb.code, tb.variant, g, gs.seq, who, inLog[gs.seq])
			}
		}
		for seq, n := range inLog {
			if n != 1 {
				t.Errorf("room %s (%s) game %d: seq %d is %d times in the replay", tb.code, tb.variant, g, seq, n)
			}
		}
	}
	t.Logf("room %s (%s): %d actions seen accepted in %d games; %d reconnections; the longest a user waited from a lost socket to its next view: %s (%s); the longest between two accepted actions: %s; byes heard: %v",
		tb.code, tb.variant, len(tb.accepted), tb.games, tb.reconnects, tb.longestOut.Round(time.Millisecond), tb.longestOutBy, tb.longestGap.Round(time.Millisecond), tb.byes)
}

// playTables plays every table in a goroutine of its own while chaos runs on the test's
// goroutine; chaos returns once its work is done, and each table then plays its last game to
// its end. The tables' errors fail t.
func playTables(t *testing.T, tables []*clusterTable, chaos func(done <-chan struct{})) {
	t.Helper()
	var calm atomic.Bool
	for _, tb := range tables {
		tb.more = func() bool { return !calm.Load() }
	}
	errs := make(chan error, len(tables))
	done := make(chan struct{})
	var wg sync.WaitGroup
	for _, tb := range tables {
		wg.Add(1)
		go func() { defer wg.Done(); errs <- tb.play() }()
	}
	go func() { wg.Wait(); close(done) }()
	chaos(done)
	calm.Store(true)
	<-done
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
}

// totalProgress is the actions all tables have seen accepted.
func totalProgress(tables []*clusterTable) int {
	n := 0
	for _, tb := range tables {
		n += tb.progress()
	}
	return n
}

// awaitProgress waits until the tables have seen n more actions accepted than from (or done).
func awaitProgress(t *testing.T, tables []*clusterTable, from, n int, done <-chan struct{}) bool {
	t.Helper()
	for range 3000 {
		if totalProgress(tables) >= from+n {
			return true
		}
		select {
		case <-done:
			return false
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("the tables saw no %d more actions accepted in a minute (%d so far): %v", n, totalProgress(tables)-from, tables)
	return false
}
