package ginrummy_test

import (
	"testing"

	"cardhouse/rulesets/ginrummy"
	"cardhouse/sdk/search"
	"cardhouse/sdk/search/searchtest"
)

// BenchmarkSearch times one search with the generic level 5's budget (the clock off) from the
// first decision of a game, and reports the simulated actions per second.
func BenchmarkSearch(b *testing.B) {
	cfg, _ := search.Level(5)
	cfg.Time = 0
	searchtest.BenchmarkSearch(b, ginrummy.New(), 2, map[string]any{}, cfg)
}

// BenchmarkLevelFiveMove times level 5's whole move, its clock on as in a room, at the decisions
// with a choice of a hand played by level 2 (draws, discards, knocks and layoffs alike), and
// reports ms/move and the slowest move.
func BenchmarkLevelFiveMove(b *testing.B) {
	searchtest.BenchmarkMove(b, ginrummy.New(), searchtest.Config{Seats: 2, Options: map[string]any{"target": 100}, Seeds: []uint64{3, 4}}, 5, nil)
}
