package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"cardhouse/platform/room"
	"cardhouse/platform/store/storetest"
	"cardhouse/rulesets/lastcard"
	"cardhouse/sdk"

	"github.com/coder/websocket"
)

// A cluster of real `cardhouse serve` processes on PostgreSQL and NATS (issue 22): the players and
// the spectator of a room are connected to nodes that do not run it, nodes are killed with SIGKILL
// mid-game ten times (the owner, or the node relaying the guest's socket; the dead node started
// again each time), and the clients reconnect to live nodes and play each game to its end. Every
// action a client saw accepted is in its game's replay, none twice, and no connection ever saw a
// hand card not its own.

// clusterNode is one `cardhouse serve` process.
type clusterNode struct {
	name, short, url string
	cmd              *exec.Cmd
	stderr           *bytes.Buffer
}

type clusterEnv struct {
	t              *testing.T
	bin, dsn, nats string
	nodes          map[string]*clusterNode
}

// start starts node short (its name on the bus has the test's pid: the broker may be shared).
func (ce *clusterEnv) start(short string) *clusterNode {
	t := ce.t
	t.Helper()
	name := fmt.Sprintf("%s-%d", short, os.Getpid())
	cmd := exec.Command(ce.bin, "serve", "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--db", ce.dsn,
		"--cluster", ce.nats, "--node", name, "--lease", "2s", "--bot-delay", "0", "--reaction-time", "0",
		"--signin-rate", "0", "--grace", "5m", "--log-level", "warn")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	n := &clusterNode{name: name, short: short, cmd: cmd, stderr: &bytes.Buffer{}}
	cmd.Stderr = n.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("node %s printed no address: %v; stderr: %s", name, err, n.stderr)
	}
	m := regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(line)
	if m == "" {
		t.Fatalf("node %s printed %q", name, line)
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	n.url = m
	ce.nodes[short] = n
	return n
}

// kill ends node name with SIGKILL: no lease is released, no socket closed politely.
func (ce *clusterEnv) kill(name string) {
	n := ce.nodes[name]
	_ = n.cmd.Process.Signal(syscall.SIGKILL)
	_ = n.cmd.Wait()
	delete(ce.nodes, name)
}

