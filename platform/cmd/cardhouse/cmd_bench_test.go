package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestBenchCommand runs `cardhouse bench` as a user would, from a built binary (the bench starts
// that binary's `serve`, which launches its plugins), and checks the printed table and JSON.
func TestBenchCommand(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "cardhouse")
	if out, err := exec.Command("go", "build", "-o", bin, "cardhouse/platform/cmd/cardhouse").CombinedOutput(); err != nil {
		t.Fatalf("building cardhouse: %v: %s", err, out)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, "bench", "--rooms", "2", "--duration", "2s", "--warmup", "0", "--variants", "lastcard,drugs", "--json")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("cardhouse bench: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	out := stdout.String()
	t.Logf("\n%s", out)
	for _, want := range []string{
		"cardhouse bench: 2 rooms x 4 players + 0 spectators = 8 sockets; variants lastcard,drugs",
		"accepted actions", "actions/s", "latency p50 / p95 / p99 / max", "games finished", "refusals",
		"server CPU", "actions per server CPU-second", "server peak RSS", "server VmHWM per process", "client CPU",
		// Read off the started server's /metrics (it runs with --public-metrics).
		"transactions (group commits)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q", want)
		}
	}
	i := strings.Index(out, "\n{")
	if i < 0 {
		t.Fatal("no JSON after the table")
	}
	var res struct {
		Rooms   int              `json:"rooms"`
		Sockets int              `json:"sockets"`
		Actions int64            `json:"actions"`
		Errors  map[string]int64 `json:"errors"`
		Latency struct {
			Samples int `json:"samples"`
		} `json:"latency_ms"`
		ServerCPU float64 `json:"server_cpu_seconds"`
	}
	if err := json.Unmarshal([]byte(out[i+1:]), &res); err != nil {
		t.Fatalf("the JSON: %v", err)
	}
	if res.Rooms != 2 || res.Sockets != 8 || res.Actions <= 0 || len(res.Errors) != 0 || res.Latency.Samples != int(res.Actions) || res.ServerCPU <= 0 {
		t.Errorf("JSON result %+v: want 2 rooms, 8 sockets, actions, no error, a sample per action, server CPU", res)
	}
	if strings.Contains(stderr.String(), "no group commit figures") {
		t.Errorf("the bench could not read the server's /metrics:\n%s", stderr.String())
	}
	if !strings.Contains(stderr.String(), "set up 2/2 rooms") {
		t.Errorf("no setup progress on stderr:\n%s", stderr.String())
	}
}

// TestBenchInProcess runs `cardhouse bench --inprocess`: no server, the engines straight.
func TestBenchInProcess(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	cmd := newBenchCmd()
	cmd.SetArgs([]string{"--inprocess", "--rooms", "3", "--duration", "1s", "--warmup", "0", "--variants", "lastcard,hotspot,drugs"})
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	if err := cmd.Execute(); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	for _, want := range []string{"in-process: 3 games at once", "actions/s", "actions per CPU-second", "engine share of the loop"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// TestBenchRefusesUnknownVariant checks that an unknown variant is refused before anything runs.
func TestBenchRefusesUnknownVariant(t *testing.T) {
	t.Parallel()
	cmd := newBenchCmd()
	cmd.SetArgs([]string{"--variants", "lastcard,poker"})
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	if err := cmd.Execute(); err == nil || !strings.Contains(err.Error(), `no built-in variant "poker"`) {
		t.Errorf("error %v, want one naming poker", err)
	}
}

// TestBenchClusterFlags checks that the cluster flags reach the bench and that a setting that
// cannot work is refused before anything starts, saying which flag to fix.
func TestBenchClusterFlags(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"nodes without database and broker", []string{"--nodes", "3"}, "3 nodes need --db (PostgreSQL, which they share) and --cluster"},
		{"cluster without database", []string{"--cluster", "nats://127.0.0.1:1"}, "--cluster needs --db"},
		{"pids of the servers", []string{"--server", "http://127.0.0.1:1", "--server-pids", "10,11"}, "2 server pids for 1 servers"},
		{"a list of servers and started nodes", []string{"--server", "http://127.0.0.1:1,http://127.0.0.1:2", "--nodes", "2"}, "exclude each other"},
		{"stop a node of one", []string{"--stop-node", "5s"}, "two started nodes or more"},
		{"idle on started nodes", []string{"--idle-rooms", "1", "--nodes", "2"}, "--nodes does not apply to --idle-rooms"},
		{"idle with spectators", []string{"--idle-rooms", "1", "--spectators", "2"}, "--spectators does not apply to --idle-rooms"},
		{"idle on several servers", []string{"--idle-rooms", "1", "--server", "http://127.0.0.1:1,http://127.0.0.1:2"}, "held on one server, got 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := newBenchCmd()
			cmd.SetArgs(append([]string{"--rooms", "1", "--duration", "10s"}, tc.args...))
			cmd.SetOut(io.Discard)
			cmd.SetErr(io.Discard)
			err := cmd.Execute()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

// TestBenchBotsComeFromTheBuiltinList: the bench's client-side bots are read from
// plugins/builtin, one for each built-in variant with a bot of its own (today all three).
func TestBenchBotsComeFromTheBuiltinList(t *testing.T) {
	t.Parallel()
	bots := benchBots()
	for _, id := range []string{"drugs", "hotspot", "lastcard"} {
		if bots[id] == nil {
			t.Errorf("no bench bot for %s", id)
		}
	}
	ids := builtinIDs()
	for id := range bots {
		if !slices.Contains(ids, id) {
			t.Errorf("a bench bot for %s, which is not built in (%v)", id, ids)
		}
	}
}
