// Package spades is the Spades ruleset (ruleset id "spades"): four players in two
// partnerships bid the tricks they will take, spades are always trumps, and the first team to
// 500 points wins (rules SP-1 to SP-8 of the variant's rule document).
//
// Start reading at rules.go (Start, Apply, the scoring), then state.go (the State and the rules of
// a card: follow suit, breaking spades, who takes a trick), view.go (what each seat sees, Status,
// Observe, the house-rule table), bot.go (levels 1 and 2) and search.go (what levels 3 to 5 need
// from sdk/search).
//
// Rulings beyond the rule document:
//
//   - The first game's dealer is drawn (label "dealer") unless a scenario's first seat or the
//     host's opener names who opens; every new game moves the first dealer one seat on.
//   - A scenario deal's unnamed cards fill the hands up to 13 each, seat after seat; with rest: out
//     the hands stay as given (they must all hold the same number of cards).
//   - A bid of "0" is Nil. A Nil bidder's tricks are bags for the team (1 point each, counted
//     toward the ten-bag penalty) whether or not the partner's contract is made; they never count
//     toward the contract. A team whose two players bid Nil has no contract.
//   - Blind nil (option): each seat starts the hand without seeing its cards (its own hand is a
//     hidden zone for it). It looks with the action "look", open at any time of the bidding, or
//     by bidding anything but blind nil; blind nil is refused once it has looked. When the bidding
//     ends every seat sees its cards.
//   - Spades are broken by the first spade played in the hand, trumping or led (a leader holding
//     only spades may lead one).
//   - SP-7: the mercy rule also ends the game when both teams are at -200 or below; the higher
//     total wins, and equal totals play another hand, as at the target.
//   - The winner of a game is a seat of the winning team: its first seat (0 or 1) when the game
//     is won at the end of a hand, the seat a house rule names when it ends the game; the partner
//     is in the "won" event's data (target) and both carry the "winner" tag.
//   - House rules may answer the question hand_points (HouseHooks) to change what a team scores
//     for a hand; a house rule that ends the hand scores it with the tricks taken so far.
//   - The observation key `trick` is the trick being played: empty once a trick is taken until the
//     next card is led, when `leader` is the seat to lead. The view keeps the taken trick on the
//     table (View.Trick with its Winner) until the next card is played.
//   - Hands are scored at their end (phase round_over, or game_over); the host's deal starts the
//     next hand with the next dealer.
package spades
