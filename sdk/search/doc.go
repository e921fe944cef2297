// Package search is the SDK's generic bot search: any ruleset that can sample the cards a seat
// cannot see (sdk.Sampler) and spell out its moves (sdk.Mover) gets bots that simulate, on its
// own typed state and with its own Apply (no JSON per node). It imports only sdk and the standard
// library, so rulesets may use it.
//
// Start reading at [Search]: every iteration samples a world consistent with the seat's view and
// history, plays the seat's candidate moves in it and a simulated round ending with the ruleset's
// rollout policy (sdk.Rollout, or random moves; a ruleset's [Simulator] plays it in place, much
// faster), and scores the end: sdk.Evaluator's estimate of each seat's chance to win the game
// (after a round of a game of several rounds, or for a playout cut at Config.Horizon), else 1
// for the round's winner. Config.Tree chooses information-set MCTS (one tree over every seat's
// moves, UCB1 with availability counts); the default is flat determinised Monte Carlo with common
// random numbers (every root move played out in the same world with the same rollout luck), which
// compares moves with much less noise for the same budget. Config.Default names a heuristic's
// move that the flat search keeps unless another beats it with confidence (a paired test over the
// worlds), so that a search bot is never the worse for its noise. [Level] and [Bot] are the
// generic levels 3 to 5 a ruleset can offer as they are, each keeping the ruleset's own heuristic
// move as its default; [Bots] offers the three from the hooks in one call (docs/bots.md lists
// the hooks). Budgets are a node budget (Config.Iterations) and a time budget
// (Config.Time); tests and tournaments change them with [WithOverride], tests always with the
// clock off so that a choice depends on the inputs alone.
//
// House rules: the search simulates the ruleset's own rules; the engine then vets the chosen
// action against the game's house rules as it does for every bot (sdk's engine Bot).
package search
