package spades_test

import (
	"testing"

	"cardhouse/rulesets/spades"
	"cardhouse/sdk/search"
	"cardhouse/sdk/search/searchtest"
)

// BenchmarkSearch times one search with the generic level 5's budget (its clock off) from the
// first decision of a game, and reports the simulated actions per second.
func BenchmarkSearch(b *testing.B) {
	cfg, _ := search.Level(5)
	cfg.Time = 0
	searchtest.BenchmarkSearch(b, spades.New(), 4, map[string]any{}, cfg)
}

// BenchmarkLevelFiveMove times level 5's whole move (Bot, its clock on as in a game) at the cards
// played with a choice in a hand of level-2 bots (the bids, which every level makes as level 2,
// aside), and reports ms/move and the slowest move.
func BenchmarkLevelFiveMove(b *testing.B) {
	searchtest.BenchmarkMove(b, spades.New(), searchtest.Config{Seats: 4, Options: map[string]any{"target": 500, "mercy": true}, Seeds: []uint64{3}}, 5,
		func(d searchtest.Decision[*spades.State]) bool { return d.State.Stage == spades.StagePlay })
}
