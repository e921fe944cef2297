package simple_test

import (
	"os"
	"testing"

	"cardhouse/sdk/engine"
	"cardhouse/sdk/plugin"
	"cardhouse/sdk/rulesettest"
	"cardhouse/sdk/simple"
)

// servePluginEnv, set to 1, makes this test binary serve Go Fish as a plugin process instead of
// running tests: the plugin test (and web's Go Fish test) start the binary so, which puts the
// example's game across the real process boundary without a main of its own.
const servePluginEnv = "CARDHOUSE_SIMPLE_SERVE_GOFISH"

func TestMain(m *testing.M) {
	if os.Getenv(servePluginEnv) == "1" {
		plugin.Serve(engine.New(simple.New(goFish)))
		return
	}
	os.Exit(m.Run())
}

// TestGoFishConformance runs the conformance kit on the example's Go Fish, in-process, at every
// seat count (2 to 5).
func TestGoFishConformance(t *testing.T) {
	t.Parallel()
	rulesettest.Run(t, simple.New(goFish), rulesettest.Config{})
}

// TestGoFishPlugin runs the kit's engine checks across the real plugin process: this test binary
// started again with servePluginEnv set (see TestMain).
func TestGoFishPlugin(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := plugin.NewProcess(plugin.Spec{Path: exe, Env: []string{servePluginEnv + "=1"}}, plugin.Config{})
	t.Cleanup(func() { _ = p.Close() })
	t.Run("kit", func(t *testing.T) {
		rulesettest.RunEngine(t, p, rulesettest.Config{Seats: []int{2, 4}, Seeds: 1, RandomSteps: 60})
	})
	t.Run("scenarios", func(t *testing.T) { rulesettest.Scenarios(t, p, "testdata") })
}

// TestGoFishScenarios runs the rule scenarios of testdata/ in-process.
func TestGoFishScenarios(t *testing.T) {
	t.Parallel()
	rulesettest.Scenarios(t, engine.New(simple.New(goFish)), "testdata")
}
