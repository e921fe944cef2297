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
