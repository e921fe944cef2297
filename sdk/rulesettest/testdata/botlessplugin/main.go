// Command botlessplugin serves the toy without its bot (toy.Botless), with the Lua house-rule
// runner, as a plugin executable: the kit's tests play it with the engine's generic bot across
// the process boundary.
package main

import (
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"
	"cardhouse/sdk/plugin"
	"cardhouse/sdk/rulesettest/toy"
)

func main() { plugin.Serve(engine.New[toy.State](toy.Botless{}, houserules.Enable())) }
