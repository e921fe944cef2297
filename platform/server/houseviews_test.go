package server_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
)

// TestViewsFollowTheRulesInForce (issue 29, finding 5): in the real DRUGS plugin process, with the
// real play-lower rule (plugins/houserules/play-lower.lua: after a 9, a card of 9 or more other
// than a 10 is refused by its before_action), the seat to play on a 9 is no longer offered the
// King the rule refuses: the view's Play leaves it out (no card left: no Play at all), while the
// rule's own "Play lower" offers the 5s. Without the rule the same deal offers the King. The
// stored state reads back (Inspect) to the same views.
func TestViewsFollowTheRulesInForce(t *testing.T) {
	p, _ := variantPlugin(t, "drugs")
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	cards := func(codes ...string) []sdk.Card {
		cs, err := sdk.ParseCards(codes)
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	first := 0
	deal := &sdk.Deal{Pile: cards("6S"), Hands: [][]sdk.Card{cards("9C", "4C", "KD"), cards("KH", "5H", "5D")},
		FaceUp:   [][]sdk.Card{cards("2C", "3C", "5C"), cards("2D", "3D", "8H")},
		FaceDown: [][]sdk.Card{cards("7C", "8C", "9D"), cards("7S", "8S", "9S")}, Deck: cards("JH", "JD", "QC", "QS"), First: &first}
	seat1 := func(rules []sdk.HouseRule) (sdk.View, []byte, []sdk.HouseRule) {
		t.Helper()
		st, err := p.NewGame(ctx, &engine.NewGameRequest{Seats: 2, Seed: 3, Deal: deal, HouseRules: rules})
		if err != nil {
			t.Fatal(err)
		}
		next, err := p.Act(ctx, &engine.ActRequest{State: st.State, Action: sdk.Action{Seat: 0, Type: sdk.ActPlay, Cards: cards("9C")}})
		if err != nil {
			t.Fatal(err)
		}
		var v sdk.View
		if err := json.Unmarshal(next.Views[1], &v); err != nil {
			t.Fatal(err)
		}
		return v, next.State, rules
	}
	playable := func(v sdk.View, typ string) []string {
		sp, ok := v.Action(typ)
		if !ok {
			return nil
		}
		return sdk.CardStrings(sp.Cards)
	}

	plain, _, _ := seat1(nil)
	if got := playable(plain, sdk.ActPlay); !slices.Contains(got, "KH") {
		t.Fatalf("without the rule seat 1 may play %v on the 9, want the King among them", got)
	}

	rule := sdk.HouseRule{Name: "play-lower", Version: 1, Source: exampleRule(t, "play-lower.lua")}
	v, state, _ := seat1([]sdk.HouseRule{rule})
	if got := playable(v, sdk.ActPlay); slices.Contains(got, "KH") {
		t.Errorf("with play-lower seat 1 is offered %v to play on the 9: the rule refuses the King", got)
	}
	if got := playable(v, "play_lower"); !slices.Equal(got, []string{"5H", "5D"}) {
		t.Errorf("the rule's Play lower offers %v, want 5H 5D", got)
	}
	if !v.Has(sdk.ActPickup) {
		t.Errorf("seat 1 may no longer pick up the pile: %+v", v.Actions)
	}
	// The King is refused when played all the same: the view says what the rule does.
	if _, err := p.Act(ctx, &engine.ActRequest{State: state, Action: sdk.Action{Seat: 1, Type: sdk.ActPlay, Cards: cards("KH")}}); err == nil {
		t.Error("the King was accepted on the 9 under play-lower")
	}
	// The stored state gives the same view back.
	in, err := p.Inspect(ctx, &engine.InspectRequest{State: state, Views: true})
	if err != nil {
		t.Fatal(err)
	}
	var again sdk.View
	if err := json.Unmarshal(in.Views[1], &again); err != nil {
		t.Fatal(err)
	}
	if got := playable(again, sdk.ActPlay); slices.Contains(got, "KH") {
		t.Errorf("the stored game's view offers %v again", got)
	}
}
