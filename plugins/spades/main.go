// Command spades serves the Spades ruleset as a Cardhouse plugin executable.
package main

import (
	"cardhouse/rulesets/spades"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"
	"cardhouse/sdk/plugin"
)

func main() { plugin.Serve(engine.New(spades.New(), houserules.Enable())) }
