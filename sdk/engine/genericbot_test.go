package engine

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"cardhouse/sdk"

	"github.com/google/go-cmp/cmp"
)

func TestLevelsAndWhoPlays(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		declared []int
		bots     bool
		want     []int
		// own lists the levels the ruleset's bot plays; the others of want are the generic bot's.
		own []int
	}{
		{name: "no bots", want: []int{1}},
		{name: "levels declared but no bots", declared: []int{1, 2, 3}, want: []int{1}},
		{name: "bots that name no level", bots: true, want: []int{1}, own: []int{1}},
		{name: "bots of every level", declared: []int{1, 2, 3, 4, 5}, bots: true, want: []int{1, 2, 3, 4, 5}, own: []int{1, 2, 3, 4, 5}},
		{name: "bots without level 1", declared: []int{3, 2}, bots: true, want: []int{1, 2, 3}, own: []int{2, 3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			info := sdk.Info{Name: "Plain", BotLevels: c.declared}
			if diff := cmp.Diff(c.want, Levels(info, c.bots)); diff != "" {
				t.Errorf("Levels (-want +got):\n%s", diff)
			}
			for level := range 7 {
				own, err := WhoPlays(info, c.bots, level)
				if !slices.Contains(c.want, level) {
					re, ok := sdk.AsRefusal(err)
					if !ok || re.Code != sdk.CodeNotAvailable || !strings.Contains(re.Reason, "Plain has no bot of level") {
						t.Errorf("level %d: err = %v, want a refusal", level, err)
					}
					continue
				}
				if err != nil || own != slices.Contains(c.own, level) {
					t.Errorf("level %d: own %v, err %v; want own %v", level, own, err, slices.Contains(c.own, level))
				}
			}
		})
	}
}

func meld(n int) *int { return &n }

// genericView offers one action of each kind the generic bot fills.
func genericView(spec sdk.ActionSpec) sdk.View {
	return sdk.View{
		Zones: []sdk.Zone{
			{ID: "hand.0", Kind: sdk.ZoneHand, Owner: 0, Cards: sdk.MustParseCards("AS 2S 3S 4S 5S")},
			{ID: "meld.1.0", Kind: sdk.ZoneMeld, Owner: 1, Meld: meld(0), Cards: sdk.MustParseCards("7H 8H 9H")},
			{ID: "meld.1.1", Kind: sdk.ZoneMeld, Owner: 1, Meld: meld(1), Cards: sdk.MustParseCards("KC KD KH")},
		},
		Actions: []sdk.ActionSpec{spec},
	}
}

// TestGenericMoveFillsEachKindOfAction: every candidate it tries is one the action offers.
func TestGenericMoveFillsEachKindOfAction(t *testing.T) {
	t.Parallel()
	hand := sdk.MustParseCards("AS 2S 3S 4S 5S")
	cases := []struct {
		name  string
		spec  sdk.ActionSpec
		check func(a sdk.Action) string
	}{
		{"bare", sdk.ActionSpec{Type: sdk.ActDraw, From: sdk.FromStock}, func(a sdk.Action) string {
			if a.From != sdk.FromStock || a.Cards != nil || a.Args != nil || a.Target != nil || a.Index != nil {
				return "a bare draw from the stock"
			}
			return ""
		}},
		{"one card", sdk.ActionSpec{Type: sdk.ActDiscard, Cards: hand}, func(a sdk.Action) string {
			if len(a.Cards) != 1 || !slices.Contains(hand, a.Cards[0]) {
				return "one card of the hand"
			}
			return ""
		}},
		{"exactly three", sdk.ActionSpec{Type: sdk.ActPassCards, Cards: hand, Count: 3}, func(a sdk.Action) string {
			c := slices.Clone(a.Cards)
			slices.Sort(c)
			if len(c) != 3 || len(slices.Compact(c)) != 3 {
				return "three different cards"
			}
			return ""
		}},
		{"multi", sdk.ActionSpec{Type: sdk.ActPlay, Cards: hand, Multi: true}, func(a sdk.Action) string {
			if len(a.Cards) < 1 || len(a.Cards) > 3 {
				return "one to three cards"
			}
			return ""
		}},
		{"choice", sdk.ActionSpec{Type: sdk.ActBid, Choices: []string{"nil", "1", "2"}}, func(a sdk.Action) string {
			if !slices.Contains([]string{"nil", "1", "2"}, a.Args["choice"]) || len(a.Args) != 1 {
				return `Args["choice"] among the choices`
			}
			return ""
		}},
		{"choice for some cards", sdk.ActionSpec{Type: sdk.ActPlay, Cards: hand, Choices: []string{"H", "D"}, ChoiceFor: hand[:1]}, func(a sdk.Action) string {
			if (a.Cards[0] == hand[0]) != (a.Args["choice"] != "") {
				return "a choice with the card that needs one only"
			}
			return ""
		}},
		{"zones", sdk.ActionSpec{Type: sdk.ActLayoff, Cards: hand, Zones: []string{"meld.1.0", "meld.1.1"}}, func(a sdk.Action) string {
			if a.Target == nil || *a.Target != 1 || a.Index == nil || (*a.Index != 0 && *a.Index != 1) {
				return "target 1 and a meld's index"
			}
			return ""
		}},
		{"targets and indexes", sdk.ActionSpec{Type: sdk.ActFlip, Targets: []int{2, 3}, Indexes: []int{4}}, func(a sdk.Action) string {
			if a.Target == nil || (*a.Target != 2 && *a.Target != 3) || a.Index == nil || *a.Index != 4 {
				return "a target among 2 and 3 and index 4"
			}
			return ""
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for seed := range uint64(30) {
				rng := sdk.NewRNG(seed)
				var tried []sdk.Action
				refuse := seed%2 == 0 // half the time every random candidate is refused
				a, err := GenericMove(genericView(c.spec), 0, &rng, func(a sdk.Action) (bool, error) {
					tried = append(tried, a)
					return !refuse || len(tried) > GenericTries, nil
				})
				if err != nil || a == nil {
					t.Fatalf("seed %d: %v, %v", seed, a, err)
				}
				for _, a := range tried {
					if a.Seat != 0 || a.Type != c.spec.Type {
						t.Errorf("seed %d: tried %+v, want seat 0's %s", seed, a, c.spec.Type)
					}
					if want := c.check(a); want != "" {
						t.Errorf("seed %d: tried %+v, want %s", seed, a, want)
					}
				}
			}
		})
	}
}

