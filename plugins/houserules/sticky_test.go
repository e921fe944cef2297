package houserules_test

import (
	"context"
	"testing"

	"cardhouse/rulesets/drugs"
	"cardhouse/rulesets/hotspot"
	"cardhouse/rulesets/lastcard"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"
	"cardhouse/sdk/rulesettest"
)

// TestStickyCacheGivesWhatTheBytesGive plays bot games of every variant, with and without house
// rules (whose memory the runner advances in place, so the engine keeps those games as bytes),
// through the sticky engine as a room does, restarting it at random moments: every step, bot
// choice, check and inspection is byte for byte what the whole state's bytes give, and so is a
// fresh engine given the stored state and the actions since.
func TestStickyCacheGivesWhatTheBytesGive(t *testing.T) {
	t.Parallel()
	news := map[string]func() engine.Engine{
		"lastcard": func() engine.Engine { return engine.New(lastcard.New(), houserules.Enable()) },
		"hotspot":  func() engine.Engine { return engine.New(hotspot.New(), houserules.Enable()) },
		"drugs":    func() engine.Engine { return engine.New(drugs.New(), houserules.Enable()) },
	}
	cases := []struct {
		ruleset string
		seats   int
		rules   []string
	}{
		{"lastcard", 3, nil},
		{"lastcard", 3, []string{"seven-zero.lua", "jump-in.lua"}},
		{"lastcard", 2, []string{"draw-to-match.lua", "winner-bonus.lua"}},
		{"hotspot", 3, nil},
		{"hotspot", 3, []string{"pick-up-five.lua"}},
		{"drugs", 2, nil},
		{"drugs", 2, []string{"play-lower.lua"}},
	}
	for i, c := range cases {
		name := c.ruleset
		for _, r := range c.rules {
			name += "+" + r
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var rules []sdk.HouseRule
			for _, path := range c.rules {
				rule, _, err := houserules.FromFile(context.Background(), path)
				if err != nil {
					t.Fatal(err)
				}
				rules = append(rules, rule)
			}
			fresh := news[c.ruleset]
			rulesettest.CheckSticky(t, fresh(), fresh(), rulesettest.StickyConfig{
				Game:    engine.NewGameRequest{Seats: c.seats, Seed: uint64(100 + i), HouseRules: rules, Now: 1_000_000},
				Fresh:   fresh,
				Restart: func(testing.TB, engine.Engine) engine.Engine { return fresh() },
				Seed:    uint64(i),
			})
		})
	}
}
