// Command lastcard serves the Last Card ruleset as a Cardhouse plugin executable.
package main

import (
	"cardhouse/rulesets/lastcard"
	"cardhouse/sdk"
	"cardhouse/sdk/houserules"
	"cardhouse/sdk/plugin"
)

func main() { plugin.Serve(sdk.NewEngine(lastcard.New(), houserules.Enable())) }
