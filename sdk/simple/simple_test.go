package simple_test

import (
	"context"
	"errors"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/rulesettest"
	"cardhouse/sdk/simple"
)

// tally is a small game exercising the parts Go Fish does not: a pile, several cards in one move,
// a choice, a move open to every seat at any time, and Data.
type tally struct {
	Calls int `json:"calls"`
}

var tallyGame = simple.Game[tally]{
	ID: "tally", Name: "Tally", MinSeats: 2, MaxSeats: 3,
	HandSize: func(int) int { return 3 },
	Moves: []simple.Move[tally]{
		{Type: sdk.ActPlay, Label: "Play", Multi: true,
			Cards: func(s *simple.State[tally], seat int) []sdk.Card { return s.Hands[seat] },
			Do: func(s *simple.State[tally], a sdk.Action) error {
				if len(a.Cards) > 2 {
					return sdk.Refuse("too_many", "play at most two cards")
				}
				s.Discard(a.Seat, a.Cards)
				return nil
			}},
		{Type: sdk.ActBid, Label: "Bid", Choices: func(*simple.State[tally], int) []string { return []string{"low", "high"} },
			Do: func(s *simple.State[tally], a sdk.Action) error { s.GoAgain(); return nil }},
		{Type: sdk.ActCall, Label: "Call", Who: func(s *simple.State[tally], seat int) bool { return s.Data.Calls < 2 },
			Do: func(s *simple.State[tally], a sdk.Action) error { s.Data.Calls++; return nil }},
	},
	End: func(s *simple.State[tally]) (bool, int) {
		for seat, h := range s.Hands {
			if len(h) == 0 {
				return true, seat
			}
		}
		return false, sdk.NoSeat
	},
}

func start(t *testing.T) (*simple.Ruleset[tally], simple.State[tally]) {
	t.Helper()
	r := simple.New(tallyGame)
	first := 0
	s, err := r.Start(context.Background(), sdk.StartRequest{Seats: 2, RNG: sdk.NewRNG(1), Deal: &sdk.Deal{
		Hands: [][]sdk.Card{sdk.MustParseCards("2C 3C 4C"), sdk.MustParseCards("2H 3H 4H")}, First: &first}})
	if err != nil {
		t.Fatal(err)
	}
	return r, s
}

// TestApplyRefuses: every action outside what the open moves offer is refused with its code, and
// the state given is left as it was.
func TestApplyRefuses(t *testing.T) {
	t.Parallel()
	one := 1
	for _, c := range []struct {
		name string
		a    sdk.Action
		code string
	}{
		{"no such move", sdk.Action{Seat: 0, Type: "swap"}, sdk.CodeBadAction},
		{"not in turn", sdk.Action{Seat: 1, Type: sdk.ActPlay, Cards: sdk.MustParseCards("2H")}, sdk.CodeNotYourTurn},
		{"no card", sdk.Action{Seat: 0, Type: sdk.ActPlay}, sdk.CodeBadAction},
		{"not held", sdk.Action{Seat: 0, Type: sdk.ActPlay, Cards: sdk.MustParseCards("2H")}, sdk.CodeNotHeld},
		{"the move's own refusal", sdk.Action{Seat: 0, Type: sdk.ActPlay, Cards: sdk.MustParseCards("2C 3C 4C")}, "too_many"},
		{"a target where none is taken", sdk.Action{Seat: 0, Type: sdk.ActPlay, Cards: sdk.MustParseCards("2C"), Target: &one}, sdk.CodeBadAction},
		{"cards where none are taken", sdk.Action{Seat: 0, Type: sdk.ActCall, Cards: sdk.MustParseCards("2C")}, sdk.CodeBadAction},
		{"no choice", sdk.Action{Seat: 0, Type: sdk.ActBid}, sdk.CodeBadAction},
		{"a choice not offered", sdk.Action{Seat: 0, Type: sdk.ActBid, Args: map[string]string{"choice": "mid"}}, sdk.CodeBadAction},
		{"a deal while playing", sdk.Action{Seat: sdk.Host, Type: sdk.ActDeal}, sdk.CodeBadAction},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r, s := start(t)
			_, err := r.Apply(context.Background(), sdk.ApplyRequest[simple.State[tally]]{State: s, Action: c.a})
			re, ok := sdk.AsRefusal(err)
			if !ok || !errors.Is(err, sdk.ErrIllegal) || re.Code != c.code {
				t.Fatalf("Apply(%+v) = %v, want a refusal %q", c.a, err, c.code)
			}
		})
	}
}

// TestTurnOrder: a move passes the turn on, GoAgain keeps it, a move open to every seat leaves it
// where it was, and Data is the game's own; the game ends when End says so, and the host deals the next.
func TestTurnOrder(t *testing.T) {
	t.Parallel()
	r, s := start(t)
	ctx := context.Background()
	step := func(a sdk.Action) {
		t.Helper()
		res, err := r.Apply(ctx, sdk.ApplyRequest[simple.State[tally]]{State: s, Action: a})
		if err != nil {
			t.Fatalf("Apply(%+v): %v", a, err)
		}
		s = res.State
	}
	if got := r.Status(s).Actors; len(got) != 2 || got[0] != 0 {
		t.Fatalf("actors %v, want [0 1] (the call is open to both)", got)
	}
	step(sdk.Action{Seat: 0, Type: sdk.ActBid, Args: map[string]string{"choice": "high"}})
	if s.Turn != 0 {
		t.Fatalf("after a bid (GoAgain) the turn is %d, want 0", s.Turn)
	}
	step(sdk.Action{Seat: 1, Type: sdk.ActCall})
	if s.Turn != 0 || s.Data.Calls != 1 {
		t.Fatalf("after seat 1's call: turn %d, calls %d, want 0 and 1", s.Turn, s.Data.Calls)
	}
	step(sdk.Action{Seat: 0, Type: sdk.ActPlay, Cards: sdk.MustParseCards("2C 3C")})
	if s.Turn != 1 || r.Observe(s)["top"] != "3C" {
		t.Fatalf("after a play: turn %d, top %v, want 1 and 3C", s.Turn, r.Observe(s)["top"])
	}
	step(sdk.Action{Seat: 1, Type: sdk.ActPlay, Cards: sdk.MustParseCards("2H")})
	step(sdk.Action{Seat: 0, Type: sdk.ActPlay, Cards: sdk.MustParseCards("4C")})
	if s.Phase != sdk.PhaseGameOver || s.Winner != 0 || s.Turn != sdk.NoSeat {
		t.Fatalf("phase %s, winner %d, turn %d, want game_over, 0, none", s.Phase, s.Winner, s.Turn)
	}
	step(sdk.Action{Seat: sdk.Host, Type: sdk.ActDeal})
	if s.Phase != sdk.PhasePlaying || s.Turn != 1 || s.Data.Calls != 0 || len(s.Hands[0]) != 3 {
		t.Fatalf("the rematch: phase %s, turn %d, calls %d, hand %v", s.Phase, s.Turn, s.Data.Calls, s.Hands[0])
	}
}

// TestNewPanicsOnAnIncompleteGame: a game without moves or an end is a programming error.
func TestNewPanicsOnAnIncompleteGame(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Error("New accepted a game without an End")
		}
	}()
	g := tallyGame
	g.End = nil
	simple.New(g)
}

// TestTallyConformance runs the conformance kit on the small game: its pile, Data and a move open
// to every seat go through the same checks as Go Fish.
func TestTallyConformance(t *testing.T) {
	t.Parallel()
	rulesettest.Run(t, simple.New(tallyGame), rulesettest.Config{})
}
