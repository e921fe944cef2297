// Command hotspot serves the Hotspot ruleset as a Cardhouse plugin executable.
package main

import (
	"cardhouse/rulesets/hotspot"
	"cardhouse/sdk"
	"cardhouse/sdk/houserules"
	"cardhouse/sdk/plugin"
)

func main() { plugin.Serve(sdk.NewEngine(hotspot.New(), houserules.Enable())) }
