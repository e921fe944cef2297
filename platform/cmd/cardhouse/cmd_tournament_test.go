package main

import (
	"bytes"
	"context"
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
		if l.Slowest <= 0 || l.Slowest > l.Think || l.Slowest*time.Duration(l.Moves) < l.Think {
			t.Errorf("level %d: slowest move %v against %v for %d moves: not the slowest of them", l.Level, l.Slowest, l.Think, l.Moves)
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
	for _, want := range []string{"Last Card (lastcard), 2 seats, options [target=single], 8 games", "95% CI (WILSON)", "MAX MS", "verdict:"} {
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

// TestTournamentDuplicate checks --duplicate: each deal is played once per rotation of the levels
// (the same seed, the levels swapping seats), and the paired interval is over the deals.
func TestTournamentDuplicate(t *testing.T) {
	t.Parallel()
	cfg := tournamentConfig{Variant: "lastcard", Seats: 2, Levels: []int{2, 1}, Games: 8, Workers: 2,
		Options: map[string]any{"target": "single"}, Seed: 3, MaxSteps: 5000, Duplicate: true}
	for g, want := range []uint64{3, 3, 4, 4, 5, 5, 6, 6} {
		if got := gameSeed(cfg, g); got != want {
			t.Errorf("game %d: seed %d, want %d", g, got, want)
		}
	}
	if a, b := seatLevels(cfg, 0), seatLevels(cfg, 1); a[0] != b[1] || a[1] != b[0] {
		t.Errorf("a deal's two games seat the levels %v and %v: want them swapped", a, b)
	}
	res, err := runTournament(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	p := res.Paired
	if p == nil || p.Deals != 4 || p.Lo > p.Mean || p.Mean > p.Hi {
		t.Fatalf("paired result %+v, want 4 deals and an interval around the mean", p)
	}
	if want := float64(res.Levels[0].Wins) / float64(cfg.Games); math.Abs(p.Mean-want) > 1e-9 {
		t.Errorf("paired mean %.3f, want the first level's win rate %.3f (every deal has two games)", p.Mean, want)
	}
	var out bytes.Buffer
	if err := res.print(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "paired by deal: level 2 won") || !strings.Contains(out.String(), "duplicate deals") {
		t.Errorf("output lacks the paired line:\n%s", out.String())
	}
}

// TestPaired checks the paired interval on known shares: deals won 1, 0.5, 0.5 and 1 have mean
// 0.75 and standard error 0.144, so the interval is 0.75 +- 0.283.
func TestPaired(t *testing.T) {
	t.Parallel()
	var outcomes []gameOutcome
	for seed, wins := range []int{2, 1, 1, 2} {
		for g := range 2 {
			winner := 1
			if g < wins {
				winner = 0
			}
			outcomes = append(outcomes, gameOutcome{seed: uint64(seed), levels: []int{5, 1}, winner: winner})
		}
	}
	p := paired(5, outcomes)
	if p.Deals != 4 || math.Abs(p.Mean-0.75) > 1e-9 || math.Abs(p.Lo-(0.75-0.2829)) > 5e-4 || math.Abs(p.Hi-1) > 1e-9 {
		t.Errorf("paired = %+v, want 4 deals, mean 0.75, [0.467, 1]", p)
	}
}

// TestTournamentPluginsFolder checks that --plugins takes a folder, as serve and scenario do: a
// variant that only a plugin in the folder serves (the toy ruleset, built from
// sdk/rulesettest/testdata/toyplugin) is played through its process, while without the folder
// it is refused as no built-in variant.
func TestTournamentPluginsFolder(t *testing.T) {
	t.Parallel()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the toy plugin")
	}
	dir := t.TempDir()
	build := exec.Command(goBin, "build", "-o", filepath.Join(dir, "toy"), "../../../sdk/rulesettest/testdata/toyplugin")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the toy plugin: %v\n%s", err, out)
	}
	run := func(args ...string) (string, error) {
		cmd := newTournamentCmd()
		cmd.SetArgs(append([]string{"--variant", "toy", "--levels", "1", "--seats", "3", "--games", "6", "--workers", "2"}, args...))
		var out, errOut bytes.Buffer
		cmd.SetOut(&out)
		cmd.SetErr(&errOut)
		cmd.SilenceUsage, cmd.SilenceErrors = true, true
		err := cmd.Execute()
		return out.String(), err
	}
	if _, err := run(); err == nil || !strings.Contains(err.Error(), `no built-in variant "toy"`) || !strings.Contains(err.Error(), "--plugins DIR") {
		t.Errorf("without --plugins: %v, want no built-in variant \"toy\" and a pointer to --plugins DIR", err)
	}
	out, err := run("--plugins", dir)
	if err != nil {
		t.Fatalf("--plugins %s: %v", dir, err)
	}
	for _, want := range []string{"Toy (toy), 3 seats", "6 games", "plugins of " + dir, "unfinished games: 0;"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if _, err := run("--plugins", filepath.Join(dir, "missing")); err == nil || !strings.Contains(err.Error(), "discovering plugins") {
		t.Errorf("--plugins of a missing folder: %v, want a discovery error", err)
	}
}

// TestTournamentProcesses checks that what the yes/no --plugins switch did stays reachable as
// --processes: the built-in variant played through its plugin process.
func TestTournamentProcesses(t *testing.T) {
	t.Parallel()
	cfg := tournamentConfig{Variant: "lastcard", Seats: 2, Levels: []int{1}, Games: 2, Workers: 1,
		Options: map[string]any{"target": "single"}, Seed: 5, MaxSteps: 5000, Processes: true}
	res, err := runTournament(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := res.print(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "1 workers, plugins,") {
		t.Errorf("output does not say it played through the plugins:\n%s", out.String())
	}
	if res.Levels[0].Games != 2 || res.Levels[0].Moves == 0 {
		t.Errorf("level 1: %+v, want 2 games with moves", res.Levels[0])
	}
}
