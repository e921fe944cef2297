package sdk

import (
	"errors"
	"fmt"
)

// ErrIllegal matches every refused action: errors.Is(err, ErrIllegal) tells a player's mistake
// (the game goes on, nothing changed) from a ruleset failure.
var ErrIllegal = errors.New("illegal action")

// ErrRuleset matches every ruleset failure: a bug, a panic, a broken invariant, a state that cannot
// be read. The host pauses the game and may restart the plugin; the stored state is untouched.
var ErrRuleset = errors.New("ruleset failure")

// RuleError is a refused action: a player's mistake, with a reason a player can read.
// Code is a stable machine word ("not_your_turn", "no_match"); Reason is the sentence to show.
// Detail, when set, is the full story for the people who can act on it (a house rule's author,
// the room's host and admins: the script's error with its line), which Reason words for players
// (`house rule "x" failed; the action was not applied`).
type RuleError struct {
	Code   string `json:"code"`
	Reason string `json:"reason"`
	Detail string `json:"detail,omitempty"`
	// Ruling, when set, is the id of the ruling the refusal applies ("L-5", docs/rulings): for the
	// people who keep the rules, shown apart from Reason, which never holds it.
	Ruling string `json:"ruling,omitempty"`
	// Fault, when set, says the refusal is a house rule's failure (it raised an error, overran a
	// limit, broke the card invariant...), not a choice of the rule or of the ruleset: the host
	// counts it against the rule and may suspend the rule for the game.
	Fault *HouseFault `json:"fault,omitempty"`
}

// HouseFault names the house rule that failed: its name and version, the hook that ran
// ("before_action", "open", ...; "" while the script loads), the script line (0 when unknown) and
// the failure's message without any of them ("attempt to index a nil value"), so that a host
// shows each part without reading the error's sentence.
type HouseFault struct {
	Rule    string `json:"rule"`
	Version int    `json:"version"`
	Hook    string `json:"hook,omitempty"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message,omitempty"`
}

// Error is the Detail when there is one, else the Reason: logs and tools get the full story;
// what a player is shown is Reason.
func (e *RuleError) Error() string {
	if e.Detail != "" {
		return e.Detail
	}
	return e.Reason
}

// Is makes errors.Is(err, ErrIllegal) true for every RuleError.
func (e *RuleError) Is(target error) bool { return target == ErrIllegal }

// Refuse returns a *RuleError with the code and a formatted reason.
func Refuse(code, format string, args ...any) error {
	return &RuleError{Code: code, Reason: fmt.Sprintf(format, args...)}
}

// RefuseUnder is Refuse for a refusal a ruling states: ruling is its id ("L-5"), kept in
// RuleError.Ruling, out of the reason players read.
func RefuseUnder(ruling, code, format string, args ...any) error {
	return &RuleError{Code: code, Reason: fmt.Sprintf(format, args...), Ruling: ruling}
}

// Codes of refusals the SDK itself makes.
const (
	CodeNotYourTurn  = "not_your_turn"
	CodeGameOver     = "game_over"
	CodeBadAction    = "bad_action"
	CodeUnknownCard  = "unknown_card"
	CodeNotHeld      = "not_held"
	CodeBadOption    = "bad_option"
	CodeHouseRule    = "house_rule"
	CodeNotAvailable = "not_available"
)

// AsRefusal returns the *RuleError inside err, if any.
func AsRefusal(err error) (*RuleError, bool) {
	var re *RuleError
	ok := errors.As(err, &re)
	return re, ok
}

// FailureError is a ruleset failure: Op says what was being done ("act", "start", "decode state").
type FailureError struct {
	Ruleset string
	Op      string
	Err     error
}

func (e *FailureError) Error() string {
	return fmt.Sprintf("ruleset %s failed in %s: %v", e.Ruleset, e.Op, e.Err)
}

func (e *FailureError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrRuleset) true for every FailureError.
func (e *FailureError) Is(target error) bool { return target == ErrRuleset }

// OptionError is one bad field of a room's (or a scenario's) options.
type OptionError struct {
	Field  string `json:"field"`
	Reason string `json:"reason"`
}

func (e OptionError) Error() string { return fmt.Sprintf("option %s: %s", e.Field, e.Reason) }

// OptionErrors lists every bad field at once, so a form can mark them all.
type OptionErrors []OptionError

func (es OptionErrors) Error() string {
	msg := "invalid options: "
	for i, e := range es {
		if i > 0 {
			msg += "; "
		}
		msg += e.Field + ": " + e.Reason
	}
	return msg
}
