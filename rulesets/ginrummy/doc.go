// Package ginrummy is the Gin Rummy ruleset (ruleset id "ginrummy"): two players draw and
// discard to build sets and runs, knock when their deadwood is low enough or go gin with none,
// and play hands up to a target score with the game and line bonuses. It imports only
// cardhouse/sdk and the standard library.
//
// Start reading at [Rules] (rules.go: options, the deal, Apply and the draw), then play.go (the
// other actions and the scoring) and melds.go ([Arrange]: the exact least-deadwood arrangement of
// a hand over its sets and runs). state.go holds [State], Status and Observe; view.go the per-seat
// View, Redeal and the Table. The rules are /shared/variants/ginrummy.md (GR-1 to GR-11);
// testdata/ holds a scenario per rule.
//
// Choices this package makes where the rules leave room (cited in tests as GRP-n):
//   - GRP-1 Drawing: sdk.ActDraw with From "stock" or "discard"; a generic client may instead
//     send the action's Choices ("stock", "discard") as Args["choice"]. In the upcard offer only
//     "discard" (take the upcard) is open, and `pass` declines it.
//   - GRP-2 Melds are numbered from 0 in the order of their lowest card (rank, ace low, then suit
//     S H D C), as melds.N lists them; a layoff's Index counts in that order and a meld keeps its
//     number as cards are laid off onto it.
//   - GRP-3 Big gin (option big_gin) is a knock with no card; without the option a player whose
//     eleven cards all meld discards one and goes gin as usual.
//   - GRP-4 The face-down knock card stays out of the pile, seen by the knocker, shown to all
//     once the hand is over. A discard that leaves two cards in the stock voids the hand (GR-8)
//     before the other player could draw again.
//   - GRP-5 The game's totals include the game and line bonuses once it is over (GR-9); the
//     score sheet shows them as two rows of their own.
//   - GRP-6 A house rule answering may_knock ("yes" or "no") overrides the knock limit.
package ginrummy
