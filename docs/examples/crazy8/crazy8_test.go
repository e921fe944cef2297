package crazy8_test

import (
	"context"
	"slices"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest"

	"example.com/crazy8"
)

// options are the option sets the conformance kit plays: the default hand and a short one.
var options = []map[string]any{{}, {"hand_size": 2}}

// TestConformance runs the conformance kit in-process: determinism, card conservation, refusals
// that change nothing, views that hide what they must (through Redeal), bot games that end.
func TestConformance(t *testing.T) {
	rulesettest.Run(t, crazy8.Ruleset{}, rulesettest.Config{Options: options, BotLevel: 2})
}

// TestScenarios plays testdata/ in-process.
func TestScenarios(t *testing.T) {
	rulesettest.Scenarios(t, engine.New(crazy8.Ruleset{}), "testdata")
}

// TestAcrossThePluginProcess builds cmd/crazy8, launches it as the host does and runs the
// scenarios and the engine checks of the kit through the real process.
func TestAcrossThePluginProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and launches the plugin executable")
	}
	p := rulesettest.LaunchPlugin(t, "cmd/crazy8")
	t.Run("scenarios", func(t *testing.T) { rulesettest.Scenarios(t, p, "testdata") })
	t.Run("engine", func(t *testing.T) {
		rulesettest.RunEngine(t, p, rulesettest.Config{Seats: []int{2, 4}, Seeds: 1, Options: options, BotLevel: 2})
	})
}

// TestRedealKeepsTheDrawnCard checks what the kit cannot see from another seat's view: a redeal
// for a viewer other than the drawer leaves the drawn card in the drawer's hand, so the sampled
// world still lets the drawer play it.
func TestRedealKeepsTheDrawnCard(t *testing.T) {
	r := crazy8.Ruleset{}
	first := 0
	s, err := r.Start(context.Background(), sdk.StartRequest{Seats: 3, Options: sdk.Options{"hand_size": 5}, Deal: &sdk.Deal{
		Pile: sdk.MustParseCards("9C"), Hands: [][]sdk.Card{sdk.MustParseCards("KD 2H")}, Deck: sdk.MustParseCards("5C"), First: &first,
	}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Apply(context.Background(), sdk.ApplyRequest[crazy8.State]{State: s, Action: sdk.Action{Seat: 0, Type: sdk.ActDraw}})
	if err != nil {
		t.Fatal(err)
	}
	if res.State.Drawn != sdk.MustParseCards("5C")[0] {
		t.Fatalf("drawn %v, want 5C", res.State.Drawn)
	}
	for seed := range uint64(50) {
		rng := sdk.NewRNG(seed)
		for _, viewer := range []int{1, 2, sdk.Spectator} {
			c := r.Redeal(res.State, viewer, &rng)
			if !slices.Contains(c.Hands[0], c.Drawn) || len(c.Hands[0]) != 3 {
				t.Fatalf("seed %d, viewer %d: hand 0 is %v, want 3 cards with the drawn %v", seed, viewer, c.Hands[0], c.Drawn)
			}
		}
	}
}
