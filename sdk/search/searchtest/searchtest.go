// Package searchtest checks the bots of a ruleset the way issue 9's "done when" asks: at many
// decisions of real games, a bot of every level chooses the same when the cards its seat cannot
// see are dealt again (sdk.Redealer), with the same seed; and the search bots' simulations only
// ever make moves the ruleset accepts; and it measures them: the level ladder (each level
// against the one below over duplicate deals, with a paired 95% interval) and the time of a
// move. It imports sdk, sdk/engine, sdk/botplay, sdk/search and the standard library.
//
// Start at [InformationSet]; [SearchPlays] checks a ruleset's sdk.Sampler and sdk.Mover;
// [RunLadder] is a variant's TestLevelsLadder and [BenchmarkMove] its level-5 move benchmark.
package searchtest

import (
	"context"
	"fmt"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/search"
)

// Ruleset is what the checks need of a ruleset: its bots, Redeal and History.
type Ruleset[S any] interface {
	sdk.Ruleset[S]
	sdk.Bots
	sdk.Redealer[S]
	sdk.Historian[S]
}

// Config says which games to play and which decisions to check.
type Config struct {
	Seats   int
	Options map[string]any
	Seeds   []uint64
	// Levels are the bot levels checked at every chosen decision.
	Levels []int
	// Driver is the level whose choices move the games on (a cheap one: 2 by default).
	Driver int
	// Every checks one decision in Every (1 by default); Max stops after that many checks per
	// game (0: no limit).
	Every, Max int
	// Scale multiplies the search bots' node budgets (0.1 by default); the clock is always off,
	// so a choice depends on the bot's inputs alone.
	Scale float64
	// MaxSteps bounds a game (2000 by default).
	MaxSteps int
}

// Context is the context the checks run bots under: budgets scaled, clock off.
func (c Config) Context() context.Context {
	scale := c.Scale
	if scale == 0 {
		scale = 0.1
	}
	return search.WithOverride(context.Background(), search.Override{Scale: scale, NoClock: true})
}

// Decision is one decision of a game: the state and the seat asked.
type Decision[S any] struct {
	State S
	Seat  int
	Step  int
	Seed  uint64
}

// Games plays cfg's games with the driver level and calls each for every decision (the state
// and each seat the status names an actor); it returns the number of decisions seen.
func Games[S any](tb testing.TB, r Ruleset[S], cfg Config, each func(d Decision[S])) int {
	tb.Helper()
	ctx := cfg.Context()
	if cfg.Driver == 0 {
		cfg.Driver = 2
	}
	if cfg.MaxSteps == 0 {
		cfg.MaxSteps = 2000
	}
	n := 0
	for _, seed := range cfg.Seeds {
		opts, err := sdk.CheckOptions(r.Info(), r, cfg.Seats, cfg.Options)
		if err != nil {
			tb.Fatalf("options %v: %v", cfg.Options, err)
		}
		s, err := r.Start(ctx, sdk.StartRequest{Seats: cfg.Seats, Options: opts, Seed: seed, RNG: sdk.NewRNG(seed)})
		if err != nil {
			tb.Fatalf("start seed %d: %v", seed, err)
		}
		for step := 0; step < cfg.MaxSteps; step++ {
			st := r.Status(s)
			if st.Phase != sdk.PhasePlaying {
				break
			}
			var next *sdk.Action
			for _, seat := range append(append([]int{}, st.Actors[1:]...), st.Actors[0]) {
				each(Decision[S]{State: s, Seat: seat, Step: step, Seed: seed})
				n++
				rng := sdk.NewRNG(seed*7919 + uint64(step))
				a, err := r.Bot(ctx, sdk.BotRequest{Seat: seat, Level: cfg.Driver, View: r.View(s, seat), History: r.History(s, seat), RNG: &rng})
				if err != nil {
					tb.Fatalf("seed %d step %d: driver bot of seat %d: %v", seed, step, seat, err)
				}
				if a != nil {
					a.Seat = seat
					next = a
					break
				}
			}
			if next == nil {
				if len(st.Deadlines) == 0 {
					tb.Fatalf("seed %d step %d: nobody acts", seed, step)
				}
				next = &sdk.Action{Seat: sdk.Clock, Type: sdk.ActDeadline, Deadline: st.Deadlines[0].ID}
			}
			res, err := r.Apply(ctx, sdk.ApplyRequest[S]{State: s, Action: *next, Now: int64(step) * 500})
			if err != nil {
				tb.Fatalf("seed %d step %d: %+v refused: %v", seed, step, *next, err)
			}
			s = res.State
		}
	}
	return n
}

