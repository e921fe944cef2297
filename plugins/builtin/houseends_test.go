package builtin_test

import (
	"maps"
	"path/filepath"
	"slices"
	"testing"

	"cardhouse/plugins/builtin"
	"cardhouse/sdk"
	"cardhouse/sdk/rulesettest"
)

// TestHouseRuleEnds: for every built-in variant, a house rule's game.end_round and game.end_game
// reach the variant's own end (its sdk.Ender) and scoring, in-process and across its plugin
// process (plugins/ID), and assigning game.winner is refused with its line (HouseRuleEnds). The
// table says what each variant's end announces; a variant added to Engines needs its line here.
func TestHouseRuleEnds(t *testing.T) {
	t.Parallel()
	gameOver := func(events ...string) rulesettest.Ending {
		return rulesettest.Ending{Phase: sdk.PhaseGameOver, Events: events}
	}
	variants := map[string]struct {
		seats       int
		round, game rulesettest.Ending
	}{
		// DRUGS has no rounds: either end is the game's (D-9), its won event saying why.
		"drugs": {4, rulesettest.Ending{Phase: sdk.PhaseGameOver, Events: []string{"won"}, AnySeat: true, Data: map[string]string{"reason": "house_rule"}},
			rulesettest.Ending{Phase: sdk.PhaseGameOver, Events: []string{"won"}, AnySeat: true, Data: map[string]string{"reason": "house_rule"}}},
		// A Gin hand ended scores the deadwood difference; the game goes on to its target (100).
		"ginrummy": {2, rulesettest.Ending{Phase: sdk.PhaseRoundOver, Events: []string{"hand_scored", "won"}}, gameOver("hand_scored", "game_scored")},
		// Hearts ends the hand by its own End.
		"hearts": {4, rulesettest.Ending{Phase: sdk.PhaseRoundOver}, gameOver()},
		// Hotspot has no rounds: either end is the game's, announced as when a seat goes out.
		"hotspot": {5, gameOver("won"), gameOver("won")},
		// Last Card ends a round by its own scoring (L-9), the winner scoring the others' cards, and
		// the game goes on to the target (500 by default): end_round leaves the round, not the game, over.
		"lastcard": {3, rulesettest.Ending{Phase: sdk.PhaseRoundOver, Events: []string{"round_scored", "won"}}, gameOver("round_scored")},
		// Spades scores the hand with the tricks taken so far; the game is won by the winner's team.
		"spades": {4, rulesettest.Ending{Events: []string{"hand_scored"}, AnySeat: true}, gameOver("won")},
	}
	engines := builtin.Engines()
	for _, id := range slices.Sorted(maps.Keys(engines)) {
		v, ok := variants[id]
		if !ok {
			t.Errorf("%s: a built-in variant with no line in this test's table", id)
			continue
		}
		t.Run(id, func(t *testing.T) {
			rulesettest.HouseRuleEndsInAndOut(t, engines[id](), filepath.Join("..", id), v.seats, nil, rulesettest.CheckEnds(v.round, v.game))
		})
	}
}
