package server

import (
	"regexp"
	"strconv"
	"strings"
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

// ruleFailure reads the message of sdk/houserules.Error (`house rule "x" v2: line 4: msg (in
// hook)`), with the dry run's "where: " before it.
var ruleFailure = regexp.MustCompile(`^(?:(.*?): )?house rule "([^"]*)"(?: v(\d+))?(?:: line (\d+))?: (.*?)(?: \(in ([a-z_]+)\))?$`)

// ruleHints are hints for the messages modders meet most, matched on a fragment of the message,
// first match wins. They point at docs/house-rules.md, where each limit is explained.
var ruleHints = []struct{ has, hint string }{
	{"syntax error", "Lua wants `then` after `if`, `do` after `for` and `while`, and an `end` for each `function`, `if`, `for` and `while`."},
	{"looks like a hook", "The hooks are on_start, before_action, after_action and on_round_end: a misspelt hook would never run."},
	{"attempt to index", "Something on this line is nil: a misspelt name, a field the table does not have, or a library the sandbox does not offer (os, io, debug, package)."},
	{"attempt to call", "The name called on this line is not a function: misspelt, or not available in house rules (require, load, dofile, os, io)."},
	{"time budget", "Each hook call has 100 ms: look for a loop that never ends, or one over far more items than a game holds."},
	{"wall-clock", "Each hook call has 100 ms: look for a loop that never ends."},
	{"memory cap", "Each hook call may allocate 64 MiB: look for a table or string that grows without end."},
	{"exactly once", "Move cards with game.move(from, to, what): it keeps every card in exactly one place."},
	{"stuck", "After this action nobody could act: an action of the rule that is blocking must be open to someone, and the turn must reach a seat that can play."},
	{"more than 32 events", "A hook may emit at most 32 events per call."},
}

// ruleProblemOf splits a bad_house_rule reason into a RuleProblem; nil when the reason is no
// script failure (a missing ruleset, an empty script).
func ruleProblemOf(reason string) *RuleProblem {
	m := ruleFailure.FindStringSubmatch(reason)
	if m == nil {
		return nil
	}
	p := &RuleProblem{Where: m[1], Rule: m[2], Message: m[5], Hook: m[6]}
	p.Version, _ = strconv.Atoi(m[3])
	p.Line, _ = strconv.Atoi(m[4])
	for _, h := range ruleHints {
		if strings.Contains(p.Message, h.has) {
			p.Hint = h.hint
			break
		}
	}
	return p
}
