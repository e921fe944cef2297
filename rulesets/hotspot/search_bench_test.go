package hotspot_test

import (
	"testing"

	"cardhouse/rulesets/hotspot"
	"cardhouse/sdk/search"
	"cardhouse/sdk/search/searchtest"
)

// BenchmarkSearch times one search with the generic level 5's budget from the first decision of
// a two-seat game, and reports the simulated actions per second.
func BenchmarkSearch(b *testing.B) {
	cfg, _ := search.Level(5)
	cfg.Time = 0
	searchtest.BenchmarkSearch(b, hotspot.New(), 2, map[string]any{}, cfg)
}