// TestGenericMoveIsBounded: a ruleset that refuses everything is tried GenericTries random
// candidates and then the simplest ones, at most GenericFallbacks, and the bot answers the
// simplest; an error of try ends the search.
func TestGenericMoveIsBounded(t *testing.T) {
	t.Parallel()
	v := sdk.View{Actions: []sdk.ActionSpec{{Type: sdk.ActPlay, Cards: sdk.FrenchDeck(2, 0)}, {Type: sdk.ActPass}}}
	rng := sdk.NewRNG(1)
	n := 0
	a, err := GenericMove(v, 2, &rng, func(sdk.Action) (bool, error) { n++; return false, nil })
	if err != nil {
		t.Fatal(err)
	}
	if want := GenericTries + GenericFallbacks; n != want {
		t.Errorf("tried %d candidates, want %d", n, want)
	}
	if diff := cmp.Diff(&sdk.Action{Seat: 2, Type: sdk.ActPass}, a); diff != "" {
		t.Errorf("answer, the simplest action (-want +got):\n%s", diff)
	}

	boom := errors.New("boom")
	if _, err := GenericMove(v, 2, &rng, func(sdk.Action) (bool, error) { return false, boom }); !errors.Is(err, boom) {
		t.Errorf("err = %v, want boom", err)
	}
	if a, err := GenericMove(sdk.View{}, 0, &rng, nil); a != nil || err != nil {
		t.Errorf("no open action: %v, %v; want nil, nil", a, err)
	}
}

func TestGenericSimplest(t *testing.T) {
	t.Parallel()
	v := genericView(sdk.ActionSpec{Type: sdk.ActLayoff, Cards: sdk.MustParseCards("AS 2S"), Zones: []string{"meld.1.1", "gone"}})
	v.Actions = append(v.Actions,
		sdk.ActionSpec{Type: sdk.ActPassCards, Cards: sdk.MustParseCards("AS 2S 3S"), Count: 2},
		sdk.ActionSpec{Type: sdk.ActPassCards, Cards: sdk.MustParseCards("AS"), Count: 2},
		sdk.ActionSpec{Type: sdk.ActBid, Choices: []string{"1", "2"}},
		sdk.ActionSpec{Type: sdk.ActDraw, From: sdk.FromDiscard})
	one := 1
	want := []sdk.Action{
		{Seat: 0, Type: sdk.ActDraw, From: sdk.FromDiscard},
		{Seat: 0, Type: sdk.ActLayoff, Cards: sdk.MustParseCards("AS"), Target: &one, Index: &one},
		{Seat: 0, Type: sdk.ActLayoff, Cards: sdk.MustParseCards("2S"), Target: &one, Index: &one},
		{Seat: 0, Type: sdk.ActPassCards, Cards: sdk.MustParseCards("AS 2S")},
		{Seat: 0, Type: sdk.ActBid, Args: map[string]string{"choice": "1"}},
	}
	if diff := cmp.Diff(want, GenericSimplest(v, 0)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestEngineGenericBot: an engine of a ruleset without bots answers level 1 with an action its
// Act accepts, the same for the same seed.
func TestEngineGenericBot(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e, st := newTiny(t)
	d, err := e.Describe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{1}, d.BotLevels); diff != "" {
		t.Errorf("BotLevels (-want +got):\n%s", diff)
	}
	for seed := range uint64(10) {
		ans, err := e.Bot(ctx, &BotCall{State: st.State, Seat: 0, Level: 1, Seed: seed})
		if err != nil || ans.Action == nil {
			t.Fatalf("seed %d: %v, %v", seed, ans, err)
		}
		again, _ := e.Bot(ctx, &BotCall{State: st.State, Seat: 0, Level: 1, Seed: seed})
		if diff := cmp.Diff(ans, again); diff != "" {
			t.Errorf("seed %d: the same call chose otherwise (-first +second):\n%s", seed, diff)
		}
		if _, err := e.Act(ctx, &ActRequest{State: st.State, Action: *ans.Action, NoViews: true}); err != nil {
			t.Errorf("seed %d: %+v refused: %v", seed, *ans.Action, err)
		}
	}
	ans, err := e.Bot(ctx, &BotCall{State: st.State, Seat: 1, Level: 1})
	if err != nil || ans.Action != nil {
		t.Errorf("seat not in turn: %v, %v; want no action", ans, err)
	}
}

// tinyBots is tiny with a bot of its own.
type tinyBots struct{ tiny }

func (tinyBots) Bot(context.Context, sdk.BotRequest) (*sdk.Action, error) { return nil, nil }

func TestViewBots(t *testing.T) {
	t.Parallel()
	if _, ok := ViewBots(New[*tinyState](tiny{})); ok {
		t.Error("tiny has no bot of its own, ViewBots found one")
	}
	if b, ok := ViewBots(New[*tinyState](tinyBots{})); !ok || b == nil {
		t.Error("tinyBots has a bot of its own, ViewBots found none")
	}
}
