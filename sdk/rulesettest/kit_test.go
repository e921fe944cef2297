package rulesettest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest/toy"

	"github.com/google/go-cmp/cmp"
)

// small keeps the kit's own runs short: two seat counts, one seed, short playouts.
var small = Config{Seats: []int{2, 3}, Seeds: 1, RandomSteps: 80, MaxSteps: 3000}

func TestRunAcceptsACorrectRuleset(t *testing.T) {
	t.Parallel()
	Run[toy.State](t, toy.Ruleset{}, Config{Options: []map[string]any{nil, {"hand_size": 2}}, Seeds: 2})
}

// TestRunAcceptsTheConfiguredToy: the toy as the server's tests configure it (three cards, a call
// window of call_seconds, off at 0, two bot levels) is as correct as the toy.
func TestRunAcceptsTheConfiguredToy(t *testing.T) {
	t.Parallel()
	r := toy.Ruleset{HandSize: 3, CallOption: true, BotLevels: []int{1, 2}}
	Run[toy.State](t, r, Config{Seats: []int{2, 3}, Options: []map[string]any{nil, {"call_seconds": 0}, {"call_seconds": 1}}, Seeds: 1})
}

func TestRunEngineAcceptsACorrectEngine(t *testing.T) {
	t.Parallel()
	RunEngine(t, engine.New[toy.State](toy.Ruleset{}), Config{})
}

// mutating changes its input's deck in place (the slices it shares with the caller).
type mutating struct{ toy.Ruleset }

func (m mutating) Apply(ctx context.Context, req sdk.ApplyRequest[toy.State]) (sdk.ApplyResponse[toy.State], error) {
	res, err := m.Ruleset.Apply(ctx, req)
	if d := req.State.Deck; err == nil && len(d) > 1 {
		d[0], d[len(d)-1] = d[len(d)-1], d[0]
	}
	return res, err
}

// viewAlias hands each seat its own hand slice in the view instead of a copy: a bot that sorts
// the view then reorders the state's hand.
type viewAlias struct{ toy.Ruleset }

func (a viewAlias) View(s toy.State, viewer int) sdk.View {
	v := a.Ruleset.View(s, viewer)
	for i := range v.Zones {
		if viewer >= 0 && v.Zones[i].ID == fmt.Sprintf("hand.%d", viewer) {
			v.Zones[i].Cards = s.Hands[viewer]
		}
	}
	return v
}

// spectatorLeak shows seat 0's hand to the spectators.
type spectatorLeak struct{ toy.Ruleset }

func (l spectatorLeak) View(s toy.State, viewer int) sdk.View {
	v := l.Ruleset.View(s, viewer)
	if viewer == sdk.Spectator {
		for i := range v.Zones {
			if v.Zones[i].ID == "hand.0" {
				v.Zones[i].Cards = slices.Clone(s.Hands[0])
			}
		}
	}
	return v
}

// deckPeek shows the deck's top card in an indicator: not structural, only a redeal finds it.
type deckPeek struct{ toy.Ruleset }

func (l deckPeek) View(s toy.State, viewer int) sdk.View {
	v := l.Ruleset.View(s, viewer)
	if len(s.Deck) > 0 {
		v.Indicators = append(v.Indicators, sdk.Indicator{ID: "next", Label: "Next", Value: s.Deck[0].String()})
	}
	return v
}

// losing drops the card it draws.
type losing struct{ toy.Ruleset }

func (l losing) Apply(ctx context.Context, req sdk.ApplyRequest[toy.State]) (sdk.ApplyResponse[toy.State], error) {
	res, err := l.Ruleset.Apply(ctx, req)
	if err == nil && req.Action.Type == sdk.ActDraw {
		h := res.State.Hands[req.Action.Seat]
		res.State.Hands[req.Action.Seat] = h[:len(h)-1]
	}
	return res, err
}

// endless has bots that only ever draw: the game never ends.
type endless struct{ toy.Ruleset }

func (endless) Bot(_ context.Context, req sdk.BotRequest) (*sdk.Action, error) {
	if req.View.Has(sdk.ActDraw) {
		return &sdk.Action{Seat: req.Seat, Type: sdk.ActDraw}, nil
	}
	return nil, nil
}

// untyped refuses unknown actions with a plain error instead of a *sdk.RuleError.
type untyped struct{ toy.Ruleset }

func (u untyped) Apply(ctx context.Context, req sdk.ApplyRequest[toy.State]) (sdk.ApplyResponse[toy.State], error) {
	res, err := u.Ruleset.Apply(ctx, req)
	if re, ok := sdk.AsRefusal(err); ok && re.Code == sdk.CodeBadAction {
		return res, errors.New("nope")
	}
	return res, err
}

// counting numbers its events with a global counter: the same game played twice differs.
type counting struct {
	toy.Ruleset
	n *atomic.Int64
}