// ask is the bot of level's choice for seat in s, with the RNG seeded by seed.
func ask[S any](ctx context.Context, r Ruleset[S], s S, seat, level int, seed uint64) (*sdk.Action, error) {
	rng := sdk.NewRNG(seed)
	a, err := r.Bot(ctx, sdk.BotRequest{Seat: seat, Level: level, View: r.View(s, seat), History: r.History(s, seat), RNG: &rng})
	if a != nil {
		a.Seat = seat
	}
	return a, err
}

// InformationSet checks L-11 for every level of cfg.Levels at the decisions of cfg's games (one
// in cfg.Every): with the same seed, the bot chooses the same action in the real state and in the
// state redealt for its seat (every card it cannot see moved), and the action is accepted. It
// returns the number of checks made per level.
func InformationSet[S any](t *testing.T, r Ruleset[S], cfg Config) int {
	t.Helper()
	ctx := cfg.Context()
	every := max(cfg.Every, 1)
	checked := map[uint64]int{}
	i := 0
	Games(t, r, cfg, func(d Decision[S]) {
		i++
		if i%every != 0 || cfg.Max > 0 && checked[d.Seed] >= cfg.Max {
			return
		}
		checked[d.Seed]++
		redealRNG := sdk.NewRNG(d.Seed ^ uint64(d.Step)<<20 ^ uint64(d.Seat))
		other := r.Redeal(d.State, d.Seat, &redealRNG)
		for _, level := range cfg.Levels {
			seed := d.Seed*31 + uint64(d.Step)
			a, err := ask(ctx, r, d.State, d.Seat, level, seed)
			if err != nil {
				t.Fatalf("seed %d step %d: level %d bot of seat %d: %v", d.Seed, d.Step, level, d.Seat, err)
			}
			b, err := ask(ctx, r, other, d.Seat, level, seed)
			if err != nil {
				t.Fatalf("seed %d step %d: level %d bot of seat %d, redealt: %v", d.Seed, d.Step, level, d.Seat, err)
			}
			if fmt.Sprintf("%+v", describe(a)) != fmt.Sprintf("%+v", describe(b)) {
				t.Fatalf("seed %d step %d: the level %d bot of seat %d chose %s, and %s once the cards it cannot see were dealt again",
					d.Seed, d.Step, level, d.Seat, describe(a), describe(b))
			}
			if a != nil {
				if _, err := r.Apply(ctx, sdk.ApplyRequest[S]{State: d.State, Action: *a, Now: int64(d.Step) * 500}); err != nil {
					t.Fatalf("seed %d step %d: the level %d bot of seat %d chose %s, which is refused: %v", d.Seed, d.Step, level, d.Seat, describe(a), err)
				}
			}
		}
	})
	total := 0
	for _, n := range checked {
		total += n
	}
	return total
}

// describe spells an action out (nil: "nothing").
func describe(a *sdk.Action) string {
	if a == nil {
		return "nothing"
	}
	return search.Key(*a)
}

// SearchPlays checks a ruleset's search support at the decisions of cfg's games where the seat
// asked is the one deciding (one in cfg.Every): a search of cfg (scaled budget, no clock) runs
// without error (every move its Moves and Rollout made in the sampled worlds was accepted) and
// chooses an action the real state accepts. It returns the number of searches run and the
// simulated actions they applied.
func SearchPlays[S any](t *testing.T, r Ruleset[S], cfg Config, sc search.Config) (searches, plies int) {
	t.Helper()
	ctx := cfg.Context()
	every := max(cfg.Every, 1)
	mover, ok := any(r).(sdk.Mover[S])
	if !ok || !search.Searchable[S](r) {
		t.Fatalf("%s implements neither sdk.Sampler nor sdk.Mover", r.Info().Name)
	}
	i := 0
	Games(t, r, cfg, func(d Decision[S]) {
		if mover.Decider(d.State) != d.Seat {
			return
		}
		i++
		if i%every != 0 {
			return
		}
		rng := sdk.NewRNG(d.Seed + uint64(d.Step))
		res, err := search.Search[S](ctx, r, sdk.BotRequest{Seat: d.Seat, View: r.View(d.State, d.Seat), History: r.History(d.State, d.Seat), RNG: &rng}, sc)
		if err != nil {
			t.Fatalf("seed %d step %d: search for seat %d: %v", d.Seed, d.Step, d.Seat, err)
		}
		if _, err := r.Apply(ctx, sdk.ApplyRequest[S]{State: d.State, Action: res.Action}); err != nil {
			t.Fatalf("seed %d step %d: the search chose %s, which is refused: %v", d.Seed, d.Step, search.Key(res.Action), err)
		}
		searches++
		plies += res.Plies
	})
	return searches, plies
}

