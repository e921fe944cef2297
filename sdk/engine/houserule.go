package engine

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"cardhouse/sdk"
)

// The hooks of a house rule, as HookCall.Hook names them. The generic hooks work for every ruleset
// that implements TableEditor; HookAsk answers a question the ruleset declared (HouseHooks); the
// last three run the house rule's own actions.
const (
	// HookStart runs when a game (or a round, after the host's deal) starts; it may change the table.
	HookStart = "on_start"
	// HookBefore runs before every action; it may refuse it (HookResult.Refusal), never change anything.
	HookBefore = "before_action"
	// HookAfter runs after every accepted action; it may change the table and emit events.
	HookAfter = "after_action"
	// HookRoundEnd runs when an action ends a round or the game; it may change the table ("score.N").
	HookRoundEnd = "on_round_end"
	// HookAsk answers one of the ruleset's declared questions (HookCall.Name); read-only.
	HookAsk = "ask"
	// HookOpen says whether the rule's action HookCall.Name is open to HookCall.Seat; read-only.
	HookOpen = "open"
	// HookApply applies the rule's action HookCall.Action; it may refuse it or change the table.
	HookApply = "apply"
	// HookBot chooses the parameters of the rule's open action for a bot seat; read-only.
	HookBot = "bot"
)

// HouseRuleRunner runs house-rule scripts for an Engine (see WithHouseRules). The SDK owns the
// order of hooks, the checks between them and what is kept in the game; a runner owns one script
// language. sdk/houserules is the Lua runner. A runner is called from many goroutines at once.
type HouseRuleRunner interface {
	// Describe compiles a rule and returns what it declares. An error names the rule and, where
	// there is one, the line.
	Describe(ctx context.Context, rule sdk.HouseRule) (HouseRuleInfo, error)
	// Call runs one hook of one rule. A script that fails, overruns its budget or hands back what
	// cannot be read returns an error naming the rule, the hook and the line; a refusal the script
	// chose is HookResult.Refusal, not an error. Call never changes its argument.
	Call(ctx context.Context, call *HookCall) (*HookResult, error)
}

// HouseRuleInfo is what a house rule declares about itself.
type HouseRuleInfo struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Options are the rule's own options, validated like a ruleset's (ValidateOptions) and shown in
	// the room form.
	Options []sdk.Option `json:"options,omitempty"`
	// Hooks lists the generic hooks the rule defines (HookStart, HookBefore, HookAfter, HookRoundEnd).
	Hooks []string `json:"hooks,omitempty"`
	// Answers lists the ruleset questions (HouseHook names) the rule answers.
	Answers []string `json:"answers,omitempty"`
	// Actions are the actions the rule adds.
	Actions []HouseAction `json:"actions,omitempty"`
}

// Has reports whether the rule defines the generic hook.
func (i HouseRuleInfo) Has(hook string) bool { return slices.Contains(i.Hooks, hook) }

// HouseAction is an action a house rule adds: players see it in their view's Actions while its
// open hook says so, and send it like any other action (Action.Type is Name; a seat goes in
// Action.Target, cards in Action.Cards, a choice in Action.Args["choice"]).
type HouseAction struct {
	Name  string `json:"name"`
	Label string `json:"label"`
	// Blocking actions make the game wait: while one is open, every other action of a seat is
	// refused and the views offer only the open house actions.
	Blocking bool `json:"blocking,omitempty"`
	// Bot is true when the rule chooses for bots (HookBot); otherwise a bot takes a blocking action
	// with a random target, card or choice, and leaves a non-blocking one alone.
	Bot bool `json:"bot,omitempty"`
}

