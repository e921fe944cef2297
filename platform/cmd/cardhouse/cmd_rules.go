package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"cardhouse/sdk"
	"cardhouse/sdk/botplay"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"
	"cardhouse/sdk/scenario"

	"github.com/spf13/cobra"
)

// newRulesCmd is `cardhouse rules`: tools for house-rule authors. Today: `rules check`.
func newRulesCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "Tools for house-rule scripts (Lua)",
	}
	cmd.AddCommand(newRulesCheckCmd(), newRulesReferenceCmd())
	return cmd
}

// newRulesReferenceCmd is `cardhouse rules reference --ruleset ID [--out DIR]`: the modder's
// reference of a variant (houserules.Reference), written to DIR/ID.md.
func newRulesReferenceCmd() *cobra.Command {
	var ruleset, out, plugins string
	cmd := &cobra.Command{
		Use:   "reference --ruleset ID [--out DIR]",
		Short: "Write a variant's reference for house-rule authors (zones, counters, values, actions, card codes, questions)",
		Long: `Write the modder's reference of a variant, generated from the ruleset itself through its plugin
process: the zones, counters and values a house rule sees (read by a probe rule in a few bot
games), the actions its views offer and their fields, its card codes and the questions it asks
house rules. The file is DIR/ID.md (default docs/house-rules/ID.md); the committed ones are
checked by a test, so regenerate them when a variant changes.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			return runRulesReference(ctx, cmd.OutOrStdout(), openEngines, plugins, ruleset, out)
		},
	}
	cmd.Flags().StringVar(&ruleset, "ruleset", "", "ruleset id (required)")
	cmd.Flags().StringVar(&out, "out", filepath.Join("docs", "house-rules"), "folder to write ID.md into")
	cmd.Flags().StringVar(&plugins, "plugins", os.Getenv(pluginsEnv), "folder of external ruleset plugins (default $"+pluginsEnv+")")
	_ = cmd.MarkFlagRequired("ruleset")
	return cmd
}

// runRulesReference writes the reference of ruleset into dir/ID.md and says so on w.
func runRulesReference(ctx context.Context, w io.Writer, open engineOpener, plugins, ruleset, dir string) error {
	engines, closeAll, err := open(ctx, plugins)
	if err != nil {
		return fmt.Errorf("opening the rulesets: %w", err)
	}
	if closeAll != nil {
		defer closeAll()
	}
	eng, ok := engines[ruleset]
	if !ok {
		return fmt.Errorf("no ruleset %q (available: %s)", ruleset, strings.Join(slices.Sorted(maps.Keys(engines)), ", "))
	}
	md, err := houserules.Reference(ctx, eng)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	path := filepath.Join(dir, ruleset+".md")
	if err := os.WriteFile(path, []byte(md), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %s\n", path)
	return nil
}

// rulesCheck is what `rules check` was asked to do.
type rulesCheck struct {
	file     string
	ruleset  string
	games    int
	seats    int
	seed     uint64
	maxSteps int
	plugins  string
	// options are the ruleset's options for every game, as name=value.
	options []string
	// ruleOptions are values of the rule's own options, as name=value: the base set. Unless
	// noExtremes, every option's extremes are tried too (sdk.OptionTrials).
	ruleOptions []string
	noExtremes  bool
	// trace prints every hook call of every game; logLines caps the printed log lines per game
	// (with trace, none is left out).
	trace    bool
	logLines int
}

func newRulesCheckCmd() *cobra.Command {
	var rc rulesCheck
	cmd := &cobra.Command{
		Use:   "check FILE.lua --ruleset ID [--games N]",
		Short: "Compile a house rule, check what it declares, and play bot games with it",
		Long: `Check a house-rule script the way the server will run it.

It compiles the script in the sandbox and checks its declarations (name, description, options,
hooks, actions), then plays --games bot games of --ruleset with the rule enabled, through the
ruleset's plugin process, and reports every problem: a hook that fails (with its line), an action
the rule made impossible for bots, a game that does not end, a ruleset failure, each with a hint
and the script's lines around the one at fault. The rule's own options take --rule-option
values (defaults for the rest), and every option's extremes are tried too (an int's min and max,
each choice, both booleans, one option at a time; --extremes=false plays the given values only),
each game naming the values it played with. Under each game it shows what the rule printed
(print, game.log); with --trace, every hook call. At the end it counts how often each hook ran
and how often it did something, and names the hooks that never did. The exit status is non-zero
when the script does not load or any game had a problem. See docs/house-rules.md.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			rc.file = args[0]
			return runRulesCheck(ctx, cmd.OutOrStdout(), openEngines, rc)
		},
	}
	cmd.Flags().StringVar(&rc.ruleset, "ruleset", "", "ruleset id to play the rule with (required)")
	cmd.Flags().IntVar(&rc.games, "games", 10, "number of bot games to play")
	cmd.Flags().IntVar(&rc.seats, "seats", 0, "seats per game (default: every count the ruleset allows, in turn)")
	cmd.Flags().Uint64Var(&rc.seed, "seed", 1, "seed of the first game (game i uses seed+i)")
	cmd.Flags().IntVar(&rc.maxSteps, "max-steps", 50000, "actions after which a game counts as not ending (a Last Card game to 500 with draw-to-match took 25,790)")
	cmd.Flags().StringArrayVar(&rc.options, "option", nil, "a ruleset option for every game, as name=value (repeatable), e.g. --option target=single")
	cmd.Flags().StringArrayVar(&rc.ruleOptions, "rule-option", nil, "a value of the rule's own option, as name=value (repeatable), e.g. --rule-option steps=2")
	extremes := cmd.Flags().Bool("extremes", true, "also try every rule option's extremes (min and max, each choice, both booleans), a game at least for each")
	cmd.PreRun = func(*cobra.Command, []string) { rc.noExtremes = !*extremes }
	cmd.Flags().BoolVar(&rc.trace, "trace", false, "print every hook call of every game: what it did (refused, changed the table, ended the round, ...) and the events it emitted")
	cmd.Flags().IntVar(&rc.logLines, "log-lines", 20, "lines of the rule's print/game.log output shown per game (all of them with --trace)")
	cmd.Flags().StringVar(&rc.plugins, "plugins", os.Getenv(pluginsEnv), "folder of external ruleset plugins (default $"+pluginsEnv+")")
	_ = cmd.MarkFlagRequired("ruleset")
	return cmd
}

