package bench_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"cardhouse/plugins/builtin"
	"time"

	"cardhouse/platform/bench"
	"cardhouse/platform/store/storetest"
)

// The bench over the nodes of a cluster (issue 22): real `cardhouse serve` nodes on PostgreSQL and
// the NATS broker, the rooms' sockets spread over them so that many are relayed to their room's
// node, and a node stopped mid-window whose players reconnect to the others.

// natsEnv names the broker the cluster tests use (as platform/cmd/cardhouse's).
const natsEnv = "CARDHOUSE_TEST_NATS_URL"

// needCluster skips a test without both PostgreSQL and the broker, and returns them.
func needCluster(t *testing.T) (dsn, nats string) {
	t.Helper()
	dsn, nats = os.Getenv(storetest.PostgresEnv), os.Getenv(natsEnv)
	if dsn == "" || nats == "" {
		t.Skip(natsEnv + " and " + storetest.PostgresEnv + " must both be set: skipping the bench over a cluster of real nodes (.ci/run sets them)")
	}
	needBinary(t)
	return dsn, nats
}

// checkCluster asserts what every healthy run over nodes shows beyond checkRun's single-server
// figures: no error, actions in every room, the sockets spread (half the players' relayed with two
// or three nodes, see setupRoom), relayed actions and messages, each node's CPU and /metrics.
func checkCluster(t *testing.T, res *bench.Result, nodes, rooms, spectators int) {
	t.Helper()
	var out strings.Builder
	_ = res.Print(&out)
	t.Logf("\n%s", out.String())
	if res.Actions <= 0 || res.IdleRooms != 0 {
		t.Errorf("%d actions accepted, %d of %d rooms without one", res.Actions, res.IdleRooms, rooms)
	}
	if len(res.Errors) != 0 {
		t.Errorf("errors: %v (first: %v)", res.Errors, res.FirstErrors)
	}
	if res.Latency.Samples != int(res.Actions) || res.Applied < res.Actions {
		t.Errorf("%d latency samples and %d applied for %d accepted actions", res.Latency.Samples, res.Applied, res.Actions)
	}
	if res.Nodes != nodes || !res.Cluster {
		t.Errorf("nodes %d, cluster %v: want %d nodes of a cluster", res.Nodes, res.Cluster, nodes)
	}
	// Place j of room i is on node (i+j) mod n, the room on node i mod n: relayed unless j is a
	// multiple of n.
	want := 0
	for range rooms {
		for j := range bench.Seats + spectators {
			if j%nodes != 0 {
				want++
			}
		}
	}
	if res.CrossNodeSockets != want {
		t.Errorf("%d cross-node sockets, want %d", res.CrossNodeSockets, want)
	}
	if res.RelayedActions <= 0 || res.RelayedActions+res.UnknownOwnerActions > res.Actions || res.RelayedMessages <= 0 || res.RelayedMessages >= res.Messages {
		t.Errorf("relayed: %d of %d actions (%d of unknown owner), %d of %d messages", res.RelayedActions, res.Actions, res.UnknownOwnerActions, res.RelayedMessages, res.Messages)
	}
	if len(res.NodeCPU) != nodes {
		t.Errorf("CPU of %d nodes, want %d", len(res.NodeCPU), nodes)
	}
	for i, c := range res.NodeCPU {
		if c <= 0 {
			t.Errorf("node %d: CPU %.3f s", i+1, c)
		}
	}
	if res.ServerCPU <= 0 || res.ServerPeakRSS <= 0 {
		t.Errorf("server CPU %.3f s, peak RSS %d", res.ServerCPU, res.ServerPeakRSS)
	}
	if res.Commits <= 0 || len(res.Stages) != 3 {
		t.Errorf("group commits %d, stages %+v: want both, summed over the nodes", res.Commits, res.Stages)
	}
	// Every room has one owner among the nodes read at the end (a stopped node's rooms moved).
	if got := res.ClusterMetrics["cardhouse_cluster_rooms_owned"]; got != float64(rooms) {
		t.Errorf("the nodes own %v rooms at the window's end, want %d (cluster metrics %v)", got, rooms, res.ClusterMetrics)
	}
}