func (c counting) Apply(ctx context.Context, req sdk.ApplyRequest[toy.State]) (sdk.ApplyResponse[toy.State], error) {
	res, err := c.Ruleset.Apply(ctx, req)
	if err == nil && len(res.Events) > 0 {
		res.Events[0].Data = map[string]string{"n": strconv.FormatInt(c.n.Add(1), 10)}
	}
	return res, err
}

// noRedeal forwards every method of toy but Redeal.
type noRedeal struct{ r toy.Ruleset }

func (n noRedeal) Info() sdk.Info { return n.r.Info() }
func (n noRedeal) Start(ctx context.Context, req sdk.StartRequest) (toy.State, error) {
	return n.r.Start(ctx, req)
}
func (n noRedeal) Apply(ctx context.Context, req sdk.ApplyRequest[toy.State]) (sdk.ApplyResponse[toy.State], error) {
	return n.r.Apply(ctx, req)
}
func (n noRedeal) View(s toy.State, v int) sdk.View    { return n.r.View(s, v) }
func (n noRedeal) Status(s toy.State) sdk.Status       { return n.r.Status(s) }
func (n noRedeal) Observe(s toy.State) sdk.Observation { return n.r.Observe(s) }
func (n noRedeal) Cards(s toy.State) []sdk.Card        { return n.r.Cards(s) }
func (n noRedeal) Bot(ctx context.Context, req sdk.BotRequest) (*sdk.Action, error) {
	return n.r.Bot(ctx, req)
}

// badTable ignores edits of the zones: a house rule that loses a card would go unnoticed.
type badTable struct{ toy.Ruleset }

func (b badTable) SetTable(s toy.State, t sdk.Table) (toy.State, error) {
	if _, err := b.Ruleset.SetTable(s, t); err != nil {
		return s, err
	}
	s.Turn = t.Turn
	return s, nil
}

// nullRows shows a score sheet with no hand scored yet as nil rows: a null in the view's JSON,
// which a view patch cannot say (Gin Rummy's bug, caught once only by a patch test).
type nullRows struct{ toy.Ruleset }

func (n nullRows) View(s toy.State, viewer int) sdk.View {
	v := n.Ruleset.View(s, viewer)
	v.Sheet = &sdk.ScoreSheet{By: "seat", Columns: []string{}, Totals: []int{}}
	return v
}

// collect runs f's subtests synchronously on fake TBs and returns every failure message, and
// whether any subtest (or the call) failed.
func collect(f func(tb testing.TB, sub func(string, func(testing.TB)))) (string, bool) {
	top := &fakeTB{}
	var msgs []string
	failed := false
	top.run(func() {
		f(top, func(name string, fn func(testing.TB)) {
			sub := &fakeTB{}
			sub.run(func() { fn(sub) })
			if sub.failed {
				failed = true
				msgs = append(msgs, name+": "+sub.output())
			}
		})
	})
	if top.failed {
		failed = true
		msgs = append(msgs, "top: "+top.output())
	}
	return strings.Join(msgs, "\n"), failed
}

