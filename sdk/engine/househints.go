package engine

import (
	"fmt"
	"strings"
)

// houseHints are hints for the failures modders meet most, matched on a fragment of the message,
// first match wins. They point at docs/house-rules.md, where each limit is explained, and name the
// runner's own limits (houselimits.go).
var houseHints = []struct{ has, hint string }{
	{"is never closed", "Each bracket ( [ { needs its closing ) ] } before the line ends its expression: look at the line named, often a call or a table that lost its last bracket."},
	{"syntax error", "Lua wants `then` after `if`, `do` after `for` and `while`, an `end` for each `function`, `if`, `for` and `while`, and a closing bracket ) ] } for each ( [ {."},
	{"looks like a hook", "The hooks are on_start, before_action, after_action and on_round_end: a misspelt hook would never run."},
	{"to random (number expected, got nil)", "The draw was handed nil for its count: a misspelt name, or # of a zone or list that does not exist. game.random(label, n) draws 1..n; check that n is a number (#game.zones.NAME counts a zone)."},
	{"to choose (table expected, got nil)", "The draw was handed nil for its list: a misspelt name or a field the table does not have. game.choose(label, {\"a\", \"b\"}) draws one of the names."},
	{"expected, got nil)", "A function on this line was handed nil: a misspelt name, a field the table does not have, or a value a hook did not return."},
	{"attempt to index", "Something on this line is nil: a misspelt name, a field the table does not have, or a library the sandbox does not offer (os, io, debug, package)."},
	{"attempt to call", "The name called on this line is not a function: misspelt, or not available in house rules (require, load, dofile, os, io)."},
	{"time budget", fmt.Sprintf("Each hook call has %d ms: look for a loop that never ends, or one over far more items than a game holds.", HouseCallTimeout.Milliseconds())},
	{"wall-clock", fmt.Sprintf("Each hook call has %d ms: look for a loop that never ends.", HouseCallTimeout.Milliseconds())},
	{"memory cap", fmt.Sprintf("Each hook call may allocate %d MiB: look for a table or string that grows without end.", HouseMemoryCap>>20)},
	{"exactly once", "Move cards with game.move(from, to, what): it keeps every card in exactly one place."},
	{"stuck", "After this action nobody could act: an action of the rule that is blocking must be open to someone, and the turn must reach a seat that can play."},
	{fmt.Sprintf("more than %d events", HouseMaxEvents), fmt.Sprintf("A hook may emit at most %d events per call.", HouseMaxEvents)},
}

// HouseRuleHint says what usually causes a house rule's failure message and where to look, or ""
// when there is no hint for it. The upload page and `rules check` show the same hints.
func HouseRuleHint(message string) string {
	for _, h := range houseHints {
		if strings.Contains(message, h.has) {
			return h.hint
		}
	}
	return ""
}
