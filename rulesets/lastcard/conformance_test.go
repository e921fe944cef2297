package lastcard_test

import (
	"testing"

	"cardhouse/rulesets/lastcard"
	"cardhouse/sdk/rulesettest"
)

// optionSets are the option combinations that change the rules' paths: stacking on and off,
// both Draw Four rules, both Last card modes, and each target (single and 200 end games sooner;
// 500 runs several rounds).
var optionSets = []map[string]any{
	{},
	{"stack_draw_two": false, "draw_four": "any_time"},
	{"last_card_mode": "auto", "target": "single"},
	{"last_card_mode": "auto", "stack_draw_two": false, "target": "200"},
	{"draw_four": "any_time", "last_card_mode": "catch", "target": "200"},
}

// TestConformance runs the SDK's conformance kit on seats 2, 3 and 4 with every option set:
// determinism, card conservation, refusals that change nothing, Apply not mutating its input,
// views unchanged by a Redeal of what they hide, bot playouts that end, and TableEditor round
// trips. The bot playouts are played by level 2 bots, and again by level 1 bots on the option
// sets of shorter games (level 1 games to 500 run to some 1,700 steps: covered by the benchmark); -short skips
// the level 1 pass.
func TestConformance(t *testing.T) {
	t.Run("level2", func(t *testing.T) {
		rulesettest.Run(t, lastcard.New(), rulesettest.Config{Seats: []int{2, 3, 4}, Options: optionSets, BotLevel: 2})
	})
	if testing.Short() {
		return
	}
	t.Run("level1", func(t *testing.T) {
		rulesettest.Run(t, lastcard.New(), rulesettest.Config{Seats: []int{2, 3, 4}, Options: optionSets[2:], BotLevel: 1, Seeds: 1})
	})
}
