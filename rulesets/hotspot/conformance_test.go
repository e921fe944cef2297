package hotspot

import (
	"testing"

	"cardhouse/sdk/rulesettest"
)

// TestConformance runs the SDK's conformance kit with 2, 5 and 8 seats and both deck counts (one
// deck for 8 seats of 7 cards is refused by HS-11, so the kit skips it; 8 seats of 5 cards with
// one deck is checked instead), play_after_draw on and off, with level-1 bots; and the level-2
// bot's playouts with the default options.
func TestConformance(t *testing.T) {
	t.Parallel()
	rulesettest.RunLevels(t, New(),
		rulesettest.Config{Seats: []int{2, 5, 8}, BotLevel: 1, Options: []map[string]any{
			{"decks": 1}, {"decks": 2},
			{"decks": 1, "hand_size": 5, "play_after_draw": true, "last_card_seconds": 2},
		}},
		rulesettest.Config{Seats: []int{2, 5, 8}, BotLevel: 2, Seeds: 1})
}
