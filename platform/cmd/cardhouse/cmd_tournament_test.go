package main

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"
)

// TestWilson checks the interval against known values (Wilson 1927; e.g. 50 of 100 gives
// 40.38% to 59.62%).
func TestWilson(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		wins, n int
		lo, hi  float64
	}{
		{50, 100, 0.4038, 0.5962},
		{0, 10, 0, 0.2775},
		{10, 10, 0.7225, 1},
		{60, 100, 0.5020, 0.6906},
	} {
		lo, hi := wilson(tc.wins, tc.n)
		if math.Abs(lo-tc.lo) > 5e-4 || math.Abs(hi-tc.hi) > 5e-4 {
			t.Errorf("wilson(%d, %d) = [%.4f, %.4f], want [%.4f, %.4f]", tc.wins, tc.n, lo, hi, tc.lo, tc.hi)
		}
	}
}

// TestTournamentTallies plays a small in-process tournament and checks the tally: every game
// counted for both levels, wins and unfinished games adding up to the games played, and the
// seats rotating so that each level opens half the games.
func TestTournamentTallies(t *testing.T) {
	t.Parallel()
	cfg := tournamentConfig{Variant: "lastcard", Seats: 2, Levels: []int{2, 1}, Games: 8, Workers: 2,
		Options: map[string]any{"target": "single"}, Seed: 7, MaxSteps: 5000}
	res, err := runTournament(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	wins := res.Unfinished
	for _, l := range res.Levels {
		if l.Games != cfg.Games || l.Seats != 1 || l.Moves == 0 {
			t.Errorf("level %d: %d games, %d seats, %d moves; want %d games, 1 seat, some moves", l.Level, l.Games, l.Seats, l.Moves, cfg.Games)
		}
		wins += l.Wins
	}
	if wins != cfg.Games {
		t.Errorf("wins and unfinished games add up to %d, want %d", wins, cfg.Games)
	}
	if a, b := seatLevels(cfg, 0), seatLevels(cfg, 1); a[0] == b[0] {
		t.Errorf("seat 0 plays level %d in games 0 and 1: the seats do not rotate", a[0])
	}
	var out bytes.Buffer
	if err := res.print(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Last Card (lastcard), 2 seats, options [target=single], 8 games", "95% CI (WILSON)", "verdict:"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// TestTournamentRefusesBadInput checks that a bad variant, level, seat count or option is
// refused with an error naming it, before any game is played.
func TestTournamentRefusesBadInput(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"variant", []string{"--variant", "poker"}, `no built-in variant "poker"`},
		{"level", []string{"--levels", "9,1"}, "no bot of level 9"},
		{"level text", []string{"--levels", "x"}, `"x" is not a bot level`},
		{"seats", []string{"--seats", "9"}, "2 to 4 seats, got --seats 9"},
		{"option", []string{"--option", "target=999"}, "target"},
		{"option form", []string{"--option", "target"}, "want name=value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cmd := newTournamentCmd()
			cmd.SetArgs(append(tc.args, "--games", "1"))
			var out bytes.Buffer
			cmd.SetOut(&out)
			cmd.SetErr(&out)
			cmd.SilenceUsage = true
			err := cmd.Execute()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
