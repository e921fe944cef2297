package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"cardhouse/sdk"
)

// A cluster of real `cardhouse serve` processes on PostgreSQL and NATS (issue 22, docs/operations.md
// "What happens when"): three nodes, a room of each variant (Last Card, Hotspot, DRUGS) played
// at once, each with its host, guest and spectator on nodes that do not run it, while nodes are
// killed (SIGKILL), stopped and started in turn (SIGTERM), frozen past their lease (SIGSTOP),
// or the broker restarts. Every action a client saw accepted is in its game's replay exactly once,
// every game's action log is 1 to N without a gap or a repeat, every game goes on to its end, no
// connection ever saw a hand card not its own while a round was played, and every write of a
// game or an action was made by the node holding the room's lease at that moment (a trigger in
// the test's schema records who wrote what: the fencing, checked in the database).

var clusterNodes = []string{"n1", "n2", "n3"}

// startCluster starts n1 to n3 on the broker at natsURL, records who writes games and actions,
// and makes a room of each variant, one made on each node.
func startCluster(t *testing.T, tag, natsURL string) (*clusterEnv, []*clusterTable) {
	t.Helper()
	ce := newClusterEnv(t, tag, natsURL)
	for _, s := range clusterNodes {
		ce.start(s)
	}
	ce.auditWrites()
	tables := make([]*clusterTable, len(clusterVariants))
	for i := range tables {
		tables[i] = newClusterTable(t, ce, i, clusterNodes[i%len(clusterNodes)])
	}
	return ce, tables
}

// auditWrites installs a trigger recording, for each row written to games and actions, the node
// that wrote it (its sessions' application_name) and the node holding the room's lease when it
// was written (read in the writing transaction, which holds the lease row FOR SHARE when fenced).
func (ce *clusterEnv) auditWrites() {
	ce.t.Helper()
	for _, q := range []string{
		`CREATE TABLE write_audit (id BIGSERIAL PRIMARY KEY, tbl TEXT, op TEXT, room_id BIGINT, writer TEXT, holder TEXT, epoch BIGINT, at TIMESTAMPTZ DEFAULT clock_timestamp())`,
		`CREATE FUNCTION audit_write() RETURNS trigger AS $$
DECLARE rid BIGINT; h TEXT; e BIGINT;
BEGIN
  IF TG_TABLE_NAME = 'actions' THEN
    SELECT room_id INTO rid FROM games WHERE id = NEW.game_id;
  ELSE
    rid := NEW.room_id;
  END IF;
  SELECT node, epoch INTO h, e FROM room_leases WHERE room_id = rid;
  INSERT INTO write_audit (tbl, op, room_id, writer, holder, epoch)
    VALUES (TG_TABLE_NAME, TG_OP, rid, current_setting('application_name'), h, e);
  RETURN NEW;
END $$ LANGUAGE plpgsql`,
		`CREATE TRIGGER audit_actions AFTER INSERT OR UPDATE ON actions FOR EACH ROW EXECUTE FUNCTION audit_write()`,
		`CREATE TRIGGER audit_games AFTER INSERT OR UPDATE ON games FOR EACH ROW EXECUTE FUNCTION audit_write()`,
		`CREATE TRIGGER audit_chat AFTER INSERT OR UPDATE ON chat_messages FOR EACH ROW EXECUTE FUNCTION audit_write()`,
	} {
		if _, err := ce.db.Exec(q); err != nil {
			ce.t.Fatalf("installing the write audit: %v\n%s", err, q)
		}
	}
}

// checkWrites fails unless every write recorded by auditWrites was made by the lease's holder.
func (ce *clusterEnv) checkWrites() {
	t := ce.t
	t.Helper()
	var total int
	if err := ce.db.QueryRow(`SELECT count(*) FROM write_audit`).Scan(&total); err != nil {
		t.Fatal(err)
	}
	rows, err := ce.db.Query(`SELECT tbl, op, room_id, writer, coalesce(holder, '(none)'), coalesce(epoch, 0), at FROM write_audit
WHERE writer IS DISTINCT FROM holder ORDER BY id LIMIT 20`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var tbl, op, writer, holder string
		var roomID, epoch int64
		var at time.Time
		if err := rows.Scan(&tbl, &op, &roomID, &writer, &holder, &epoch, &at); err != nil {
			t.Fatal(err)
		}
		t.Errorf("%s %s of room %d at %s by node %q while %q held the room's lease (epoch %d)", op, tbl, roomID, at.Format("15:04:05.000"), writer, holder, epoch)
	}
	if total == 0 {
		t.Error("the write audit recorded nothing: is it installed?")
	}
}

