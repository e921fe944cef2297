package rulesettest

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"cardhouse/sdk/engine"
	"cardhouse/sdk/plugin"
)

var (
	buildMu sync.Mutex
	built   = map[string]*builtPlugin{}
)

// builtPlugin is a plugin binary built by LaunchPlugin, shared by the tests using it at once and
// removed (its whole temporary folder) when the last of them ends.
type builtPlugin struct {
	dir, bin string
	users    int
}

// LaunchPlugin builds the plugin main package in dir with `go build` (once for the tests that
// use it at the same time; Go's build cache makes a later build quick), and returns a supervised
// process of it, closed when the test ends. It is how a plugin author runs the scenarios and
// RunEngine across the real process boundary. The binary (some 20 MB) lives in a temporary
// folder removed when the last test using it ends. It skips the test when the go command is not
// on PATH, and fails it when the build fails.
func LaunchPlugin(tb testing.TB, dir string) *plugin.Process {
	tb.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		tb.Skip("the go command is not on PATH: cannot build the plugin")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		tb.Fatal(err)
	}
	buildMu.Lock()
	b, ok := built[abs]
	if !ok {
		tmp, err := os.MkdirTemp("", "cardhouse-plugin-")
		if err != nil {
			buildMu.Unlock()
			tb.Fatal(err)
		}
		b = &builtPlugin{dir: tmp, bin: filepath.Join(tmp, filepath.Base(abs))}
		cmd := exec.Command(gobin, "build", "-o", b.bin, ".")
		cmd.Dir = abs
		if out, err := cmd.CombinedOutput(); err != nil {
			buildMu.Unlock()
			_ = os.RemoveAll(tmp)
			tb.Fatalf("go build %s: %v\n%s", dir, err, out)
		}
		built[abs] = b
	}
	b.users++
	buildMu.Unlock()
	p := plugin.NewProcess(plugin.Spec{Path: b.bin}, plugin.Config{})
	tb.Cleanup(func() {
		if err := p.Close(); err != nil {
			tb.Errorf("closing the plugin %s: %v", dir, err)
		}
		buildMu.Lock()
		defer buildMu.Unlock()
		if b.users--; b.users == 0 {
			delete(built, abs)
			if err := os.RemoveAll(b.dir); err != nil {
				tb.Errorf("removing the plugin binary of %s: %v", dir, err)
			}
		}
	})
	return p
}

// SharedScenarios returns dirs plus the shared scenario folder of a ruleset when it is present:
// ../shared/scenarios/ID beside the repository (two levels above a plugin or ruleset package).
func SharedScenarios(tb testing.TB, id string, dirs ...string) []string {
	tb.Helper()
	shared := filepath.Join("..", "..", "..", "shared", "scenarios", id)
	if _, err := os.Stat(shared); err == nil {
		return append(dirs, shared)
	}
	tb.Logf("no shared scenarios at %s: running the package's own", shared)
	return dirs
}

var _ engine.Engine = (*plugin.Process)(nil)