// owner returns the node whose /healthz counts a live room.
func (ce *clusterEnv) owner() string {
	for range 300 {
		for name, n := range ce.nodes {
			resp, err := http.Get(n.url + "/healthz")
			if err != nil {
				continue
			}
			var h struct{ Rooms int }
			_ = json.NewDecoder(resp.Body).Decode(&h)
			resp.Body.Close()
			if h.Rooms > 0 {
				return name
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	ce.t.Fatal("no node runs the room")
	return ""
}

// other returns a live node that is not name, by name order after it.
func (ce *clusterEnv) other(not string) *clusterNode {
	for _, name := range []string{"n1", "n2", "n3", "n1", "n2"} {
		if n := ce.nodes[name]; n != nil && name != not && name > not {
			return n
		}
	}
	for name, n := range ce.nodes {
		if name != not {
			return n
		}
	}
	ce.t.Fatal("no live node")
	return nil
}

// e2eUser is a browser: a cookie jar (cookies ignore the port, so every node shares them) and
// its CSRF token.
type e2eUser struct {
	name string
	c    *http.Client
	csrf string
	seat int
}

func (u *e2eUser) call(t *testing.T, base, method, path string, body, out any) int {
	t.Helper()
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
		t.Fatalf("%s %s as %s: %v", method, path, u.name, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil && resp.StatusCode < 300 {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %v: %s", method, path, err, b)
		}
	}
	if resp.StatusCode >= 300 && out == nil {
		t.Fatalf("%s %s as %s: %d %s", method, path, u.name, resp.StatusCode, b)
	}
	return resp.StatusCode
}

func newE2EUser(t *testing.T, base, name string) *e2eUser {
	jar, _ := cookiejar.New(nil)
	u := &e2eUser{name: name, c: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
	var a struct {
		CSRF string `json:"csrf_token"`
	}
	u.call(t, base, "POST", "/api/guest", map[string]any{"name": name}, &a)
	u.csrf = a.CSRF
	return u
}

// e2eConn is a user's socket to one node, read in the background.
type e2eConn struct {
	u    *e2eUser
	node string
	ws   *websocket.Conn
	msgs chan map[string]json.RawMessage
	view *sdk.View
	game int
	seq  int
}

func dialE2E(t *testing.T, u *e2eUser, n *clusterNode, code string) (*e2eConn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(n.url, "http")+"/api/rooms/"+code+"/ws",
		&websocket.DialOptions{HTTPClient: u.c, HTTPHeader: http.Header{"Origin": {n.url}}})
	if err != nil {
		return nil, err
	}
	ws.SetReadLimit(1 << 22)
	c := &e2eConn{u: u, node: n.short, ws: ws, msgs: make(chan map[string]json.RawMessage, 1024)}
	go func() {
		defer close(c.msgs)
		for {
			_, data, err := ws.Read(context.Background())
			if err != nil {
				return
			}
			var m map[string]json.RawMessage
			if json.Unmarshal(data, &m) == nil {
				c.msgs <- m
			}
		}
	}()
	return c, nil
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

func TestClusterFailoverOnRealNodes(t *testing.T) {
	nats := os.Getenv("CARDHOUSE_TEST_NATS_URL")
	if nats == "" || os.Getenv(storetest.PostgresEnv) == "" {
		t.Skip("CARDHOUSE_TEST_NATS_URL and " + storetest.PostgresEnv + " must both be set: skipping the cluster of real nodes (.ci/run sets them)")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "cardhouse")
	if out, err := exec.Command("go", "build", "-o", bin, "cardhouse/platform/cmd/cardhouse").CombinedOutput(); err != nil {
		t.Fatalf("building cardhouse: %v: %s", err, out)
	}
	ce := &clusterEnv{t: t, bin: bin, dsn: storetest.DSN(t, "postgres", dir), nats: nats, nodes: map[string]*clusterNode{}}
	for _, short := range []string{"n1", "n2", "n3"} {
		ce.start(short)
	}

	n1 := ce.nodes["n1"]
	host, guest, watcher := newE2EUser(t, n1.url, "Host"), newE2EUser(t, ce.nodes["n2"].url, "Guest"), newE2EUser(t, ce.nodes["n3"].url, "Watcher")
	var created struct{ Room room.Info }
	host.call(t, n1.url, "POST", "/api/rooms", map[string]any{"ruleset": "lastcard", "seats": 2, "options": map[string]any{"target": "single"}}, &created)
	code := created.Room.Code
	guest.call(t, ce.nodes["n2"].url, "POST", "/api/rooms/"+code+"/join", nil, nil)
	watcher.call(t, ce.nodes["n3"].url, "POST", "/api/rooms/"+code+"/join", nil, nil)
	host.seat, guest.seat, watcher.seat = 0, 1, sdk.Spectator
	if o := ce.owner(); o != "n1" {
		t.Fatalf("the room runs on %s, want n1 where it was made", o)
	}

	// Everyone on a node that does not run the room.
	conns := map[*e2eUser]*e2eConn{}
	// Each user keeps to its own node while it lives (the room, made on n1 and taken back by n1
	// after each of its restarts, mostly runs elsewhere), else the next one, in turn.
	prefer := map[*e2eUser][]string{host: {"n2", "n3", "n1"}, guest: {"n3", "n2", "n1"}, watcher: {"n2", "n1", "n3"}}
	connect := func(u *e2eUser) {
		for i := range 200 {
			n := ce.nodes[prefer[u][i%3]]
			if n == nil {
				continue
			}
			c, err := dialE2E(t, u, n, code)
			if err == nil {
				conns[u] = c
				return
			}
			time.Sleep(200 * time.Millisecond) // the room is moving: "try again"
		}
		t.Fatalf("%s could not reconnect to room %s", u.name, code)
	}
	for _, u := range []*e2eUser{host, guest, watcher} {
		connect(u)
	}
	host.call(t, ce.nodes["n2"].url, "POST", "/api/rooms/"+code+"/deal", nil, nil)

	bot := lastcard.New()
	rng := sdk.NewRNG(1)
	type gameSeq struct{ game, seq int }
	accepted := map[gameSeq]string{} // who saw each action accepted
	dealt := map[int]bool{}          // the games after which the host dealt again
	kills, over := 0, false
	// Ten kills, every six actions accepted: mostly the owner, every third the node the guest's
	// socket is on (the owner relays to it); each killed node is started again at once (a new
	// epoch under the same name), and games are dealt until the kills are done.
	var killAt []int
	for i := range 10 {
		killAt = append(killAt, 5+6*i)
	}
	nextID := 0
	// read drains c's messages, keeping the latest view and checking every view for foreign
	// cards while a round is played; it reports false when the connection closed.
	read := func(c *e2eConn, wait time.Duration) (map[string]json.RawMessage, bool) {
		select {
		case m, ok := <-c.msgs:
			if !ok {
				return nil, false
			}
			if jsonStr(m["type"]) == "view" {
				var v sdk.View
				if err := json.Unmarshal(m["view"], &v); err != nil {
					t.Fatalf("a view that is not one: %s", m["view"])
				}
				for _, z := range v.Zones {
					// While a round is played; once it is over every hand left is shown (the reveal).
					if v.Phase == sdk.PhasePlaying && z.Kind == sdk.ZoneHand && z.Owner != c.u.seat && len(z.Cards) > 0 {
						t.Fatalf("%s (seat %d, via %s) was shown the cards of %s", c.u.name, c.u.seat, c.node, z.ID)
					}
				}
				if jsonInt(m["seat"]) == c.u.seat || c.u.seat == sdk.Spectator {
					c.view, c.game, c.seq = &v, jsonInt(m["game"]), jsonInt(m["seq"])
				}
			}
			return m, true
		case <-time.After(wait):
			return nil, true
		}
	}
	for idle := 0; idle < 300 && len(accepted) < 5000 && !over; {
		if kills < len(killAt) && len(accepted) >= killAt[kills] {
			o, what := ce.owner(), "the owner"
			if kills%3 == 1 && conns[guest].node != o {
				o, what = conns[guest].node, "the guest's node"
			}
			t.Logf("killing %s (%s) after %d accepted actions", o, what, len(accepted))
			ce.kill(o)
			ce.start(o)
			kills++
		}
		for _, u := range []*e2eUser{host, guest, watcher} {
			c := conns[u]
			for {
				m, ok := read(c, 0)
				if !ok {
					connect(u)
					c = conns[u]
					continue
				}
				if m == nil {
					break
				}
			}
		}
		// The seat with something to do acts, and waits for the answer.
		acted := false
		for _, u := range []*e2eUser{host, guest} {
			c := conns[u]
			if c.view == nil {
				continue
			}
			if c.view.Phase == sdk.PhaseGameOver { // one round: the game
				if kills == len(killAt) {
					over = true
				} else if !dealt[c.game] {
					// Kills are left: the host deals the next game (through whichever node it is on).
					for range 100 {
						if st := host.call(t, ce.nodes[conns[host].node].url, "POST", "/api/rooms/"+code+"/deal", nil, &struct{}{}); st < 300 || st == http.StatusConflict {
							break
						}
						time.Sleep(200 * time.Millisecond)
					}
					dealt[c.game] = true
				}
				continue
			}
			if len(c.view.Actions) == 0 {
				continue
			}
			a, err := bot.Bot(context.Background(), sdk.BotRequest{Seat: u.seat, Level: 3, View: *c.view, RNG: &rng})
			if err != nil || a == nil {
				continue
			}
			a.Seat = u.seat
			nextID++
			id := fmt.Sprintf("a%d", nextID)
			msg, _ := json.Marshal(map[string]any{"type": "act", "id": id, "action": a})
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			werr := c.ws.Write(ctx, websocket.MessageText, msg)
			cancel()
			if werr != nil {
				continue
			}
			acted = true
			for answered := false; !answered; {
				m, ok := read(c, 10*time.Second)
				if !ok || m == nil {
					break // lost with its connection: not seen accepted
				}
				if jsonStr(m["id"]) != id {
					continue
				}
				switch jsonStr(m["type"]) {
				case "accepted":
					gs := gameSeq{c.game, jsonInt(m["seq"])}
					if who, twice := accepted[gs]; twice {
						t.Fatalf("game %d seq %d accepted twice (%s, then %s)", gs.game, gs.seq, who, u.name)
					}
					accepted[gs] = u.name + " via " + c.node
					answered = true
				case "error":
					answered = true
				}
			}
			break
		}
		if !acted && !over {
			idle++
			read(conns[host], 200*time.Millisecond) // nothing to do yet: wait for news
		} else {
			idle = 0
		}
	}
	if !over {
		v := conns[host].view
		t.Fatalf("the game did not end: %d actions accepted; the host's last view: phase %s turn %d players %+v actions %+v", len(accepted), v.Phase, v.Turn, v.Players, v.Actions)
	}
	if kills != len(killAt) {
		t.Fatalf("the games ended after %d kills, want %d (%d actions)", kills, len(killAt), len(accepted))
	}
	games, logged := conns[host].game, 0
	for g := 1; g <= games; g++ {
		var rep room.Replay
		for range 100 {
			if st := host.call(t, ce.other("").url, "GET", fmt.Sprintf("/api/rooms/%s/games/%d/replay", code, g), nil, &rep); st == http.StatusOK {
				break
			}
			time.Sleep(200 * time.Millisecond)
		}
		if !rep.Matches || rep.Status == "live" {
			t.Fatalf("game %d: the replay (%s, %d actions) does not match the stored state or the game is not over", g, rep.Status, len(rep.Log))
		}
		inLog := map[int]int{}
		for _, la := range rep.Log {
			inLog[la.Seq]++
		}
		for gs, who := range accepted {
			if gs.game == g && inLog[gs.seq] != 1 {
				t.Errorf("game %d: action %d, seen accepted by %s, is %d times in the replay", g, gs.seq, who, inLog[gs.seq])
			}
		}
		for seq, n := range inLog {
			if n != 1 {
				t.Errorf("game %d: seq %d is %d times in the replay", g, seq, n)
			}
		}
		logged += len(rep.Log)
	}
	t.Logf("%d actions accepted over %d kills in %d games; the replays hold %d", len(accepted), kills, games, logged)
}
