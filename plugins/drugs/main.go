// Command drugs serves the DRUGS ruleset as a Cardhouse plugin executable.
package main

import (
	"cardhouse/rulesets/drugs"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"
	"cardhouse/sdk/plugin"
)

func main() { plugin.Serve(engine.New(drugs.New(), houserules.Enable())) }
