package room

import (
	"encoding/json"
	"fmt"
	"slices"

	"cardhouse/sdk"
)

// Limits on what a seat's action may carry: far above what any variant or house rule sends
// (a Queen run, a choice), far below what would bloat the action log.
const (
	// MaxActionCards is the most cards one action may name (two full decks).
	MaxActionCards = 108
	// MaxActionArgs is the most Args keys one action may carry.
	MaxActionArgs = 8
	// MaxArgKey and MaxArgValue bound each Args key and value, in bytes.
	MaxArgKey, MaxArgValue = 32, 128
)

// checkAction refuses a seat's action (from a player, over HTTP or the WebSocket) that carries
// anything its type does not take, judged by the action specs of the seat's current view: a
// refused action changes nothing, and an accepted one stores nothing the ruleset did not ask for
// (docs/protocol.md, "Actions"). Whether the cards, target or choice are legal now stays the
// ruleset's to say; this checks the action's shape. Bots' and the clock's actions come from the
// engine and the room, and are not checked here.
func (r *Room) checkAction(a sdk.Action) error {
	switch a.Type {
	case sdk.ActDeadline, sdk.ActDeal:
		return errf(KindForbidden, "bad_action", "%q actions come from the clock and the host, not from a seat", a.Type)
	}
	if why := boundsRefuse(a); why != "" {
		return errf(KindInvalid, "bad_action", "%s", why)
	}
	if !carriesArguments(a) {
		return nil // a bare type: the ruleset says whether it is open
	}
	specs, err := r.seatSpecs(a.Seat)
	if err != nil {
		return err
	}
	var why string
	for _, sp := range specs {
		if sp.Type != a.Type {
			continue
		}
		if why = specRefuses(sp, a); why == "" {
			return nil
		}
	}
	if why == "" {
		why = fmt.Sprintf("%s is not open to seat %d now, so it takes nothing but its type", a.Type, a.Seat)
	}
	return errf(KindInvalid, "bad_action", "%s", why)
}

// boundsRefuse says why a seat's action is out of bounds whatever its type takes (no type, a
// deadline, more cards or args than the limits, an args key or value too long), or "" when it is
// within them.
func boundsRefuse(a sdk.Action) string {
	switch {
	case a.Type == "":
		return "the action has no type"
	case len(a.Type) > MaxArgKey:
		return fmt.Sprintf("an action type has at most %d bytes", MaxArgKey)
	case a.Deadline != "":
		return "deadline is set by the clock, not by a seat"
	case len(a.Cards) > MaxActionCards:
		return fmt.Sprintf("an action names at most %d cards, this one %d", MaxActionCards, len(a.Cards))
	case len(a.Args) > MaxActionArgs:
		return fmt.Sprintf("an action carries at most %d args, this one %d", MaxActionArgs, len(a.Args))
	}
	for k, v := range a.Args {
		if len(k) > MaxArgKey || len(v) > MaxArgValue {
			return fmt.Sprintf("args keys have at most %d bytes and values at most %d", MaxArgKey, MaxArgValue)
		}
	}
	return ""
}

// carriesArguments reports whether a has any field besides its type (and the seat the room sets).
func carriesArguments(a sdk.Action) bool {
	return len(a.Cards) > 0 || a.Suit != "" || a.Color != "" || a.From != "" || a.Target != nil || a.Index != nil || len(a.Args) > 0
}

// specRefuses says why an action of sp's type does not fit sp, or "" when it does. An action whose
// spec names zones it may target (ActionSpec.Zones: a layoff onto a meld) carries the zone's owner
// as Target and its meld number as Index; which zone they name is the ruleset's to check (the
// spec holds the zones' ids, not their owners), so any seat and number that could name one goes.
func specRefuses(sp sdk.ActionSpec, a sdk.Action) string {
	if len(sp.Zones) > 0 && (a.Target != nil || a.Index != nil) {
		switch {
		case a.Target == nil || a.Index == nil:
			return fmt.Sprintf("%s names a zone by its owner (target) and its number (index), both", a.Type)
		case *a.Target < 0 || *a.Index < 0:
			return fmt.Sprintf("%s: no zone is owned by seat %d with number %d", a.Type, *a.Target, *a.Index)
		}
		a.Target, a.Index = nil, nil // said: the rest of the action is checked as usual
	}
	switch {
	case len(a.Cards) > 0 && len(sp.Cards) == 0:
		return fmt.Sprintf("%s takes no cards", a.Type)
	case a.From != "" && a.From != sp.From: // no From: the ruleset knows where the cards are
		if sp.From == "" {
			return fmt.Sprintf("%s takes its cards from the hand, not from %q", a.Type, a.From)
		}
		return fmt.Sprintf("%s takes its cards from %q", a.Type, sp.From)
	case a.Target != nil && !slices.Contains(sp.Targets, *a.Target):
		if len(sp.Targets) == 0 {
			return fmt.Sprintf("%s takes no target", a.Type)
		}
		return fmt.Sprintf("%s: seat %d is not a target (want one of %v)", a.Type, *a.Target, sp.Targets)
	case a.Index != nil && sp.Indexes == nil:
		return fmt.Sprintf("%s takes no index", a.Type)
	case a.Index != nil && !slices.Contains(sp.Indexes, *a.Index):
		return fmt.Sprintf("%s: index %d is not open (want one of %v)", a.Type, *a.Index, sp.Indexes)
	case a.Suit != "" && !slices.Contains(sp.Choices, a.Suit):
		return choiceRefusal(sp, a, "suit", a.Suit)
	case a.Color != "" && !slices.Contains(sp.Choices, a.Color):
		return choiceRefusal(sp, a, "colour", a.Color)
	}
	for k, v := range a.Args {
		switch {
		case k == "choice" && len(sp.Choices) > 0:
			if !slices.Contains(sp.Choices, v) {
				return choiceRefusal(sp, a, "choice", v)
			}
		case !slices.Contains(sp.Args, k):
			return fmt.Sprintf("%s takes no argument %q", a.Type, k)
		}
	}
	return ""
}

func choiceRefusal(sp sdk.ActionSpec, a sdk.Action, what, got string) string {
	if len(sp.Choices) == 0 {
		return fmt.Sprintf("%s takes no %s", a.Type, what)
	}
	return fmt.Sprintf("%s: %q is not a %s on offer (want one of %v)", a.Type, got, what, sp.Choices)
}

// seatSpecs returns the actions open to seat in its current view, decoded from the view's JSON
// (only its "actions"; the rest of the view is skipped), or, while the views are kept as patches,
// from the open actions the last step gave (lazy.go).
func (r *Room) seatSpecs(seat int) ([]sdk.ActionSpec, error) {
	if r.broken != nil {
		if err := r.refresh(); err != nil {
			return nil, engineErr(err)
		}
	}
	if len(r.lazySteps) > 0 {
		return r.leanSpecs(seat) // the views are kept as patches: the last step gave the actions
	}
	if seat < 0 || seat >= len(r.views) {
		return nil, nil
	}
	var v struct {
		Actions []sdk.ActionSpec `json:"actions"`
	}
	if err := json.Unmarshal(r.views[seat], &v); err != nil {
		return nil, fmt.Errorf("reading seat %d's view: %w", seat, err)
	}
	return v.Actions, nil
}