func TestRunCatchesBrokenRulesets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tests := []struct {
		name string
		run  func(tb testing.TB, sub func(string, func(testing.TB)))
		want []string
	}{
		{"mutates its input", func(tb testing.TB, sub func(string, func(testing.TB))) {
			run[toy.State](ctx, tb, mutating{}, small, sub)
		}, []string{"Apply mutated its input state"}},
		{"its view shares the state's hand", func(tb testing.TB, sub func(string, func(testing.TB))) {
			run[toy.State](ctx, tb, viewAlias{}, small, sub)
		}, []string{"a read-only call (View, Status, Observe, Cards, History, or a bot editing its view) changed the state"}},
		{"spectators see a hand", func(tb testing.TB, sub func(string, func(testing.TB))) {
			run[toy.State](ctx, tb, spectatorLeak{}, small, sub)
		}, []string{"the view of the spectators shows the cards of zone hand.0 (seat 0's hand)"}},
		{"shows the deck's top", func(tb testing.TB, sub func(string, func(testing.TB))) {
			run[toy.State](ctx, tb, deckPeek{}, small, sub)
		}, []string{"changes when the cards it cannot see are redealt", "indicators:"}},
		{"loses a card", func(tb testing.TB, sub func(string, func(testing.TB))) {
			run[toy.State](ctx, tb, losing{}, small, sub)
		}, []string{"broke the card invariant: lost"}},
		{"never ends", func(tb testing.TB, sub func(string, func(testing.TB))) {
			run[toy.State](ctx, tb, endless{}, small, sub)
		}, []string{"bot playout (level 1): playout did not end within 3000 steps"}},
		{"refuses with a plain error", func(tb testing.TB, sub func(string, func(testing.TB))) {
			run[toy.State](ctx, tb, untyped{}, small, sub)
		}, []string{"failed: ruleset toy failed in act: nope"}},
		{"is not deterministic", func(tb testing.TB, sub func(string, func(testing.TB))) {
			e := engine.New[toy.State](counting{n: new(atomic.Int64)})
			runEngine(ctx, tb, e, func() engine.Engine { return e }, small, sub)
		}, []string{"determinism: same seed and actions, different events after move 1", `"data":{"n":`}},
		{"has no Redealer", func(tb testing.TB, sub func(string, func(testing.TB))) {
			run[toy.State](ctx, tb, noRedeal{}, small, sub)
		}, []string{"does not implement sdk.Redealer[toy.State]"}},
		{"a view holds a null", func(tb testing.TB, sub func(string, func(testing.TB))) {
			run[toy.State](ctx, tb, nullRows{}, small, sub)
		}, []string{"state/", "after the start: the view of the spectators holds null at sheet.rows, where the view model has a list"}},
		{"a view holds a null, through the engine", func(tb testing.TB, sub func(string, func(testing.TB))) {
			e := engine.New[toy.State](nullRows{})
			runEngine(ctx, tb, e, func() engine.Engine { return e }, small, sub)
		}, []string{"random/", "at the start: the view of seat 0 holds null at sheet.rows", "leave it empty ([]), not nil"}},
		{"SetTable drops edits", func(tb testing.TB, sub func(string, func(testing.TB))) {
			run[toy.State](ctx, tb, badTable{}, small, sub)
		}, []string{"SetTable of a table without", "the engine could not catch the loss"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, failed := collect(tt.run)
			if !failed {
				t.Fatalf("the kit did not catch it")
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("failures do not mention %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestPlayout(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := engine.New[toy.State](toy.Ruleset{})
	cfg := PlayoutConfig{Seats: 3, Seed: 42, Games: 3}
	res, err := Playout(ctx, e, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Ended || res.GamesEnded != 3 || res.Final.Status.Phase != sdk.PhaseGameOver {
		t.Fatalf("ended=%v games=%d phase=%s, want 3 games ended", res.Ended, res.GamesEnded, res.Final.Status.Phase)
	}
	if res.Steps != len(res.Moves) || res.Steps == 0 {
		t.Errorf("steps %d, moves %d", res.Steps, len(res.Moves))
	}
	deals := 0
	for _, m := range res.Moves {
		if m.Action.Type == sdk.ActDeal {
			deals++
		}
	}
	if deals != 2 {
		t.Errorf("the host dealt %d times, want 2 (between 3 games)", deals)
	}
	again, err := Playout(ctx, e, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(res.Moves, again.Moves); diff != "" {
		t.Errorf("same config, different playout (-first +second):\n%s", diff)
	}
	steps, err := Replay(ctx, e, cfg, res.Moves)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(steps[len(steps)-1].State), string(res.Final.State); got != want {
		t.Errorf("replay ends in a different state")
	}
}

func TestPlayoutStopsAtMaxSteps(t *testing.T) {
	t.Parallel()
	e := engine.New[toy.State](endless{})
	res, err := Playout(context.Background(), e, PlayoutConfig{Seats: 2, Seed: 1, MaxSteps: 50})
	if !errors.Is(err, ErrNotEnded) {
		t.Fatalf("err = %v, want ErrNotEnded", err)
	}
	if res.Steps != 50 || res.Ended {
		t.Errorf("steps %d ended %v, want 50 steps, not ended", res.Steps, res.Ended)
	}
}

func TestPlayoutFiresDeadlines(t *testing.T) {
	t.Parallel()
	// Bots that never call, and a clock slower than the window: every window expires through
	// the clock (so the game never ends: a player left with one card always draws again).
	e := engine.New[toy.State](silent{})
	res, err := Playout(context.Background(), e, PlayoutConfig{Seats: 2, Seed: 3, ThinkMS: 3000, MaxSteps: 300})
	if !errors.Is(err, ErrNotEnded) {
		t.Fatalf("err = %v, want ErrNotEnded", err)
	}
	fired := 0
	for _, m := range res.Moves {
		if m.Action.Seat == sdk.Clock {
			fired++
			if m.Now < toy.WindowMS {
				t.Errorf("deadline %s fired at %d ms, before any window could expire", m.Action.Deadline, m.Now)
			}
		}
	}
	if fired == 0 {
		t.Errorf("no deadline fired in %d moves", len(res.Moves))
	}
}

// silent's bots never call.
type silent struct{ toy.Ruleset }

func (s silent) Bot(ctx context.Context, req sdk.BotRequest) (*sdk.Action, error) {
	a, err := s.Ruleset.Bot(ctx, req)
	if a != nil && a.Type == sdk.ActCall {
		return nil, err
	}
	return a, err
}