// finish checks the tables and the database once the games are over.
func finish(t *testing.T, ce *clusterEnv, tables []*clusterTable) {
	t.Helper()
	for _, tb := range tables {
		tb.check(t)
	}
	ce.checkActionLogs()
	ce.checkWrites()
}

func TestClusterFailoverOnRealNodes(t *testing.T) {
	needCluster(t)
	ce, tables := startCluster(t, "kill", os.Getenv("CARDHOUSE_TEST_NATS_URL"))
	ce.auditLeases()
	seed := uint64(time.Now().UnixNano())
	t.Logf("the kills' moments and rooms come from seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 22))
	want := *failoverKills
	kills := 0
	// Each kill's moment and the tables whose rooms the killed node ran then: a room's pause is
	// from the kill to its next action seen accepted once the killed process had ended (an answer
	// the dying node gave is not the room playing on).
	type killed struct {
		at, dead time.Time
		node     string
		tables   []*clusterTable
	}
	var log []killed
	playTables(t, tables, func(done <-chan struct{}) {
		for kills < want {
			// Each failover is measured alone: the rooms of the last kill have all played on
			// before the next (else a room's pause would hold two nodes' deaths).
			if n := len(log); n > 0 && !awaitRecovered(t, log[n-1].dead, log[n-1].tables, done) {
				return
			}
			// A random moment: after 2 to 12 more actions accepted over the tables.
			if !awaitProgress(t, tables, totalProgress(tables), 2+rng.IntN(11), done) {
				return
			}
			tb := tables[rng.IntN(len(tables))]
			o, epoch := ce.owner(tb.roomID)
			k := killed{node: o}
			for _, other := range tables {
				if n, _ := ce.owner(other.roomID); n == o {
					k.tables = append(k.tables, other)
				}
			}
			t.Logf("kill %d: %s, which runs room %s (%s, epoch %d), after %d actions accepted", kills+1, o, tb.code, tb.variant, epoch, totalProgress(tables))
			k.at = time.Now()
			ce.kill(o)
			k.dead = time.Now()
			ce.start(o)
			log = append(log, k)
			kills++
		}
		awaitProgress(t, tables, totalProgress(tables), 6, done)
	})
	if kills < want {
		t.Fatalf("the games ended after %d kills, want %d", kills, want)
	}
	finish(t, ce, tables)
	var pauses []time.Duration
	for i, k := range log {
		for _, tb := range k.tables {
			if next, ok := tb.nextAccepted(k.dead); ok {
				pauses = append(pauses, next.Sub(k.at))
				t.Logf("kill %d (%s), room %s: %s", i+1, k.node, tb.code, ce.phases(tb, k.at, next))
			}
		}
	}
	slices.Sort(pauses)
	if len(pauses) == 0 {
		t.Fatal("no room played on after a kill")
	}
	bound := clusterLease + 2*time.Second
	over := 0
	for _, p := range pauses {
		if p > bound {
			over++
		}
	}
	t.Logf("%d kills: %d rooms' pauses from the kill to their next accepted action: p50 %s, p90 %s, max %s; %d over the lease + 2 s (%s); all: %v",
		kills, len(pauses), pauses[len(pauses)/2].Round(time.Millisecond), pauses[len(pauses)*9/10].Round(time.Millisecond),
		pauses[len(pauses)-1].Round(time.Millisecond), over, bound, roundAll(pauses))
}

// auditLeases installs a trigger recording every write of a room's lease (taken, renewed,
// released) with the database's clock: the failover test reads when a dead node's lease expired
// and when another node took the room.
func (ce *clusterEnv) auditLeases() {
	ce.t.Helper()
	for _, q := range []string{
		`CREATE TABLE lease_audit (id BIGSERIAL PRIMARY KEY, room_id BIGINT, node TEXT, epoch BIGINT, expires_ms BIGINT, at TIMESTAMPTZ DEFAULT clock_timestamp())`,
		`CREATE FUNCTION audit_lease() RETURNS trigger AS $$
BEGIN
  INSERT INTO lease_audit (room_id, node, epoch, expires_ms) VALUES (NEW.room_id, NEW.node, NEW.epoch, NEW.expires_ms);
  RETURN NEW;
END $$ LANGUAGE plpgsql`,
		`CREATE TRIGGER audit_leases AFTER INSERT OR UPDATE ON room_leases FOR EACH ROW EXECUTE FUNCTION audit_lease()`,
	} {
		if _, err := ce.db.Exec(q); err != nil {
			ce.t.Fatalf("installing the lease audit: %v\n%s", err, q)
		}
	}
}

// phases splits a room's pause from a kill at k to its next accepted action at next: when the
// killed node's lease ran out, when a node took the room (lease_audit), and what the table's
// sockets did meanwhile (its timeline), each as the time since the kill.
func (ce *clusterEnv) phases(tb *clusterTable, k, next time.Time) string {
	var b strings.Builder
	since := func(at time.Time) string { return at.Sub(k).Round(10 * time.Millisecond).String() }
	var epoch, expMs int64
	var holder string
	err := ce.db.QueryRow(`SELECT node, epoch, expires_ms FROM lease_audit WHERE room_id = $1 AND at <= $2 ORDER BY id DESC LIMIT 1`, tb.roomID, k).Scan(&holder, &epoch, &expMs)
	if err == nil {
		fmt.Fprintf(&b, "lease (epoch %d) ran out at %s", epoch, since(time.UnixMilli(expMs)))
		var node string
		var took int64
		var at time.Time
		if ce.db.QueryRow(`SELECT node, epoch, at FROM lease_audit WHERE room_id = $1 AND epoch > $2 ORDER BY id LIMIT 1`, tb.roomID, epoch).Scan(&node, &took, &at) == nil {
			fmt.Fprintf(&b, "; taken at %s by %s (epoch %d)", since(at), strings.TrimPrefix(strings.TrimSuffix(node, fmt.Sprintf("-%d", os.Getpid())), ce.tag+"-"), took)
		}
	}
	for _, e := range tb.eventsBetween(k, next) {
		fmt.Fprintf(&b, "; %s: %s", since(e.at), e.what)
	}
	fmt.Fprintf(&b, "; accepted at %s", since(next))
	return b.String()
}

// awaitRecovered waits until every table of tables has seen an action accepted after at (or
// done), failing t after a minute.
func awaitRecovered(t *testing.T, at time.Time, tables []*clusterTable, done <-chan struct{}) bool {
	t.Helper()
	for range 3000 {
		all := true
		for _, tb := range tables {
			if _, ok := tb.nextAccepted(at); !ok {
				all = false
			}
		}
		if all {
			return true
		}
		select {
		case <-done:
			return false
		case <-time.After(20 * time.Millisecond):
		}
	}
	for _, tb := range tables {
		for _, e := range tb.eventsBetween(at, time.Now()) {
			t.Logf("room %s, %s: %s", tb.code, e.at.Sub(at).Round(10*time.Millisecond), e.what)
		}
	}
	t.Fatalf("the rooms of the node killed at %s did not all play on in a minute: %v", at.Format("15:04:05.000"), tables)
	return false
}

// failoverKills is how many kills TestClusterFailoverOnRealNodes makes (docs/operations.md
// reports a run of 40).
var failoverKills = flag.Int("cluster.kills", 40, "the owner kills of TestClusterFailoverOnRealNodes")

func roundAll(ds []time.Duration) []time.Duration {
	out := make([]time.Duration, len(ds))
	for i, d := range ds {
		out[i] = d.Round(10 * time.Millisecond)
	}
	return out
}

// nextAccepted is when the table first saw an action accepted after at.
func (tb *clusterTable) nextAccepted(at time.Time) (time.Time, bool) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for _, a := range tb.acceptedAt {
		if a.at.After(at) {
			return a.at, true
		}
	}
	return time.Time{}, false
}

