package searchtest

import (
	"context"
	"flag"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"cardhouse/sdk"
	"cardhouse/sdk/botplay"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/search"
)

// Ladder is a tournament of each bot level against the one below: every deal is played twice,
// the levels swapping seats (duplicate: the luck of the cards cancels out of the difference), and
// the upper level's share of each deal's two games gives its win rate with a paired 95% interval.
// The levels alternate round the table (seat s plays Pair[s%2], then Pair[(s+1)%2]): in a game of
// two seats one each, of four seats partners (Spades) or alternating players (Hearts).
type Ladder struct {
	Seats   int
	Options map[string]any
	// Pairs are the levels that meet, the upper first (default: 2:1, 3:2, 4:3, 5:4).
	Pairs [][2]int
	// Deals per pair (each played twice); Seed is the first deal's seed (deal d plays seed Seed+d).
	Deals int
	Seed  uint64
	// Scale multiplies the search bots' node budgets (0: as built); the clock is always off, so
	// a game depends on its seed alone.
	Scale float64
	// Workers plays that many games at once (1 by default); the results do not depend on it.
	Workers int
	// MaxSteps bounds a game (20000 by default): a game that reaches it counts as unfinished,
	// half a win to each side.
	MaxSteps int
}

// Rung is a pair's result: Rate is the upper level's mean share of each deal's wins (a game
// without a winner counts half), [Low, High] its paired 95% interval (normal, over the deals).
type Rung struct {
	Upper, Lower int
	Deals, Games int
	Rate         float64
	Low, High    float64
	Unfinished   int
}

// Separated reports whether the upper level is ahead with 95% confidence: the interval's lower
// end above 50%.
func (g Rung) Separated() bool { return g.Low > 0.5 }

// String is the rung's line, as the ladder tests log it and docs/bots.md cites it.
func (g Rung) String() string {
	verdict := "not separated"
	if g.Separated() {
		verdict = "separated"
	}
	s := fmt.Sprintf("level %d vs %d: %d games (%d deals): %.1f%% [%.1f%%, %.1f%%] %s",
		g.Upper, g.Lower, g.Games, g.Deals, 100*g.Rate, 100*g.Low, 100*g.High, verdict)
	if g.Unfinished > 0 {
		s += fmt.Sprintf(" (%d unfinished)", g.Unfinished)
	}
	return s
}

// DefaultPairs are the adjacent levels, the upper first.
var DefaultPairs = [][2]int{{2, 1}, {3, 2}, {4, 3}, {5, 4}}

// Play plays the ladder's pair on e's bots and returns its rung; each finished game is reported
// to progress (may be nil) with the number of games finished so far and the rung of the deals
// whose two games are both finished (a run stopped early still has its figure).
func (l Ladder) Play(ctx context.Context, e engine.Engine, pair [2]int, progress func(done int, sofar Rung)) (Rung, error) {
	if l.Deals <= 0 {
		return Rung{}, fmt.Errorf("searchtest: a ladder of %d deals", l.Deals)
	}
	if pair[0] < 1 || pair[1] < 1 || pair[0] == pair[1] {
		return Rung{}, fmt.Errorf("searchtest: levels %d and %d: a ladder pairs two different levels, each a number from 1", pair[0], pair[1])
	}
	ctx = search.WithOverride(ctx, search.Override{Scale: l.Scale, NoClock: true})
	maxSteps := l.MaxSteps
	if maxSteps <= 0 {
		maxSteps = 20000
	}
	type game struct{ deal, swap int }
	won := make([][2]float64, l.Deals)
	unfinished := 0
	jobs := make(chan game)
	var mu sync.Mutex
	var firstErr error
	done := 0
	played := make([]int, l.Deals)
	var full []float64
	var wg sync.WaitGroup
	for range max(1, l.Workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range jobs {
				seed := l.Seed + uint64(g.deal)
				level := func(seat int) int { return pair[(seat+g.swap)%2] }
				res, err := botplay.Play(ctx, e, botplay.Config{
					Seats: l.Seats, Options: l.Options, Seed: seed, MaxSteps: maxSteps,
					Bot: botplay.EngineBot(e, level, func(t *botplay.Turn) uint64 { return seed*1_000_003 + uint64(t.N) }),
				})
				mu.Lock()
				switch {
				case err != nil:
					if firstErr == nil {
						firstErr = fmt.Errorf("levels %d and %d, deal %d (seed %d), seats swapped %v: %w", pair[0], pair[1], g.deal, seed, g.swap == 1, err)
					}
				case !res.Ended:
					unfinished++
					won[g.deal][g.swap] = 0.5
				default:
					if w := res.Final.Status.Winner; w == sdk.NoSeat {
						won[g.deal][g.swap] = 0.5
					} else if level(w) == pair[0] {
						won[g.deal][g.swap] = 1
					}
				}
				done++
				if played[g.deal]++; played[g.deal] == 2 {
					full = append(full, (won[g.deal][0]+won[g.deal][1])/2)
				}
				if progress != nil && err == nil {
					progress(done, rung(pair, full, unfinished))
				}
				mu.Unlock()
			}
		}()
	}
	for d := range l.Deals {
		for swap := range 2 {
			mu.Lock()
			failed := firstErr != nil
			mu.Unlock()
			if failed || ctx.Err() != nil {
				break
			}
			jobs <- game{d, swap}
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return Rung{}, firstErr
	}
	if err := ctx.Err(); err != nil {
		return Rung{}, err
	}
	shares := make([]float64, l.Deals)
	for d, w := range won {
		shares[d] = (w[0] + w[1]) / 2
	}
	return rung(pair, shares, unfinished), nil
}

