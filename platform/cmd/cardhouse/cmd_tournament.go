package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"cardhouse/plugins/builtin"
	"cardhouse/sdk"
	"cardhouse/sdk/botplay"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/search"

	"github.com/spf13/cobra"
)

// tournamentConfig is one `cardhouse tournament` run.
type tournamentConfig struct {
	Variant string
	Seats   int
	// Levels are the bot levels that meet; seat i of game g plays Levels[(i+g) % len(Levels)], so
	// every level opens in turn and sits at every place.
	Levels  []int
	Games   int
	Options map[string]any
	Seed    uint64
	// Duplicate plays every deal once per rotation of the levels over the seats (duplicate
	// bridge's trick): game g uses seed Seed + g/len(Levels), so the levels meet the same cards
	// from every place and the deal's luck largely cancels out of their difference.
	Duplicate bool
	Workers   int
	// MaxSteps bounds one game; a game that reaches it counts as unfinished (no winner).
	MaxSteps int
	// Plugins is a folder of plugin executables (as `serve --plugins` and `scenario --plugins`
	// take it): the games are played through plugin processes, the built-in variants' own and
	// the folder's, and the variant may be one the folder serves. "" plays in-process, unless
	// Processes is set.
	Plugins string
	// Processes plays the built-in variants through their plugin processes instead of
	// in-process (what the yes/no --plugins switch did); Plugins != "" implies it.
	Processes bool
	// Scale multiplies the search bots' node budgets (in-process only; 0 leaves them); NoClock
	// switches their time budgets off.
	Scale   float64
	NoClock bool
	// Progress, when set, is told of every finished game.
	Progress func(done, total int)
}

// levelResult is what one level did in a tournament.
type levelResult struct {
	Level int
	// Games counts the games the level sat in; Wins those a seat of that level won; Seats the
	// seats per game it held (its fair share of wins is Seats/seats when levels are equal).
	Games, Wins, Seats int
	Moves              int
	// Think is the bots' time for all their moves; Slowest their slowest single move.
	Think, Slowest time.Duration
}

// tournamentResult is a whole run.
type tournamentResult struct {
	Config     tournamentConfig
	Name       string
	Levels     []levelResult
	Unfinished int
	Steps      int
	Elapsed    time.Duration
	// Paired is set with Config.Duplicate: the first level's share of the wins per deal.
	Paired *pairedResult
}

// pairedResult is the first level's mean share of each deal's wins (a deal's games all count,
// an unfinished one as a loss) with a 95% interval from the spread of those shares across deals
// (normal approximation): the deals, not the games, are the independent trials.
type pairedResult struct {
	Deals        int
	Mean, Lo, Hi float64
}

// paired computes the pairedResult of the first level over outcomes grouped by seed.
func paired(first int, outcomes []gameOutcome) *pairedResult {
	type deal struct{ games, wins int }
	bySeed := map[uint64]*deal{}
	var seeds []uint64
	for _, o := range outcomes {
		d := bySeed[o.seed]
		if d == nil {
			d = &deal{}
			bySeed[o.seed] = d
			seeds = append(seeds, o.seed)
		}
		d.games++
		if o.winner >= 0 && o.winner < len(o.levels) && o.levels[o.winner] == first {
			d.wins++
		}
	}
	n := len(seeds)
	if n == 0 {
		return nil
	}
	shares := make([]float64, n)
	sum := 0.0
	for i, sd := range seeds {
		shares[i] = float64(bySeed[sd].wins) / float64(bySeed[sd].games)
		sum += shares[i]
	}
	mean := sum / float64(n)
	pr := &pairedResult{Deals: n, Mean: mean, Lo: 0, Hi: 1}
	if n < 2 {
		return pr
	}
	ss := 0.0
	for _, x := range shares {
		ss += (x - mean) * (x - mean)
	}
	se := math.Sqrt(ss / float64(n-1) / float64(n))
	const z = 1.959963984540054
	pr.Lo, pr.Hi = max(0, mean-z*se), min(1, mean+z*se)
	return pr
}