// runRulesCheck compiles rc.file, prints what it declares, plays the bot games and prints the
// problems; it returns an error when there is any.
func runRulesCheck(ctx context.Context, w io.Writer, open engineOpener, rc rulesCheck) error {
	rule, info, err := houserules.FromFile(ctx, rc.file)
	if err != nil {
		if src, rerr := os.ReadFile(rc.file); rerr == nil {
			printFault(w, err, string(src))
		}
		return err
	}
	fmt.Fprintf(w, "ok    compiled %s: %q\n      %s\n", rc.file, info.Name, info.Description)
	for _, o := range info.Options {
		fmt.Fprintf(w, "      option %s (%s, default %v)\n", o.Name, o.Type, o.Default)
	}
	if len(info.Hooks) > 0 {
		fmt.Fprintf(w, "      hooks: %s\n", strings.Join(info.Hooks, ", "))
	}
	if len(info.Answers) > 0 {
		fmt.Fprintf(w, "      answers: %s\n", strings.Join(info.Answers, ", "))
	}
	for _, a := range info.Actions {
		fmt.Fprintf(w, "      action %s %q%s\n", a.Name, a.Label, map[bool]string{true: " (blocking)"}[a.Blocking])
	}

	engines, closeAll, err := open(ctx, rc.plugins)
	if err != nil {
		return fmt.Errorf("opening the rulesets: %w", err)
	}
	if closeAll != nil {
		defer closeAll()
	}
	eng, ok := engines[rc.ruleset]
	if !ok {
		ids := make([]string, 0, len(engines))
		for id := range engines {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		return fmt.Errorf("no ruleset %q (available: %s)", rc.ruleset, strings.Join(ids, ", "))
	}
	desc, err := eng.Describe(ctx)
	if err != nil {
		return fmt.Errorf("describing %s: %w", rc.ruleset, err)
	}
	if !desc.HouseRules {
		return fmt.Errorf("the %s plugin runs no house rules: its main must serve engine.New(ruleset, houserules.Enable())", rc.ruleset)
	}
	if rc.games < 1 {
		return fmt.Errorf("--games must be at least 1")
	}
	opts, err := nameValues("--option", rc.options)
	if err != nil {
		return err
	}
	for k := range opts {
		if slices.ContainsFunc(desc.Options, func(o sdk.Option) bool { return o.Name == k }) {
			continue
		}
		if slices.ContainsFunc(info.Options, func(o sdk.Option) bool { return o.Name == k }) {
			return fmt.Errorf("--option %s: %s has no option %q; it is the rule's own: --rule-option %s", k, rc.ruleset, k, strings.TrimPrefix(kvOf(rc.options, k), "--option "))
		}
		return fmt.Errorf("--option %s: %s has no option %q (it has: %s)", k, rc.ruleset, k, optionNames(desc.Options))
	}
	raw, err := nameValues("--rule-option", rc.ruleOptions)
	if err != nil {
		return err
	}
	base, err := sdk.ValidateOptions(info.Options, raw)
	if err != nil {
		return ruleOptionError(err, info.Options, desc.Options)
	}
	sets := []sdk.Options{base}
	if !rc.noExtremes {
		sets = sdk.OptionTrials(info.Options, base)
	}
	games := rc.games
	if len(sets) > games {
		games = len(sets)
		fmt.Fprintf(w, "      %d sets of rule options to try (%d extremes): %d games\n", len(sets), len(sets)-1, games)
	}

	var problems []string
	seen := map[string]bool{}
	ended := 0
	var tally engine.HookTally
	tally.Declare(info.Name, info)
	for g := range games {
		seats := rc.seats
		if seats == 0 {
			seats = desc.MinSeats + g%(desc.MaxSeats-desc.MinSeats+1)
		}
		level := 1
		if len(desc.BotLevels) > 0 {
			level = desc.BotLevels[g%len(desc.BotLevels)]
		}
		rep := &gameReport{w: w, game: g + 1, trace: rc.trace, logLines: rc.logLines, tally: &tally}
		rule.Options = sets[g%len(sets)]
		with := ""
		if len(info.Options) > 0 {
			with = ", rule options " + sdk.DescribeOptions(info.Options, rule.Options)
		}
		res := playBotGame(ctx, eng, rule, opts, seats, level, rc.seed+uint64(g), rc.maxSteps, rep.step)
		if res.problem == "" {
			ended++
			fmt.Fprintf(w, "ok    game %d: %d seats, bots of level %d%s, %d actions\n", g+1, seats, level, with, res.steps)
		} else {
			fmt.Fprintf(w, "FAIL  game %d: %d seats, bots of level %d%s: %s\n", g+1, seats, level, with, res.problem)
			if !seen[res.key] {
				printFault(w, res.err, rule.Source)
			}
		}
		rep.flush()
		if res.problem == "" {
			continue
		}
		if key := res.key; !seen[key] {
			seen[key] = true
			problems = append(problems, res.problem)
		}
		if errors.Is(ctx.Err(), context.Canceled) {
			break
		}
	}
	printTally(w, tally.Counts(), games, ended == games)
	fmt.Fprintf(w, "%d passed, %d failed\n", ended, games-ended)
	if len(problems) > 0 {
		return fmt.Errorf("house rule %q: %d game(s) had problems", info.Name, games-ended)
	}
	return nil
}

type gameResult struct {
	steps   int
	problem string
	// err is the failure, for its fault (line, hook) when a house rule failed.
	err error
	// key groups the same problem met in several games.
	key string
}

// playBotGame plays one game to its end with bots in every seat (botplay.Play): the host deals
// each next round, due deadlines fire in time order.
// Every step, the start's first (action nil), goes to onStep with its number.
func playBotGame(ctx context.Context, eng engine.Engine, rule sdk.HouseRule, opts map[string]any, seats, level int, seed uint64, maxSteps int, onStep func(n int, a *sdk.Action, st *engine.Step)) gameResult {
	n := 0
	res, err := botplay.Play(ctx, eng, botplay.Config{Seats: seats, Seed: seed, Options: opts, HouseRules: []sdk.HouseRule{rule},
		Bot:      botplay.EngineBot(eng, botplay.Level(level), func(t *botplay.Turn) uint64 { return seed*7919 + uint64(t.N+1)*31 + uint64(t.Index) }),
		MaxSteps: maxSteps, Trace: true,
		OnAct: func(_ context.Context, a botplay.Attempt) error {
			if a.Err == nil {
				if n == 0 && a.BeforeStep != nil {
					onStep(0, nil, a.BeforeStep)
				}
				n++
				onStep(n, &a.Action, a.Step)
			}
			return nil
		}})
	if n == 0 && res != nil && res.Start != nil {
		onStep(0, nil, res.Start)
	}
	fail := func(steps int, key, format string, args ...any) gameResult {
		return gameResult{steps: steps, key: key, problem: fmt.Sprintf(format, args...), err: err}
	}
	var pe *botplay.Error
	switch {
	case err == nil && res.Ended:
		return gameResult{steps: res.Steps}
	case err == nil:
		return fail(maxSteps, "no end", "cut off: the game did not end within %d actions (--max-steps)", maxSteps)
	case !errors.As(err, &pe):
		return fail(res.Steps+1, "cancelled", "%v", err)
	case pe.Kind == botplay.KindStart:
		return fail(0, pe.Err.Error(), "the game does not start: %v", pe.Err)
	case pe.Kind == botplay.KindStuck:
		return fail(pe.Step, "stuck", "action %d: no bot of seats %v has anything to do and nothing is due: the game is stuck", pe.Step, pe.Actors)
	case pe.Action == nil:
		return fail(pe.Step, pe.Err.Error(), "action %d: the bot of seat %d failed: %v", pe.Step, pe.Seat, pe.Err)
	}
	what := "refused"
	if errors.Is(pe.Err, sdk.ErrRuleset) {
		what = "failed"
	}
	return fail(pe.Step, pe.Err.Error(), "action %d (%s): %s: %v", pe.Step, scenario.DescribeAction(*pe.Action), what, pe.Err)
}

// gameReport prints what one game's steps report: the rule's log lines (up to logLines, all with
// trace) and with trace every hook call; it counts the calls in tally.
type gameReport struct {
	w        io.Writer
	game     int
	trace    bool
	logLines int
	tally    *engine.HookTally
	lines    []string
	logged   int
	cut      int
}

func (r *gameReport) step(n int, a *sdk.Action, st *engine.Step) {
	if st == nil || st.House == nil {
		return
	}
	r.tally.Add(st.House)
	where := "the start"
	if a != nil {
		where = fmt.Sprintf("action %d (%s)", n, scenario.DescribeAction(*a))
	}
	if r.trace {
		for _, c := range st.House.Calls {
			if c.Hook == engine.HookOpen && !c.Fired() {
				continue // asked after every step; only an opening is news
			}
			line := fmt.Sprintf("      trace %s: %s %s", where, c.Rule, c.Where())
			if c.Seat != sdk.NoSeat {
				line += fmt.Sprintf(" seat %d", c.Seat)
			}
			did := c.Did
			if did == "" {
				did = "nothing"
			}
			line += ": " + did
			if len(c.Events) > 0 {
				line += "; events " + strings.Join(c.Events, ", ")
			}
			r.lines = append(r.lines, line)
		}
	}
	for _, l := range st.House.Log {
		if !r.trace && r.logged >= r.logLines {
			r.cut++
			continue
		}
		r.logged++
		r.lines = append(r.lines, fmt.Sprintf("      log   %s, %s: %s", where, l.Hook, l.Text))
	}
}

// flush prints the game's lines, after its ok or FAIL line.
func (r *gameReport) flush() {
	for _, l := range r.lines {
		fmt.Fprintln(r.w, l)
	}
	if r.cut > 0 {
		fmt.Fprintf(r.w, "      log   (%d more lines of game %d not shown: --log-lines or --trace)\n", r.cut, r.game)
	}
}

// printTally prints how often each hook ran and did something and, when every game ended
// (allEnded), names those that never did: a failed call is not counted, so after a failure the
// note would blame the hook's condition for what was its error.
func printTally(w io.Writer, counts []engine.HookCount, games int, allEnded bool) {
	if len(counts) == 0 {
		return
	}
	fmt.Fprintf(w, "hooks over %d game(s): calls, and how many did something (refused, changed the table, ended the round, answered, opened, emitted)\n", games)
	var never []string
	for _, c := range counts {
		fmt.Fprintf(w, "      %-32s %8d calls %8d did something\n", c.Hook, c.Calls, c.Fired)
		if c.Fired == 0 {
			never = append(never, c.Hook)
		}
	}
	if len(never) > 0 && allEnded {
		fmt.Fprintf(w, "note  never did anything: %s (is its condition ever true in these games?)\n", strings.Join(never, ", "))
	}
}

// nameValues reads flag's name=value arguments.
func nameValues(flag string, kvs []string) (map[string]any, error) {
	out := map[string]any{}
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("%s %q: want name=value", flag, kv)
		}
		out[k] = v
	}
	return out, nil
}

