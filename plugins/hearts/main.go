// Command hearts serves the Hearts ruleset as a Cardhouse plugin executable.
package main

import (
	"cardhouse/rulesets/hearts"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"
	"cardhouse/sdk/plugin"
)

func main() { plugin.Serve(engine.New(hearts.New(), houserules.Enable())) }
