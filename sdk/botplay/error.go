package botplay

import (
	"encoding/json"
	"errors"
	"fmt"

	"cardhouse/sdk"
)

// ErrStuck is wrapped by the error of a game in which no seat acts and no deadline is set: it
// can never go on.
var ErrStuck = errors.New("no seat acts and nothing is due")

// Kinds of a failed step ([Error.Kind]), and of an action tried ([Attempt.Kind]) when the loop
// chose it itself.
const (
	KindStart    = "start"    // the game did not start (NewGame failed)
	KindBot      = "bot"      // a seat's bot failed, or the action it chose was refused
	KindDeal     = "deal"     // the host's deal between rounds or games
	KindDeadline = "deadline" // the clock's firing of a due deadline
	KindStuck    = "stuck"    // no seat acts and no deadline is set (wraps ErrStuck)
)

// Error is a game that could not go on: where it stopped and why. Callers word it for their
// readers with errors.As; its own message names the action.
type Error struct {
	// Step is the number of the step that failed, from 1 (0 when the game did not start).
	Step int
	// Kind says what failed: one of the Kind constants, or the kind a Bot gave Turn.Try.
	Kind string
	// Seat is the seat whose bot failed or whose action was refused (sdk.Host for a deal,
	// sdk.Clock for a deadline).
	Seat int
	// Action is the action refused or failed (nil when a bot failed, or the game is stuck).
	Action *sdk.Action
	// Actors are the seats the status named when the game got stuck.
	Actors []int
	Err    error
}

func (e *Error) Error() string {
	switch {
	case e.Kind == KindStart:
		return fmt.Sprintf("the game does not start: %v", e.Err)
	case e.Kind == KindStuck:
		return fmt.Sprintf("action %d: no bot of seats %v has anything to do and nothing is due: the game is stuck", e.Step, e.Actors)
	case e.Action == nil:
		return fmt.Sprintf("action %d: the bot of seat %d failed: %v", e.Step, e.Seat, e.Err)
	}
	return fmt.Sprintf("action %d (%s action %s): %v", e.Step, e.Kind, Describe(*e.Action), e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Describe is an action as JSON, for messages.
func Describe(a sdk.Action) string {
	b, _ := json.Marshal(a)
	return string(b)
}
