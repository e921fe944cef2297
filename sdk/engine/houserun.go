package engine

// The orchestrator: one game's house rules run around one engine call (start, act), in order,
// with the checks between hooks (the card invariant, the ruleset's SetTable) and what is kept in
// the game between calls (houseState).

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"cardhouse/sdk"
)

// houseState is what house rules keep in a game's stored state between calls.
type houseState struct {
	RNG    sdk.RNG                   `json:"rng"`
	Memory map[string]map[string]any `json:"mem,omitempty"`
	Open   []OpenHouseAction         `json:"open,omitempty"`
	// Suspended names the rules suspended for the rest of the game (ActSuspendHouseRule).
	Suspended []string `json:"off,omitempty"`
	// Refused are the cards the views offer that a before_action hook would refuse, per seat and
	// action (vetOffers): decorateView takes them out, so a card a rule refuses is not lit.
	Refused []RefusedCards `json:"ref,omitempty"`
	// report collects the current call's HouseReport; never stored (a stored state is decoded
	// afresh for every call, so it never outlives one).
	report *HouseReport
	// trace asks for every hook call in report.
	trace bool
}

func (st *houseState) blocking() *OpenHouseAction {
	if st == nil {
		return nil
	}
	for i := range st.Open {
		if st.Open[i].Blocking {
			return &st.Open[i]
		}
	}
	return nil
}

func (st *houseState) openFor(seat int, typ string) *OpenHouseAction {
	if st == nil {
		return nil
	}
	for i := range st.Open {
		if st.Open[i].Seat == seat && st.Open[i].Spec.Type == typ {
			return &st.Open[i]
		}
	}
	return nil
}

// RefusedCards are the cards of one action a seat's view offers that the game's house rules
// refuse (their before_action hooks), worked out after each step.
type RefusedCards struct {
	Seat  int        `json:"seat"`
	Type  string     `json:"type"`
	Cards []sdk.Card `json:"cards"`
}

// decorateView takes out of a viewer's view the cards house rules refuse (an action left with no
// card is not offered) and adds the open house actions; while one blocks, they are the only
// actions offered.
func (st *houseState) decorateView(v *sdk.View) {
	if st == nil {
		return
	}
	st.dropRefused(v)
	if len(st.Open) == 0 {
		return
	}
	blocking := st.blocking() != nil
	if blocking {
		v.Actions = nil
	}
	for _, o := range st.Open {
		if o.Seat == v.Viewer && (o.Blocking || !blocking) {
			v.Actions = append(v.Actions, o.Spec)
		}
	}
}

// dropRefused takes the refused cards out of v's actions.
func (st *houseState) dropRefused(v *sdk.View) {
	for _, r := range st.Refused {
		if r.Seat != v.Viewer {
			continue
		}
		for i := range v.Actions {
			sp := &v.Actions[i]
			if sp.Type != r.Type || len(sp.Cards) == 0 {
				continue
			}
			cards := slices.DeleteFunc(slices.Clone(sp.Cards), func(c sdk.Card) bool { return slices.Contains(r.Cards, c) })
			if len(cards) == 0 {
				sp.Type = "" // marked, dropped below
				continue
			}
			sp.Cards = cards
			if len(sp.ChoiceFor) > 0 {
				sp.ChoiceFor = slices.DeleteFunc(slices.Clone(sp.ChoiceFor), func(c sdk.Card) bool { return slices.Contains(r.Cards, c) })
			}
		}
		v.Actions = slices.DeleteFunc(v.Actions, func(sp sdk.ActionSpec) bool { return sp.Type == "" })
	}
}

