package engine

// A house rule that keeps failing in a game is suspended for the rest of that game. The host
// decides when (after so many failures); the suspension itself is an action of the game's log, so
// that a restart, a sticky copy rebuilt from its tail and a replay all reach the same game.

import (
	"errors"
	"fmt"
	"slices"

	"cardhouse/sdk"
)

// ActSuspendHouseRule is the host's action that suspends one of the game's house rules for the
// rest of the game: Action{Seat: sdk.Host, Type: ActSuspendHouseRule, Args: {"rule": name,
// "reason": why}}. From then on none of the rule's hooks, answers or actions run; its open
// actions close. The ruleset never sees the action; it changes no card, and the game's event
// EventHouseRuleSuspended tells every viewer.
const ActSuspendHouseRule = "suspend_house_rule"

// EventHouseRuleSuspended is the event of ActSuspendHouseRule: Data "rule" (name), "version" and
// "reason".
const EventHouseRuleSuspended = "house_rule_suspended"

// faultError is a house rule's failure in one hook: houseErr makes it a refusal carrying Fault.
type faultError struct {
	fault sdk.HouseFault
	err   error
}

func (e *faultError) Error() string { return e.err.Error() }
func (e *faultError) Unwrap() error { return e.err }

// fault tags err, a failure of rule i in hook, with the rule's name, version and hook, and the
// line and message the failure gives (HouseFaulter; else the whole error is the message).
// Refusals, ruleset failures, cancellations and errors already tagged pass unchanged.
func (h *house[S]) fault(i int, hook string, err error) error {
	var fe *faultError
	if notTheRule(err) || errors.As(err, &fe) {
		return err
	}
	f := sdk.HouseFault{Rule: h.rules[i].Name, Version: h.rules[i].Version, Hook: hook, Message: err.Error()}
	var hf HouseFaulter
	if errors.As(err, &hf) {
		g := hf.HouseFault()
		f.Line, f.Message = g.Line, g.Message
	}
	return &faultError{fault: f, err: err}
}

// off reports whether rule i is suspended in this game.
func (h *house[S]) off(i int) bool {
	return h.st != nil && slices.Contains(h.st.Suspended, h.rules[i].Name)
}

// suspend applies ActSuspendHouseRule.
func (h *house[S]) suspend(s S, a sdk.Action) (S, []sdk.Event, error) {
	if a.Seat != sdk.Host {
		return s, nil, sdk.Refuse(sdk.CodeBadAction, "only the host suspends a house rule (seat %d sent %s)", a.Seat, ActSuspendHouseRule)
	}
	name := a.Args["rule"]
	i := slices.IndexFunc(h.rules, func(r sdk.HouseRule) bool { return r.Name == name })
	if i < 0 {
		return s, nil, sdk.Refuse(sdk.CodeBadAction, "this game has no house rule %q to suspend", name)
	}
	if h.off(i) {
		return s, nil, sdk.Refuse(sdk.CodeBadAction, "house rule %q is suspended already", name)
	}
	h.st.Suspended = append(h.st.Suspended, name)
	h.st.Open = slices.DeleteFunc(h.st.Open, func(o OpenHouseAction) bool { return o.Rule == name })
	ev := sdk.Event{Name: EventHouseRuleSuspended, Seat: sdk.Host, Data: map[string]string{
		"rule": name, "version": fmt.Sprint(h.rules[i].Version), "reason": a.Args["reason"]}}
	return s, []sdk.Event{ev}, nil
}

// Candidates lists the simple actions a view offers seat (one card at a time, each target, each
// index): what a host's bot may fall back to when its choice failed.
func Candidates(v sdk.View, seat int) []sdk.Action { return candidates(v, seat) }
