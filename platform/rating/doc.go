// Package rating rates players' skill per variant with the Weng-Lin Bayesian approximation of the
// Plackett-Luce model (Ruby C. Weng and Chih-Jen Lin, "A Bayesian Approximation Method for
// Online Ranking", JMLR 12, 2011, Algorithm 4): the method the OpenSkill libraries implement,
// made for games of any number of players and teams, with ties.
//
// Start at [Model.Rate] (the method itself, tested against the published values of openskill.js
// in wenglin_test.go), then [Model.RateGame], which rates the registered players of one finished
// game: partners as a team, bots and guests not at all, a player who left as last. [Places] turns
// how a game ended (its winner, scores and partnerships) into places. The package does no I/O:
// the store keeps ratings (store.ApplyRatings) and the server decides when a game is rated.
package rating
