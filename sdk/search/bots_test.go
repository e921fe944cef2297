package search_test

import (
	"context"
	"slices"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/search"

	"github.com/google/go-cmp/cmp"
)

// searchOnly is the coin game with nothing but the search's hooks (Sampler, Mover) and the
// search levels in one call: search.Bots with no heuristic, its levels search.BotLevels.
type searchOnly struct{ coin }

func (s searchOnly) Info() sdk.Info {
	info := s.coin.Info()
	info.BotLevels = search.BotLevels()
	return info
}

// View offers seat 0 its moves, for the engine's generic level-1 bot.
func (s searchOnly) View(st *coinState, viewer int) sdk.View {
	v := s.coin.View(st, viewer)
	if viewer == 0 && !st.Over {
		for _, m := range s.Moves(st, 0) {
			v.Actions = append(v.Actions, sdk.ActionSpec{Type: m.Type})
		}
	}
	return v
}

func (s searchOnly) Bot(ctx context.Context, req sdk.BotRequest) (*sdk.Action, error) {
	return search.Bots[*coinState](s, nil).Bot(ctx, req)
}

// heuristic is a bot that always names coin a, and remembers the levels it was asked at.
type heuristic struct{ levels *[]int }

func (h heuristic) Bot(_ context.Context, req sdk.BotRequest) (*sdk.Action, error) {
	*h.levels = append(*h.levels, req.Level)
	return &sdk.Action{Seat: req.Seat, Type: "a"}, nil
}

func TestBotsOffersTheSearchLevels(t *testing.T) {
	t.Parallel()
	ctx := search.WithOverride(context.Background(), search.Override{NoClock: true})
	r := coin{odds: map[string]int{"a": 50, "b": 50}}
	s, _ := r.Start(ctx, sdk.StartRequest{Seed: 1})
	req := func(level int) sdk.BotRequest {
		rng := sdk.NewRNG(uint64(level))
		return sdk.BotRequest{Seat: 0, Level: level, View: r.View(s, 0), RNG: &rng}
	}

	var asked []int
	withH := search.Bots[*coinState](r, sdk.BotFunc(heuristic{&asked}.Bot))
	for _, level := range []int{1, 2, 3, 4, 5} {
		a, err := withH.Bot(ctx, req(level))
		if err != nil || a == nil || a.Type != "a" {
			t.Errorf("level %d with a heuristic: %v, %v; want the heuristic's a (equal odds keep the default)", level, a, err)
		}
	}
	if diff := cmp.Diff([]int{1, 2, 2, 2, 2}, asked); diff != "" {
		t.Errorf("levels the heuristic was asked at (-want +got):\n%s", diff)
	}

	alone := search.Bots[*coinState](r, nil)
	if _, err := alone.Bot(ctx, req(2)); err == nil {
		t.Error("level 2 without a heuristic: no error, want a refusal")
	} else if re, ok := sdk.AsRefusal(err); !ok || re.Code != sdk.CodeNotAvailable {
		t.Errorf("level 2 without a heuristic: %v, want a refusal of code %s", err, sdk.CodeNotAvailable)
	}
	better := search.Bots[*coinState](coin{odds: map[string]int{"a": 10, "b": 90}}, nil)
	for _, level := range search.BotLevels() {
		a, err := better.Bot(ctx, req(level))
		if err != nil || a == nil || a.Type != "b" {
			t.Errorf("level %d without a heuristic: %v, %v; want the clearly better b", level, a, err)
		}
	}
}

// TestSearchOnlyRulesetThroughTheEngine: a ruleset with only the search's hooks offers levels 1
// (the engine's generic bot) and 3 to 5 (the search), each answering a move the ruleset accepts,
// and refuses level 2.
func TestSearchOnlyRulesetThroughTheEngine(t *testing.T) {
	t.Parallel()
	ctx := search.WithOverride(context.Background(), search.Override{NoClock: true})
	e := engine.New[*coinState](searchOnly{coin{odds: map[string]int{"a": 30, "b": 70}}})
	d, err := e.Describe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{1, 3, 4, 5}, d.BotLevels); diff != "" {
		t.Errorf("BotLevels (-want +got):\n%s", diff)
	}
	st, err := e.NewGame(ctx, &engine.NewGameRequest{Seats: 2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for level := range 7 {
		ans, err := e.Bot(ctx, &engine.BotCall{State: st.State, Seat: 0, Level: level, Seed: 9})
		if !slices.Contains(d.BotLevels, level) {
			if re, ok := sdk.AsRefusal(err); !ok || re.Code != sdk.CodeNotAvailable {
				t.Errorf("level %d: %v, %v; want a refusal", level, ans, err)
			}
			continue
		}
		if err != nil || ans.Action == nil {
			t.Fatalf("level %d: %v, %v", level, ans, err)
		}
		if _, err := e.Act(ctx, &engine.ActRequest{State: st.State, Action: *ans.Action, NoViews: true}); err != nil {
			t.Errorf("level %d chose %+v, refused: %v", level, *ans.Action, err)
		}
	}
}
