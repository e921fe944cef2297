package room

import (
	"errors"
	"fmt"

	"cardhouse/sdk"
)

// Kinds of room errors; the HTTP layer maps each to a status code.
const (
	KindInvalid     = "invalid"     // bad input: 400
	KindForbidden   = "forbidden"   // not allowed for this user: 403
	KindNotFound    = "not_found"   // no such room or member: 404
	KindConflict    = "conflict"    // not now (a game in progress, room locked): 409
	KindUnavailable = "unavailable" // the ruleset or the room cannot serve now: 503
)

// Error is a refused room operation: Kind classifies it, Code is a stable machine word and
// Reason a sentence a player can read.
type Error struct {
	Kind   string `json:"-"`
	Code   string `json:"code"`
	Reason string `json:"reason"`
	// Ruling is the id of the ruling a refusal applies (sdk.RuleError.Ruling), apart from Reason.
	Ruling string `json:"ruling,omitempty"`
	// Fault names the house rule whose failure refused the action (sdk.RuleError.Fault); nil for
	// every other refusal.
	Fault *sdk.HouseFault `json:"-"`
	// Where is the dry-run game and action a house rule's check failed in ("dry run game 1 of
	// lastcard (3 seats, bots of level 1): action 7 (play of seat 1)"), beside its Fault; empty
	// when the check failed before any game.
	Where string `json:"-"`
	// Options are the rule's option values the failing dry-run game played with, and Declared
	// the options the rule declares (the check page's inputs); nil when it declares none.
	Options  map[string]any `json:"-"`
	Declared []sdk.Option   `json:"-"`
}

// Error returns the reason.
func (e *Error) Error() string { return e.Reason }

func errf(kind, code, format string, args ...any) *Error {
	return &Error{Kind: kind, Code: code, Reason: fmt.Sprintf(format, args...)}
}

// ErrClosed is returned by operations on a room whose actor has stopped.
var ErrClosed = errors.New("the room is closed")

// AsError returns the *Error inside err, if any.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
