package lastcard_test

import (
	"testing"

	"cardhouse/rulesets/lastcard"
	"cardhouse/sdk/search"
	"cardhouse/sdk/search/searchtest"
)

// BenchmarkSearch times one tree search of 700 iterations from the first decision of a two-seat
// round, and reports the simulated actions per second.
func BenchmarkSearch(b *testing.B) {
	searchtest.BenchmarkSearch(b, lastcard.New(), 2, map[string]any{"target": "single"}, search.Config{Iterations: 700, Tree: true})
}
