package scenario

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"cardhouse/sdk"
)

// Scenario is one parsed scenario file. Parse and ParseFile build it; Run plays it.
type Scenario struct {
	// File is the path the scenario was read from, as given (used in messages).
	File string
	// Dir is the folder house-rule paths are relative to ("" is the working directory).
	Dir string
	// Name is the scenario's `name`, or the file's base name without extension when it has none.
	Name    string
	Ruleset string
	Seats   int
	// Options are the raw `options`, validated by the ruleset exactly as a room's options are.
	Options map[string]any
	// HouseRules are the `house_rules` paths as written, relative to Dir.
	HouseRules []string
	// Seed is the `seed`; 0 when the file gives none.
	Seed uint64
	// Deal is the fixed `deal`, or nil for the ruleset's own random deal.
	Deal *sdk.Deal
	// Random are the forced outcomes of labelled draws (`random`), in order per label.
	Random map[string][]string
	Steps  []Step
}

// StepKind says what a step does.
type StepKind int

// The kinds of step of the format.
const (
	// StepAct applies Action (a seat's action, or the host's deal).
	StepAct StepKind = iota + 1
	// StepBot asks the ruleset's bot of level Bot for Seat's action and applies it.
	StepBot
	// StepWait moves the game clock on by WaitMS, firing every deadline that falls due.
	StepWait
	// StepExpect compares Expect with the ruleset's observation.
	StepExpect
)

// Step is one entry of `steps`. Number counts from 1, as the runner's messages do.
type Step struct {
	Number int
	Kind   StepKind
	// Action is the action of a StepAct step (Seat is sdk.Host for `deal`).
	Action sdk.Action
	// Seat is the acting seat of a StepAct or StepBot step (sdk.Host for `deal`).
	Seat int
	// Bot is the bot level of a StepBot step.
	Bot int
	// Reject, when not nil, says the action must be refused.
	Reject *Reject
	// WaitMS is the time a StepWait step moves the clock on, in milliseconds.
	WaitMS int64
	// Expect are the observation keys a StepExpect step checks, in file order.
	Expect []Expectation
}

// Reject is a step's `reject`: the action must be refused; when Text is not empty the refusal's
// reason must contain it (case-insensitive).
type Reject struct {
	Text string
}

// Expectation is one `KEY: VALUE` of an `expect` step, VALUE as YAML gave it (int, float64,
// string, bool, nil, []any, map[string]any).
type Expectation struct {
	Key   string
	Value any
}

// Describe names the step's action for messages: "play [QH QC] by seat 0", "deal by the host",
// "bot 2 for seat 1", "wait 6s", "swap to seat 1 choice=2 by seat 0".
func (s *Step) Describe() string {
	switch s.Kind {
	case StepWait:
		return fmt.Sprintf("wait %gs", float64(s.WaitMS)/1000)
	case StepExpect:
		return "expect"
	case StepBot:
		return fmt.Sprintf("bot %d for seat %d", s.Bot, s.Seat)
	}
	return DescribeAction(s.Action)
}

// DescribeAction names an action for messages: its type, cards and arguments, and who acts.
func DescribeAction(a sdk.Action) string {
	var b strings.Builder
	b.WriteString(a.Type)
	if len(a.Cards) > 0 {
		b.WriteString(" [" + strings.Join(sdk.CardStrings(a.Cards), ", ") + "]")
	}
	if a.Suit != "" {
		b.WriteString(" suit " + a.Suit)
	}
	if a.Color != "" {
		b.WriteString(" color " + a.Color)
	}
	if a.From != "" {
		b.WriteString(" from " + a.From)
	}
	if a.Target != nil {
		fmt.Fprintf(&b, " to seat %d", *a.Target)
	}
	if a.Index != nil {
		fmt.Fprintf(&b, " at %d", *a.Index)
	}
	if a.Deadline != "" {
		b.WriteString(" " + a.Deadline)
	}
	for _, k := range slices.Sorted(maps.Keys(a.Args)) {
		fmt.Fprintf(&b, " %s=%s", k, a.Args[k])
	}
	switch a.Seat {
	case sdk.Host:
		b.WriteString(" by the host")
	case sdk.Clock:
		b.WriteString(" by the clock")
	default:
		fmt.Fprintf(&b, " by seat %d", a.Seat)
	}
	return b.String()
}