// kvOf is the name=value argument of kvs naming k.
func kvOf(kvs []string, k string) string {
	for _, kv := range kvs {
		if strings.HasPrefix(kv, k+"=") {
			return kv
		}
	}
	return k + "=..."
}

func optionNames(schema []sdk.Option) string {
	if len(schema) == 0 {
		return "none"
	}
	names := make([]string, len(schema))
	for i, o := range schema {
		names[i] = o.Name
	}
	return strings.Join(names, ", ")
}

// ruleOptionError words a refusal of --rule-option values: each bad value, and an unknown name
// with the options the rule declares (or the pointer to --option when the ruleset has it).
func ruleOptionError(err error, schema, game []sdk.Option) error {
	var oe sdk.OptionErrors
	if !errors.As(err, &oe) {
		return fmt.Errorf("--rule-option: %w", err)
	}
	var msgs []string
	for _, e := range oe {
		switch {
		case slices.ContainsFunc(schema, func(o sdk.Option) bool { return o.Name == e.Field }):
			msgs = append(msgs, fmt.Sprintf("--rule-option %s: %s", e.Field, e.Reason))
		case slices.ContainsFunc(game, func(o sdk.Option) bool { return o.Name == e.Field }):
			msgs = append(msgs, fmt.Sprintf("--rule-option %s: the rule has no option %q; it is the ruleset's: --option %s=...", e.Field, e.Field, e.Field))
		default:
			msgs = append(msgs, fmt.Sprintf("--rule-option %s: the rule has no option %q (it declares: %s)", e.Field, e.Field, optionNames(schema)))
		}
	}
	return errors.New(strings.Join(msgs, "; "))
}