// BenchmarkSearch times one search of cfg (the clock off) from the first decision of a game of
// seats on the ruleset's options opts (seed 3), and reports the simulated actions per second and
// per search: every ruleset's BenchmarkSearch is this one line.
func BenchmarkSearch[S any](b *testing.B, r sdk.Ruleset[S], seats int, opts map[string]any, cfg search.Config) {
	o, err := sdk.CheckOptions(r.Info(), r, seats, opts)
	if err != nil {
		b.Fatal(err)
	}
	s, err := r.Start(context.Background(), sdk.StartRequest{Seats: seats, Options: o, Seed: 3, RNG: sdk.NewRNG(3)})
	if err != nil {
		b.Fatal(err)
	}
	hist, _ := r.(sdk.Historian[S])
	ctx := search.WithOverride(context.Background(), search.Override{NoClock: true})
	seat := r.Status(s).Actors[0]
	var history []sdk.Event
	if hist != nil {
		history = hist.History(s, seat)
	}
	plies := 0
	for i := 0; b.Loop(); i++ {
		rng := sdk.NewRNG(uint64(i))
		res, err := search.Search(ctx, r, sdk.BotRequest{Seat: seat, Level: 5, View: r.View(s, seat), History: history, RNG: &rng}, cfg)
		if err != nil {
			b.Fatal(err)
		}
		plies += res.Plies
	}
	b.ReportMetric(float64(plies)/b.Elapsed().Seconds(), "plies/s")
	b.ReportMetric(float64(plies)/float64(b.N), "plies/op")
}

// Case is one setting a variant's bots are checked in: a name for its subtest, seats and options.
type Case struct {
	Name    string
	Seats   int
	Options map[string]any
}

// EveryLevelSeesOnlyItsView is a variant's TestEveryLevelSeesOnlyItsView (L-11): for each case, in
// a parallel subtest, InformationSet for levels 1 to 5 at one decision in every of two whole games
// (seeds 1 and 2), at most 10 per game, the search budgets at a twentieth and the clock off; a
// case that checks fewer than 16 decisions fails.
func EveryLevelSeesOnlyItsView[S any](t *testing.T, r Ruleset[S], every int, cases ...Case) {
	t.Helper()
	t.Parallel()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			n := InformationSet(t, r, Config{
				Seats: c.Seats, Options: c.Options, Seeds: []uint64{1, 2}, Levels: []int{1, 2, 3, 4, 5},
				Every: every, Max: 10, Scale: 0.05,
			})
			if n < 16 {
				t.Errorf("only %d decisions checked", n)
			}
		})
	}
}

// SearchPlaysLegally is a variant's TestSearchPlaysLegally: SearchPlays with the flat and the tree
// search of iterations playouts at one decision in every of a whole game of c (seed 5), each at
// least five searches that simulated something.
func SearchPlaysLegally[S any](t *testing.T, r Ruleset[S], c Case, every, iterations int) {
	t.Helper()
	t.Parallel()
	for _, sc := range []search.Config{{Iterations: iterations}, {Iterations: iterations, Tree: true}} {
		n, plies := SearchPlays(t, r, Config{Seats: c.Seats, Options: c.Options, Seeds: []uint64{5}, Every: every, Scale: 1}, sc)
		if n < 5 || plies == 0 {
			t.Errorf("tree %v: only %d searches (%d simulated actions)", sc.Tree, n, plies)
		}
	}
}
