// Command hotspot serves the Hotspot ruleset as a Cardhouse plugin executable.
package main

import (
	"cardhouse/rulesets/hotspot"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"
	"cardhouse/sdk/plugin"
)

func main() { plugin.Serve(engine.New(hotspot.New(), houserules.Enable())) }
