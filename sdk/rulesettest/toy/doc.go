// Package toy is a small, complete and correct ruleset ("toy", a plain Crazy-Eights-like game) that
// the conformance kit and the scenario runner test themselves against. It is also the shortest
// example of every part of a ruleset: options, a fixed deal through sdk.Deal.Layout, a deadline,
// private events, views, a bot, Redealer and TableEditor. It is a test fixture, not a variant
// offered to players. Botless is the same game without its bot, for the engine's generic level-1
// bot (engine.GenericMove) to be tested against.
//
// Rules: 2 to 4 seats, one French deck, `hand_size` cards each (default 5); a card is turned to
// start the pile. In turn, play one card of the top's suit or rank, or draw one card (drawing ends
// the turn). A player left with one card has 5 seconds to `call`; when the window expires
// uncalled they draw one card (event missed_last_card). The first to empty their hand wins; the
// host deals the next game, opened by the next seat. When the deck runs out the pile but its top is
// shuffled into a new deck.
//
// Ruleset's fields vary the game for the tests of the host and of the plugin boundary, which
// play it as their test game: the default hand size, an option call_seconds for the call window
// (0: no window), the bot levels. Its zero value is the game above.
package toy
