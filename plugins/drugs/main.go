// Command drugs serves the DRUGS ruleset as a Cardhouse plugin executable.
package main

import (
	"cardhouse/rulesets/drugs"
	"cardhouse/sdk"
	"cardhouse/sdk/houserules"
	"cardhouse/sdk/plugin"
)

func main() { plugin.Serve(sdk.NewEngine(drugs.New(), houserules.Enable())) }
