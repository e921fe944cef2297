package room

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"cardhouse/sdk"
	"cardhouse/sdk/botplay"
	"cardhouse/sdk/engine"
)

// DryRun bounds the bot games CheckHouseRule plays with a script. Zero fields take the defaults.
type DryRun struct {
	// Games is the number of bot games per ruleset (default 3), raised to one per seat count the
	// ruleset allows (a rule that breaks only at 5 seats must not pass) and to one per set of the
	// rule's option values tried (sdk.OptionTrials); seats, bot levels and option sets cycle.
	Games int
	// MaxActions stops a game that has not ended after this many actions (default 2000): the dry
	// run looks for failures, and a Last Card game to 500 can take thousands of actions. A game
	// stopped there is reported as cut off (DryRunGame.CutOff), not as played to its end.
	MaxActions int
	// MaxBotLevel is the highest bot level the dry run's bots play at (default 2; a ruleset
	// whose lowest level is higher plays that one). The check looks for the rule's failures, not
	// for good play, and a searching bot thinks for seconds: measured here, a DRUGS game of level
	// 5 bots took 17 s of bots' thinking against 0.5 s of steps, Last Card's 88 s against 2.6 s.
	MaxBotLevel int
	// StepBudget bounds the time of the steps played with the rule (default 10 s): the trial
	// starts and every dry-run action, each measured around its call into the plugin, so it
	// counts the variant's own moves and the rule's hooks, never the bots' thinking. A check past
	// it is refused: a rule whose hooks are that slow would stall real games. An empty rule's
	// steps took 0.25-2.6 s of it per built-in ruleset here (Last Card's long games the most).
	StepBudget time.Duration
	// Timeout bounds the whole check in wall-clock time (default 60 s): the wait for the check
	// process, the bots' thinking, the steps. It is looked at between calls, never by cutting a
	// call off, and a check that reaches it is refused as unfinished (503 check_unfinished), not
	// as the rule's failure.
	Timeout time.Duration
}

func (d *DryRun) defaults() {
	if d.Games <= 0 {
		d.Games = 3
	}
	if d.MaxActions <= 0 {
		d.MaxActions = 2000
	}
	if d.MaxBotLevel <= 0 {
		d.MaxBotLevel = 2
	}
	if d.StepBudget <= 0 {
		d.StepBudget = 10 * time.Second
	}
	if d.Timeout <= 0 {
		d.Timeout = 60 * time.Second
	}
}

// CheckRequest is a script to check, the rulesets it is for and the values of its own options
// to play with.
type CheckRequest struct {
	Source   string
	Rulesets []string
	// Options are values of the rule's own options (validated against what it declares;
	// defaults fill in the rest): the dry run's base set.
	Options map[string]any
	// NoExtremes plays the base set only. By default every option's extremes are tried too, one
	// option at a time (sdk.OptionTrials): a rule whose bug hides behind an option value fails
	// its check at that value.
	NoExtremes bool
}

// HouseRuleCheck is what CheckHouseRule learnt: what the script declares, one line per dry-run
// game played, and over them all how often each hook ran and did something.
type HouseRuleCheck struct {
	Info  engine.HouseRuleInfo `json:"info"`
	Games []DryRunGame         `json:"games"`
	// Hooks adds up the games' hook counts; Never names the hooks among them that never did
	// anything (is the rule's condition ever true?).
	Hooks []engine.HookCount `json:"hooks"`
	Never []string           `json:"never,omitempty"`
	// CutOff counts the games stopped at DryRun.MaxActions before their end: the check has no
	// verdict on whether such a game ends with the rule.
	CutOff int `json:"cut_off"`
	// OptionSets are the sets of the rule's option values the games played with, base first.
	OptionSets []map[string]any `json:"option_sets,omitempty"`
	// StepMS is the time the steps with the rule took (DryRun.StepBudget), BudgetMS the budget.
	StepMS   int64 `json:"step_ms"`
	BudgetMS int64 `json:"budget_ms"`
}

