package plugin_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest/toy"
)

// counter is the game the tests serve across the boundary: the conformance kit's toy
// (sdk/rulesettest/toy), with a few action types that misbehave on purpose: "panic" panics in the
// ruleset, "error" fails, "exit" ends the plugin process, "hang" never returns (and says so on
// stderr first).
type counter struct{ toy.Ruleset }

// origStderr is the plugin's real stderr, kept before go-plugin's Serve redirects os.Stderr.
var origStderr = os.Stderr

func (c counter) Apply(ctx context.Context, req sdk.ApplyRequest[toy.State]) (sdk.ApplyResponse[toy.State], error) {
	switch req.Action.Type {
	case "panic":
		panic("boom: the counter ruleset panicked on purpose")
	case "error":
		return sdk.ApplyResponse[toy.State]{}, errors.New("the counter ruleset failed on purpose")
	case "exit":
		os.Exit(3)
	case "hang":
		fmt.Fprintf(origStderr, "counter: hanging pid=%d\n", os.Getpid())
		select {} // never returns: the host must time out and kill this process
	case sdk.ActPlay:
		a, s := req.Action, req.State
		if a.Seat >= 0 && a.Seat < len(s.Hands) && len(a.Cards) == 1 {
			if _, ok := sdk.RemoveCards(s.Hands[a.Seat], a.Cards); !ok {
				// With a ruling of its own ("C-1", no ruling page's), so that a refusal's Ruling
				// is seen to cross the plugin boundary.
				return sdk.ApplyResponse[toy.State]{}, sdk.RefuseUnder("C-1", sdk.CodeNotHeld, "seat %d holds no %s", a.Seat, a.Cards[0])
			}
		}
	}
	return c.Ruleset.Apply(ctx, req)
}

// Observe adds to the toy's observation a bool and a map, which have no scenario type: they
// travel as JSON, and the tests check that they come back with their Go types.
func (c counter) Observe(s toy.State) sdk.Observation {
	o := c.Ruleset.Observe(s)
	o["over"] = s.Phase == sdk.PhaseGameOver
	o["score"] = map[string]any{"hand_size": s.HandSize}
	return o
}

// panicky wraps an engine and panics outside the SDK's own guard, in the plugin server itself,
// when asked to act "server_panic".
type panicky struct{ engine.Engine }

func (p panicky) Act(ctx context.Context, req *engine.ActRequest) (*engine.Step, error) {
	if req.Action.Type == "server_panic" {
		panic("boom: the engine wrapper panicked outside the SDK's guard")
	}
	return p.Engine.Act(ctx, req)
}

// testEngine is what the test plugin serves, and what the in-process comparisons call.
func testEngine() engine.Engine { return panicky{engine.New[toy.State](counter{})} }
