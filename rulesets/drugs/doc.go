// Package drugs is the DRUGS ruleset: Shithead/Palace with Overdose and, in Chaos mode, Jokers
// that roll a random effect. It owns the game's state, rules, views, bots, its "how to play" page
// (rules.md) and its rule scenarios (testdata/*.yaml). It imports only cardhouse/sdk and the
// standard library.
//
// Start reading at [Rules] (rules.go: options, the deal, Apply), then play.go (what a play, pick-up,
// flip and gift do), joker.go (the seven Joker effects), view.go (views and the observation),
// bots.go and extras.go (Redeal, History, the house-rule Table).
//
// The user's rule document and rulings D-1..D-15, both in docs/rulings/drugs.md, decide the
// rules. D-12 (bots covering dropped players, pausing) is the platform's.
//
// # Rulings beyond the document and docs/rulings/drugs.md
//
// (D-13, D-14 and D-15 there restate parts of DR-1, DR-2 and DR-7.)
//
//   - DR-1 Pick-up is refused on an empty pile (there is always a card to play on it), and in the
//     face-down stage: a blind player flips; an illegal flip is what picks the pile up (D-7).
//   - DR-2 A turn that begins with an empty hand while the deck lasts first draws up to three (Joker
//     effects can empty a hand mid-deck); "face-up cards once hand and deck are empty" (D-7) is
//     otherwise unchanged.
//   - DR-3 The 7 restriction is read from the pile: the seat in turn faces it when the top card,
//     seen through 3s, is a 7 (D-3, D-4). Only the next player can face a 7 so: the player after
//     covers it, or the pile is picked up or burned.
//   - DR-4 A Jack run that overdoses reverses too, then its player goes again. A 10 burns whatever
//     run it completes (event `burned`, not `overdose`). Jokers never make a run (no rank, D-2):
//     with a Joker on top `run` is 0.
//   - DR-5 With two players a Jack changes nothing (D-8): no `reversed` event, `direction` stays.
//   - DR-6 A Joker effect "next player" is the next seat in the direction of play. Skip with two
//     players gives the Joker's player another go. Hand swap and everyone passes move whole hands,
//     empty ones included.
//   - DR-7 Everyone dumps: the first card laid lies lowest, the last directly beneath the Jokers;
//     of equal lowest ranks the first in hand order goes; dumped cards are not plays (no burn, no
//     overdose, no reverse).
//   - DR-8 Gift: the player gives one hand card to any other seat (action gift, Cards [card],
//     Target seat) before anything else; then they draw back up to three and the turn passes. A
//     player with no hand card left after the Joker has nothing to give: the gift lapses.
//   - DR-9 A time bomb is defused by any answer (2, 10, Joker) or a pick-up; a 3 passes it on; a
//     burn clears it. An illegal blind flip onto an armed pile picks it up.
//   - DR-10 The game ends when any seat holds no card anywhere (D-9) after an action: the acting
//     seat first, then the others in turn order (Joker effects can empty another seat). A deal
//     that leaves a seat without cards ends the game before the first move.
//   - DR-11 Endless games are possible: players who keep picking up (they may, D-6) can cycle the
//     pile forever. After StallLimit (200) pick-ups with no burn in between the game ends and the
//     seat holding the fewest cards wins (ties: the first in turn order from the seat in turn),
//     event `won` with Data["reason"] = "stalled".
//   - DR-12 Option `overdose` above 4 is refused at 2-4 seats (one deck holds four of a rank).
//   - DR-13 A scenario deal that leaves out `hands`, `face_up` or `face_down` entirely has them dealt
//     from the deck (Jokers put back for rows, D-11); a deal naming a Joker in a row is refused.
//     A Joker turned up for a row goes back below the next card that is not a Joker (label
//     `joker_return`), so the deal always ends.
//   - DR-14 The game's first player is Deal.First, else drawn with `first_player` (D-9); every new
//     game dealt by the host draws again, so a host's StartRequest.Opener is not used.
//   - DR-15 Events: `played` (Data["from"]: hand, face_up, face_down), `drew` (private), `turn`,
//     `skipped`, `reversed`, `burned`/`overdose` (the pile's cards), `picked_up`, `flipped`
//     (Data["index"]), `joker` (Data["effect"], and "target" for hand_swap), `dumped`, `gift`
//     (private to the giver, Data["to"]), `won` (Data["reason"]: no_cards, last_card, stalled).
package drugs
