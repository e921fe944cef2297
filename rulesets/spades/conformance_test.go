package spades

import (
	"testing"

	"cardhouse/sdk/rulesettest"
)

// TestConformance runs the SDK's conformance kit on short games (to 100 points) with the mercy
// rule on and off and with blind nil, with level-1 and level-2 bots (level 1's random play
// rarely makes a contract, so without the mercy rule its games might never end: level 2 plays those).
func TestConformance(t *testing.T) {
	t.Parallel()
	rulesettest.RunLevels(t, New(),
		rulesettest.Config{BotLevel: 1, Options: []map[string]any{{"target": 100}, {"target": 100, "blind_nil": true}}},
		rulesettest.Config{BotLevel: 2, Seeds: 1, Options: []map[string]any{{}, {"blind_nil": true}, {"target": 150, "mercy": false}}})
}
