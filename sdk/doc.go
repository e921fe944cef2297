// Package sdk is what a Cardhouse variant author needs: the ruleset interface, cards and decks,
// the labelled RNG, the view model, bots, options and the typed errors.
//
// Start reading at [Ruleset]: a variant is a pure Go type that starts games and applies actions to
// its own state type S. Everything here is the author's: the optional extras a ruleset may
// implement (bots, house-rule hooks, upgrades, search), cards, the RNG, views, options and errors.
// The host's side lives apart: sdk/engine erases S into the byte-level engine.Engine the server
// speaks (engine.New), and sdk/plugin serves one over hashicorp/go-plugin, so a plugin's main is
// plugin.Serve(engine.New(ruleset, houserules.Enable())).
//
// The package imports only the standard library: a ruleset that imports sdk pulls in no transport,
// no database and no script engine.
package sdk
