package bench_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"cardhouse/platform/bench"
	"cardhouse/platform/store/storetest"
	"cardhouse/rulesets/drugs"
	"cardhouse/rulesets/hotspot"
	"cardhouse/rulesets/lastcard"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"
)

// cardhouseBin is the cardhouse binary, built once by TestMain: the bench starts it as its server,
// and it launches its plugin processes, so every part of the stack runs for real.
var cardhouseBin, buildErr = "", ""

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "cardhouse-bench-test-")
	if err != nil {
		panic(err)
	}
	bin := filepath.Join(dir, "cardhouse")
	if out, err := exec.Command("go", "build", "-o", bin, "cardhouse/platform/cmd/cardhouse").CombinedOutput(); err != nil {
		buildErr = fmt.Sprintf("%v: %s", err, out)
	} else {
		cardhouseBin = bin
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// variants are the built-in variants, every one played in the tests.
var variants = []string{"lastcard", "hotspot", "drugs"}

// bots are the variants' bots, as the cardhouse command hands them to the bench (a test may link
// rulesets; the bench package itself never does).
func bots() map[string]sdk.Bots {
	return map[string]sdk.Bots{"lastcard": lastcard.New(), "hotspot": hotspot.New(), "drugs": drugs.New()}
}

func needBinary(t *testing.T) {
	t.Helper()
	if cardhouseBin == "" {
		t.Fatalf("building cardhouse: %s", buildErr)
	}
}

// checkRun asserts what every healthy run shows: actions in every room, no error, one latency
// sample per accepted action, CPU and memory figures of the server and its three plugins, and a
// server that is gone once Run returns.
func checkRun(t *testing.T, res *bench.Result, rooms int) {
	t.Helper()
	var out strings.Builder
	_ = res.Print(&out)
	t.Logf("\n%s", out.String())
	if res.Actions <= 0 {
		t.Errorf("no action accepted")
	}
	if res.IdleRooms != 0 {
		t.Errorf("%d of %d rooms had no accepted action", res.IdleRooms, rooms)
	}
	if len(res.Errors) != 0 {
		t.Errorf("errors: %v (first: %v)", res.Errors, res.FirstErrors)
	}
	if res.Latency.Samples != int(res.Actions) {
		t.Errorf("%d latency samples for %d accepted actions", res.Latency.Samples, res.Actions)
	}
	if !(res.Latency.P50 <= res.Latency.P99 && res.Latency.P99 <= res.Latency.Max) {
		t.Errorf("latency percentiles out of order: %+v", res.Latency)
	}
	if res.Applied < res.Actions {
		t.Errorf("the server applied %d actions, fewer than the %d accepted", res.Applied, res.Actions)
	}
	if res.ServerCPU <= 0 || res.ActionsPerServerCPU <= 0 || res.ClientCPU <= 0 {
		t.Errorf("CPU figures: server %.3f s, %.0f actions per CPU-second, client %.3f s", res.ServerCPU, res.ActionsPerServerCPU, res.ClientCPU)
	}
	if res.Commits <= 0 || res.Committed < res.Commits {
		t.Errorf("group commits: %d transactions storing %d actions", res.Commits, res.Committed)
	}
	// Every accepted act went through the room, a plugin call and a commit in the window (the
	// histograms count the acts of the whole window, the bench only those answered in it).
	if len(res.Stages) != 3 {
		t.Errorf("server stages %+v; want the act, the plugin call and the commit wait", res.Stages)
	}
	for _, s := range res.Stages {
		if s.Count < res.Actions/2 || s.P50 <= 0 || s.P99 < s.P50 {
			t.Errorf("server stage %+v with %d actions accepted", s, res.Actions)
		}
	}
	if res.ServerPeakRSS <= 0 {
		t.Errorf("server peak RSS %d", res.ServerPeakRSS)
	}
	// The server starts a plugin per built-in variant; each benched variant's must be among them.
	plugins, served := 0, map[string]int{}
	for _, p := range res.ServerProcs {
		if p.HWM <= 0 {
			t.Errorf("process %d (%s): VmHWM %d", p.PID, p.Command, p.HWM)
		}
		if _, id, ok := strings.Cut(p.Command, "plugin serve "); ok {
			plugins++
			served[id]++
		}
		if err := syscall.Kill(p.PID, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("process %d (%s) still runs after the bench: %v", p.PID, p.Command, err)
		}
	}
	missing := false
	for _, v := range variants {
		missing = missing || served[v] != 1
	}
	if missing || len(res.ServerProcs) != plugins+1 {
		t.Errorf("server processes %+v: want the server and one plugin each of %v", res.ServerProcs, variants)
	}
}

// TestRunPlaysEveryRoom runs the bench on a server it starts (SQLite): three rooms, one per
// variant, each with a spectator.
func TestRunPlaysEveryRoom(t *testing.T) {
	needBinary(t)
	res, err := bench.Run(context.Background(), bench.Config{Rooms: 3, Spectators: 1, Warmup: time.Second, Duration: 3 * time.Second,
		Variants: variants, Bots: bots(), Exe: cardhouseBin, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	checkRun(t, res, 3)
	if res.Sockets != 3*(bench.Seats+1) || res.Database != "sqlite" {
		t.Errorf("sockets %d, database %s: want %d, sqlite", res.Sockets, res.Database, 3*(bench.Seats+1))
	}
}

// TestRunProtocols runs the bench speaking each protocol version: v2's sockets rebuild their
// views from patches (a gap or a patch that does not apply is an error, which checkRun refuses)
// and receive a fraction of v1's bytes per action.
func TestRunProtocols(t *testing.T) {
	needBinary(t)
	per := map[int]*bench.Result{}
	for _, v := range []int{1, 2} {
		res, err := bench.Run(context.Background(), bench.Config{Rooms: 3, Spectators: 1, Warmup: 500 * time.Millisecond, Duration: 3 * time.Second,
			Variants: variants, Bots: bots(), Exe: cardhouseBin, Seed: 10, Protocol: v})
		if err != nil {
			t.Fatal(err)
		}
		checkRun(t, res, 3)
		if res.Protocol != v || res.BytesPerAction <= 0 || res.ClientCPUPerAction <= 0 {
			t.Errorf("v%d: protocol %d, %.0f bytes and %.1f us of client CPU per action", v, res.Protocol, res.BytesPerAction, res.ClientCPUPerAction)
		}
		per[v] = res
	}
	if v1, v2 := per[1].BytesPerAction, per[2].BytesPerAction; v2*3 > v1 {
		t.Errorf("bytes per action per socket: v1 %.0f, v2 %.0f; want v2 under a third of v1", v1, v2)
	}
}

// TestRunWithThinkTime paces the players: every act still gets its latency sample.
func TestRunWithThinkTime(t *testing.T) {
	needBinary(t)
	res, err := bench.Run(context.Background(), bench.Config{Rooms: 3, Warmup: 500 * time.Millisecond, Duration: 3 * time.Second,
		Think: 20 * time.Millisecond, Variants: variants, Bots: bots(), Exe: cardhouseBin, Seed: 8})
	if err != nil {
		t.Fatal(err)
	}
	checkRun(t, res, 3)
}

// TestRunOnPostgres runs the bench on PostgreSQL, in a schema of its own.
func TestRunOnPostgres(t *testing.T) {
	storetest.SkipUnlessAvailable(t, "postgres")
	needBinary(t)
	res, err := bench.Run(context.Background(), bench.Config{Rooms: 3, Warmup: 500 * time.Millisecond, Duration: 3 * time.Second,
		Variants: variants, Bots: bots(), Exe: cardhouseBin, DB: os.Getenv(storetest.PostgresEnv), Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	checkRun(t, res, 3)
	if res.Database != "postgres" {
		t.Errorf("database %s, want postgres", res.Database)
	}
}

// TestRunRefusesBadConfig checks that a bad configuration is refused before anything starts.
func TestRunRefusesBadConfig(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		cfg  bench.Config
		want string
	}{
		{"rooms", bench.Config{Rooms: 0, Duration: time.Second, Variants: variants, Bots: bots()}, "rooms must be at least 1"},
		{"duration", bench.Config{Rooms: 1, Variants: variants, Bots: bots()}, "duration must be positive"},
		{"no bot", bench.Config{Rooms: 1, Duration: time.Second, Variants: []string{"poker"}, Bots: bots()}, `no bot for variant "poker"`},
		{"no server", bench.Config{Rooms: 1, Duration: time.Second, Variants: variants, Bots: bots()}, "no server to start"},
		{"protocol", bench.Config{Rooms: 1, Duration: time.Second, Variants: variants, Bots: bots(), Protocol: 3}, "protocol must be 1 or 2"},
		{"server not a URL", bench.Config{Rooms: 1, Duration: time.Second, Variants: variants, Bots: bots(), Server: "http://a:1,b:2"}, `server "b:2": want a base URL`},
		{"target and start", bench.Config{Rooms: 1, Duration: time.Second, Variants: variants, Bots: bots(), Server: "http://a:1", Nodes: 2}, "exclude each other"},
		{"nodes without a database", bench.Config{Rooms: 1, Duration: time.Second, Variants: variants, Bots: bots(), Nodes: 3, Cluster: "nats://x"}, "3 nodes need --db"},
		{"nodes without a broker", bench.Config{Rooms: 1, Duration: time.Second, Variants: variants, Bots: bots(), Nodes: 2, DB: "host=x"}, "2 nodes need --db (PostgreSQL, which they share) and --cluster"},
		{"cluster on SQLite", bench.Config{Rooms: 1, Duration: time.Second, Variants: variants, Bots: bots(), Cluster: "nats://x"}, "--cluster needs --db"},
		{"more pids than servers", bench.Config{Rooms: 1, Duration: time.Second, Variants: variants, Bots: bots(), Server: "http://a:1", ServerPIDs: []int{1, 2}}, "2 server pids for 1 servers"},
		{"stop the only node", bench.Config{Rooms: 1, Duration: time.Second, Variants: variants, Bots: bots(), StopNodeAfter: time.Millisecond}, "two started nodes or more"},
		{"stop after the window", bench.Config{Rooms: 1, Duration: time.Second, Variants: variants, Bots: bots(), Nodes: 2, DB: "host=x", Cluster: "nats://x", StopNodeAfter: time.Second}, "lasts 1s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := bench.Run(context.Background(), tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

// TestRunInProcess plays the same games on the in-process engines.
func TestRunInProcess(t *testing.T) {
	engines := map[string]func() engine.Engine{
		"lastcard": func() engine.Engine { return engine.New(lastcard.New(), houserules.Enable()) },
		"hotspot":  func() engine.Engine { return engine.New(hotspot.New(), houserules.Enable()) },
		"drugs":    func() engine.Engine { return engine.New(drugs.New(), houserules.Enable()) },
	}
	res, err := bench.RunInProcess(context.Background(), bench.InProcessConfig{Rooms: 3, Duration: 2 * time.Second,
		Variants: variants, Engines: engines, Bots: bots(), Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := res.Print(&out); err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", out.String())
	if res.Actions <= 0 || res.Applied < res.Actions || res.Games <= 0 {
		t.Errorf("actions %d, applied %d, games %d: want actions, at least as many applied, and finished games", res.Actions, res.Applied, res.Games)
	}
	if res.CPU <= 0 || res.EngineShare <= 0 || res.EngineShare >= 1 || res.EngineCPUPerAction <= 0 {
		t.Errorf("CPU %.3f s, engine share %.2f, engine CPU per action %g", res.CPU, res.EngineShare, res.EngineCPUPerAction)
	}
	// The overhead ratio of a server run against it.
	srv := &bench.Result{Actions: 1000, ServerCPU: 1000 * res.EngineCPUPerAction * 4}
	srv.SetInProcess(res)
	if srv.Overhead < 3.99 || srv.Overhead > 4.01 {
		t.Errorf("overhead %.3f, want 4", srv.Overhead)
	}
}
