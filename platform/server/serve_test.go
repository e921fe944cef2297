package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestServeCommand runs `cardhouse serve` as a process on a free port: health, metrics, a room
// over HTTP and WebSocket, then SIGTERM: the WebSocket is closed "going away" and the process
// exits cleanly; started again on the same data, the room is still there.
func TestServeCommand(t *testing.T) {
	if cardhouseBin == "" {
		t.Skipf("the cardhouse binary does not build yet: %s", cardhouseBuildErr)
	}
	data := t.TempDir()
	// logged are the server's stderr lines (plugins' included, at debug level): each must be
	// one JSON record.
	var logged struct {
		sync.Mutex
		lines []string
	}
	metricsBase := ""
	start := func() (*exec.Cmd, string) {
		cmd := exec.Command(cardhouseBin, "serve", "--addr", "127.0.0.1:0", "--data", data, "--bot-delay", "0",
			"--log-level", "debug", "--metrics-addr", "127.0.0.1:0")
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		lines := bufio.NewScanner(stderr)
		keep := func(l string) { logged.Lock(); logged.lines = append(logged.lines, l); logged.Unlock() }
		for lines.Scan() {
			keep(lines.Text())
			var rec map[string]any
			if json.Unmarshal(lines.Bytes(), &rec) == nil && rec["msg"] == "serving" {
				go func() {
					for lines.Scan() {
						keep(lines.Text())
					}
				}()
				metricsBase = "http://" + rec["metrics_addr"].(string)
				return cmd, "http://" + rec["addr"].(string)
			}
		}
		t.Fatalf("cardhouse serve exited before serving: %v", lines.Err())
		return nil, ""
	}
	cmd, base := start()

	get := func(c *http.Client, path string) (int, string) {
		resp, err := c.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if st, body := get(http.DefaultClient, "/healthz"); st != 200 || !strings.Contains(body, `"sqlite"`) {
		t.Fatalf("/healthz: %d %s", st, body)
	}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	post := func(path, csrf, body string) map[string]any {
		req, _ := http.NewRequest("POST", base+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-CSRF-Token", csrf)
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		if resp.StatusCode >= 300 {
			t.Fatalf("POST %s: %d %v", path, resp.StatusCode, out)
		}
		return out
	}
	acct := post("/api/guest", "", `{"name":"Zed"}`)
	csrf := acct["csrf_token"].(string)
	var rulesets struct {
		Rulesets []struct {
			ID string `json:"id"`
		} `json:"rulesets"`
	}
	_, body := get(c, "/api/rulesets")
	_ = json.Unmarshal([]byte(body), &rulesets)
	if len(rulesets.Rulesets) == 0 {
		t.Skipf("the binary serves no variant yet: %s", body)
	}
	r := post("/api/rooms", csrf, `{"ruleset":"`+rulesets.Rulesets[0].ID+`"}`)
	code := r["room"].(map[string]any)["code"].(string)
	ws, _, err := websocket.Dial(context.Background(), "ws"+base[len("http"):]+"/api/rooms/"+code+"/ws", &websocket.DialOptions{HTTPClient: c})
	if err != nil {
		t.Fatal(err)
	}
	if _, hello, err := ws.Read(context.Background()); err != nil || !strings.Contains(string(hello), `"hello"`) {
		t.Fatalf("hello: %s %v", hello, err)
	}
	// /metrics: admins only on the site's listener, anyone on --metrics-addr's.
	if st, body := get(c, "/metrics"); st != http.StatusForbidden || !strings.Contains(body, "admin_only") {
		t.Fatalf("/metrics of the site as a guest: %d %s, want 403 admin_only", st, body)
	}
	if st, body := get(http.DefaultClient, "/metrics"); st != http.StatusUnauthorized {
		t.Fatalf("/metrics of the site without a session: %d %s, want 401", st, body)
	}
	resp, err := http.Get(metricsBase + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	mb, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if body := string(mb); resp.StatusCode != 200 || !strings.Contains(body, "cardhouse_connections 1") || !strings.Contains(body, "cardhouse_rooms_live 1") {
		t.Fatalf("--metrics-addr /metrics: %d\n%s", resp.StatusCode, body)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var closeErr error
	for closeErr == nil {
		_, _, closeErr = ws.Read(context.Background())
	}
	if websocket.CloseStatus(closeErr) != websocket.StatusGoingAway {
		t.Fatalf("websocket at shutdown: %v, want going away", closeErr)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("cardhouse serve exited with %v", err)
		}
	case <-time.After(waitFor):
		t.Fatal("cardhouse serve did not exit after SIGTERM")
	}

	_, base = start()
	if st, body := get(c, "/api/rooms/"+code); st != 200 || !strings.Contains(body, code) {
		t.Fatalf("room %s after a restart: %d %s", code, st, body)
	}

	logged.Lock()
	defer logged.Unlock()
	plugins := 0
	for _, l := range logged.lines {
		var rec map[string]any
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Errorf("cardhouse serve logged a line that is not JSON: %s", l)
			continue
		}
		if name, _ := rec["logger"].(string); strings.HasPrefix(name, "plugin") {
			plugins++
		}
	}
	if plugins == 0 {
		t.Errorf("no record of the plugin host among %d lines: the test sees none of what it checks", len(logged.lines))
	}
}