// HookCall is one call of one hook of one house rule.
type HookCall struct {
	Rule sdk.HouseRule
	// Hook is one of the Hook constants; Name is the action (HookOpen, HookApply, HookBot) or the
	// question (HookAsk).
	Hook    string
	Name    string
	Ruleset string
	// Table is the game as the hook sees it; Status its phase, round and winner.
	Table  sdk.Table
	Status sdk.Status
	// Seat is the seat asked about (HookOpen, HookBot).
	Seat int
	// Action is the action being checked or applied (HookBefore, HookAfter, HookApply).
	Action *sdk.Action
	// Args are the ruleset's arguments to a question (HookAsk).
	Args map[string]string
	// Events are what the action has produced so far (HookAfter, HookRoundEnd, HookStart after a
	// deal): the ruleset's events, then those of the rules before this one.
	Events []sdk.Event
	// Memory is what the rule kept from earlier hooks of this game (strings, float64s, bools).
	Memory map[string]any
	// RNG is the draws the hook may make; the engine keeps what it consumed only for hooks that may
	// change the game.
	RNG *sdk.RNG
	// CanEnd is true when the hook may end the round or the game (HookResult.End): an after_action
	// or an action's apply, while the round is being played, of a ruleset that implements sdk.Ender.
	CanEnd bool
}

// HookResult is what a hook did. Fields a hook may not set are left at their zero values.
type HookResult struct {
	// Table is the table after the hook (equal to the call's for read-only hooks).
	Table sdk.Table
	// Changed is true when Table differs from the call's.
	Changed bool
	Events  []sdk.Event
	// Memory is the rule's memory after the hook.
	Memory map[string]any
	// Refusal, when not empty, refuses the action (HookBefore, HookApply) with this reason.
	Refusal string
	// Answer is the answer to a question (HookAsk) when Answered.
	Answer   string
	Answered bool
	// Open is the action as the seat is offered it (HookOpen), nil when closed.
	Open *sdk.ActionSpec
	// Action is a bot's choice (HookBot), nil for none.
	Action *sdk.Action
	// Log holds what the script printed.
	Log []string
	// End, when set, ends the round or the game through the ruleset's sdk.Ender once the hook's
	// table is in place (only when HookCall.CanEnd).
	End *sdk.EndRequest
}

// HouseReport is what a step's house-rule hooks did, for the rule's author and the room's admins
// (never for players): what the rules printed and, when asked for (ActRequest.Trace,
// NewGameRequest.Trace), every hook call.
type HouseReport struct {
	Log   []HouseLine `json:"log,omitempty"`
	Calls []HookTrace `json:"calls,omitempty"`
}

// HouseLine is one line a rule printed (print or game.log) in a hook.
type HouseLine struct {
	Rule string `json:"rule"`
	Hook string `json:"hook"`
	Text string `json:"text"`
}

// HookTrace is one hook call of a step.
type HookTrace struct {
	Rule string `json:"rule"`
	// Hook is the Hook constant; Name the action or question (HookOpen, HookApply, HookBot, HookAsk).
	Hook string `json:"hook"`
	Name string `json:"name,omitempty"`
	// Seat is the seat asked about (HookOpen, HookBot), else sdk.NoSeat.
	Seat int `json:"seat"`
	// Did says what the call did, in a few words: "refused: REASON", "changed the table",
	// "ended the round", "answered X", "open", "failed: ERROR"; "" when it did nothing.
	Did string `json:"did,omitempty"`
	// Events are the names of the events the call emitted.
	Events []string `json:"events,omitempty"`
}

// HouseRuleDescriber is an Engine that reads what a house-rule script declares (its name,
// description, options, hooks, answers and actions) in its own sandbox: compiling the script
// and running its top level, as a game would. The host asks the variant's plugin this way
// instead of running Lua itself. A script that does not compile, or a top level that fails, is a
// refusal (errors.Is ErrIllegal, code CodeHouseRule) whose reason names the line.
type HouseRuleDescriber interface {
	DescribeHouseRule(ctx context.Context, source string) (*HouseRuleInfo, error)
}

var _ HouseRuleDescriber = (*engine[struct{}])(nil)