// vetOffers works out which cards the views offer that a before_action hook refuses
// (houseState.Refused): for the seat in turn (else each seat that may act), each action of its
// view that takes cards (not an exact count of them), each card played alone (with the first
// choice, for a card that needs one; of an action that takes several cards at once, a card refused
// alone is taken as refused with others): one before_action call per card and rule. Nothing the
// hooks print or trace while asked is reported, and a hook that fails while asked refuses nothing
// here (the failure shows when the card is played).
func (h *house[S]) vetOffers(ctx context.Context, s S) error {
	h.st.Refused = nil
	if !slices.ContainsFunc(h.infos, func(i HouseRuleInfo) bool { return i.Has(HookBefore) }) {
		return nil
	}
	st := h.e.r.Status(s)
	if st.Phase != sdk.PhasePlaying {
		return nil
	}
	report, trace := h.st.report, h.st.trace
	h.st.report, h.st.trace = nil, false
	defer func() { h.st.report, h.st.trace = report, trace }()
	t := h.ed.Table(s)
	// The seat in turn, when it may act (others' calls and catches offer no cards to play); else
	// every seat that may act.
	seats := st.Actors
	if slices.Contains(st.Actors, st.Turn) {
		seats = []int{st.Turn}
	}
	for _, seat := range seats {
		if seat < 0 {
			continue
		}
		v := h.e.r.View(s, seat)
		for _, sp := range v.Actions {
			if len(sp.Cards) == 0 || sp.Count > 1 || h.ruleOf(sp.Type) >= 0 {
				continue
			}
			var refused []sdk.Card
			for _, c := range sp.Cards {
				one := sp
				one.Cards = []sdk.Card{c}
				one.Targets, one.Indexes = nil, nil
				// The card alone, with the first choice where it needs one: one call per card and rule.
				a := candidates(sdk.View{Actions: []sdk.ActionSpec{one}}, seat)[0]
				err := h.before(ctx, s, t, &a)
				var re *sdk.RuleError
				if err != nil && errors.Is(err, sdk.ErrIllegal) && !(errors.As(err, &re) && re.Fault != nil) {
					refused = append(refused, c)
				}
			}
			if len(refused) > 0 {
				h.st.Refused = append(h.st.Refused, RefusedCards{Seat: seat, Type: sp.Type, Cards: refused})
			}
		}
	}
	return ctx.Err()
}

// decorateStatus adds the seats with open house actions to the actors; while one blocks, only
// the seats it waits for act.
func (st *houseState) decorateStatus(s *sdk.Status) {
	if st == nil || len(st.Open) == 0 {
		return
	}
	if st.blocking() != nil {
		s.Actors = nil
		for _, o := range st.Open {
			if o.Blocking && !slices.Contains(s.Actors, o.Seat) {
				s.Actors = append(s.Actors, o.Seat)
			}
		}
		return
	}
	for _, o := range st.Open {
		if !slices.Contains(s.Actors, o.Seat) {
			s.Actors = append(s.Actors, o.Seat)
		}
	}
}

// house runs one game's house rules around one engine call.
type house[S any] struct {
	e     *engine[S]
	ed    sdk.TableEditor[S]
	rules []sdk.HouseRule
	infos []HouseRuleInfo
	st    *houseState
}

// houseErr makes a house rule's failure a refusal: the action (or the start) is refused with the
// script's message and the game stays as it was. Refusals, ruleset failures and cancellations pass.
func houseErr(err error) error {
	var fe *faultError
	if errors.As(err, &fe) {
		f := fe.fault
		return &sdk.RuleError{Code: sdk.CodeHouseRule, Reason: err.Error(), Fault: &f}
	}
	if notTheRule(err) {
		return err
	}
	re := &sdk.RuleError{Code: sdk.CodeHouseRule, Reason: err.Error()}
	var hf HouseFaulter
	if errors.As(err, &hf) {
		f := hf.HouseFault()
		re.Fault = &f
	}
	return re
}

