package server

import (
	"fmt"
	"strings"

	"cardhouse/platform/room"
	"cardhouse/sdk/engine"
)

// RuleProblem is a failed house-rule check split into what a modder reads beside the script: the
// dry-run game and action it happened in, the rule, the line, the hook, the message and a hint.
// A bad_house_rule error carries it as "problem" (docs/api.md, House rules), so the upload page
// can point at the line without reading the sentence.
type RuleProblem struct {
	// Where is the dry-run game and action ("dry run game 1 of lastcard (...): action 3 (...)"),
	// empty when the script failed before any game (compiling, declaring).
	Where string `json:"where,omitempty"`
	// Rule is the name the script declares (or "(unnamed)"), Version its version when known.
	Rule    string `json:"rule,omitempty"`
	Version int    `json:"version,omitempty"`
	// Line is the script line, 0 when the message names none.
	Line int `json:"line,omitempty"`
	// Hook is the hook that failed (after_action, open, apply, ...), empty while loading.
	Hook string `json:"hook,omitempty"`
	// Message is the failure itself, without the where, rule, line and hook.
	Message string `json:"message"`
	// Hint says what usually causes such a message and where to look, when the server knows.
	Hint string `json:"hint,omitempty"`
}

// ruleHints are hints for the messages modders meet most, matched on a fragment of the message,
// first match wins. They point at docs/house-rules.md, where each limit is explained; the limits
// they name are the sandbox's own (sdk/engine, houselimits.go).
var ruleHints = []struct{ has, hint string }{
	{"syntax error", "Lua wants `then` after `if`, `do` after `for` and `while`, and an `end` for each `function`, `if`, `for` and `while`."},
	{"looks like a hook", "The hooks are on_start, before_action, after_action and on_round_end: a misspelt hook would never run."},
	{"attempt to index", "Something on this line is nil: a misspelt name, a field the table does not have, or a library the sandbox does not offer (os, io, debug, package)."},
	{"attempt to call", "The name called on this line is not a function: misspelt, or not available in house rules (require, load, dofile, os, io)."},
	{"time budget", fmt.Sprintf("Each hook call has %d ms: look for a loop that never ends, or one over far more items than a game holds.", engine.HouseCallTimeout.Milliseconds())},
	{"wall-clock", fmt.Sprintf("Each hook call has %d ms: look for a loop that never ends.", engine.HouseCallTimeout.Milliseconds())},
	{"memory cap", fmt.Sprintf("Each hook call may allocate %d MiB: look for a table or string that grows without end.", engine.HouseMemoryCap>>20)},
	{"exactly once", "Move cards with game.move(from, to, what): it keeps every card in exactly one place."},
	{"stuck", "After this action nobody could act: an action of the rule that is blocking must be open to someone, and the turn must reach a seat that can play."},
	{fmt.Sprintf("more than %d events", engine.HouseMaxEvents), fmt.Sprintf("A hook may emit at most %d events per call.", engine.HouseMaxEvents)},
}

// ruleProblemOf makes a bad_house_rule error's RuleProblem from the parts of the failure: the
// Fault the runner made (carried across the plugin) and the dry run's Where. Nil when no house
// rule failed (a missing ruleset, an empty script, a check out of time).
func ruleProblemOf(e *room.Error) *RuleProblem {
	f := e.Fault
	if f == nil {
		return nil
	}
	p := &RuleProblem{Where: e.Where, Rule: f.Rule, Version: f.Version, Line: f.Line, Hook: f.Hook, Message: f.Message}
	if p.Message == "" { // a plugin built before faults carried their message
		p.Message = e.Reason
	}
	for _, h := range ruleHints {
		if strings.Contains(p.Message, h.has) {
			p.Hint = h.hint
			break
		}
	}
	return p
}
