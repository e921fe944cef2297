package room

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"cardhouse/sdk"
	"cardhouse/sdk/botplay"
	"cardhouse/sdk/engine"
)

// DryRun bounds the bot games CheckHouseRule plays with a script. Zero fields take the defaults.
type DryRun struct {
	// Games is the number of bot games per ruleset (default 3), raised to one per seat count the
	// ruleset allows (a rule that breaks only at 5 seats must not pass); seats and bot levels cycle
	// through what the ruleset allows.
	Games int
	// MaxActions ends a game that has not ended after this many actions without a verdict
	// (default 2000): the dry run looks for failures, and a Last Card game to 500 can take
	// thousands of actions.
	MaxActions int
	// Timeout bounds the whole check (default 30 s); a check that runs out of time is refused,
	// as a rule whose hooks are that slow would stall real games.
	Timeout time.Duration
}

func (d *DryRun) defaults() {
	if d.Games <= 0 {
		d.Games = 3
	}
	if d.MaxActions <= 0 {
		d.MaxActions = 2000
	}
	if d.Timeout <= 0 {
		d.Timeout = 30 * time.Second
	}
}

// HouseRuleCheck is what CheckHouseRule learnt: what the script declares, and one line per dry-run
// game played.
type HouseRuleCheck struct {
	Info  engine.HouseRuleInfo `json:"info"`
	Games []DryRunGame         `json:"games"`
}

// DryRunGame is one bot game of a dry run.
type DryRunGame struct {
	Ruleset  string `json:"ruleset"`
	Seats    int    `json:"seats"`
	BotLevel int    `json:"bot_level"`
	Actions  int    `json:"actions"`
	// Ended is true when the game reached its end (false: stopped after DryRun.MaxActions).
	Ended bool `json:"ended"`
	// Hooks says how often each of the rule's hooks ran in the game and how often it did
	// something, so that a rule that never applies shows.
	Hooks []engine.HookCount `json:"hooks"`
}

// maxScriptBytes is the largest script accepted, the Lua runner's own limit.
const maxScriptBytes = 64 << 10

// CheckHouseRule validates an uploaded house-rule script for the rulesets it is for, the way the
// server will run it: first through each ruleset's plugin (a trial game start with the rule, so
// the script is compiled and its top level run inside the plugin's sandbox, and its hooks,
// answers and actions are checked against the ruleset), then its declarations are read (the
// schema of its options for the room form), then dry bot games with the rule enabled are played
// through the plugin. Any failure is an *Error (KindInvalid, code "bad_house_rule") whose reason
// names the script, the line where there is one, and the game and action of the dry run.
func (m *Manager) CheckHouseRule(ctx context.Context, source string, rulesets []string, dry DryRun) (*HouseRuleCheck, error) {
	dry.defaults()
	bad := func(format string, args ...any) error {
		return errf(KindInvalid, "bad_house_rule", format, args...)
	}
	if strings.TrimSpace(source) == "" {
		return nil, bad("the script is empty")
	}
	if len(source) > maxScriptBytes {
		return nil, bad("the script is %d bytes, over the limit of %d", len(source), maxScriptBytes)
	}
	if len(rulesets) == 0 {
		return nil, errf(KindInvalid, "no_rulesets", "name the rulesets the rule is for (this server has: %s)", strings.Join(m.rulesetIDs(), ", "))
	}
	ctx, cancel := context.WithTimeout(ctx, dry.Timeout)
	defer cancel()
	for _, id := range rulesets {
		d, ok := m.desc(id)
		if !ok {
			return nil, errf(KindInvalid, "unknown_ruleset", "no ruleset %q on this server (it has: %s)", id, strings.Join(m.rulesetIDs(), ", "))
		}
		if !d.HouseRules {
			return nil, errf(KindInvalid, "no_house_rules", "ruleset %s runs no house rules on this server (its plugin has no house-rule runner)", id)
		}
		// The plugin compiles the script in its sandbox: a hostile top level costs that process,
		// never the server.
		if _, err := m.startWith(ctx, id, d.MinSeats, 1, sdk.HouseRule{Source: source}); err != nil {
			return nil, m.checkErr(ctx, id, "", err)
		}
	}
	// The script compiled and ran its top level within the sandbox's limits in the plugins; ask
	// the first one what it declares (the server runs no Lua of its own).
	info, err := m.describeHouseRule(ctx, rulesets[0], source)
	if err != nil {
		return nil, err
	}
	rule := sdk.HouseRule{Name: info.Name, Source: source}
	out := &HouseRuleCheck{Info: *info}
	for _, id := range rulesets {
		d, _ := m.desc(id)
		for g := range max(dry.Games, d.MaxSeats-d.MinSeats+1) {
			seats := d.MinSeats + g%(d.MaxSeats-d.MinSeats+1)
			level := 1
			if len(d.BotLevels) > 0 {
				level = d.BotLevels[g%len(d.BotLevels)]
			}
			res, err := m.dryGame(ctx, id, rule, *info, seats, level, uint64(g+1), dry.MaxActions)
			if err != nil {
				where := fmt.Sprintf("dry run game %d of %s (%d seats, bots of level %d)", g+1, id, seats, level)
				return nil, m.checkErr(ctx, id, where, err)
			}
			out.Games = append(out.Games, res)
		}
	}
	return out, nil
}