// gameOutcome is one game's result: the winning seat (sdk.NoSeat when unfinished), the levels
// per seat, and per seat the bots' moves (answers with an action) and their time in every call.
type gameOutcome struct {
	winner int
	levels []int
	moves  []int
	think  []time.Duration
	// slowest is each seat's slowest move.
	slowest []time.Duration
	steps   int
	err     error
	seed    uint64
}

// newTournamentCmd is `cardhouse tournament`: bots against bots, many games in parallel.
func newTournamentCmd() *cobra.Command {
	var (
		cfg     tournamentConfig
		levels  string
		options []string
	)
	cmd := &cobra.Command{
		Use:   "tournament",
		Short: "Play many bot-only games between bot levels and print each level's win rate",
		Long: "Play many games between bots of the chosen levels, in parallel (one worker per core by\n" +
			"default), in-process on the built-in rulesets or, with --processes (what a bare --plugins\n" +
			"did before it took a folder), through their plugin processes. --plugins DIR plays through\n" +
			"plugin processes too, the built-in ones and those found in DIR (as serve and scenario find\n" +
			"them), so a variant of your own can be measured (docs/bots.md):\n" +
			"  go build -o DIR/crazy8 ./cmd/crazy8 && cardhouse tournament --plugins DIR --variant crazy8\n" +
			"Seats take the levels in turn and the assignment rotates every game, so each level opens\n" +
			"as often as the others. Prints each level's win rate with its 95% confidence\n" +
			"interval (Wilson) and the bots' mean and slowest time per move. With --duplicate every\n" +
			"deal is played once per rotation of the levels, and the first level's share of each deal's\n" +
			"wins gets a paired 95% interval too (narrower: the luck of the cards cancels out).\n\n" +
			"Example: cardhouse tournament --variant lastcard --seats 2 --levels 5,1 --games 200 --option target=single\n" +
			"Built-in variants: " + strings.Join(builtinIDs(), ", "),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var err error
			if cfg.Levels, err = parseLevels(levels); err != nil {
				return err
			}
			if cfg.Options, err = parseOptions(options); err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			errOut := cmd.ErrOrStderr()
			cfg.Progress = func(done, total int) {
				if done%max(1, total/20) == 0 || done == total {
					fmt.Fprintf(errOut, "\r%d/%d games", done, total)
					if done == total {
						fmt.Fprintln(errOut)
					}
				}
			}
			res, err := runTournament(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			return res.print(out)
		},
	}
	f := cmd.Flags()
	f.StringVar(&cfg.Variant, "variant", "lastcard", "ruleset id of the variant to play")
	f.IntVar(&cfg.Seats, "seats", 2, "seats per game")
	f.StringVar(&levels, "levels", "2,1", "comma-separated bot levels that meet (seats take them in turn)")
	f.IntVar(&cfg.Games, "games", 100, "number of games")
	f.StringArrayVar(&options, "option", nil, "a rule option as name=value (repeatable), e.g. target=single")
	f.Uint64Var(&cfg.Seed, "seed", 1, "seed of the first game (game g uses seed+g)")
	f.BoolVar(&cfg.Duplicate, "duplicate", false, "play every deal once per rotation of the levels (game g uses seed+g/len(levels))")
	f.IntVar(&cfg.Workers, "workers", runtime.NumCPU(), "games played at once")
	f.IntVar(&cfg.MaxSteps, "max-steps", 20000, "actions after which a game counts as unfinished")
	f.StringVar(&cfg.Plugins, "plugins", "", "folder of external variant plugins: play through plugin processes, the built-in ones and the folder's (implies --processes)")
	f.BoolVar(&cfg.Processes, "processes", false, "play the built-in variants through their plugin processes instead of in-process (the old yes/no --plugins)")
	f.Float64Var(&cfg.Scale, "scale", 0, "multiply the search bots' node budgets (in-process only; 0: as built)")
	f.BoolVar(&cfg.NoClock, "no-clock", false, "switch the search bots' time budgets off (in-process only): choices depend on the seed alone")
	return cmd
}

