package server

import (
	"cardhouse/platform/room"
	"cardhouse/sdk"
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
	// Options are the rule's option values the failing game played with, and Schema the options
	// the rule declares (the check page's inputs); absent for a rule without options.
	Options map[string]any `json:"options,omitempty"`
	Schema  []sdk.Option   `json:"schema,omitempty"`
}

// ruleProblemOf makes a bad_house_rule error's RuleProblem from the parts of the failure: the
// Fault the runner made (carried across the plugin) and the dry run's Where. Nil when no house
// rule failed (a missing ruleset, an empty script, a check out of time).
func ruleProblemOf(e *room.Error) *RuleProblem {
	f := e.Fault
	if f == nil {
		return nil
	}
	p := &RuleProblem{Where: e.Where, Rule: f.Rule, Version: f.Version, Line: f.Line, Hook: f.Hook, Message: f.Message, Options: e.Options, Schema: e.Declared}
	if p.Message == "" { // a plugin built before faults carried their message
		p.Message = e.Reason
	}
	p.Hint = engine.HouseRuleHint(p.Message)
	return p
}
