package ginrummy

import (
	"testing"

	"cardhouse/sdk/rulesettest"
)

// TestConformance runs the SDK's conformance kit with the default options, a low knock limit and
// big gin with a short game, with level-1 bots; and the level-2 bot's playouts.
func TestConformance(t *testing.T) {
	t.Parallel()
	rulesettest.RunLevels(t, New(),
		rulesettest.Config{BotLevel: 1, Options: []map[string]any{{}, {"knock_limit": 3, "target": 30}, {"big_gin": true, "target": 10}}},
		rulesettest.Config{BotLevel: 2, Seeds: 2})
}