// notTheRule reports whether err is no house rule's failure: nil, a refusal, a ruleset failure or
// a cancellation.
func notTheRule(err error) bool {
	return err == nil || errors.Is(err, sdk.ErrIllegal) || errors.Is(err, sdk.ErrRuleset) ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// ruleFailure is a failure the engine finds in what a rule's hook did (a broken card invariant,
// a table the ruleset refuses) or in what it declares.
type ruleFailure struct {
	fault sdk.HouseFault
	msg   string
}

func (e *ruleFailure) Error() string              { return e.msg }
func (e *ruleFailure) RuleName() string           { return e.fault.Rule }
func (e *ruleFailure) HouseFault() sdk.HouseFault { return e.fault }

// failed returns the engine's failure of rule i, its message prefixed with the rule's name and
// version (when it has one).
func (h *house[S]) failed(i int, format string, args ...any) error {
	r := h.rules[i]
	label := fmt.Sprintf("house rule %q", r.Name)
	if r.Version > 0 {
		label += fmt.Sprintf(" v%d", r.Version)
	}
	msg := fmt.Sprintf(format, args...)
	return &ruleFailure{fault: sdk.HouseFault{Rule: r.Name, Version: r.Version, Message: msg}, msg: label + ": " + msg}
}

// houseActErr is houseErr for an action: a rule that failed refuses it with a reason for players
// ("house rule X failed; the action was not applied"), never the script's error, which is the
// refusal's Detail for the rule's author and the room's admins (and its Fault says which rule,
// hook and line). A refusal a hook chose passes as it is: the rule's own reason.
func houseActErr(err error) error {
	out := houseErr(err)
	var rf RuleFailure
	if re, ok := out.(*sdk.RuleError); ok && re.Code == sdk.CodeHouseRule && re.Detail == "" &&
		!errors.Is(err, sdk.ErrIllegal) && errors.As(err, &rf) {
		re.Detail = re.Reason
		re.Reason = fmt.Sprintf("house rule %q failed; the action was not applied", rf.RuleName())
	}
	return out
}

func (h *house[S]) call(ctx context.Context, i int, c HookCall) (*HookResult, error) {
	c.Rule = h.rules[i]
	c.Ruleset = h.e.info.ID
	c.Memory = h.st.Memory[c.Rule.Name]
	if c.RNG == nil {
		rng := h.st.RNG.Clone()
		c.RNG = &rng
	}
	res, err := h.e.cfg.house.Call(ctx, &c)
	h.record(&c, res, err)
	return res, h.fault(i, c.Hook, err)
}

// record adds what a hook call printed, and with tracing the call itself, to the step's report.
func (h *house[S]) record(c *HookCall, res *HookResult, err error) {
	if res != nil && len(res.Log) > 0 {
		rep := h.st.rep()
		for _, l := range res.Log {
			rep.Log = append(rep.Log, HouseLine{Rule: c.Rule.Name, Hook: c.Hook, Text: l})
		}
	}
	if !h.st.trace {
		return
	}
	t := HookTrace{Rule: c.Rule.Name, Hook: c.Hook, Name: c.Name, Seat: sdk.NoSeat}
	if c.Hook == HookOpen || c.Hook == HookBot {
		t.Seat = c.Seat
	}
	switch {
	case err != nil:
		t.Did = "failed: " + err.Error()
	case res.Refusal != "":
		t.Did = "refused: " + res.Refusal
	case res.End != nil && res.End.Game:
		t.Did = fmt.Sprintf("ended the game, seat %d winning", res.End.Winner)
	case res.End != nil:
		t.Did = fmt.Sprintf("ended the round, seat %d winning", res.End.Winner)
	case res.Changed:
		t.Did = "changed the table"
	case res.Answered:
		t.Did = "answered " + res.Answer
	case res.Open != nil:
		t.Did = "open"
	case res.Action != nil:
		t.Did = "chose " + res.Action.Type
	}
	if res != nil {
		for _, ev := range res.Events {
			t.Events = append(t.Events, ev.Name)
		}
	}
	rep := h.st.rep()
	rep.Calls = append(rep.Calls, t)
}

// rep returns the report being collected, making it on first use.
func (st *houseState) rep() *HouseReport {
	if st.report == nil {
		st.report = &HouseReport{}
	}
	return st.report
}

// takeReport returns the report collected so far (nil when empty) and starts a new one.
func (st *houseState) takeReport() *HouseReport {
	if st == nil || st.report == nil || (len(st.report.Log) == 0 && len(st.report.Calls) == 0) {
		return nil
	}
	r := st.report
	st.report = nil
	return r
}

// edit runs a table-changing hook of every rule that has it, in order, and returns the new state
// and the events the hooks emitted. Each rule's table must keep every card exactly once and be
// accepted by the ruleset's SetTable.
func (h *house[S]) edit(ctx context.Context, hook string, s S, a *sdk.Action, prior []sdk.Event) (S, []sdk.Event, error) {
	var events []sdk.Event
	for i, info := range h.infos {
		if !info.Has(hook) || h.off(i) {
			continue
		}
		var err error
		var evs []sdk.Event
		c := HookCall{Hook: hook, Action: a, Seat: sdk.NoSeat, Events: append(slices.Clip(prior), events...)}
		if s, evs, err = h.editOne(ctx, i, c, s); err != nil {
			return s, nil, err
		}
		events = append(events, evs...)
	}
	return s, events, nil
}

// editOne runs one table-changing hook call and keeps its table, memory and draws.
func (h *house[S]) editOne(ctx context.Context, i int, c HookCall, s S) (S, []sdk.Event, error) {
	t := h.ed.Table(s)
	c.Table = t
	c.Status = h.e.r.Status(s)
	ender, canEnd := any(h.e.r).(sdk.Ender[S])
	c.CanEnd = canEnd && (c.Hook == HookAfter || c.Hook == HookApply) && c.Status.Phase == sdk.PhasePlaying
	rng := h.st.RNG.Clone()
	c.RNG = &rng
	res, err := h.call(ctx, i, c)
	if err != nil {
		return s, nil, err
	}
	if res.Refusal != "" {
		return s, nil, &sdk.RuleError{Code: sdk.CodeHouseRule, Reason: res.Refusal}
	}
	name := h.rules[i].Name
	if res.Changed {
		if diff := sdk.CardDiff(t.Cards(), res.Table.Cards()); diff != "" {
			return s, nil, h.fault(i, c.Hook, h.failed(i, "%s broke the card invariant (every card exactly once): %s", c.Hook, diff))
		}
		ns, err := h.ed.SetTable(s, res.Table)
		if err != nil {
			return s, nil, h.fault(i, c.Hook, h.failed(i, "%s left a table ruleset %s refuses: %v", c.Hook, h.e.info.ID, err))
		}
		s = ns
	}
	events := res.Events
	if res.End != nil {
		if !c.CanEnd {
			return s, nil, h.fault(i, c.Hook, h.failed(i, "%s cannot end the round here", c.Hook))
		}
		ns, evs, err := ender.End(s, *res.End)
		if err != nil {
			return s, nil, h.fault(i, c.Hook, h.failed(i, "%s ended the round, which ruleset %s refuses: %v", c.Hook, h.e.info.ID, err))
		}
		s, events = ns, append(slices.Clip(events), evs...)
	}
	h.st.Memory[name] = res.Memory
	if len(res.Memory) == 0 {
		delete(h.st.Memory, name)
	}
	h.st.RNG = rng
	return s, events, nil
}

// before asks every rule's before_action hook; the first refusal wins.
func (h *house[S]) before(ctx context.Context, s S, t sdk.Table, a *sdk.Action) error {
	var st *sdk.Status
	for i, info := range h.infos {
		if !info.Has(HookBefore) || h.off(i) {
			continue
		}
		if st == nil {
			v := h.e.r.Status(s)
			st = &v
		}
		res, err := h.call(ctx, i, HookCall{Hook: HookBefore, Table: t, Status: *st, Action: a, Seat: sdk.NoSeat})
		if err != nil {
			return err
		}
		if res.Refusal != "" {
			return &sdk.RuleError{Code: sdk.CodeHouseRule, Reason: res.Refusal}
		}
	}
	return nil
}

// refreshOpen asks every rule which of its actions are open to which seat.
func (h *house[S]) refreshOpen(ctx context.Context, s S) error {
	h.st.Open = nil
	st := h.e.r.Status(s)
	if st.Phase != sdk.PhasePlaying {
		return nil
	}
	var t *sdk.Table
	for i, info := range h.infos {
		if h.off(i) {
			continue
		}
		for _, act := range info.Actions {
			if t == nil {
				v := h.ed.Table(s)
				t = &v
			}
			for seat := range st.Seats {
				res, err := h.call(ctx, i, HookCall{Hook: HookOpen, Name: act.Name, Table: *t, Status: st, Seat: seat})
				if err != nil {
					return err
				}
				if res.Open == nil {
					continue
				}
				spec := *res.Open
				spec.Type = act.Name
				if spec.Label == "" {
					spec.Label = act.Label
				}
				h.st.Open = append(h.st.Open, OpenHouseAction{Seat: seat, Rule: h.rules[i].Name, Blocking: act.Blocking, Spec: spec})
			}
		}
	}
	return nil
}

// ruleOf returns the index of the rule that adds action type typ, or -1.
func (h *house[S]) ruleOf(typ string) int {
	for i, info := range h.infos {
		if h.off(i) {
			continue
		}
		for _, a := range info.Actions {
			if a.Name == typ {
				return i
			}
		}
	}
	return -1
}

// checkOpen refuses a house action its open hook did not offer the seat, or with a target, card
// or choice not offered.
func checkOpen(o *OpenHouseAction, a sdk.Action) error {
	if o == nil {
		return sdk.Refuse(sdk.CodeNotAvailable, "%s is not open to seat %d now", a.Type, a.Seat)
	}
	sp := o.Spec
	if len(sp.Targets) > 0 && (a.Target == nil || !slices.Contains(sp.Targets, *a.Target)) {
		return sdk.Refuse(sdk.CodeBadAction, "%s needs a target among seats %v", a.Type, sp.Targets)
	}
	if len(sp.Cards) > 0 {
		if len(a.Cards) == 0 {
			return sdk.Refuse(sdk.CodeBadAction, "%s needs a card among %s", a.Type, strings.Join(sdk.CardStrings(sp.Cards), " "))
		}
		if !sp.Multi && len(a.Cards) > 1 {
			return sdk.Refuse(sdk.CodeBadAction, "%s takes one card", a.Type)
		}
		for _, c := range a.Cards {
			if !slices.Contains(sp.Cards, c) {
				return sdk.Refuse(sdk.CodeBadAction, "%s: %s is not among %s", a.Type, c, strings.Join(sdk.CardStrings(sp.Cards), " "))
			}
		}
	}
	if len(sp.Choices) > 0 && !slices.Contains(sp.Choices, a.Args["choice"]) {
		return sdk.Refuse(sdk.CodeBadAction, "%s needs a choice among %s", a.Type, strings.Join(sp.Choices, ", "))
	}
	return nil
}

// asker answers the ruleset's questions during one Apply, from the table before the action.
type asker[S any] struct {
	ctx   context.Context
	h     *house[S]
	s     S
	table *sdk.Table
	err   error
}

func (k *asker[S]) Ask(question string, args map[string]string) (string, bool) {
	if k.err != nil {
		return "", false
	}
	for i, info := range k.h.infos {
		if !slices.Contains(info.Answers, question) || k.h.off(i) {
			continue
		}
		if k.table == nil {
			t := k.h.ed.Table(k.s)
			k.table = &t
		}
		res, err := k.h.call(k.ctx, i, HookCall{Hook: HookAsk, Name: question, Table: *k.table, Status: k.h.e.r.Status(k.s), Args: maps.Clone(args), Seat: sdk.NoSeat})
		if err != nil {
			k.err = err
			return "", false
		}
		if res.Answered {
			return res.Answer, true
		}
	}
	return "", false
}

// start runs the start hooks of a new game and works out the open actions and the refused cards.
func (h *house[S]) start(ctx context.Context, s S) (S, []sdk.Event, error) {
	s, events, err := h.edit(ctx, HookStart, s, nil, nil)
	if err != nil {
		return s, nil, err
	}
	return s, events, h.refresh(ctx, s)
}

// refresh works out the open house actions and the cards the rules refuse after a step.
func (h *house[S]) refresh(ctx context.Context, s S) error {
	if err := h.refreshOpen(ctx, s); err != nil {
		return err
	}
	return h.vetOffers(ctx, s)
}

// act applies one action with the game's house rules around it.
func (h *house[S]) act(ctx context.Context, s S, req *ActRequest) (S, []sdk.Event, error) {
	a := req.Action
	if a.Type == ActSuspendHouseRule {
		s, evs, err := h.suspend(s, a)
		if err == nil {
			err = h.vetOffers(ctx, s)
		}
		return s, evs, err
	}
	owner := h.ruleOf(a.Type)
	if b := h.st.blocking(); b != nil && a.Seat >= 0 {
		if o := h.st.openFor(a.Seat, a.Type); o == nil || !o.Blocking {
			return s, nil, sdk.Refuse(sdk.CodeHouseRule, "waiting for seat %d: %s (house rule %q)", b.Seat, b.Spec.Label, b.Rule)
		}
	}
	var open *OpenHouseAction
	if owner >= 0 {
		open = h.st.openFor(a.Seat, a.Type)
		if err := checkOpen(open, a); err != nil {
			return s, nil, err
		}
	}
	before := h.e.r.Status(s)
	t := h.ed.Table(s)
	if err := h.before(ctx, s, t, &a); err != nil {
		return s, nil, err
	}
	var events []sdk.Event
	if owner >= 0 {
		ns, evs, err := h.editOne(ctx, owner, HookCall{Hook: HookApply, Name: a.Type, Action: &a, Seat: a.Seat}, s)
		if err != nil {
			return s, nil, err
		}
		s, events = ns, evs
	} else {
		k := &asker[S]{ctx: ctx, h: h, s: s, table: &t}
		res, err := h.e.r.Apply(ctx, sdk.ApplyRequest[S]{State: s, Action: a, Now: req.Now, Ask: k})
		if k.err != nil {
			return s, nil, k.err
		}
		if err != nil {
			return s, nil, h.e.fail("act", err)
		}
		s, events = res.State, res.Events
	}
	s, evs, err := h.edit(ctx, HookAfter, s, &a, events)
	if err != nil {
		return s, nil, err
	}
	events = append(events, evs...)
	after := h.e.r.Status(s)
	switch {
	case before.Phase == sdk.PhasePlaying && after.Phase != sdk.PhasePlaying:
		s, evs, err = h.edit(ctx, HookRoundEnd, s, &a, events)
	case before.Phase != sdk.PhasePlaying && after.Phase == sdk.PhasePlaying:
		dealt := h.ed.Table(s)
		s, evs, err = h.edit(ctx, HookStart, s, nil, events)
		if err == nil && !sameZones(dealt, h.ed.Table(s)) {
			events = withoutCards(events)
		}
	default:
		evs = nil
	}
	if err != nil {
		return s, nil, err
	}
	events = append(events, evs...)
	return s, events, h.refresh(ctx, s)
}

// sameZones reports whether two tables hold the same cards in the same places.
func sameZones(a, b sdk.Table) bool {
	return maps.EqualFunc(a.Zones, b.Zones, slices.Equal[[]sdk.Card])
}

// withoutCards is events with their cards left out (their counts kept). The start hooks that ran
// after a deal moved cards, so what the deal's events say of cards (an upcard turned, say) is
// of a table that no longer is: a card they name may now lie hidden in a hand, and every viewer
// would see it in the event.
func withoutCards(events []sdk.Event) []sdk.Event {
	out := slices.Clone(events)
	for i := range out {
		out[i].Cards = nil
	}
	return out
}