// TestClusterRollingRestartOnRealNodes stops each node in turn with SIGTERM while the games are
// played, and starts it again: its rooms' leases are released as it stops (none is left live
// under its name), their clients reconnect and the games go on. It logs the longest a client went
// from a lost socket to its next view.
func TestClusterRollingRestartOnRealNodes(t *testing.T) {
	needCluster(t)
	ce, tables := startCluster(t, "roll", os.Getenv("CARDHOUSE_TEST_NATS_URL"))
	restarted := 0
	playTables(t, tables, func(done <-chan struct{}) {
		for _, s := range clusterNodes {
			if !awaitProgress(t, tables, totalProgress(tables), 8, done) {
				return
			}
			var ran []string
			for _, tb := range tables {
				if l, err := ce.lease(tb.roomID); err == nil && l.live && l.node == s {
					ran = append(ran, tb.code+" ("+tb.variant+")")
				}
			}
			t.Logf("SIGTERM %s, which runs %v, after %d actions accepted", s, ran, totalProgress(tables))
			name, stopping := ce.nodeName(s), time.Now()
			ce.term(s)
			t.Logf("%s stopped in %s", s, time.Since(stopping).Round(time.Millisecond))
			var live int
			if err := ce.db.QueryRow(`SELECT count(*) FROM room_leases WHERE node = $1 AND expires_ms > (extract(epoch from clock_timestamp()) * 1000)::bigint`, name).Scan(&live); err != nil {
				t.Fatal(err)
			}
			if live != 0 {
				t.Fatalf("%s stopped with SIGTERM and still holds %d live leases: they must be released as it stops", s, live)
			}
			ce.start(s)
			restarted++
		}
		awaitProgress(t, tables, totalProgress(tables), 8, done)
	})
	if restarted != len(clusterNodes) {
		t.Fatalf("the games ended after %d of %d restarts", restarted, len(clusterNodes))
	}
	finish(t, ce, tables)
}