// describeHouseRule asks ruleset's plugin what the script declares (engine.HouseRuleDescriber).
func (m *Manager) describeHouseRule(ctx context.Context, ruleset, source string) (*engine.HouseRuleInfo, error) {
	d, ok := m.engine(ruleset).(engine.HouseRuleDescriber)
	if !ok {
		return nil, errf(KindInvalid, "no_house_rules", "ruleset %s cannot describe house rules on this server (its plugin was built without the call; rebuild it)", ruleset)
	}
	cctx, cancel := context.WithTimeout(ctx, m.cfg.CallTimeout)
	defer cancel()
	info, err := d.DescribeHouseRule(cctx, source)
	if err != nil {
		return nil, m.checkErr(ctx, ruleset, "", err)
	}
	return info, nil
}

// checkErr words a failed check as bad input naming where it failed: a refusal (the script's
// error, with its line, and its Fault and Where when a house rule failed), a ruleset failure or a
// crashed plugin (with this rule only, so the rule's doing), or a check out of time.
func (m *Manager) checkErr(ctx context.Context, ruleset, where string, err error) error {
	prefix := ""
	if where != "" {
		prefix = where + ": "
	}
	var e *Error
	switch {
	case errors.As(err, &e) && where == "":
		return e
	case ctx.Err() != nil:
		return errf(KindInvalid, "bad_house_rule", "%sthe check ran out of time: the rule's hooks are too slow for real games", prefix)
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

// startWith starts a throw-away game of ruleset with one house rule.
func (m *Manager) startWith(ctx context.Context, ruleset string, seats int, seed uint64, rule sdk.HouseRule) (*engine.Step, error) {
	cctx, cancel := context.WithTimeout(ctx, m.cfg.CallTimeout)
	defer cancel()
	return m.engine(ruleset).NewGame(cctx, &engine.NewGameRequest{Seats: seats, Seed: seed, HouseRules: []sdk.HouseRule{rule}, NoViews: true})
}

// dryGame plays one game with bots in every seat through the ruleset's engine (botplay.Play), each
// call bounded by CallTimeout: the host deals each next round, due deadlines fire in time order.
// A refusal, a failure, or a game where nobody can act is an error naming the action.
func (m *Manager) dryGame(ctx context.Context, ruleset string, rule sdk.HouseRule, info engine.HouseRuleInfo, seats, level int, seed uint64, maxActions int) (DryRunGame, error) {
	eng := m.engine(ruleset)
	var tally engine.HookTally
	tally.Declare(rule.Name, info)
	play, err := botplay.Play(ctx, eng, botplay.Config{Seats: seats, Seed: seed, HouseRules: []sdk.HouseRule{rule},
		Bot:         botplay.EngineBot(eng, botplay.Level(level), func(t *botplay.Turn) uint64 { return seed*7919 + uint64(t.N+1)*31 + uint64(t.Index) }),
		MaxSteps:    maxActions,
		CallTimeout: m.cfg.CallTimeout,
		Trace:       true,
		OnAct: func(_ context.Context, a botplay.Attempt) error {
			if a.Step != nil {
				tally.Add(a.Step.House)
			}
			return nil
		}})
	if play.Start != nil {
		tally.Add(play.Start.House)
	}
	res := DryRunGame{Ruleset: ruleset, Seats: seats, BotLevel: level, Actions: play.Steps, Ended: play.Ended, Hooks: tally.Counts()}
	var pe *botplay.Error
	switch {
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
