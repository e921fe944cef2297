package rulesettest_test

import (
	"path/filepath"
	"slices"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/botplay"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"
	"cardhouse/sdk/rulesettest"
	"cardhouse/sdk/rulesettest/toy"

	"github.com/google/go-cmp/cmp"
)

// TestHouseRuleEndsTheToy: a house rule ends the toy's game (it has no rounds) through the toy's
// own end, in-process and across the plugin process.
func TestHouseRuleEndsTheToy(t *testing.T) {
	t.Parallel()
	engines := map[string]func(t *testing.T) engine.Engine{
		"in-process": func(*testing.T) engine.Engine { return engine.New[toy.State](toy.Ruleset{}, houserules.Enable()) },
		"plugin": func(t *testing.T) engine.Engine {
			if testing.Short() {
				t.Skip("builds and launches the plugin executable")
			}
			return rulesettest.LaunchPlugin(t, filepath.Join("testdata", "toyplugin"))
		},
	}
	for name, open := range engines {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			round, game := rulesettest.HouseRuleEnds(t, open(t), 3, nil)
			for _, st := range []*engine.Step{round, game} {
				if st == nil {
					continue
				}
				if st.Status.Phase != sdk.PhaseGameOver || !slices.ContainsFunc(st.Events, func(ev sdk.Event) bool { return ev.Name == "won" && ev.Seat == st.Status.Winner }) {
					t.Errorf("the toy's end: phase %q, events %+v; want game_over and its won event", st.Status.Phase, st.Events)
				}
			}
		})
	}
}

// TestKitPlaysABotlessRuleset: the kit checks a ruleset that declares no bot with the engine's
// generic level-1 bot (its bot playouts end, every bot action accepted), in-process and across
// the plugin process, whose description offers level 1.
func TestKitPlaysABotlessRuleset(t *testing.T) {
	t.Parallel()
	small := rulesettest.Config{Seats: []int{2, 3}, Seeds: 2, RandomSteps: 80, MaxSteps: 5000}
	t.Run("in-process", func(t *testing.T) {
		t.Parallel()
		rulesettest.Run[toy.State](t, toy.Botless{}, small)
	})
	t.Run("plugin", func(t *testing.T) {
		t.Parallel()
		if testing.Short() {
			t.Skip("builds and launches the plugin executable")
		}
		p := rulesettest.LaunchPlugin(t, filepath.Join("testdata", "botlessplugin"))
		d, err := p.Describe(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(d.BotLevels, []int{engine.GenericLevel}) {
			t.Fatalf("the plugin offers bot levels %v, want [1]", d.BotLevels)
		}
		rulesettest.RunEngine(t, p, small)

		// The same seed plays the same games across the process as in-process.
		play := func(e engine.Engine) []botplay.Move {
			bot := botplay.EngineBot(e, botplay.Level(engine.GenericLevel), func(t *botplay.Turn) uint64 { return uint64(t.N) })
			res, err := botplay.Play(t.Context(), e, botplay.Config{Seats: 3, Seed: 11, Bot: bot, Order: botplay.OutOfTurnFirst,
				ThinkMS: 500, DueFirst: true, MaxSteps: 20000, Games: 2, Record: true})
			if err != nil || !res.Ended {
				t.Fatalf("generic bots: ended %v after %d steps: %v", res.Ended, res.Steps, err)
			}
			return res.Moves
		}
		if diff := cmp.Diff(play(engine.New[toy.State](toy.Botless{})), play(p)); diff != "" {
			t.Errorf("the plugin's generic bots played otherwise than in-process (-in-process +plugin):\n%s", diff)
		}
	})
}
