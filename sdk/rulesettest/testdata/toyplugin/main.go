// Command toyplugin serves the toy ruleset, with the Lua house-rule runner, as a plugin
// executable for the kit's own tests.
package main

import (
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"
	"cardhouse/sdk/plugin"
	"cardhouse/sdk/rulesettest/toy"
)

func main() { plugin.Serve(engine.New[toy.State](toy.Ruleset{}, houserules.Enable())) }