// printFault prints, under a failure, what the upload page shows beside the script: where in
// the script (line, hook), the hint for such a failure (engine.HouseRuleHint) and the script's
// lines around the one at fault. Nothing when err is no house rule's failure.
func printFault(w io.Writer, err error, source string) {
	var f *sdk.HouseFault
	var he *houserules.Error // the script compiled here, in this process
	if re, ok := sdk.AsRefusal(err); ok && re.Fault != nil {
		f = re.Fault
	} else if errors.As(err, &he) {
		f = &sdk.HouseFault{Rule: he.Rule, Hook: he.Hook, Line: he.Line, Message: he.Msg}
	} else {
		return
	}
	where := "the script"
	if f.Line > 0 {
		where = fmt.Sprintf("line %d", f.Line)
	}
	if f.Hook != "" {
		where += ", in " + f.Hook
	}
	msg := f.Message
	if msg == "" {
		msg = err.Error()
	}
	fmt.Fprintf(w, "      %s: %s\n", where, msg)
	if hint := engine.HouseRuleHint(msg); hint != "" {
		fmt.Fprintf(w, "      hint  %s\n", hint)
	}
	lines := strings.Split(source, "\n")
	if f.Line < 1 || f.Line > len(lines) {
		return
	}
	for n := max(1, f.Line-2); n <= min(len(lines), f.Line+2); n++ {
		mark := " "
		if n == f.Line {
			mark = "\u25b6"
		}
		fmt.Fprintf(w, "      %4d %s %s\n", n, mark, lines[n-1])
	}
}
