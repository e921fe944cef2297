package ginrummy

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"cardhouse/sdk"
)

func act(t *testing.T, s *State, a sdk.Action) *State {
	t.Helper()
	res, err := New().Apply(context.Background(), sdk.ApplyRequest[*State]{State: s, Action: a})
	if err != nil {
		t.Fatalf("%+v refused: %v", a, err)
	}
	return res.State
}

// TestGameBonusWithoutShutout is GR-9 when the loser has won a hand: the game bonus is 100, not
// doubled, and each player gets 25 per hand won; the sheet shows both bonus rows.
func TestGameBonusWithoutShutout(t *testing.T) {
	t.Parallel()
	r := New()
	first := 0
	s, err := r.Start(context.Background(), sdk.StartRequest{Seats: 2, Options: sdk.Options{"target": 40}, RNG: sdk.NewRNG(1), Deal: &sdk.Deal{
		Hands: [][]sdk.Card{sdk.MustParseCards("AS 2S 3S 7H 7D 7C 9C 10C JC KD"), sdk.MustParseCards("4S 5S 6S QH QS QD 8C 2D 5H 6H")},
		Pile:  sdk.MustParseCards("5D"), Deck: sdk.MustParseCards("QC"), First: &first,
	}})
	if err != nil {
		t.Fatal(err)
	}
	tab := r.Table(s)
	tab.Counters["score.1"], tab.Counters["hands_won.1"] = 30, 1
	if s, err = r.SetTable(s, tab); err != nil {
		t.Fatal(err)
	}
	s = act(t, s, sdk.Action{Seat: 0, Type: sdk.ActPass})
	s = act(t, s, sdk.Action{Seat: 1, Type: sdk.ActPass})
	s = act(t, s, sdk.Action{Seat: 0, Type: sdk.ActDraw, From: sdk.FromStock})
	s = act(t, s, sdk.Action{Seat: 0, Type: sdk.ActKnock, Cards: sdk.MustParseCards("KD")})
	// gin 25 + 21; game bonus 100; line bonus 25 each
	if diff := cmp.Diff([]int{46 + 100 + 25, 30 + 25}, s.Scores); diff != "" || s.Phase != sdk.PhaseGameOver || s.Winner != 0 {
		t.Fatalf("scores (-want +got):\n%s phase %s winner %d", diff, s.Phase, s.Winner)
	}
	v := r.View(s, sdk.Spectator)
	rows := v.Sheet.Rows
	if len(rows) != 3 || rows[1].Label != "Game bonus" || rows[1].Cells[0] != 100 || rows[1].Notes[0] != "" || rows[2].Cells[1] != 25 || rows[0].Notes[0] != "gin" {
		t.Errorf("sheet rows %+v", rows)
	}
}

// TestDrawByChoice is GRP-1: a generic client's draw names its pile as the action's choice.
func TestDrawByChoice(t *testing.T) {
	t.Parallel()
	r := New()
	s, err := r.Start(context.Background(), sdk.StartRequest{Seats: 2, Options: sdk.Options{}, RNG: sdk.NewRNG(3)})
	if err != nil {
		t.Fatal(err)
	}
	v := r.View(s, s.Turn)
	spec, ok := v.Action(sdk.ActDraw)
	if !ok || len(spec.Choices) != 1 || spec.Choices[0] != sdk.FromDiscard || len(spec.ChoiceLabels) != 1 {
		t.Fatalf("upcard offer's draw %+v", spec)
	}
	s = act(t, s, sdk.Action{Seat: s.Turn, Type: sdk.ActDraw, Args: map[string]string{"choice": "discard"}})
	if len(s.Hands[s.Turn]) != 11 || len(s.Pile) != 0 {
		t.Fatalf("after taking the upcard: hand %d cards, pile %d", len(s.Hands[s.Turn]), len(s.Pile))
	}
}
