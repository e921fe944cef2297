// Package builtin lists the variants compiled into the cardhouse binary. The binary serves each of
// them as a plugin by launching itself ("cardhouse plugin serve ID"), so a built-in variant runs in
// its own process exactly as an external plugin does.
package builtin

import (
	"cardhouse/rulesets/drugs"
	"cardhouse/rulesets/ginrummy"
	"cardhouse/rulesets/hearts"
	"cardhouse/rulesets/hotspot"
	"cardhouse/rulesets/lastcard"
	"cardhouse/rulesets/spades"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"
)

// Engines returns a constructor for each built-in variant, by ruleset id, each running Lua house
// rules. The list is explicit: adding a variant to the binary means adding a line here.
func Engines() map[string]func() engine.Engine {
	return map[string]func() engine.Engine{
		"drugs":    func() engine.Engine { return engine.New(drugs.New(), houserules.Enable()) },
		"hearts":   func() engine.Engine { return engine.New(hearts.New(), houserules.Enable()) },
		"ginrummy": func() engine.Engine { return engine.New(ginrummy.New(), houserules.Enable()) },
		"hotspot":  func() engine.Engine { return engine.New(hotspot.New(), houserules.Enable()) },
		"lastcard": func() engine.Engine { return engine.New(lastcard.New(), houserules.Enable()) },
		"spades":   func() engine.Engine { return engine.New(spades.New(), houserules.Enable()) },
	}
}
