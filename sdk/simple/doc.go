// Package simple is the shortest way to write a Cardhouse variant: declare a game by its deal,
// its moves and its end, and [New] makes the sdk.Ruleset of it, with turn order, views, the
// scenario observation, card accounting, a redeal for the conformance kit and a level-1 bot
// (a random legal move) already done.
//
// Start reading at [Game] and the package example (Go Fish, a whole variant in one file). A game
// keeps its cards in the [State] the package owns: a hand per seat, a face-down stock, a face-up
// pile, cards laid face up before each seat (books, melds) and cards out of play; everything else
// the game needs lives in its own type S, kept in State.Data. A [Move] names an action type, who
// may make it, what it takes (cards of the hand, a target seat, a choice) and a function that
// changes a copy of the state or refuses with sdk.Refuse; the package checks everything a move
// declares before calling it.
//
// When a game outgrows this (deadlines, rounds and scores, house-rule tables, a smarter bot),
// write the sdk.Ruleset directly, starting from the template sdk/rulesettest/toy: see
// docs/writing-a-variant.md. The package imports only sdk and the standard library.
package simple
