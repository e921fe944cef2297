// Package hotspot is the Hotspot ruleset: match suit or rank, wild Aces that name a suit, Jacks
// that reverse, Kings that skip, Queens that give an optional extra go (and chain), 2s that stack
// a pick-up penalty, groups of three or more of a kind, and LAST CARD! with a timed window. It
// imports only cardhouse/sdk and the standard library.
//
// Start reading at [Rules] (rules.go: options, the deal, Apply and its actions), then play.go:
// [Position] and [CheckPlay], the pure check of a selection that both Apply and clients use.
// state.go holds [State], Status and Observe; view.go the per-seat View, Redeal and the Table;
// bot.go the bots of levels 1 and 2. The user's rule document (retold) and the rulings H-1..H-15
// are in docs/rulings/hotspot.md; testdata/*.yaml are the rule scenarios (docs/scenarios.md).
//
// Checking a selection before sending it: a client calls [CheckPlay] with the [Position] read from
// its view ([PositionOf], [HandOf]); it says whether the selection is legal as it stands, whether
// it is an incomplete group one more card completes, whether a suit must be named, and which held
// cards may be added next. Apply is also cheap (one clone of a small state), so a server can dry-run
// an action through the engine and discard the result.
//
// Rulings this package makes beyond the document and docs/rulings/hotspot.md (cited in tests as
// HS-n; H-13, H-14 and H-15 there restate HS-1, HS-4 and HS-5):
//   - HS-1 Drawing is allowed during a Queen's extra go (H-4 "always"); it ends the turn, and
//     play_after_draw does not apply to it or to a penalty draw.
//   - HS-2 A Jack with two players keeps the direction (H-8 "simply passes the turn"); its
//     `reversed` event carries effect "pass".
//   - HS-3 A LAST CARD window is about holding one card: if the seat stops holding exactly one
//     card before it expires (it drew a penalty, say), the window closes with no penalty.
//     A window also opens when a Queen leaves one card, although the turn stays (H-9).
//   - HS-4 A power card that goes out has no effect (the game is over); an Ace that goes out needs
//     no suit, but a named one is accepted.
//   - HS-5 play_after_draw: a play after drawing must start with the drawn card; it may go on as
//     any legal play would (a Queen's follow-up, a group with held cards).
//   - HS-6 When the deck holds no plain card for the starting card (H-3), the turned card starts
//     the pile whatever it is. A scenario deal that names a pile starts with that pile as it is.
//   - HS-7 Naming a suit without ending on an Ace is refused (bad_suit).
//   - HS-8 The pile is turned into a new deck (H-11) when a draw needs a card, not before.
//   - HS-9 Queens in a selection are taken one at a time: a group of Queens is the same as a chain
//     of Queens, each legal on the one before.
//   - HS-10 A clock action for a window that is no longer open is refused (no_deadline) and changes
//     nothing; the host's deal while a game is on is refused (game_in_progress).
//   - HS-11 The options must fit the cards: seats × hand_size + 1 starting card ≤ 52 × decks.
//   - HS-12 The whole discard pile is public (every card in it was played face up); the view shows it.
package hotspot