// rung is the result of pair over the deals' shares.
func rung(pair [2]int, shares []float64, unfinished int) Rung {
	mean, half := MeanCI(shares)
	return Rung{Upper: pair[0], Lower: pair[1], Deals: len(shares), Games: 2 * len(shares), Rate: mean,
		Low: mean - half, High: mean + half, Unfinished: unfinished}
}

// MeanCI is the mean of xs and the half-width of its normal 95% interval (1.96 standard errors).
func MeanCI(xs []float64) (mean, half float64) {
	n := float64(len(xs))
	if n == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= n
	v := 0.0
	for _, x := range xs {
		v += (x - mean) * (x - mean)
	}
	if n > 1 {
		v /= n - 1
	}
	return mean, 1.96 * math.Sqrt(v/n)
}

// LadderFlags are the command-line flags of a variant's ladder test, named after the variant:
// -V.deals (0: the short default run), -V.pairs ("3:2,5:4"), -V.scale, -V.seed and -V.workers.
type LadderFlags struct {
	prefix  string
	deals   *int
	pairs   *string
	scale   *float64
	seed    *uint64
	workers *int
}

// NewLadderFlags registers prefix's ladder flags on the command line (call it at package level,
// before the test binary parses its flags), with def's Scale and Seed as their defaults.
func NewLadderFlags(prefix string, def Ladder) *LadderFlags {
	pairs := make([]string, 0, len(DefaultPairs))
	for _, p := range DefaultPairs {
		pairs = append(pairs, fmt.Sprintf("%d:%d", p[0], p[1]))
	}
	return &LadderFlags{
		prefix:  prefix,
		deals:   flag.Int(prefix+".deals", 0, "deals per pair of levels in TestLevelsLadder, each played twice with the seats swapped (0: the short default run)"),
		pairs:   flag.String(prefix+".pairs", strings.Join(pairs, ","), "the pairs of levels TestLevelsLadder plays with -"+prefix+".deals, upper level first"),
		scale:   flag.Float64(prefix+".scale", def.Scale, "the search levels' node budgets in TestLevelsLadder, as a share of the built ones (0: as built)"),
		seed:    flag.Uint64(prefix+".seed", max(def.Seed, 1), "the seed of TestLevelsLadder's first deal (deal d plays seed+d)"),
		workers: flag.Int(prefix+".workers", 1, "games TestLevelsLadder plays at once"),
	}
}

// ParsePairs reads "2:1,5:4" (upper level first).
func ParsePairs(s string) ([][2]int, error) {
	var out [][2]int
	for _, p := range strings.Split(s, ",") {
		var hi, lo int
		if _, err := fmt.Sscanf(strings.TrimSpace(p), "%d:%d", &hi, &lo); err != nil || hi < 1 || lo < 1 {
			return nil, fmt.Errorf("%q is not a pair of levels UPPER:LOWER (as 3:2)", p)
		}
		out = append(out, [2]int{hi, lo})
	}
	return out, nil
}