// parseLevels reads "5,1" into levels.
func parseLevels(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("tournament: --levels %q: %q is not a bot level (a number from 1)", s, f)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("tournament: --levels is empty")
	}
	return out, nil
}

// parseOptions reads name=value options; values that read as a boolean or an integer are taken
// as one (the ruleset's schema validates them).
func parseOptions(list []string) (map[string]any, error) {
	out := map[string]any{}
	for _, o := range list {
		k, v, ok := strings.Cut(o, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("tournament: --option %q: want name=value", o)
		}
		switch {
		case v == "true" || v == "false":
			out[k] = v == "true"
		default:
			if n, err := strconv.Atoi(v); err == nil {
				out[k] = n
			} else {
				out[k] = v
			}
		}
	}
	return out, nil
}

// runTournament plays cfg.Games games on cfg.Workers workers and tallies them by level.
func runTournament(ctx context.Context, cfg tournamentConfig) (*tournamentResult, error) {
	if cfg.Games < 1 {
		return nil, fmt.Errorf("tournament: --games must be at least 1, got %d", cfg.Games)
	}
	if cfg.Workers < 1 {
		cfg.Workers = 1
	}
	if cfg.MaxSteps < 1 {
		cfg.MaxSteps = 20000
	}
	cfg.Processes = cfg.Processes || cfg.Plugins != ""
	var engineFor func() engine.Engine
	if cfg.Processes {
		engines, closeAll, err := openEngines(ctx, cfg.Plugins)
		if err != nil {
			return nil, fmt.Errorf("tournament: %w", err)
		}
		defer closeAll()
		shared := engines[cfg.Variant]
		if shared == nil {
			return nil, fmt.Errorf("tournament: no plugin serves %q (served: %s)", cfg.Variant, strings.Join(slices.Sorted(maps.Keys(engines)), ", "))
		}
		engineFor = func() engine.Engine { return shared }
	} else {
		newEngine, ok := builtin.Engines()[cfg.Variant]
		if !ok {
			return nil, fmt.Errorf("tournament: no built-in variant %q (built in: %s; a variant's own plugin: --plugins DIR)", cfg.Variant, strings.Join(builtinIDs(), ", "))
		}
		engineFor = func() engine.Engine { return newEngine() }
	}
	if cfg.Scale > 0 || cfg.NoClock {
		ctx = search.WithOverride(ctx, search.Override{Scale: cfg.Scale, NoClock: cfg.NoClock})
	}
	probe := engineFor()
	desc, err := probe.Describe(ctx)
	if err != nil {
		return nil, fmt.Errorf("tournament: %w", err)
	}
	if cfg.Seats < desc.MinSeats || cfg.Seats > desc.MaxSeats {
		return nil, fmt.Errorf("tournament: %s is for %d to %d seats, got --seats %d", desc.Name, desc.MinSeats, desc.MaxSeats, cfg.Seats)
	}
	for _, l := range cfg.Levels {
		if !slices.Contains(desc.BotLevels, l) {
			return nil, fmt.Errorf("tournament: %s has no bot of level %d (it has %v)", desc.Name, l, desc.BotLevels)
		}
	}
	if _, err := sdk.CheckOptions(desc.Info, nil, cfg.Seats, cfg.Options); err != nil {
		return nil, fmt.Errorf("tournament: options %v: %w", cfg.Options, err)
	}

	start := time.Now()
	jobs := make(chan int)
	outcomes := make([]gameOutcome, cfg.Games)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for range cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := engineFor()
			for g := range jobs {
				outcomes[g] = playGame(ctx, e, cfg, g)
				if outcomes[g].err != nil {
					cancel()
				}
				mu.Lock()
				done++
				if cfg.Progress != nil {
					cfg.Progress(done, cfg.Games)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for g := range cfg.Games {
		select {
		case jobs <- g:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	var errs []error
	for g, o := range outcomes {
		if o.err != nil && !errors.Is(o.err, context.Canceled) {
			errs = append(errs, fmt.Errorf("game %d (seed %d): %w", g, gameSeed(cfg, g), o.err))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if err := ctx.Err(); err != nil && len(errs) == 0 && done < cfg.Games {
		return nil, err
	}
	return tally(cfg, desc.Name, outcomes, time.Since(start)), nil
}

// seatLevels is the level of every seat in game g.
func seatLevels(cfg tournamentConfig, g int) []int {
	out := make([]int, cfg.Seats)
	for i := range out {
		out[i] = cfg.Levels[(i+g)%len(cfg.Levels)]
	}
	return out
}

// gameSeed is the seed of game g: one per game, or with Duplicate one per rotation of the levels.
func gameSeed(cfg tournamentConfig, g int) uint64 {
	if cfg.Duplicate {
		return cfg.Seed + uint64(g/len(cfg.Levels))
	}
	return cfg.Seed + uint64(g)
}

// playGame plays game g to game_over (botplay.Play): the bots of the game's levels choose for the
// seats the status names, out-of-turn actors first (a catch or a call must come before the next
// play), the clock moves 500 ms a decision, the host deals on round_over, and a game in which no
// bot acts fires its earliest deadline. Each bot call is timed.
func playGame(ctx context.Context, e engine.Engine, cfg tournamentConfig, g int) gameOutcome {
	levels := seatLevels(cfg, g)
	seed := gameSeed(cfg, g)
	o := gameOutcome{winner: sdk.NoSeat, levels: levels, moves: make([]int, cfg.Seats), think: make([]time.Duration, cfg.Seats), slowest: make([]time.Duration, cfg.Seats), seed: seed}
	bot := botplay.EngineBot(e, func(seat int) int { return levels[seat] }, func(t *botplay.Turn) uint64 { return seed*1_000_003 + uint64(t.N) })
	timed := func(ctx context.Context, t *botplay.Turn) (*sdk.Action, error) {
		t0 := time.Now()
		a, err := bot(ctx, t)
		if err != nil {
			return nil, fmt.Errorf("bot of level %d: %w", levels[t.Seat], err)
		}
		took := time.Since(t0)
		o.think[t.Seat] += took
		o.slowest[t.Seat] = max(o.slowest[t.Seat], took)
		if a != nil {
			o.moves[t.Seat]++
		}
		return a, nil
	}
	res, err := botplay.Play(ctx, e, botplay.Config{Seats: cfg.Seats, Options: cfg.Options, Seed: seed,
		Bot: timed, Order: botplay.OutOfTurnFirst, ThinkMS: 500, MaxSteps: cfg.MaxSteps})
	o.steps, o.err = res.Steps, err
	if err == nil && res.Ended {
		o.winner = res.Final.Status.Winner
	}
	return o
}

// tally sums the games by level.
func tally(cfg tournamentConfig, name string, outcomes []gameOutcome, elapsed time.Duration) *tournamentResult {
	res := &tournamentResult{Config: cfg, Name: name, Elapsed: elapsed}
	byLevel := map[int]*levelResult{}
	var order []int
	for _, l := range cfg.Levels {
		if byLevel[l] == nil {
			byLevel[l] = &levelResult{Level: l}
			order = append(order, l)
		}
	}
	for _, l := range seatLevels(cfg, 0) {
		byLevel[l].Seats++
	}
	for _, o := range outcomes {
		res.Steps += o.steps
		if o.winner == sdk.NoSeat {
			res.Unfinished++
		}
		seen := map[int]bool{}
		for seat, l := range o.levels {
			lr := byLevel[l]
			lr.Moves += o.moves[seat]
			lr.Think += o.think[seat]
			lr.Slowest = max(lr.Slowest, o.slowest[seat])
			if !seen[l] {
				seen[l] = true
				lr.Games++
			}
		}
		if o.winner >= 0 && o.winner < len(o.levels) {
			byLevel[o.levels[o.winner]].Wins++
		}
	}
	for _, l := range order {
		res.Levels = append(res.Levels, *byLevel[l])
	}
	if cfg.Duplicate {
		res.Paired = paired(cfg.Levels[0], outcomes)
	}
	return res
}

// wilson is the 95% Wilson score interval of wins successes in n trials.
func wilson(wins, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.959963984540054
	p := float64(wins) / float64(n)
	nf := float64(n)
	den := 1 + z*z/nf
	center := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	return max(0, center-half), min(1, center+half)
}

// print writes the result table: per level its games, wins, win rate with its 95% interval, its
// fair share (what equal bots would win), the mean time per bot call and the slowest call; then a verdict on
// whether the first level beats its fair share with confidence.
func (r *tournamentResult) print(w io.Writer) error {
	opts := make([]string, 0, len(r.Config.Options))
	for k, v := range r.Config.Options {
		opts = append(opts, fmt.Sprintf("%s=%v", k, v))
	}
	slices.Sort(opts)
	mode := "in-process"
	switch {
	case r.Config.Plugins != "":
		mode = "plugins of " + r.Config.Plugins + " and built in"
	case r.Config.Processes:
		mode = "plugins"
	}
	if r.Config.Duplicate {
		mode += ", duplicate deals"
	}
	fmt.Fprintf(w, "%s (%s), %d seats, options [%s], %d games (seeds %d..%d), %d workers, %s, %s\n",
		r.Name, r.Config.Variant, r.Config.Seats, strings.Join(opts, " "), r.Config.Games,
		r.Config.Seed, gameSeed(r.Config, r.Config.Games-1), r.Config.Workers, mode, r.Elapsed.Round(time.Second))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LEVEL\tSEATS/GAME\tGAMES\tWINS\tWIN RATE\t95% CI (WILSON)\tFAIR SHARE\tMS/MOVE\tMAX MS\tMOVES")
	for _, l := range r.Levels {
		lo, hi := wilson(l.Wins, l.Games)
		rate := 0.0
		if l.Games > 0 {
			rate = float64(l.Wins) / float64(l.Games)
		}
		ms := 0.0
		if l.Moves > 0 {
			ms = float64(l.Think.Microseconds()) / 1000 / float64(l.Moves)
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%.1f%%\t[%.1f%%, %.1f%%]\t%.1f%%\t%.2f\t%.1f\t%d\n",
			l.Level, l.Seats, l.Games, l.Wins, 100*rate, 100*lo, 100*hi, 100*float64(l.Seats)/float64(r.Config.Seats), ms,
			float64(l.Slowest.Microseconds())/1000, l.Moves)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "unfinished games: %d; actions: %d\n", r.Unfinished, r.Steps)
	if len(r.Levels) >= 2 {
		first := r.Levels[0]
		lo, hi := wilson(first.Wins, first.Games)
		fair := float64(first.Seats) / float64(r.Config.Seats)
		verdict := "not separated at 95%"
		if p := r.Paired; p != nil {
			fmt.Fprintf(w, "paired by deal: level %d won %.1f%% of the games of %d deals, 95%% CI [%.1f%%, %.1f%%]\n",
				first.Level, 100*p.Mean, p.Deals, 100*p.Lo, 100*p.Hi)
			lo, hi = p.Lo, p.Hi // the verdict goes by the deals
		}
		switch {
		case lo > fair:
			verdict = fmt.Sprintf("level %d is stronger (95%% CI above its fair share %.0f%%)", first.Level, 100*fair)
		case hi < fair:
			verdict = fmt.Sprintf("level %d is weaker (95%% CI below its fair share %.0f%%)", first.Level, 100*fair)
		}
		_, err := fmt.Fprintln(w, "verdict:", verdict)
		return err
	}
	return nil
}
