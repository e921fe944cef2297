// Package crazy8 is Crazy Eights, the example variant of docs/writing-a-variant.md: a ruleset
// written from the toy template (cardhouse/sdk/rulesettest/toy) in a module of its own, outside
// the Cardhouse repository's module, as a stranger would write one.
//
// Rules: 2 to 4 seats, one French deck without jokers, `hand_size` cards each (default 5); a card
// is turned to start the pile and its suit is the suit to follow. In turn, play one card of that
// suit or of the top's rank, or any eight: an eight names the suit to follow (the action's `suit`,
// offered as the action spec's Choices for the eights, so the generic client asks for it). Or
// draw one card: when it can be played you may play it at once (that card only) or keep it (the
// variant's own action `keep`); otherwise the turn passes. When the deck is empty the pile but
// its top is shuffled into a new one; with nothing left to draw, draw passes the turn. The first
// to empty their hand wins; the host deals the next game, opened by the next seat.
//
// Start reading at Ruleset.Apply; crazy8_test.go runs the conformance kit and the scenarios of
// testdata/ in-process and across the plugin process of cmd/crazy8.
package crazy8
