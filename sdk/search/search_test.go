package search_test

import (
	"context"
	"testing"
	"time"

	"cardhouse/sdk"
	"cardhouse/sdk/search"
)

// coin is a one-move game for testing the search: seat 0 names a coin and wins with that coin's
// chance, each coin tossed with its own draw of the state's RNG (so two coins' tosses in one
// sampled world are independent, the worst case for the paired test); seat 1 never moves.
type coin struct{ odds map[string]int } // per cent

type coinState struct {
	RNG    sdk.RNG
	Over   bool
	Winner int
}

var (
	_ sdk.Ruleset[*coinState] = coin{}
	_ sdk.Sampler[*coinState] = coin{}
	_ sdk.Mover[*coinState]   = coin{}
)

func (coin) Info() sdk.Info { return sdk.Info{ID: "coin", Name: "Coin", MinSeats: 2, MaxSeats: 2} }

func (coin) Start(_ context.Context, req sdk.StartRequest) (*coinState, error) {
	return &coinState{RNG: sdk.NewRNG(req.Seed), Winner: sdk.NoSeat}, nil
}

func (c coin) Apply(_ context.Context, req sdk.ApplyRequest[*coinState]) (sdk.ApplyResponse[*coinState], error) {
	s := *req.State
	s.RNG = req.State.RNG.Clone()
	odds, ok := c.odds[req.Action.Type]
	if !ok || s.Over || req.Action.Seat != 0 {
		return sdk.ApplyResponse[*coinState]{}, sdk.Refuse(sdk.CodeBadAction, "no such move")
	}
	s.Over, s.Winner = true, 1
	toss := s.RNG.Intn("coin", 100)
	if req.Action.Type == "b" {
		toss = s.RNG.Intn("coin", 100)
	}
	if toss < odds {
		s.Winner = 0
	}
	return sdk.ApplyResponse[*coinState]{State: &s}, nil
}

func (coin) View(s *coinState, _ int) sdk.View {
	v := sdk.View{Phase: sdk.PhasePlaying, Turn: 0, Players: []sdk.PlayerView{{Seat: 0}, {Seat: 1}}}
	if s.Over {
		v.Phase, v.Turn = sdk.PhaseGameOver, sdk.NoSeat
	}
	return v
}

func (coin) Status(s *coinState) sdk.Status {
	if s.Over {
		return sdk.Status{Phase: sdk.PhaseGameOver, Seats: 2, Turn: sdk.NoSeat, Winner: s.Winner}
	}
	return sdk.Status{Phase: sdk.PhasePlaying, Seats: 2, Turn: 0, Winner: sdk.NoSeat, Actors: []int{0}}
}

func (coin) Observe(*coinState) sdk.Observation { return nil }
func (coin) Cards(*coinState) []sdk.Card        { return nil }

func (coin) Sample(_ int, _ sdk.View, _ []sdk.Event, rng *sdk.RNG) (*coinState, error) {
	return &coinState{RNG: sdk.NewRNG(rng.Uint64()), Winner: sdk.NoSeat}, nil
}

func (coin) Decider(s *coinState) int {
	if s.Over {
		return sdk.NoSeat
	}
	return 0
}

func (c coin) Moves(s *coinState, seat int) []sdk.Action {
	if s.Over || seat != 0 {
		return nil
	}
	var out []sdk.Action
	for _, m := range []string{"a", "b", "c"} {
		if _, ok := c.odds[m]; ok {
			out = append(out, sdk.Action{Seat: 0, Type: m})
		}
	}
	return out
}

// TestDefaultKeptWithinNoise checks Config.Default: over many decisions the flat search keeps
// the default move against an equal one far more often than it switches (without a default it
// takes either about as often), takes a clearly better one, and keeps a default that is best.
func TestDefaultKeptWithinNoise(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	def := &sdk.Action{Seat: 0, Type: "a"}
	const decisions = 40
	for _, tc := range []struct {
		name string
		odds map[string]int
		def  *sdk.Action
		// want is the least number of decisions, of 40, that choose move a.
		wantA, wantAtMostA int
	}{
		{"equal moves: the default is kept", map[string]int{"a": 50, "b": 50}, def, 30, decisions},
		{"equal moves without a default: either", map[string]int{"a": 50, "b": 50}, nil, 10, 30},
		{"clearly better wins", map[string]int{"a": 20, "b": 90}, def, 0, 0},
		{"no default: best mean", map[string]int{"a": 20, "b": 90}, nil, 0, 0},
		{"a default that is best stays", map[string]int{"a": 90, "b": 20}, def, decisions, decisions},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := coin{odds: tc.odds}
			chooseA := 0
			for seed := range uint64(decisions) {
				rng := sdk.NewRNG(seed)
				s, _ := r.Start(ctx, sdk.StartRequest{Seed: seed})
				res, err := search.Search[*coinState](ctx, r, sdk.BotRequest{Seat: 0, View: r.View(s, 0), RNG: &rng},
					search.Config{Iterations: 60, Default: tc.def})
				if err != nil {
					t.Fatal(err)
				}
				if res.Iterations != 60 || len(res.Stats) != 2 || res.Stats[0].Visits != 30 || res.Stats[1].Visits != 30 {
					t.Fatalf("seed %d: %d iterations, stats %+v: want 60, each move played in each of 30 worlds", seed, res.Iterations, res.Stats)
				}
				if res.Action.Type == "a" {
					chooseA++
				}
				if res.Defaulted && (tc.def == nil || res.Action.Type != tc.def.Type) {
					t.Errorf("seed %d: Defaulted set with choice %s and default %v", seed, res.Action.Type, tc.def)
				}
			}
			if chooseA < tc.wantA || chooseA > tc.wantAtMostA {
				t.Errorf("chose move a in %d of %d decisions, want %d to %d", chooseA, decisions, tc.wantA, tc.wantAtMostA)
			}
		})
	}
}

// TestTimeBudgetStopsTheSearch checks that Config.Time ends a search whose node budget it could
// never reach (the budget that keeps a level 5 move under 300 ms), that the result is still a
// move the search weighed, and that search.WithOverride's NoClock switches the time budget off.
func TestTimeBudgetStopsTheSearch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := coin{odds: map[string]int{"a": 40, "b": 60}}
	s, _ := r.Start(ctx, sdk.StartRequest{Seed: 1})
	const huge = 1 << 40
	rng := sdk.NewRNG(1)
	res, err := search.Search[*coinState](ctx, r, sdk.BotRequest{Seat: 0, View: r.View(s, 0), RNG: &rng},
		search.Config{Iterations: huge, Time: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.Iterations <= 0 || res.Iterations >= huge {
		t.Fatalf("%d iterations: the time budget did not stop the search", res.Iterations)
	}
	if res.Action.Type != "a" && res.Action.Type != "b" {
		t.Errorf("chose %+v, not a move of the game", res.Action)
	}
	noClock := search.WithOverride(ctx, search.Override{NoClock: true})
	rng = sdk.NewRNG(1)
	res, err = search.Search[*coinState](noClock, r, sdk.BotRequest{Seat: 0, View: r.View(s, 0), RNG: &rng},
		search.Config{Iterations: 500, Time: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.Iterations != 500 {
		t.Errorf("with the clock off: %d iterations, want the node budget of 500", res.Iterations)
	}
}