// checkRelayedSockets holds the bench's count of cross-node sockets to the nodes' own: each relayed
// socket is counted on its edge and on its owner (cardhouse_cluster_relayed_sockets{side}).
func checkRelayedSockets(t *testing.T, res *bench.Result) {
	t.Helper()
	if got, want := res.ClusterMetrics["cardhouse_cluster_relayed_sockets"], float64(2*res.CrossNodeSockets); got != want {
		t.Errorf("the nodes relay %v socket ends at the window's end, want %v (the bench's %d cross-node sockets, twice)", got, want, res.CrossNodeSockets)
	}
}

// TestRunOverClusterNodes runs the bench over three nodes it starts (PostgreSQL and NATS), every
// variant, a spectator a room.
func TestRunOverClusterNodes(t *testing.T) {
	dsn, nats := needCluster(t)
	res, err := bench.Run(context.Background(), bench.Config{Rooms: 6, Spectators: 1, Warmup: time.Second, Duration: 3 * time.Second,
		Variants: variants, Bots: bots(), Exe: cardhouseBin, DB: dsn, Nodes: 3, Cluster: nats, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	checkCluster(t, res, 3, 6, 1)
	checkRelayedSockets(t, res)
	if res.Reconnects != 0 || res.UnknownOwnerActions != 0 || res.MetricsNodes != 3 {
		t.Errorf("%d reconnects, %d actions of unknown owner, metrics of %d nodes: want none, none, 3", res.Reconnects, res.UnknownOwnerActions, res.MetricsNodes)
	}
	// Every node runs the server and a plugin per built-in variant.
	want := len(builtin.Engines()) + 1
	per := map[int]int{}
	for _, p := range res.ServerProcs {
		per[p.Node]++
	}
	if len(per) != 3 || per[1] != want || per[2] != want || per[3] != want {
		t.Errorf("processes by node %v: want %d on each of 3", per, want)
	}
}

// TestRunStopsANodeMidWindow stops one of three nodes (SIGTERM) a second into the window: its
// sockets and those relayed to its rooms are closed with 1001, the players reconnect to the other
// nodes and play on, and the run ends with no error at all; the rooms of the stopped node go on
// on another (actions of unknown owner).
func TestRunStopsANodeMidWindow(t *testing.T) {
	dsn, nats := needCluster(t)
	const rooms, spectators = 6, 1
	res, err := bench.Run(context.Background(), bench.Config{Rooms: rooms, Spectators: spectators, Warmup: time.Second, Duration: 5 * time.Second,
		Variants: variants, Bots: bots(), Exe: cardhouseBin, DB: dsn, Nodes: 3, Cluster: nats, StopNodeAfter: time.Second, Seed: 12})
	if err != nil {
		t.Fatal(err)
	}
	checkCluster(t, res, 3, rooms, spectators)
	// Every socket of a room of node 3 (rooms 2 and 5) is closed, and every other socket on node 3.
	want := 0
	for i := range rooms {
		for j := range bench.Seats + spectators {
			if i%3 == 2 || (i+j)%3 == 2 {
				want++
			}
		}
	}
	if res.Reconnects < int64(want) {
		t.Errorf("%d reconnects, want at least %d", res.Reconnects, want)
	}
	if res.SilentAfterReconnect != 0 {
		t.Errorf("%d players had no act accepted after their socket came back", res.SilentAfterReconnect)
	}
	if res.UnknownOwnerActions <= 0 {
		t.Errorf("no action accepted in the rooms of the stopped node after it stopped")
	}
	if res.StoppedNode == "" || res.MetricsNodes != 2 {
		t.Errorf("stopped node %q, metrics of %d nodes: want the third stopped and the others read", res.StoppedNode, res.MetricsNodes)
	}
}

// TestRunFreezesANodeMidWindow freezes one of three nodes (SIGSTOP) a second into the window:
// it keeps its sockets open and says nothing. Its players hear nothing, ping, give the sockets up
// (the bench's heartbeat) and reconnect to the other nodes; its rooms move once their leases run
// out, and every player plays on with no error at all. The node is often frozen in the middle of
// a room's commit, its transaction holding the room's lease row: the database ends that session
// after a lease of idleness (serve's idle_in_transaction_session_timeout), else the room could not
// move while the node stays frozen (which is how this test failed from bd9e567 to 275ac1f).
func TestRunFreezesANodeMidWindow(t *testing.T) {
	dsn, nats := needCluster(t)
	const rooms, spectators = 6, 1
	res, err := bench.Run(context.Background(), bench.Config{Rooms: rooms, Spectators: spectators, Warmup: time.Second, Duration: 30 * time.Second,
		Variants: variants, Bots: bots(), Exe: cardhouseBin, DB: dsn, Nodes: 3, Cluster: nats, StopNodeAfter: time.Second, FreezeNode: true,
		Lease: 2 * time.Second, Seed: 13})
	if err != nil {
		t.Fatal(err)
	}
	checkCluster(t, res, 3, rooms, spectators)
	want := 0
	for i := range rooms {
		for j := range bench.Seats + spectators {
			if (i+j)%3 == 2 {
				want++ // a socket on the frozen node
			}
		}
	}
	if res.Reconnects < int64(want) {
		t.Errorf("%d reconnects, want at least %d (every socket on the frozen node)", res.Reconnects, want)
	}
	if res.SilentAfterReconnect != 0 {
		t.Errorf("%d players had no act accepted after their socket came back", res.SilentAfterReconnect)
	}
	if res.UnknownOwnerActions <= 0 {
		t.Errorf("no action accepted in the rooms of the frozen node after it froze")
	}
	t.Logf("reconnects %d, the longest a player went without a socket: %s", res.Reconnects, res.MaxReconnectGap)
}

// startNode runs `cardhouse serve` as a node of a cluster on :0 and returns its URL and process.
func startNode(t *testing.T, dsn, nats, name string) (string, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(cardhouseBin, "serve", "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--db", dsn, "--cluster", nats,
		"--node", fmt.Sprintf("%s-%d", name, os.Getpid()), "--signin-rate", "0", "--log-level", "warn", "--public-metrics")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("node %s printed no address: %v; %s", name, err, stderr.String())
	}
	u := regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(line)
	if u == "" {
		t.Fatalf("node %s printed %q", name, line)
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	return u, cmd
}

// TestRunTargetsSeveralNodes targets two running nodes (--server URL1,URL2 --server-pids) as an
// operator would a deployed cluster: the same spread, figures and the nodes' CPU.
func TestRunTargetsSeveralNodes(t *testing.T) {
	dsn, nats := needCluster(t)
	dsn = storetest.DSN(t, "postgres", t.TempDir()) // a schema of this test's own, shared by both nodes
	u1, c1 := startNode(t, dsn, nats, "bench-t1")
	u2, c2 := startNode(t, dsn, nats, "bench-t2")
	res, err := bench.Run(context.Background(), bench.Config{Rooms: 4, Warmup: time.Second, Duration: 3 * time.Second,
		Variants: variants, Bots: bots(), Server: u1 + "," + u2 + "/", ServerPIDs: []int{c1.Process.Pid, c2.Process.Pid}, Seed: 13})
	if err != nil {
		t.Fatal(err)
	}
	checkCluster(t, res, 2, 4, 0)
	checkRelayedSockets(t, res)
	if res.Reconnects != 0 || res.MetricsNodes != 2 || res.Database != "the target's" {
		t.Errorf("%d reconnects, metrics of %d nodes, database %q", res.Reconnects, res.MetricsNodes, res.Database)
	}
}