// DescribeHouseRule implements HouseRuleDescriber with the engine's house-rule runner.
func (e *engine[S]) DescribeHouseRule(ctx context.Context, source string) (info *HouseRuleInfo, err error) {
	defer e.guard("describe_house_rule", &err)
	if e.cfg.house == nil {
		return nil, sdk.Refuse(sdk.CodeHouseRule, "the %s plugin was built without a house-rule runner (serve it with sdk.New(ruleset, houserules.Enable()))", e.info.ID)
	}
	if _, ok := any(e.r).(sdk.TableEditor[S]); !ok {
		return nil, sdk.Refuse(sdk.CodeHouseRule, "ruleset %s does not implement sdk.TableEditor, which house rules need", e.info.ID)
	}
	in, err := e.cfg.house.Describe(ctx, sdk.HouseRule{Source: source})
	if err != nil {
		return nil, houseErr(err)
	}
	return &in, nil
}

// Option configures New.
type Option func(*engineConfig)

type engineConfig struct {
	house HouseRuleRunner
}

// WithHouseRules makes the engine run games' house rules with runner. Without it, a game that
// names house rules is refused at its start.
func WithHouseRules(runner HouseRuleRunner) Option {
	return func(c *engineConfig) { c.house = runner }
}

// OpenHouseAction is a house-rule action open to a seat, as the engine keeps it in the game
// between actions.
type OpenHouseAction struct {
	Seat     int            `json:"seat"`
	Rule     string         `json:"rule"`
	Blocking bool           `json:"blocking,omitempty"`
	Spec     sdk.ActionSpec `json:"spec"`
}

