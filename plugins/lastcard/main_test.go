package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"cardhouse/sdk/plugin"
	"cardhouse/sdk/rulesettest"
)

// TestAcrossThePluginProcess builds this plugin, launches it as the host does and runs the
// ruleset's scenarios (its own and the shared ones) and the engine conformance checks through the
// real process.
func TestAcrossThePluginProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and launches the plugin executable")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH: cannot build the plugin")
	}
	bin := filepath.Join(t.TempDir(), "lastcard")
	if out, err := exec.Command(gobin, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	p := plugin.NewProcess(plugin.Spec{Path: bin}, plugin.Config{})
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Errorf("closing the plugin: %v", err)
		}
		plugin.CleanupClients(5 * time.Second)
	})
	dirs := []string{filepath.Join("..", "..", "rulesets", "lastcard", "testdata")}
	if shared := filepath.Join("..", "..", "..", "shared", "scenarios", "lastcard"); exists(shared) {
		dirs = append(dirs, shared)
	}
	t.Run("scenarios", func(t *testing.T) { rulesettest.Scenarios(t, p, dirs...) })
	t.Run("engine", func(t *testing.T) {
		rulesettest.RunEngine(t, p, rulesettest.Config{
			Seats: []int{2, 4}, Seeds: 1, RandomSteps: 60,
			Options: []map[string]any{{"target": "single"}, {"target": "single", "last_card_mode": "auto", "stack_draw_two": false}},
		})
	})
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
