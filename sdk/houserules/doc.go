// Package houserules runs Cardhouse house rules written in Lua (github.com/yuin/gopher-lua) inside
// a ruleset's plugin process. It is the only package that imports gopher-lua: rulesets and the
// sdk root know house rules only through engine.HouseRuleRunner.
//
// Start reading at Enable (the engine option a plugin main passes to engine.New) and Runner.
// The SDK's engine decides when hooks run and checks what they did (sdk/engine/houserule.go); this
// package compiles scripts once (script.go), runs each hook on a pooled, sandboxed Lua state under a
// time budget and a memory watchdog (runner.go, vm.go, watchdog.go), gives scripts the game as
// plain tables and a few functions (api.go), refuses every write to the game that could not take
// effect at its line and lets a hook end the round (writes.go), names the callee of a failed call
// (callnames.go) and gives scripts a string library whose builtins cannot outrun the budget
// (strings.go, internal/luapattern). Reference writes a variant's reference for modders
// (reference.go). The script API is documented in docs/house-rules.md.
package houserules