// houseState is what house rules keep in a game's stored state between calls.
type houseState struct {
	RNG    sdk.RNG                   `json:"rng"`
	Memory map[string]map[string]any `json:"mem,omitempty"`
	Open   []OpenHouseAction         `json:"open,omitempty"`
	// Suspended names the rules suspended for the rest of the game (ActSuspendHouseRule).
	Suspended []string `json:"off,omitempty"`
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

// decorateView adds the open house actions to a viewer's view; while one blocks, they are the only
// actions offered.
func (st *houseState) decorateView(v *sdk.View) {
	if st == nil || len(st.Open) == 0 {
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

// HouseFaulter is a house rule's failure that says which rule failed, where and why
// (sdk/houserules.Error is one): the engine carries it to the host as the refusal's
// sdk.HouseFault, so that the host never reads the parts out of the error's sentence.
type HouseFaulter interface {
	error
	HouseFault() sdk.HouseFault
}

// notTheRule reports whether err is no house rule's failure: nil, a refusal, a ruleset failure or
// a cancellation.
func notTheRule(err error) bool {
	return err == nil || errors.Is(err, sdk.ErrIllegal) || errors.Is(err, sdk.ErrRuleset) ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// RuleFailure is a house rule that failed (a runner's error names its rule with this method):
// the engine words it for players as "house rule X failed" and keeps the error as the refusal's
// Detail.
type RuleFailure interface {
	error
	RuleName() string
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

// openHouse readies a game's house rules; errors are plain (the caller decides their kind).
func (e *engine[S]) openHouse(ctx context.Context, rules []sdk.HouseRule, st *houseState) (*house[S], error) {
	names := make([]string, len(rules))
	for i, r := range rules {
		names[i] = fmt.Sprintf("%q", r.Name)
	}
	if e.cfg.house == nil {
		return nil, fmt.Errorf("this game names house rules (%s) but the %s plugin was built without a house-rule runner (serve it with sdk.New(ruleset, houserules.Enable()))", strings.Join(names, ", "), e.info.ID)
	}
	ed, ok := any(e.r).(sdk.TableEditor[S])
	if !ok {
		return nil, fmt.Errorf("this game names house rules (%s) but ruleset %s does not implement sdk.TableEditor, which house rules need", strings.Join(names, ", "), e.info.ID)
	}
	h := &house[S]{e: e, ed: ed, rules: rules, st: st, infos: make([]HouseRuleInfo, len(rules))}
	for i, r := range rules {
		info, err := e.cfg.house.Describe(ctx, r)
		if err != nil {
			return nil, err
		}
		h.infos[i] = info
	}
	if h.st.Memory == nil {
		h.st.Memory = map[string]map[string]any{}
	}
	return h, nil
}

// prepareHouse checks a new game's house rules: names unique, options valid (returned normalised),
// declared actions and answers not clashing.
func (e *engine[S]) prepareHouse(ctx context.Context, req *NewGameRequest) (*house[S], error) {
	rules := slices.Clone(req.HouseRules)
	st := &houseState{RNG: sdk.NewRNG(req.Seed ^ 0x686f757365)} // "house": its own stream, same seed
	for label, vals := range req.Forced {
		st.RNG.Force(label, vals...)
	}
	h, err := e.openHouse(ctx, rules, st)
	if err != nil {
		return nil, err
	}
	var questions []string
	if hh, ok := e.r.(sdk.HouseHooks); ok {
		for _, q := range hh.HouseHooks() {
			questions = append(questions, q.Name)
		}
	}
	seenRule := map[string]bool{}
	actionOwner := map[string]string{}
	for i, info := range h.infos {
		r := &h.rules[i]
		if r.Name == "" {
			r.Name = info.Name
		}
		if r.Name != info.Name {
			msg := fmt.Sprintf("the script declares the name %q", info.Name)
			return nil, &ruleFailure{fault: sdk.HouseFault{Rule: r.Name, Version: r.Version, Message: msg}, msg: fmt.Sprintf("house rule %q: %s", r.Name, msg)}
		}
		if seenRule[r.Name] {
			return nil, fmt.Errorf("house rule %q is enabled twice", r.Name)
		}
		seenRule[r.Name] = true
		opts, err := sdk.ValidateOptions(info.Options, r.Options)
		if err != nil {
			return nil, &sdk.RuleError{Code: sdk.CodeBadOption, Reason: fmt.Sprintf("house rule %q: %v", r.Name, err),
				Fault: &sdk.HouseFault{Rule: r.Name, Version: r.Version, Message: err.Error()}}
		}
		r.Options = opts
		for _, a := range info.Answers {
			if !slices.Contains(questions, a) {
				asks := "asks none"
				if len(questions) > 0 {
					asks = "asks " + strings.Join(questions, ", ")
				}
				return nil, fmt.Errorf("house rule %q answers the question %q, which ruleset %s does not ask (it %s)", r.Name, a, e.info.ID, asks)
			}
		}
		for _, a := range info.Actions {
			if other, ok := actionOwner[a.Name]; ok {
				return nil, fmt.Errorf("house rules %q and %q both add an action %q", other, r.Name, a.Name)
			}
			actionOwner[a.Name] = r.Name
		}
	}
	return h, nil
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

// start runs the start hooks of a new game and works out the open actions.
func (h *house[S]) start(ctx context.Context, s S) (S, []sdk.Event, error) {
	s, events, err := h.edit(ctx, HookStart, s, nil, nil)
	if err != nil {
		return s, nil, err
	}
	return s, events, h.refreshOpen(ctx, s)
}

// act applies one action with the game's house rules around it.
func (h *house[S]) act(ctx context.Context, s S, req *ActRequest) (S, []sdk.Event, error) {
	a := req.Action
	if a.Type == ActSuspendHouseRule {
		return h.suspend(s, a)
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
	return s, events, h.refreshOpen(ctx, s)
}

// bot chooses for a seat with an open house action: the rule's bot hook, or for a blocking action
// a random target, card or choice. It returns nil when the ruleset's bot should choose.
func (h *house[S]) bot(ctx context.Context, s S, seat int, rng *sdk.RNG) (*sdk.Action, error) {
	var opens []OpenHouseAction
	blocking := h.st.blocking() != nil
	for _, o := range h.st.Open {
		if o.Seat == seat && (o.Blocking || !blocking) {
			opens = append(opens, o)
		}
	}
	slices.SortStableFunc(opens, func(a, b OpenHouseAction) int {
		switch {
		case a.Blocking == b.Blocking:
			return 0
		case a.Blocking:
			return -1
		}
		return 1
	})
	for _, o := range opens {
		i := h.ruleOf(o.Spec.Type)
		if i < 0 {
			continue
		}
		var info HouseAction
		for _, a := range h.infos[i].Actions {
			if a.Name == o.Spec.Type {
				info = a
			}
		}
		if info.Bot {
			res, err := h.call(ctx, i, HookCall{Hook: HookBot, Name: info.Name, Table: h.ed.Table(s), Status: h.e.r.Status(s), Seat: seat, RNG: rng})
			if err != nil {
				return nil, err
			}
			if res.Action != nil {
				a := *res.Action
				a.Type, a.Seat = info.Name, seat
				return &a, nil
			}
		}
		if o.Blocking {
			return randomChoice(o.Spec, seat, rng), nil
		}
	}
	return nil, nil
}

// vetBot passes a ruleset bot's choice through the before_action hooks; when a house rule refuses
// it, the bot takes at random one of the view's simple actions that no house rule refuses (or keeps
// its choice when there is none, and the host hears the refusal).
func (h *house[S]) vetBot(ctx context.Context, s S, a sdk.Action, v sdk.View, rng *sdk.RNG) (*sdk.Action, error) {
	if !slices.ContainsFunc(h.infos, func(i HouseRuleInfo) bool { return i.Has(HookBefore) }) {
		return &a, nil
	}
	t := h.ed.Table(s)
	err := h.before(ctx, s, t, &a)
	if err == nil || !errors.Is(err, sdk.ErrIllegal) {
		return &a, err
	}
	var ok []sdk.Action
	for _, c := range candidates(v, a.Seat) {
		if err := h.before(ctx, s, t, &c); err == nil {
			ok = append(ok, c)
		} else if !errors.Is(err, sdk.ErrIllegal) {
			return nil, err
		}
	}
	if len(ok) == 0 {
		return &a, nil
	}
	c := ok[rng.Intn("bot", len(ok))]
	return &c, nil
}

// randomChoice picks the parameters of an offered action at random.
func randomChoice(sp sdk.ActionSpec, seat int, rng *sdk.RNG) *sdk.Action {
	a := &sdk.Action{Seat: seat, Type: sp.Type}
	if len(sp.Targets) > 0 {
		t := sp.Targets[rng.Intn("bot", len(sp.Targets))]
		a.Target = &t
	}
	if len(sp.Cards) > 0 {
		a.Cards = []sdk.Card{sp.Cards[rng.Intn("bot", len(sp.Cards))]}
	}
	if len(sp.Choices) > 0 {
		a.Args = map[string]string{"choice": sp.Choices[rng.Intn("bot", len(sp.Choices))]}
	}
	return a
}

// candidates lists simple actions a view offers (one card at a time), for a bot whose own choice a
// house rule refused.
func candidates(v sdk.View, seat int) []sdk.Action {
	var out []sdk.Action
	for _, sp := range v.Actions {
		base := sdk.Action{Seat: seat, Type: sp.Type, From: sp.From}
		switch {
		case len(sp.Cards) > 0:
			for _, c := range sp.Cards {
				a := base
				a.Cards = []sdk.Card{c}
				if slices.Contains(sp.ChoiceFor, c) && len(sp.Choices) > 0 {
					a = a.WithChoice(sp.Choices[0])
				}
				out = append(out, a)
			}
		case len(sp.Targets) > 0:
			for _, t := range sp.Targets {
				a := base
				a.Target = &t
				out = append(out, a)
			}
		case len(sp.Indexes) > 0:
			for _, ix := range sp.Indexes {
				a := base
				a.Index = &ix
				out = append(out, a)
			}
		default:
			out = append(out, base)
		}
	}
	return out
}

// sameZones reports whether two tables hold the same cards in the same places.
func sameZones(a, b sdk.Table) bool {
	return maps.EqualFunc(a.Zones, b.Zones, slices.Equal[[]sdk.Card])
}

// withoutCards is events with their cards left out (their counts kept). The start hooks that ran
// after a deal moved cards, so what the deal's events say of cards (Gin Rummy's upcard turned) is
// of a table that no longer is: a card they name may now lie hidden in a hand, and every viewer
// would see it in the event.
func withoutCards(events []sdk.Event) []sdk.Event {
	out := slices.Clone(events)
	for i := range out {
		out[i].Cards = nil
	}
	return out
}
