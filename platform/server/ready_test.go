package server_test

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"cardhouse/sdk/engine"
	"cardhouse/sdk/plugin"
)

// readyOf reads the node's /readyz: its status code and body.
func readyOf(t *testing.T, e *env) (int, map[string]any) {
	t.Helper()
	var body map[string]any
	st := e.guest("Probe").call("GET", "/readyz", nil, &body)
	return st, body
}

// /readyz follows the variants' plugin processes: ready while the real plugin answers; once the
// process is killed and cannot launch again (it exits at start while a file exists), 503 naming
// the variant, while /healthz, the liveness check, stays 200; ready again once it launches.
func TestReadyzFollowsThePlugins(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(t.TempDir(), "broken")
	p := plugin.NewProcess(plugin.Spec{Path: exe, Env: []string{pluginEnv + "=" + matcherID, pluginFailEnv + "=" + broken}}, plugin.Config{})
	t.Cleanup(func() { p.Close() })
	e := newEnv(t, "sqlite", map[string]engine.Engine{matcherID: p})
	if st, body := readyOf(t, e); st != http.StatusOK || body["status"] != "ready" {
		t.Fatalf("/readyz with the plugin up: %d %v", st, body)
	}
	if err := os.WriteFile(broken, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	killPlugin(t, p)
	waitUntil(t, "/readyz to say the plugin is down", func() bool {
		st, body := readyOf(t, e)
		failed, _ := body["rulesets"].(map[string]any)
		return st == http.StatusServiceUnavailable && body["status"] == "not_ready" && failed[matcherID] != nil
	})
	var h struct{ Status string }
	if st := e.guest("Live").call("GET", "/healthz", nil, &h); st != http.StatusOK || h.Status != "ok" {
		t.Errorf("/healthz with a plugin down: %d %+v, want 200 ok (the node lives)", st, h)
	}
	if err := os.Remove(broken); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "/readyz to be ready again", func() bool {
		st, _ := readyOf(t, e)
		return st == http.StatusOK
	})
}

// waitUntil polls ok until it holds, failing t after waitFor.
func waitUntil(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitFor)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s", waitFor, what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
