// Command crazy8 serves the Crazy Eights ruleset as a Cardhouse plugin executable: build it into
// a plugins folder (go build -o DIR/crazy8 ./cmd/crazy8) and start the server, the scenario
// runner or a tournament with --plugins DIR.
package main

import (
	"cardhouse/sdk/engine"
	"cardhouse/sdk/plugin"

	"example.com/crazy8"
)

func main() { plugin.Serve(engine.New(crazy8.Ruleset{})) }
