// Command ginrummy serves the Gin Rummy ruleset as a Cardhouse plugin executable.
package main

import (
	"cardhouse/rulesets/ginrummy"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"
	"cardhouse/sdk/plugin"
)

func main() { plugin.Serve(engine.New(ginrummy.New(), houserules.Enable())) }
