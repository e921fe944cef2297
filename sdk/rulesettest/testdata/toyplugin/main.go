// Command toyplugin serves the toy ruleset as a plugin executable, for LaunchPlugin's own tests.
package main

import (
	"cardhouse/sdk/engine"
	"cardhouse/sdk/plugin"
	"cardhouse/sdk/rulesettest/toy"
)

func main() { plugin.Serve(engine.New[toy.State](toy.Ruleset{})) }