// DryRunGame is one bot game of a dry run.
type DryRunGame struct {
	Ruleset  string `json:"ruleset"`
	Seats    int    `json:"seats"`
	BotLevel int    `json:"bot_level"`
	// Options are the rule's option values the game played with.
	Options map[string]any `json:"options,omitempty"`
	Actions int            `json:"actions"`
	// Ended is true when the game reached its end; CutOff says why it did not ("stopped after
	// 2000 actions, before its end").
	Ended  bool   `json:"ended"`
	CutOff string `json:"cut_off,omitempty"`
	// Hooks says how often each of the rule's hooks ran in the game and how often it did
	// something, so that a rule that never applies shows.
	Hooks []engine.HookCount `json:"hooks"`
}

// maxScriptBytes is the largest script accepted, the Lua runner's own limit.
const maxScriptBytes = 64 << 10

// CheckHouseRule validates a house-rule script for the rulesets it is for, the way the server
// will run it, in each ruleset's check process (checkprocs.go), never in the process serving
// live games: first a trial game start with the rule (the script is compiled and its top level
// run inside the plugin's sandbox, and its hooks, answers and actions are checked against the
// ruleset), then its declarations are read (the schema of its options for the room form), then
// dry bot games with the rule enabled are played, with every set of option values
// CheckRequest asks for. Any failure of the rule is an *Error (KindInvalid, code
// "bad_house_rule") whose reason names the script, the line where there is one, and the game,
// option values and action of the dry run.
func (m *Manager) CheckHouseRule(ctx context.Context, req CheckRequest, dry DryRun) (*HouseRuleCheck, error) {
	dry.defaults()
	bad := func(format string, args ...any) error {
		return errf(KindInvalid, "bad_house_rule", format, args...)
	}
	source, rulesets := req.Source, req.Rulesets
	if strings.TrimSpace(source) == "" {
		return nil, bad("the script is empty")
	}
	if len(source) > maxScriptBytes {
		return nil, bad("the script is %d bytes, over the limit of %d", len(source), maxScriptBytes)
	}
	if len(rulesets) == 0 {
		return nil, errf(KindInvalid, "no_rulesets", "name the rulesets the rule is for (this server has: %s)", strings.Join(m.rulesetIDs(), ", "))
	}
	for _, id := range rulesets {
		d, ok := m.desc(id)
		if !ok {
			return nil, errf(KindInvalid, "unknown_ruleset", "no ruleset %q on this server (it has: %s)", id, strings.Join(m.rulesetIDs(), ", "))
		}
		if !d.HouseRules {
			return nil, errf(KindInvalid, "no_house_rules", "ruleset %s runs no house rules on this server (its plugin has no house-rule runner)", id)
		}
	}
	c := &check{m: m, dry: dry, deadline: time.Now().Add(dry.Timeout)}
	var info *engine.HouseRuleInfo
	for _, id := range rulesets {
		err := c.with(ctx, id, func(eng engine.Engine) error {
			// The plugin compiles the script in its sandbox: a hostile top level costs that
			// process, never the server nor a live game.
			if _, err := c.startWith(ctx, eng, id, sdk.HouseRule{Source: source}); err != nil {
				return c.checkErr(ctx, id, "", err)
			}
			if info != nil {
				return nil
			}
			// The script compiled and ran its top level within the sandbox's limits; ask what it
			// declares (the server runs no Lua of its own).
			var err error
			info, err = c.m.describeHouseRule(ctx, eng, id, source)
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	base, err := sdk.ValidateOptions(info.Options, req.Options)
	if err != nil {
		return nil, ruleOptionErrors(err, info.Options)
	}
	sets := []sdk.Options{base}
	if !req.NoExtremes {
		sets = sdk.OptionTrials(info.Options, base)
	}
	out := &HouseRuleCheck{Info: *info, Games: []DryRunGame{}, BudgetMS: dry.StepBudget.Milliseconds()}
	if len(info.Options) > 0 {
		for _, s := range sets {
			out.OptionSets = append(out.OptionSets, s)
		}
	}
	var total engine.HookTally
	total.Declare(info.Name, *info)
	for _, id := range rulesets {
		d, _ := m.desc(id)
		levels := dryLevels(d.BotLevels, dry.MaxBotLevel)
		err := c.with(ctx, id, func(eng engine.Engine) error {
			for g := range max(dry.Games, d.MaxSeats-d.MinSeats+1, len(sets)) {
				seats := d.MinSeats + g%(d.MaxSeats-d.MinSeats+1)
				level := levels[g%len(levels)]
				opts := sets[g%len(sets)]
				rule := sdk.HouseRule{Name: info.Name, Source: source, Options: opts}
				res, err := c.dryGame(ctx, eng, id, rule, *info, seats, level, uint64(g+1), &total)
				if len(info.Options) > 0 {
					res.Options = opts
				}
				if err != nil {
					where := fmt.Sprintf("dry run game %d of %s (%d seats, bots of level %d", g+1, id, seats, level)
					if len(info.Options) > 0 {
						where += ", rule options " + sdk.DescribeOptions(info.Options, opts)
					}
					where += ")"
					e := c.checkErr(ctx, id, where, err)
					if re, ok := AsError(e); ok && re.Code == "bad_house_rule" && len(info.Options) > 0 {
						re.Options, re.Declared = opts, info.Options
					}
					return e
				}
				if !res.Ended {
					out.CutOff++
				}
				out.Games = append(out.Games, res)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	out.Hooks = total.Counts()
	for _, h := range out.Hooks {
		if h.Fired == 0 {
			out.Never = append(out.Never, h.Hook)
		}
	}
	out.StepMS = c.spent.Milliseconds()
	return out, nil
}

// dryLevels are the bot levels a dry run cycles through: the ruleset's up to max, else its lowest.
func dryLevels(levels []int, most int) []int {
	var out []int
	for _, l := range levels {
		if l <= most {
			out = append(out, l)
		}
	}
	if len(out) == 0 && len(levels) > 0 {
		out = []int{slices.Min(levels)}
	}
	if len(out) == 0 {
		out = []int{1}
	}
	return out
}

// ruleOptionErrors words a refusal of the values given for the rule's own options: each field is
// "options.NAME", and an unknown name lists the options the rule declares.
func ruleOptionErrors(err error, schema []sdk.Option) error {
	var oe sdk.OptionErrors
	if !errors.As(err, &oe) {
		return errf(KindInvalid, "bad_options", "the rule's options: %v", err)
	}
	names := make([]string, len(schema))
	for i, o := range schema {
		names[i] = o.Name
	}
	declares := "none"
	if len(names) > 0 {
		declares = strings.Join(names, ", ")
	}
	out := make(sdk.OptionErrors, len(oe))
	for i, e := range oe {
		out[i] = sdk.OptionError{Field: "options." + e.Field, Reason: e.Reason}
		if !slices.Contains(names, e.Field) {
			out[i].Reason = fmt.Sprintf("the rule has no option %q (it declares: %s)", e.Field, declares)
		}
	}
	return out
}

// check is one CheckHouseRule: the time its steps took and its wall-clock deadline.
type check struct {
	m        *Manager
	dry      DryRun
	deadline time.Time
	spent    time.Duration
	// watch, when set, is told of each step a game starts or an accepted action makes (action
	// nil for the start), as it comes: TryHouseRule's console.
	watch func(st *engine.Step, action *sdk.Action)
}

// with runs f on ruleset id's check engine, waited for until the check's deadline.
func (c *check) with(ctx context.Context, id string, f func(engine.Engine) error) error {
	wctx, cancel := context.WithDeadline(ctx, c.deadline)
	eng, release, err := c.m.checkEngine(wctx, id)
	cancel()
	if err != nil {
		if ctx.Err() == nil && time.Now().After(c.deadline) {
			return c.unfinished()
		}
		return err
	}
	defer release()
	return f(eng)
}

// checkTime is a check stopped by its budget: steps (the rule's steps were too slow) or the
// wall-clock Timeout.
type checkTime struct{ steps bool }

func (e *checkTime) Error() string {
	if e.steps {
		return "the steps with the rule ran past the check's budget"
	}
	return "the check ran past its time"
}

// over says whether the check must stop, and why.
func (c *check) over() error {
	switch {
	case c.spent > c.dry.StepBudget:
		return &checkTime{steps: true}
	case time.Now().After(c.deadline):
		return &checkTime{}
	}
	return nil
}

func (c *check) unfinished() error {
	return errf(KindUnavailable, "check_unfinished", "the check did not finish within %v: the bots' thinking and the server's load took the time, not the rule (its steps took %v of their budget of %v); try again in a moment",
		c.dry.Timeout, c.spent.Round(time.Millisecond), c.dry.StepBudget)
}

// timed is an engine whose steps (NewGame, Act) add their time to the check's; the bots' calls
// pass through uncounted.
type timed struct {
	engine.Engine
	c *check
}

func (t timed) NewGame(ctx context.Context, req *engine.NewGameRequest) (*engine.Step, error) {
	start := time.Now()
	st, err := t.Engine.NewGame(ctx, req)
	t.c.spent += time.Since(start)
	if err == nil && t.c.watch != nil {
		t.c.watch(st, nil)
	}
	return st, err
}

func (t timed) Act(ctx context.Context, req *engine.ActRequest) (*engine.Step, error) {
	start := time.Now()
	defer func() { t.c.spent += time.Since(start) }()
	return t.Engine.Act(ctx, req)
}

// describeHouseRule asks ruleset's plugin what the script declares (engine.HouseRuleDescriber).
func (m *Manager) describeHouseRule(ctx context.Context, eng engine.Engine, ruleset, source string) (*engine.HouseRuleInfo, error) {
	d, ok := eng.(engine.HouseRuleDescriber)
	if !ok {
		return nil, errf(KindInvalid, "no_house_rules", "ruleset %s cannot describe house rules on this server (its plugin was built without the call; rebuild it)", ruleset)
	}
	cctx, cancel := context.WithTimeout(ctx, m.cfg.CallTimeout)
	defer cancel()
	info, err := d.DescribeHouseRule(cctx, source)
	if err != nil {
		return nil, (&check{m: m}).checkErr(ctx, ruleset, "", err)
	}
	return info, nil
}

// checkErr words a failed check as bad input naming where it failed: a refusal (the script's
// error, with its line, and its Fault and Where when a house rule failed), a ruleset failure or a
// crashed plugin (with this rule only, so the rule's doing), or a check out of time: its steps
// past their budget (the rule's doing) or the whole check past its Timeout (not the rule's).
func (c *check) checkErr(ctx context.Context, ruleset, where string, err error) error {
	prefix := ""
	if where != "" {
		prefix = where + ": "
	}
	var e *Error
	var ct *checkTime
	switch {
	case errors.As(err, &ct) && ct.steps:
		return errf(KindInvalid, "bad_house_rule", "%sthe check ran out of time: the steps played with the rule took %v, over the check's budget of %v (it counts the variant's moves and the rule's hooks, not the bots' thinking): the rule's hooks are too slow for real games",
			prefix, c.spent.Round(time.Millisecond), c.dry.StepBudget)
	case errors.As(err, &ct):
		return c.unfinished()
	case errors.As(err, &e) && where == "":
		return e
	case ctx.Err() != nil:
		return errf(KindUnavailable, "check_cancelled", "%sthe check was cancelled: %v", prefix, ctx.Err())
	case errors.Is(err, sdk.ErrIllegal), errors.As(err, &e):
		out := errf(KindInvalid, "bad_house_rule", "%s%v", prefix, err)
		if re, ok := sdk.AsRefusal(err); ok && re.Fault != nil {
			out.Fault, out.Where = re.Fault, where
			var at *dryStep
			if errors.As(err, &at) {
				out.Where = prefix + at.at
			}
		}
		return out
	}
	return errf(KindInvalid, "bad_house_rule", "%sruleset %s failed with this rule: %v", prefix, ruleset, err)
}

// dryStep is an error of a dry-run game at a step: at says which ("action 7 (play of seat 1)",
// "the game does not start").
type dryStep struct {
	at  string
	err error
}

func (e *dryStep) Error() string { return e.at + ": " + e.err.Error() }
func (e *dryStep) Unwrap() error { return e.err }

// startWith starts a throw-away game of ruleset on eng with one house rule, timed as a step.
func (c *check) startWith(ctx context.Context, eng engine.Engine, ruleset string, rule sdk.HouseRule) (*engine.Step, error) {
	d, _ := c.m.desc(ruleset)
	cctx, cancel := context.WithTimeout(ctx, c.m.cfg.CallTimeout)
	defer cancel()
	st, err := timed{eng, c}.NewGame(cctx, &engine.NewGameRequest{Seats: d.MinSeats, Seed: 1, HouseRules: []sdk.HouseRule{rule}, NoViews: true})
	if err == nil {
		err = c.over()
	}
	return st, err
}

// dryGame plays one game with bots in every seat on eng (botplay.Play), each call bounded by
// CallTimeout: the host deals each next round, due deadlines fire in time order. A refusal, a
// failure, or a game where nobody can act is an error naming the action; so is the check's
// budget running out (checkTime), looked at after every call. Its hook calls go to total too.
func (c *check) dryGame(ctx context.Context, eng engine.Engine, ruleset string, rule sdk.HouseRule, info engine.HouseRuleInfo, seats, level int, seed uint64, total *engine.HookTally) (DryRunGame, error) {
	var tally engine.HookTally
	tally.Declare(rule.Name, info)
	bot := botplay.EngineBot(eng, botplay.Level(level), func(t *botplay.Turn) uint64 { return seed*7919 + uint64(t.N+1)*31 + uint64(t.Index) })
	play, err := botplay.Play(ctx, timed{eng, c}, botplay.Config{Seats: seats, Seed: seed, HouseRules: []sdk.HouseRule{rule},
		Bot: func(ctx context.Context, t *botplay.Turn) (*sdk.Action, error) {
			if err := c.over(); err != nil {
				return nil, err
			}
			return bot(ctx, t)
		},
		MaxSteps:    c.dry.MaxActions,
		CallTimeout: c.m.cfg.CallTimeout,
		Trace:       true,
		OnAct: func(_ context.Context, a botplay.Attempt) error {
			if a.Step != nil {
				tally.Add(a.Step.House)
				total.Add(a.Step.House)
				if c.watch != nil {
					c.watch(a.Step, &a.Action)
				}
			}
			return c.over()
		}})
	if play.Start != nil {
		tally.Add(play.Start.House)
		total.Add(play.Start.House)
	}
	res := DryRunGame{Ruleset: ruleset, Seats: seats, BotLevel: level, Actions: play.Steps, Ended: play.Ended, Hooks: tally.Counts()}
	if err == nil && !play.Ended {
		res.CutOff = fmt.Sprintf("stopped after %d actions, before its end", play.Steps)
	}
	var pe *botplay.Error
	var ct *checkTime
	switch {
	case errors.As(err, &ct):
		return res, ct
	case err == nil || !errors.As(err, &pe):
		return res, err
	case pe.Kind == botplay.KindStuck:
		return res, errf(KindInvalid, "bad_house_rule", "action %d: no bot of seats %v has anything to do and nothing is due: the rule leaves the game stuck", pe.Step, pe.Actors)
	case pe.Kind == botplay.KindStart:
		return res, &dryStep{at: "the game does not start", err: pe.Err}
	case pe.Action == nil:
		return res, &dryStep{at: fmt.Sprintf("action %d: the bot of seat %d failed", pe.Step, pe.Seat), err: pe.Err}
	}
	return res, &dryStep{at: fmt.Sprintf("action %d (%s of seat %d)", pe.Step, pe.Action.Type, pe.Seat), err: pe.Err}
}
