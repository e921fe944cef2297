// Package rulesettest is the conformance kit for ruleset authors, in the spirit of testing/fstest.
//
// Start with [Scenarios], which runs a folder of rule scenarios (see sdk/scenario) as subtests.
// [Run] checks a Ruleset in-process: determinism, card conservation, refusals that change
// nothing, Apply never mutating its input, views that hide what they must (with the ruleset's
// sdk.Redealer), bot playouts that end, and TableEditor round trips. [RunEngine] makes the checks
// possible through the byte-level engine.Engine, so they also run across the real plugin process.
// [Playout] is the kit's random/bot game driver behind them (random and deliberately bad actions
// on top of sdk/botplay, the one loop that plays games with bots), exported for benchmarks.
package rulesettest
