// Command lastcard serves the Last Card ruleset as a Cardhouse plugin executable.
package main

import (
	"cardhouse/rulesets/lastcard"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"
	"cardhouse/sdk/plugin"
)

func main() { plugin.Serve(engine.New(lastcard.New(), houserules.Enable())) }
