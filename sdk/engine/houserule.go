package engine

// The contract of house rules: the hooks, what a runner is asked (HookCall) and answers
// (HookResult), what a rule declares (HouseRuleInfo), what a step reports (HouseReport) and how a
// rule's failure reaches the host. houseoptions.go readies a game's rules, houserun.go runs them
// around the engine's calls, housebots.go makes the bots play by them.

import (
	"context"
	"slices"

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
	// Failure marks a line the host adds when the rule failed in a live game (its line and
	// message), for the rule's owner: never a line the rule printed.
	Failure bool `json:"failure,omitempty"`
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

// HouseFaulter is a house rule's failure that says which rule failed, where and why
// (sdk/houserules.Error is one): the engine carries it to the host as the refusal's
// sdk.HouseFault, so that the host never reads the parts out of the error's sentence.
type HouseFaulter interface {
	error
	HouseFault() sdk.HouseFault
}

// RuleFailure is a house rule that failed (a runner's error names its rule with this method):
// the engine words it for players as "house rule X failed" and keeps the error as the refusal's
// Detail.
type RuleFailure interface {
	error
	RuleName() string
}
