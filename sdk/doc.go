// Package sdk is what a Cardhouse variant author needs: the ruleset interface, cards and decks,
// the labelled RNG, the view model, bots, options and the typed errors.
//
// Start reading at [Ruleset]: a variant is a pure Go type that starts games and applies actions to
// its own state type S. [NewEngine] erases S into an [Engine], the byte-level interface the host
// speaks; sdk/plugin serves an Engine over hashicorp/go-plugin and gives the host a client that is an
// Engine too, so in-process and out-of-process rulesets are interchangeable.
//
// The package imports only the standard library: a ruleset that imports sdk pulls in no transport,
// no database and no script engine.
package sdk
