package lastcard_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"cardhouse/rulesets/lastcard"
	"cardhouse/sdk"
)

// ask asks the bot of level for seat's action, from what the seat may know only.
func ask(t *testing.T, r *lastcard.Rules, s *lastcard.State, seat, level int, seed uint64) *sdk.Action {
	t.Helper()
	rng := sdk.NewRNG(seed)
	a, err := r.Bot(ctx, sdk.BotRequest{Seat: seat, Level: level, View: r.View(s, seat), History: r.History(s, seat), RNG: &rng})
	if err != nil {
		t.Fatalf("bot %d for seat %d: %v", level, seat, err)
	}
	return a
}

// game plays one game in-process, levels[i] choosing for seat i, and calls each with every state
// before a decision. It returns the final state. Every bot action must be accepted; the seat in
// turn must always act; a seat not in turn acts only where Status names it an actor.
func game(t *testing.T, seats int, opts map[string]any, seed uint64, levels []int, each func(s *lastcard.State)) *lastcard.State {
	t.Helper()
	r := lastcard.New()
	o, err := sdk.CheckOptions(r.Info(), r, seats, opts)
	if err != nil {
		t.Fatal(err)
	}
	s, err := r.Start(ctx, sdk.StartRequest{Seats: seats, Options: o, Seed: seed, RNG: sdk.NewRNG(seed)})
	if err != nil {
		t.Fatal(err)
	}
	for step := 0; s.Phase != sdk.PhaseGameOver; step++ {
		if step > 20000 {
			t.Fatalf("seed %d: no game over after %d steps", seed, step)
		}
		if s.Phase == sdk.PhaseRoundOver {
			s, _ = act(t, s, sdk.Action{Seat: sdk.Host, Type: sdk.ActDeal})
			continue
		}
		if each != nil {
			each(s)
		}
		st := r.Status(s)
		acted := false
		// Out-of-turn actors first (a catch must come before the next player acts), then the turn.
		order := append(append([]int{}, st.Actors[1:]...), st.Actors[0])
		for _, seat := range order {
			a := ask(t, r, s, seat, levels[seat], seed*7919+uint64(step))
			if a == nil {
				if seat == st.Turn {
					t.Fatalf("seed %d step %d: the bot of seat %d in turn did nothing", seed, step, seat)
				}
				continue
			}
			s, _ = act(t, s, *a)
			acted = true
			break
		}
		if !acted {
			t.Fatalf("seed %d step %d: nobody acted", seed, step)
		}
	}
	return s
}

// TestBotsPlayLegally plays whole games at each level, seat counts and rule options: every action
// a bot returns is accepted (act fails the test otherwise) and every game ends.
func TestBotsPlayLegally(t *testing.T) {
	t.Parallel()
	for _, opts := range []map[string]any{
		{"target": "200"},
		{"target": "single", "last_card_mode": "auto", "stack_draw_two": false, "draw_four": "any_time"},
	} {
		for seats := 2; seats <= 4; seats++ {
			for _, levels := range [][]int{{1, 1, 1, 1}, {2, 2, 2, 2}, {1, 2, 1, 2}} {
				for seed := range uint64(3) {
					s := game(t, seats, opts, seed, levels, nil)
					if s.Winner == sdk.NoSeat {
						t.Errorf("seats %d seed %d: a game over without a winner", seats, seed)
					}
				}
			}
		}
	}
}

