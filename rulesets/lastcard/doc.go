// Package lastcard is Last Card, the UNO-like variant: its state, rules, views, bots, rules page
// and rule scenarios (testdata/). It imports only cardhouse/sdk and the standard library; the
// plugin executable plugins/lastcard serves it.
//
// Start reading at [Rules] (rules.go: options, the deal, Status); apply.go applies every action
// (play, draw, pass, call, catch, the host's deal); view.go is what each seat sees and the
// scenario observation; extras.go holds the optional extras (Historian, Redealer, TableEditor)
// and log.go the compact form of the round's log they read; bot.go the bots of levels 1 and 2 and
// the dispatch, bot_levels.go levels 3 to 5 (L-11, the document's "About the AI"), search.go what
// sdk/search needs (Sample under the colours deduced from the history, Moves, RolloutMove,
// Evaluate), sample.go the sampling of worlds consistent with a seat's view;
// rulesmd.go the rules page players read. The user's rule document (retold) and the rulings L-1 to
// L-12 that settle what it leaves open are in docs/rulings/lastcard.md; tests cite them.
//
// # Actions
//
//   - play: one card (Action.Cards), with the colour for a Joker as Action.Args["choice"] (not
//     needed for a last card, L-7; the old Action.Color is still read, sdk.Action.Choice). With
//     Action.Args["call"] = "true" it also announces "Last card!" (L-8 "with").
//   - draw: the pending penalty (L-4), or one card; a playable drawn card may then be played
//     (play) or kept (pass) (L-3).
//   - call: "Last card!"; with Cards it is the call and the play in one action.
//   - catch: Action.Target names the seat caught out (catch mode, L-8).
//   - deal: the host's, after a round (next round) or a game (new game) (L-10).
//
// Last Card sets no deadlines: its only window (catching out) closes on the next player's action.
//
// # Rulings made here
//
// Beyond the document and L-1..L-12 (each is cited as LC-n in the tests):
//
//   - LC-1 "Last card!" is accepted only from the seat in turn holding exactly two cards (also
//     while facing a penalty, or after drawing back to two). With one card it is too late; with
//     more it is refused. Drawing any card voids an earlier call. The observation key `called`
//     lists the seats that hold one card and called for it.
//   - LC-2 A catch window opens when a play leaves its player one card uncalled, and closes when
//     the seat in turn next plays, draws or passes (a call does not close it). After a two-player
//     Skip or Reverse the next player is the same player, so the window stays open until they act.
//     Any opponent may catch, in turn or not; a catch does not change the turn.
//   - LC-3 In auto mode the two penalty cards are drawn as soon as the play that leaves one card
//     uncalled is made, also when its player moves again (two-player Skip or Reverse).
//   - LC-4 A two-player Reverse leaves the direction as it is (it is a Skip, L-6); it still
//     reports "reversed" then "skipped".
//   - LC-5 A fixed deal's pile is taken as laid, whatever its top; an empty pile turns a number
//     card up (L-2). A Joker on top of a fixed deal leaves no colour in play (observation `color`
//     null): any card may follow it until a card is played.
//   - LC-6 A penalty or a draw the deck and pile cannot cover draws what there is; a draw that
//     finds no card at all ends the turn.
//   - LC-7 A drawn card is playable under the usual rules: a Joker Draw Four drawn under
//     no_colour_match is playable only when the hand holds no card of the colour in play.
//   - LC-8 A stacked Draw Two sets the colour in play to its own colour. After a penalty is drawn
//     the turn passes to the player after the victim.
//   - LC-9 A colour named with a card that is not a Joker is refused; a colour named with a Joker
//     that is the last card is checked but has no effect (L-7).
//   - LC-10 The opener moves one seat on every round, and on from one game to the next (L-10
//     speaks of rounds; H-12 does the same for Hotspot's games).
//   - LC-11 Status.Winner (and the observation `winner`) is the round's winner once a round is
//     over, and the game's winner when the game is over.
//   - LC-12 The host's deal gathers every card (cards a fixed deal left out of play included),
//     shuffles them, deals seven each from the new opener and turns up a number card.
//
// # Observation
//
// The generic keys of docs/scenarios.md, Last Card's own (color, penalty, scores, round,
// called, drawn, opener), and "deck" (the draw pile, top first).
//
// # Events
//
// played, drew (private: the drawer alone sees the cards, others the count), turn, skipped,
// reversed, won (data "round", and "game" when it ends the game), color_chosen, penalty_drawn
// (data "reason": draw_two, draw_four, caught, no_call; the cards come in the "drew" just
// before), last_card (a call), caught (data "by"), round_scored (Count: the points), plus
// reshuffled and dealt.
package lastcard
