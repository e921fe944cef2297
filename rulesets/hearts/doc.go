// Package hearts is the Hearts ruleset (ruleset id "hearts"): four players pass three cards, then
// play thirteen tricks, avoiding hearts and the queen of spades; the lowest total wins once a
// player reaches the target. It imports only cardhouse/sdk, its pure sub-package sdk/search and the
// standard library.
//
// The rules are /shared/variants/hearts.md (HE-1..HE-10). Start reading at [Rules] (rules.go:
// options, the deal, Apply and its actions: the pass, the play, the end of a hand), then state.go:
// [State], the rule of play ([State.Legal]) and the scoring ([ScoreHand]). view.go holds the
// per-seat View, Status, Observe, History and Redeal; extras.go the Table house rules edit and End;
// bot.go the bots of levels 1 and 2; search.go what the search bots of levels 3 to 5 need
// (sampling, moves, rollouts, evaluation); encode.go the state's JSON without reflection
// (AppendState). testdata/ holds the rule scenarios, one folder per rule, and house-rules/ for the
// question score_hand.
//
// Rulings this package makes beyond the rule document (cited in tests as HR-n):
//   - HR-1 A player who can follow suit must, also on the first trick: following with the Q♠ (or a
//     heart, when hearts are led) is allowed there. The first trick's ban (HE-5) is on discards.
//   - HR-2 The first trick's ban also holds for its lead when the 2♣ is in no hand (a scenario's
//     deal): no heart and not the Q♠ unless the hand holds nothing else.
//   - HR-3 The pass is simultaneous: the action pass_cards is the confirmation of a seat's choice
//     (the client lets the player change the selection before pressing it); a second pass_cards of
//     the same seat is refused. The chosen cards wait in the seat's passing zone, seen only by it,
//     until every seat has chosen; then they move, and each receiver is told privately which three
//     it received (event received). While passing, Status.Turn is sdk.NoSeat and Status.Actors
//     lists the seats still to choose.
//   - HR-4 A scenario's deal of fewer than three cards a hand skips the pass. Its cards not dealt to
//     hands are out of play for that hand; the next hand deals all 52.
//   - HR-5 A hand's end is the host's Deal (phase round_over, as Last Card's rounds): everyone sees
//     the score sheet before the next hand. A hand has no winner (winner stays null, unless a house
//     rule ends the hand naming one); the game's
//     winner is the first seat of those sharing the lowest total, and winners lists them all, each
//     with its own won event.
//   - HR-6 The last trick taken (View.LastTrick) stays on show through the whole next trick, so
//     it can be reviewed until that trick is taken in turn (HE-10).
//   - HR-7 House rules may exchange cards between hands but not change a hand's size; the declared
//     question score_hand lets a house rule change what a seat scores for a hand.
package hearts
