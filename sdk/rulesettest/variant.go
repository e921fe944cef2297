package rulesettest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
)

// The tests every variant has, given the variant's specifics: its conformance runs (RunLevels),
// its plugin process (AcrossThePluginProcess) and what its own end and scoring announce when a
// house rule ends a round or the game (CheckEnds).

// RunLevels runs Run once per config, each as a parallel subtest named after its bot level
// ("bot1", "bot2"; "bot" for the lowest level, 0): typically one config with level-1 bots over
// the option sets that change the rules' paths, and one with the level-2 bots' playouts.
func RunLevels[S any](t *testing.T, r sdk.Ruleset[S], cfgs ...Config) {
	t.Helper()
	for _, cfg := range cfgs {
		name := "bot"
		if cfg.BotLevel > 0 {
			name = fmt.Sprintf("bot%d", cfg.BotLevel)
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			Run(t, r, cfg)
		})
	}
}

// AcrossThePluginProcess builds the plugin main package in dir, launches it as the host does
// (LaunchPlugin) and runs through the real process, as the subtests "scenarios" and "engine",
// the scenarios under dirs plus the shared ones of the ruleset id (SharedScenarios) and the
// engine half of the kit (RunEngine) with cfg. It skips when the tests are short.
//
// Typical use, in a plugin's main package:
//
//	func TestAcrossThePluginProcess(t *testing.T) {
//		rulesettest.AcrossThePluginProcess(t, ".", "crazy8", rulesettest.Config{Seeds: 1}, "../../rulesets/crazy8/testdata")
//	}
func AcrossThePluginProcess(t *testing.T, dir, id string, cfg Config, dirs ...string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and launches the plugin executable")
	}
	p := LaunchPlugin(t, dir)
	dirs = SharedScenarios(t, id, dirs...)
	t.Run("scenarios", func(t *testing.T) { Scenarios(t, p, dirs...) })
	t.Run("engine", func(t *testing.T) { RunEngine(t, p, cfg) })
}

// Ending is what the step a house rule's end leads to must show of the ruleset's own end and
// scoring, beyond what HouseRuleEnds checks of every ruleset.
type Ending struct {
	// Phase is the step's phase; "" accepts any.
	Phase string
	// Events are the names of events the step must hold, each by the step's winner
	// (Status.Winner) unless AnySeat.
	Events  []string
	AnySeat bool
	// Data are values each of those events must carry (DRUGS: reason house_rule).
	Data map[string]string
}

// CheckEnds returns a check for HouseRuleEndsInAndOut: the step game.end_round led to must show
// round, the one game.end_game led to must show game.
func CheckEnds(round, game Ending) func(t *testing.T, roundStep, gameStep *engine.Step) {
	return func(t *testing.T, roundStep, gameStep *engine.Step) {
		t.Helper()
		round.check(t, "end_round", roundStep)
		game.check(t, "end_game", gameStep)
	}
}

func (want Ending) check(t testing.TB, fn string, st *engine.Step) {
	t.Helper()
	ok := want.Phase == "" || st.Status.Phase == want.Phase
	for _, name := range want.Events {
		ok = ok && slices.ContainsFunc(st.Events, func(ev sdk.Event) bool { return want.matches(ev, name, st.Status.Winner) })
	}
	if ok {
		return
	}
	var wants []string
	if want.Phase != "" {
		wants = append(wants, want.Phase)
	}
	if len(want.Events) > 0 {
		by := fmt.Sprintf(" by the winner (seat %d)", st.Status.Winner)
		if want.AnySeat {
			by = ""
		}
		wants = append(wants, fmt.Sprintf("the events %s%s", strings.Join(want.Events, ", "), by))
	}
	if len(want.Data) > 0 {
		wants = append(wants, fmt.Sprintf("carrying %v", want.Data))
	}
	t.Errorf("%s: phase %q, events %+v; want %s", fn, st.Status.Phase, st.Events, strings.Join(wants, " with "))
}

func (want Ending) matches(ev sdk.Event, name string, winner int) bool {
	if ev.Name != name || !want.AnySeat && ev.Seat != winner {
		return false
	}
	for k, v := range want.Data {
		if ev.Data[k] != v {
			return false
		}
	}
	return true
}
