package engine

import (
	"testing"

	"cardhouse/sdk"

	"github.com/google/go-cmp/cmp"
)

// TestCandidatesFollowTheSpecs: the actions a bot falls back on when a house rule refuses its own
// come from what the view's specs declare, for any ruleset: each card, with each choice where the
// card needs one; exactly Count cards; each target and index; each choice of a choice-only action.
func TestCandidatesFollowTheSpecs(t *testing.T) {
	cards := func(codes ...string) []sdk.Card {
		cs, err := sdk.ParseCards(codes)
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	two, three := 2, 3
	v := sdk.View{Actions: []sdk.ActionSpec{
		{Type: "play", Cards: cards("5H", "8S"), Choices: []string{"H", "S"}, ChoiceFor: cards("8S")},
		{Type: "pass", Cards: cards("2C", "3C", "4C", "5C"), Count: 3},
		{Type: "bid", Choices: []string{"nil", "1"}},
		{Type: "gift", Targets: []int{2}},
		{Type: "lay", Indexes: []int{3}},
		{Type: "draw"},
	}}
	got := candidates(v, 1)
	want := []sdk.Action{
		{Seat: 1, Type: "play", Cards: cards("5H")},
		sdk.Action{Seat: 1, Type: "play", Cards: cards("8S")}.WithChoice("H"),
		sdk.Action{Seat: 1, Type: "play", Cards: cards("8S")}.WithChoice("S"),
		{Seat: 1, Type: "pass", Cards: cards("2C", "3C", "4C")},
		sdk.Action{Seat: 1, Type: "bid"}.WithChoice("nil"),
		sdk.Action{Seat: 1, Type: "bid"}.WithChoice("1"),
		{Seat: 1, Type: "gift", Target: &two},
		{Seat: 1, Type: "lay", Index: &three},
		{Seat: 1, Type: "draw"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("candidates -want +got:\n%s", diff)
	}
}
