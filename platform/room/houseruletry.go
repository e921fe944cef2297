package room

import (
	"context"
	"fmt"
	"strings"
	"time"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
)

// TryRequest is one test game of a house rule as edited (stored nowhere): the house-rules page's
// test table. Zero fields take defaults: the ruleset's fewest seats, bot level 1, seed 1.
type TryRequest struct {
	Source  string
	Ruleset string
	Seats   int
	// BotLevel is the level of every seat's bot, up to DryRun.MaxBotLevel (a searching bot
	// thinks for seconds; the table is for watching the rule, not the bots).
	BotLevel int
	// Options are values of the rule's own options (defaults fill in the rest).
	Options map[string]any
	Seed    uint64
}

// TryEvent is one line of a test game's console, in the order the game made them: the game
// starts ("start": Seats, BotLevel, Options), each accepted action ("action": Seq, Seat, Action),
// each line the rule printed ("output": Seq of the action, Hook, Text), and the end ("end":
// Ended, Actions, Hooks).
type TryEvent struct {
	Kind     string             `json:"kind"`
	Seq      int                `json:"seq,omitempty"`
	Seat     *int               `json:"seat,omitempty"`
	Action   string             `json:"action,omitempty"`
	Hook     string             `json:"hook,omitempty"`
	Text     string             `json:"text,omitempty"`
	Ruleset  string             `json:"ruleset,omitempty"`
	Rule     string             `json:"rule,omitempty"`
	Seats    int                `json:"seats,omitempty"`
	BotLevel int                `json:"bot_level,omitempty"`
	Options  map[string]any     `json:"options,omitempty"`
	Ended    bool               `json:"ended,omitempty"`
	Actions  int                `json:"actions,omitempty"`
	CutOff   string             `json:"cut_off,omitempty"`
	Hooks    []engine.HookCount `json:"hooks,omitempty"`
}

// TryHouseRule plays one game of req.Ruleset with bots in every seat and the script as its one
// house rule, in the ruleset's check process (never the process serving live games), and hands
// emit each TryEvent as the game makes it. The script is compiled and its top level run first
// (a trial start, as CheckHouseRule does). A failure of the rule ends the game and is returned
// as CheckHouseRule's are: an *Error (KindInvalid, "bad_house_rule") naming the line, the hook
// and the action, with the rule's option values; the events until then were emitted. The same
// bounds hold as for a check's dry run (dry: MaxActions, StepBudget, Timeout).
func (m *Manager) TryHouseRule(ctx context.Context, req TryRequest, dry DryRun, emit func(TryEvent)) error {
	dry.defaults()
	bad := func(format string, args ...any) error {
		return errf(KindInvalid, "bad_house_rule", format, args...)
	}
	if strings.TrimSpace(req.Source) == "" {
		return bad("the script is empty")
	}
	if len(req.Source) > maxScriptBytes {
		return bad("the script is %d bytes, over the limit of %d", len(req.Source), maxScriptBytes)
	}
	d, ok := m.desc(req.Ruleset)
	if !ok {
		return errf(KindInvalid, "unknown_ruleset", "no ruleset %q on this server (it has: %s)", req.Ruleset, strings.Join(m.rulesetIDs(), ", "))
	}
	if !d.HouseRules {
		return errf(KindInvalid, "no_house_rules", "ruleset %s runs no house rules on this server (its plugin has no house-rule runner)", req.Ruleset)
	}
	seats := req.Seats
	if seats == 0 {
		seats = d.MinSeats
	}
	if seats < d.MinSeats || seats > d.MaxSeats {
		return errf(KindInvalid, "bad_seats", "%s plays with %d to %d seats, not %d", d.Name, d.MinSeats, d.MaxSeats, seats)
	}
	levels := dryLevels(d.BotLevels, dry.MaxBotLevel)
	level := req.BotLevel
	if level == 0 {
		level = levels[0]
	}
	if !containsInt(levels, level) {
		return errf(KindInvalid, "bad_bot_level", "the test table's bots play at level %v, not %d", levels, level)
	}
	seed := req.Seed
	if seed == 0 {
		seed = 1
	}
	c := &check{m: m, dry: dry, deadline: time.Now().Add(dry.Timeout)}
	return c.with(ctx, req.Ruleset, func(eng engine.Engine) error {
		if _, err := c.startWith(ctx, eng, req.Ruleset, sdk.HouseRule{Source: req.Source}); err != nil {
			return c.checkErr(ctx, req.Ruleset, "", err)
		}
		info, err := c.m.describeHouseRule(ctx, eng, req.Ruleset, req.Source)
		if err != nil {
			return err
		}
		opts, err := sdk.ValidateOptions(info.Options, req.Options)
		if err != nil {
			return ruleOptionErrors(err, info.Options)
		}
		start := TryEvent{Kind: "start", Ruleset: req.Ruleset, Rule: info.Name, Seats: seats, BotLevel: level}
		if len(info.Options) > 0 {
			start.Options = opts
		}
		emit(start)
		var total engine.HookTally
		rule := sdk.HouseRule{Name: info.Name, Source: req.Source, Options: opts}
		seq := 0
		out := func(rep *engine.HouseReport) {
			if rep == nil {
				return
			}
			for _, l := range rep.Log {
				emit(TryEvent{Kind: "output", Seq: seq, Hook: l.Hook, Text: l.Text})
			}
		}
		c.watch = func(st *engine.Step, a *sdk.Action) {
			if a != nil {
				seq++
				seat := a.Seat
				emit(TryEvent{Kind: "action", Seq: seq, Seat: &seat, Action: a.Type})
			}
			out(st.House)
		}
		res, err := c.dryGame(ctx, eng, req.Ruleset, rule, *info, seats, level, seed, &total)
		if err != nil {
			where := fmt.Sprintf("test game of %s (%d seats, bots of level %d", req.Ruleset, seats, level)
			if len(info.Options) > 0 {
				where += ", rule options " + sdk.DescribeOptions(info.Options, opts)
			}
			e := c.checkErr(ctx, req.Ruleset, where+")", err)
			if re, ok := AsError(e); ok && re.Code == "bad_house_rule" && len(info.Options) > 0 {
				re.Options, re.Declared = opts, info.Options
			}
			return e
		}
		emit(TryEvent{Kind: "end", Ended: res.Ended, Actions: res.Actions, CutOff: res.CutOff, Hooks: total.Counts()})
		return nil
	})
}

func containsInt(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}