// TestBotsSeeOnlyTheirView checks L-11: a bot chooses the same whatever the cards its seat cannot
// see are (the state redealt with sdk.Redealer), at every decision of whole games.
func TestBotsSeeOnlyTheirView(t *testing.T) {
	t.Parallel()
	r := lastcard.New()
	checked := 0
	for seed := range uint64(4) {
		game(t, 3, map[string]any{"target": "single"}, seed, []int{1, 2, 2}, func(s *lastcard.State) {
			for seat := range 3 {
				for _, level := range []int{1, 2} {
					rng := sdk.NewRNG(seed + uint64(checked))
					other := r.Redeal(s, seat, &rng)
					a := ask(t, r, s, seat, level, 99)
					b := ask(t, r, other, seat, level, 99)
					if diff := cmp.Diff(a, b); diff != "" {
						t.Fatalf("seed %d: the level %d bot of seat %d chose differently once hidden cards moved:\n%s", seed, level, seat, diff)
					}
					checked++
				}
			}
		})
	}
	if checked < 500 {
		t.Errorf("only %d decisions checked", checked)
	}
}

// TestLevelTwoBeatsLevelOne plays single rounds, level 2 against level 1 with seats swapped every
// game: the simple rules must win clearly more than half.
func TestLevelTwoBeatsLevelOne(t *testing.T) {
	t.Parallel()
	const games = 120
	wins := 0
	for seed := range uint64(games) {
		levels := []int{2, 1}
		two := 0
		if seed%2 == 1 {
			levels, two = []int{1, 2}, 1
		}
		if s := game(t, 2, map[string]any{"target": "single"}, seed, levels, nil); s.Winner == two {
			wins++
		}
	}
	if wins*100 < games*75 {
		t.Errorf("level 2 won %d of %d single rounds against level 1, want at least 75%%", wins, games)
	}
	t.Logf("level 2 won %d of %d single rounds against level 1", wins, games)
}

// TestBotOutOfTurn checks that a bot not in turn does nothing unless it can catch someone out.
func TestBotOutOfTurn(t *testing.T) {
	t.Parallel()
	r := lastcard.New()
	s := start(t, table{pile: "R5", hands: []string{"R1 B2", "Y1 Y2", "G1 G2"}}, nil)
	for _, level := range []int{1, 2, 3, 4, 5} {
		if a := ask(t, r, s, 2, level, 1); a != nil {
			t.Errorf("level %d bot of seat 2, not in turn, chose %+v", level, a)
		}
	}
	s, _ = act(t, s, play(0, "R1")) // uncalled: seats 1 and 2 may catch
	a := ask(t, r, s, 2, 2, 1)
	if a == nil || a.Type != sdk.ActCatch || a.Target == nil || *a.Target != 0 {
		t.Errorf("level 2 bot of seat 2 chose %+v, want a catch of seat 0", a)
	}
	if _, err := r.Bot(ctx, sdk.BotRequest{Seat: 0, Level: 6, View: r.View(s, 0)}); err == nil {
		t.Error("a level 6 bot answered: Last Card has levels 1 to 5")
	}
}

// TestLevelThreeKeepsADrawnJoker checks level 3's saving of Jokers against level 2: with nothing
// to play, seat 0 draws a Joker; level 2 plays it at once, level 3 keeps it, unless the opponent
// holds two cards (then a Joker may be what stops them).
func TestLevelThreeKeepsADrawnJoker(t *testing.T) {
	t.Parallel()
	r := lastcard.New()
	for _, tc := range []struct {
		name     string
		opponent string
		level    int
		want     string
	}{
		{"level 2 plays it", "Y1 Y2 Y3 Y4", 2, sdk.ActPlay},
		{"level 3 keeps it", "Y1 Y2 Y3 Y4", 3, sdk.ActPass},
		{"level 3 plays it against two cards", "Y1 Y2", 3, sdk.ActPlay},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := start(t, table{pile: "R5", hands: []string{"B1 B2 G7", tc.opponent}, deck: "W G1 G2 G3"}, nil)
			s, _ = act(t, s, sdk.Action{Seat: 0, Type: sdk.ActDraw})
			a := ask(t, r, s, 0, tc.level, 1)
			if a == nil || a.Type != tc.want {
				t.Fatalf("the level %d bot chose %+v, want %s", tc.level, a, tc.want)
			}
		})
	}
}