// RunLadder is a variant's TestLevelsLadder. With -V.deals N it plays N deals of every pair of
// -V.pairs on e (l's seats and options, the flags' scale, seed and workers), logs each rung (run
// with -v to see them as they come) and fails a pair whose interval is not above 50%. Without it
// (the default `go test` run) it plays short: short.Deals deals of each of short.Pairs, and fails
// a pair only when its upper level loses outright (its rate under 50%), a check a few deals can
// make of a wide gap such as level 2's over level 1. It skips under -short.
func RunLadder(t *testing.T, e engine.Engine, f *LadderFlags, l Ladder, short Ladder) []Rung {
	t.Helper()
	if testing.Short() {
		t.Skip("plays whole games of bots")
	}
	l.Scale, l.Seed, l.Workers = *f.scale, *f.seed, *f.workers
	strict := *f.deals > 0
	if strict {
		pairs, err := ParsePairs(*f.pairs)
		if err != nil {
			t.Fatalf("-%s.pairs: %v", f.prefix, err)
		}
		l.Pairs, l.Deals = pairs, *f.deals
	} else {
		l.Pairs, l.Deals = short.Pairs, short.Deals
		if short.Scale != 0 {
			l.Scale = short.Scale
		}
	}
	if l.Pairs == nil {
		l.Pairs = DefaultPairs
	}
	var out []Rung
	for _, p := range l.Pairs {
		step := max(1, l.Deals/10)
		g, err := l.Play(context.Background(), e, p, func(done int, sofar Rung) {
			t.Helper()
			if strict && done%(2*step) == 0 && done < 2*l.Deals {
				t.Logf("%d of %d games; so far %s", done, 2*l.Deals, sofar)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		budget := "budgets as built"
		if l.Scale != 0 {
			budget = fmt.Sprintf("budgets scaled %g", l.Scale)
		}
		t.Logf("%s; %s, clock off, seeds %d..%d", g, budget, l.Seed, l.Seed+uint64(l.Deals)-1)
		switch {
		case strict && !g.Separated():
			t.Errorf("level %d is not ahead of level %d with 95%% confidence: %s", p[0], p[1], g)
		case !strict && g.Rate < 0.5:
			t.Errorf("level %d loses to level %d over the short run's %d deals: %s", p[0], p[1], l.Deals, g)
		}
		out = append(out, g)
	}
	return out
}

// BenchmarkMove times the whole move of a bot of level (Bot as the engine calls it, its time
// budget on, as in a room) at the decisions of cfg's games (played by cfg.Driver, level 2 by
// default) where the seat asked decides and has more than one move, and keep (when not nil)
// accepts the decision: the positions a search runs at, from a hand's first card to its last.
// Each iteration asks at the next position in turn. It reports ms/move (the mean wall time),
// slowest-ms and, where the system tells, cpu-ms/move (the process's CPU time per move, which a
// loaded machine does not inflate), in two sub-benchmarks: "clock", the time budget on as in a
// room, and "no-clock", the node budget alone (what a move costs where the clock never binds, as
// on an idle core). Run it with -count 5 for a median (benchstat).
func BenchmarkMove[S any](b *testing.B, r Ruleset[S], cfg Config, level int, keep func(d Decision[S]) bool) {
	mover, ok := any(r).(sdk.Mover[S])
	if !ok {
		b.Fatalf("%s implements no sdk.Mover", r.Info().Name)
	}
	var at []Decision[S]
	Games(b, r, cfg, func(d Decision[S]) {
		if mover.Decider(d.State) == d.Seat && len(mover.Moves(d.State, d.Seat)) > 1 && (keep == nil || keep(d)) {
			at = append(at, d)
		}
	})
	if len(at) == 0 {
		b.Fatal("no decision with a choice in the games played")
	}
	for _, clock := range []bool{true, false} {
		name, ctx := "clock", context.Background()
		if !clock {
			name, ctx = "no-clock", search.WithOverride(ctx, search.Override{NoClock: true})
		}
		b.Run(name, func(b *testing.B) { timeMoves(b, ctx, r, at, level) })
	}
}

// timeMoves is BenchmarkMove's loop under ctx.
func timeMoves[S any](b *testing.B, ctx context.Context, r Ruleset[S], at []Decision[S], level int) {
	var slowest, total time.Duration
	cpu0, cpuOK := cpuTime()
	for i := 0; b.Loop(); i++ {
		d := at[i%len(at)]
		rng := sdk.NewRNG(uint64(i))
		req := sdk.BotRequest{Seat: d.Seat, Level: level, View: r.View(d.State, d.Seat), History: r.History(d.State, d.Seat), RNG: &rng}
		start := time.Now()
		if _, err := r.Bot(ctx, req); err != nil {
			b.Fatal(err)
		}
		el := time.Since(start)
		total += el
		slowest = max(slowest, el)
	}
	cpu1, _ := cpuTime()
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/move")
	b.ReportMetric(float64(slowest.Microseconds())/1000, "slowest-ms")
	if cpuOK {
		// the process's CPU time over the moves: on a loaded machine a move's wall time includes
		// its wait for a core (and stops at the time budget), its CPU time does not
		b.ReportMetric(float64((cpu1-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/move")
	}
	b.ReportMetric(float64(len(at)), "positions")
}