// TestClusterFrozenNodeOnRealNodes freezes the node running a room with SIGSTOP for longer than
// its lease, until another node has taken the room and played on; a second socket of the room's
// host straight to the frozen node has meanwhile sent it a chat line and, when the host could
// act, an action. Resumed with SIGCONT, the node must write nothing (the audit: no write by a
// node not holding the lease; the probe's chat line is not stored; the probe's action is never
// accepted) and drop the room (its log and /metrics say so), while the clients that were on it
// move to other nodes and every game goes on to its end.
func TestClusterFrozenNodeOnRealNodes(t *testing.T) {
	needCluster(t)
	ce, tables := startCluster(t, "stop", os.Getenv("CARDHOUSE_TEST_NATS_URL"))
	probeText := fmt.Sprintf("probe-%d", time.Now().UnixNano())
	froze := false
	playTables(t, tables, func(done <-chan struct{}) {
		if !awaitProgress(t, tables, totalProgress(tables), 10, done) {
			return
		}
		tb := tables[0]
		f, epoch := ce.owner(tb.roomID)
		probe, err := dialE2E(tb.host, ce.node(f), tb.code)
		if err != nil {
			t.Fatalf("the probe's socket to %s: %v", f, err)
		}
		defer probe.ws.CloseNow()
		// The host's turn comes and waits (its own sockets hold back), seen by the probe.
		tb.holdHost.Store(true)
		var view *sdk.View
		for view == nil || view.Phase != sdk.PhasePlaying || view.Turn != tb.host.seat || len(view.Actions) == 0 {
			m, ok := probeNext(probe)
			if !ok {
				t.Fatalf("the probe's socket to %s gave no view where the host is to act", f)
			}
			if jsonStr(m["type"]) == "view" && jsonInt(m["seat"]) == tb.host.seat {
				view = &sdk.View{}
				if err := json.Unmarshal(m["view"], view); err != nil {
					t.Fatal(err)
				}
			}
		}
		// No seat of the room acts until the frozen node has resumed and dropped the room: the
		// node taking it over writes no action meanwhile, so the probe's action (the next seq)
		// meets the fence alone, not the action log's unique seqs. The other rooms play on.
		tb.holdAll.Store(true)
		ce.freeze(f)
		frozeAt := time.Now()
		froze = true
		t.Logf("SIGSTOP %s, which runs room %s (%s) at epoch %d, after %d actions accepted", f, tb.code, tb.variant, epoch, totalProgress(tables))
		if err := probe.send(map[string]any{"type": "chat", "text": probeText}); err != nil {
			t.Fatalf("the probe's chat line: %v", err)
		}
		rng := sdk.NewRNG(7)
		a, err := tb.bot.Bot(t.Context(), sdk.BotRequest{Seat: tb.host.seat, Level: 2, View: *view, RNG: &rng})
		if err != nil || a == nil {
			t.Fatalf("the host's bot has no action for the probe (%v): %+v", err, view.Actions)
		}
		a.Seat = tb.host.seat
		if err := probe.send(map[string]any{"type": "act", "id": "probe", "action": a}); err != nil {
			t.Fatalf("the probe's action: %v", err)
		}
		tb.holdHost.Store(false)
		// Another node takes the room (its sweep finds the lease expired).
		var took lease
		for range 1200 {
			if took, err = ce.lease(tb.roomID); err != nil {
				t.Fatal(err)
			}
			if took.live && took.epoch > epoch && took.node != f {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if !(took.live && took.epoch > epoch && took.node != f) {
			t.Fatalf("no other node took room %s from frozen %s: its lease is %+v", tb.code, f, took)
		}
		// The other rooms go on meanwhile, their clients on the frozen node moving elsewhere.
		awaitProgress(t, tables, totalProgress(tables), 5, done)
		t.Logf("%s took room %s at epoch %d; SIGCONT %s after %s frozen (the lease is %s)", took.node, tb.code, took.epoch, f, time.Since(frozeAt).Round(time.Millisecond), clusterLease)
		ce.thaw(f)

		// The resumed node drops the room, and the probe never hears its action accepted.
		n := ce.node(f)
		for i := 0; !strings.Contains(n.stderr.String(), "the room's lease was lost"); i++ {
			if i > 600 {
				t.Fatalf("%s resumed and did not log dropping room %s", f, tb.code)
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Logf("%s resumed and dropped room %s; its log names a write refused by the fence %d times", f, tb.code, strings.Count(n.stderr.String(), "the room's lease was taken by another node"))
		resp, err := http.Get(n.url + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		metrics, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		for _, want := range []string{`cardhouse_errors_total{kind="lease_lost"}`, `cardhouse_cluster_leases_lost_total{reason=`} { // "taken" (its renewal found the new epoch), or "expired" (the renewal timed out first)
			if !strings.Contains(string(metrics), want) {
				t.Errorf("%s's /metrics has no %s: it counts no lost lease", f, want)
			}
		}
		// The room's sockets on the resumed node are closed (its clients go elsewhere).
		for probeOpen := true; probeOpen; {
			var m map[string]json.RawMessage
			select {
			case m, probeOpen = <-probe.msgs:
			case <-time.After(30 * time.Second):
				t.Fatalf("%s dropped room %s and kept the probe's socket open", f, tb.code)
			}
			if jsonStr(m["id"]) == "probe" {
				if jsonStr(m["type"]) == "accepted" {
					t.Errorf("the resumed node %s, fenced off room %s, accepted the probe's action (seq %d)", f, tb.code, jsonInt(m["seq"]))
				} else {
					t.Logf("the probe's action, sent to frozen %s, was answered: %s %s", f, m["code"], m["reason"])
				}
			}
		}
		// The room's game goes on, on the node that took it.
		tb.holdAll.Store(false)
		p := tb.progress()
		for i := 0; tb.progress() < p+5; i++ {
			if i > 3000 {
				t.Fatalf("room %s made no progress in a minute after %s took it from frozen %s", tb.code, took.node, f)
			}
			select {
			case <-done:
				t.Fatal("the tables ended just after the frozen node resumed")
			case <-time.After(20 * time.Millisecond):
			}
		}
	})
	if !froze {
		t.Fatal("the games ended before a node was frozen")
	}
	var stored int
	if err := ce.db.QueryRow(`SELECT count(*) FROM chat_messages WHERE text = $1`, probeText).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if stored != 0 {
		t.Errorf("the probe's chat line, sent to the frozen node, was stored %d times", stored)
	}
	finish(t, ce, tables)
}

// probeNext is the probe's next message, or false once its socket has closed or said nothing for
// ten seconds.
func probeNext(c *e2eConn) (map[string]json.RawMessage, bool) {
	select {
	case m, ok := <-c.msgs:
		return m, ok
	case <-time.After(10 * time.Second):
		return nil, false
	}
}

// natsServer is a private broker (the machine's shared one must never be restarted).
type natsServer struct {
	bin, port, store string
	cmd              *exec.Cmd
}

func (ns *natsServer) start(t *testing.T) {
	t.Helper()
	ns.cmd = exec.Command(ns.bin, "-a", "127.0.0.1", "-p", ns.port, "-js", "-sd", ns.store)
	if err := ns.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	cmd := ns.cmd
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	for range 500 {
		if c, err := net.Dial("tcp", "127.0.0.1:"+ns.port); err == nil {
			c.Close()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("nats-server does not listen on port %s", ns.port)
}

func (ns *natsServer) stop(t *testing.T) {
	t.Helper()
	_ = ns.cmd.Process.Signal(syscall.SIGTERM)
	_ = ns.cmd.Wait()
}

// TestClusterBrokerRestartOnRealNodes restarts the broker (a private nats-server) while the
// games are played: the nodes reconnect by themselves, the relayed sockets that went silent are
// closed and their clients reconnect, and every room stays where it was (the same node, the same
// epoch: leases live in the database, not the broker).
func TestClusterBrokerRestartOnRealNodes(t *testing.T) {
	needCluster(t)
	bin, err := exec.LookPath("nats-server")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/nats-server"); serr != nil {
			t.Skip("nats-server is not installed: skipping the broker restart (the shared broker must never be restarted)")
		}
		bin = "/usr/sbin/nats-server"
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	ns := &natsServer{bin: bin, port: port, store: t.TempDir()}
	ns.start(t)
	ce, tables := startCluster(t, "broker", "nats://127.0.0.1:"+port)
	restarted := false
	playTables(t, tables, func(done <-chan struct{}) {
		if !awaitProgress(t, tables, totalProgress(tables), 10, done) {
			return
		}
		before := map[int64]lease{}
		for _, tb := range tables {
			o, epoch := ce.owner(tb.roomID)
			before[tb.roomID] = lease{node: o, epoch: epoch, live: true}
		}
		reconnects := 0
		for _, tb := range tables {
			tb.mu.Lock()
			reconnects += tb.reconnects
			tb.mu.Unlock()
		}
		t.Logf("stopping the broker after %d actions accepted; the rooms run on %v", totalProgress(tables), before)
		ns.stop(t)
		for _, s := range clusterNodes {
			n := ce.node(s)
			for i := 0; !strings.Contains(n.stderr.String(), "lost the connection to the broker"); i++ {
				if i > 600 {
					t.Fatalf("%s did not notice the broker stop", s)
				}
				time.Sleep(20 * time.Millisecond)
			}
		}
		// Until a client's relayed socket has gone silent and been dropped (or a while).
		for i := 0; i < 500; i++ {
			n := 0
			for _, tb := range tables {
				tb.mu.Lock()
				n += tb.reconnects
				tb.mu.Unlock()
			}
			if n > reconnects {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		ns.start(t)
		back := time.Now()
		restarted = true
		t.Logf("the broker is back")
		// Every table plays on over relayed sockets: actions accepted through a node that does
		// not run the room (the players prefer those: the ones that moved to the room's owner
		// while the broker was away go back).
		for _, tb := range tables {
			tb.rehome.Store(true)
		}
		for _, tb := range tables {
			owner := before[tb.roomID].node
			for i := 0; tb.acceptedVia(back, owner) < 3; i++ {
				if i > 3000 {
					t.Fatalf("room %s (%s) saw no 3 actions accepted over relayed sockets in a minute after the broker came back: %v", tb.code, tb.variant, tb)
				}
				select {
				case <-done:
					t.Fatal("the tables ended just after the broker came back")
				case <-time.After(20 * time.Millisecond):
				}
			}
		}
		for _, tb := range tables {
			l, err := ce.lease(tb.roomID)
			if err != nil {
				t.Fatal(err)
			}
			if b := before[tb.roomID]; l.node != b.node || l.epoch != b.epoch || !l.live {
				t.Errorf("room %s (%s) moved over the broker's restart: from %s epoch %d to %+v", tb.code, tb.variant, b.node, b.epoch, l)
			}
		}
	})
	if !restarted {
		t.Fatal("the games ended before the broker restarted")
	}
	finish(t, ce, tables)
}
