package server_test

import (
	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest/toy"
)

// matcherID is the id of the card game the server's tests play: the conformance kit's toy
// (sdk/rulesettest/toy), so that the server is tested in-process (and through a real plugin
// process: this test binary, re-executed) without a real variant.
const matcherID = toy.ID

// matcher is the toy as the room and bot tests need it: three cards each by default, a call window
// they can turn off (call_seconds 0, for the tests that play by hand) and two bot levels.
var matcher = toy.Ruleset{HandSize: 3, CallOption: true, BotLevels: []int{1, 2}}

// matcherEngine returns the game as an engine.Engine.
func matcherEngine() engine.Engine { return engine.New[toy.State](matcher) }
