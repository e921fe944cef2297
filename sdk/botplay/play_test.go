package botplay_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"cardhouse/sdk"
	"cardhouse/sdk/botplay"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest/toy"

	"github.com/google/go-cmp/cmp"
)

func toyEngine() engine.Engine { return engine.New(toy.Ruleset{}) }

// toyBots is toy's own bot at level 1, seeded by the step number.
func toyBots(e engine.Engine) botplay.Bot {
	return botplay.EngineBot(e, botplay.Level(1), func(t *botplay.Turn) uint64 { return uint64(t.N) })
}

func TestGameReachesItsEnd(t *testing.T) {
	t.Parallel()
	for seats := 2; seats <= 4; seats++ {
		e := toyEngine()
		res, err := botplay.Play(context.Background(), e, botplay.Config{Seats: seats, Seed: 3, Bot: toyBots(e), ThinkMS: 500, MaxSteps: 5000})
		if err != nil {
			t.Fatalf("%d seats: %v", seats, err)
		}
		if !res.Ended || res.GamesEnded != 1 || res.Final.Status.Phase != sdk.PhaseGameOver || res.Final.Status.Winner == sdk.NoSeat {
			t.Fatalf("%d seats: ended %v after %d steps, %d games ended, final status %+v; want one game won", seats, res.Ended, res.Steps, res.GamesEnded, res.Final.Status)
		}
		if res.Start == nil || res.Steps < 2 {
			t.Fatalf("%d seats: start %v, %d steps", seats, res.Start, res.Steps)
		}
	}
}

func TestMaxStepsStopsTheGame(t *testing.T) {
	t.Parallel()
	e := toyEngine()
	var tried int
	res, err := botplay.Play(context.Background(), e, botplay.Config{Seats: 3, Seed: 1, Bot: toyBots(e), MaxSteps: 5,
		OnAct: func(context.Context, botplay.Attempt) error { tried++; return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if res.Ended || res.Steps != 5 || tried != 5 || res.Final.Status.Phase != sdk.PhasePlaying {
		t.Fatalf("ended %v, %d steps, %d tried, phase %s; want stopped after 5 steps, unended", res.Ended, res.Steps, tried, res.Final.Status.Phase)
	}
}

func TestSameSeedSameGame(t *testing.T) {
	t.Parallel()
	play := func(seed uint64) []botplay.Move {
		e := toyEngine()
		res, err := botplay.Play(context.Background(), e, botplay.Config{Seats: 3, Seed: seed, Bot: toyBots(e), ThinkMS: 500, Record: true, Games: 2})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Moves) != res.Steps || res.Steps == 0 {
			t.Fatalf("%d moves recorded for %d steps", len(res.Moves), res.Steps)
		}
		return res.Moves
	}
	first := play(7)
	if d := cmp.Diff(first, play(7)); d != "" {
		t.Fatalf("the same seed played differently (-first +second):\n%s", d)
	}
	if cmp.Equal(first, play(8)) {
		t.Fatalf("seeds 7 and 8 played the same game of %d moves", len(first))
	}
}

// silentBot is toy's bot that, for its first 100 steps, never calls its last card: the seat in
// turn plays its first playable card (from its view) or draws instead, so the windows expire and
// the clock must act. Later it calls, so the game ends.
func silentBot(e engine.Engine) botplay.Bot {
	inner := toyBots(e)
	return func(ctx context.Context, t *botplay.Turn) (*sdk.Action, error) {
		a, err := inner(ctx, t)
		if err != nil || t.N >= 100 || a == nil || a.Type != sdk.ActCall {
			return a, err
		}
		if t.Seat != t.Step.Status.Turn {
			return nil, nil
		}
		var v sdk.View
		if err := json.Unmarshal(t.Step.Views[t.Seat], &v); err != nil {
			return nil, err
		}
		if p, ok := v.Action(sdk.ActPlay); ok {
			return &sdk.Action{Type: sdk.ActPlay, Cards: p.Cards[:1]}, nil
		}
		return &sdk.Action{Type: sdk.ActDraw}, nil
	}
}

// firings plays toy with bot and returns the deadlines' firings as OnAct saw them, with the
// deadline's due time; toy refuses a firing before its time, so each was sent at or after it.
func firings(t *testing.T, cfg botplay.Config, bot func(engine.Engine) botplay.Bot) (fired []botplay.Attempt, due []int64) {
	t.Helper()
	e := toyEngine()
	cfg.Bot, cfg.Views = bot(e), true
	cfg.OnAct = func(_ context.Context, a botplay.Attempt) error {
		if a.Kind == botplay.KindDeadline {
			fired = append(fired, a)
			i := slices.IndexFunc(a.BeforeStep.Status.Deadlines, func(d sdk.Deadline) bool { return d.ID == a.Action.Deadline })
			if i < 0 {
				t.Fatalf("fired %q, which the status does not list: %+v", a.Action.Deadline, a.BeforeStep.Status.Deadlines)
			}
			due = append(due, a.BeforeStep.Status.Deadlines[i].At)
		}
		return nil
	}
	res, err := botplay.Play(context.Background(), e, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Ended {
		t.Fatalf("the game did not end in %d steps", res.Steps)
	}
	return fired, due
}

// With the seat in turn acting at every decision, a window's deadline fires only because it fell
// due first (DueFirst), at a clock that reached its time by thinking.
func TestDueDeadlinesFireFirst(t *testing.T) {
	t.Parallel()
	cfg := botplay.Config{Seats: 2, Seed: 5, ThinkMS: 3000, DueFirst: true, MaxSteps: 5000, Order: botplay.OutOfTurnFirst, Options: map[string]any{"hand_size": 3}}
	fired, due := firings(t, cfg, silentBot)
	if len(fired) == 0 {
		t.Fatal("no deadline fired, though no one ever called a last card")
	}
	for i, a := range fired {
		if a.Err != nil || a.Action.Seat != sdk.Clock || a.Now < due[i] {
			t.Fatalf("firing %d: %+v at %d ms (due %d): want the clock's action accepted once due", i, a.Action, a.Now, due[i])
		}
		if a.Now%cfg.ThinkMS != 0 {
			t.Fatalf("firing %d at %d ms: DueFirst fires at a decision's clock, a multiple of ThinkMS", i, a.Now)
		}
	}
	cfg.DueFirst = false
	if fired, _ := firings(t, cfg, silentBot); len(fired) != 0 {
		t.Fatalf("without DueFirst the clock fired %d deadlines while a seat always acted", len(fired))
	}
}

// When no seat acts, the clock jumps to the earliest deadline and fires it.
func TestClockJumpsToTheDeadlineWhenNobodyActs(t *testing.T) {
	t.Parallel()
	waiting := func(e engine.Engine) botplay.Bot {
		inner := silentBot(e)
		return func(ctx context.Context, t *botplay.Turn) (*sdk.Action, error) {
			if len(t.Step.Status.Deadlines) > 0 && t.N < 100 {
				return nil, nil // everyone waits out an open window (for a while: the owner draws each time)
			}
			return inner(ctx, t)
		}
	}
	fired, due := firings(t, botplay.Config{Seats: 3, Seed: 2, ThinkMS: 10, MaxSteps: 5000, Options: map[string]any{"hand_size": 3}}, waiting)
	if len(fired) == 0 {
		t.Fatal("no deadline fired, though everyone waited for each window to close")
	}
	for i, a := range fired {
		if a.Err != nil || a.Now != due[i] {
			t.Fatalf("firing %d: at %d ms, err %v; want the clock moved to the deadline (%d ms)", i, a.Now, a.Err, due[i])
		}
	}
}

func TestStuckGame(t *testing.T) {
	t.Parallel()
	nobody := func(context.Context, *botplay.Turn) (*sdk.Action, error) { return nil, nil }
	_, err := botplay.Play(context.Background(), toyEngine(), botplay.Config{Seats: 2, Seed: 1, Bot: nobody})
	var pe *botplay.Error
	if !errors.Is(err, botplay.ErrStuck) || !errors.As(err, &pe) || pe.Kind != botplay.KindStuck || pe.Step != 1 || !slices.Equal(pe.Actors, []int{0}) {
		t.Fatalf("err = %#v, want a stuck *Error at step 1 naming actor 0", err)
	}
}

func TestRefusedBotActionIsAnError(t *testing.T) {
	t.Parallel()
	outOfTurn := func(_ context.Context, t *botplay.Turn) (*sdk.Action, error) {
		return &sdk.Action{Type: sdk.ActPlay, Cards: []sdk.Card{1}}, nil
	}
	res, err := botplay.Play(context.Background(), toyEngine(), botplay.Config{Seats: 2, Seed: 1, Bot: outOfTurn, MaxSteps: 100})
	var pe *botplay.Error
	if !errors.As(err, &pe) || pe.Kind != botplay.KindBot || pe.Action == nil || pe.Action.Seat != 0 || !errors.Is(err, sdk.ErrIllegal) || res.Steps != 0 {
		t.Fatalf("err = %v (%#v), %d steps; want the bot's refused play as an *Error", err, pe, res.Steps)
	}
}

// Turn.Try applies an action that may be refused: a refusal is counted, an acceptance is the step.
func TestTry(t *testing.T) {
	t.Parallel()
	e := toyEngine()
	bots := toyBots(e)
	var kinds []string
	trying := func(ctx context.Context, t *botplay.Turn) (*sdk.Action, error) {
		if t.N == 0 {
			if ok, err := t.Try(ctx, "random", sdk.Action{Seat: t.Seat, Type: "no_such_type"}); ok || err != nil {
				return nil, errors.Join(err, errors.New("a bad action was accepted"))
			}
			if ok, err := t.Try(ctx, "random", sdk.Action{Seat: t.Seat, Type: sdk.ActDraw}); !ok || err != nil {
				return nil, errors.Join(err, errors.New("a draw was refused"))
			}
			if _, err := t.Try(ctx, "random", sdk.Action{Seat: t.Seat, Type: sdk.ActDraw}); err == nil {
				return nil, errors.New("a second Try in the same decision was allowed")
			}
			return nil, nil
		}
		return bots(ctx, t)
	}
	res, err := botplay.Play(context.Background(), e, botplay.Config{Seats: 2, Seed: 1, Bot: trying, Record: true,
		OnAct: func(_ context.Context, a botplay.Attempt) error { kinds = append(kinds, a.Kind); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if res.Refused != 1 || !res.Ended || res.Moves[0].Action.Type != sdk.ActDraw || !slices.Equal(kinds[:3], []string{"random", "random", "bot"}) {
		t.Fatalf("refused %d, ended %v, first move %+v, kinds %v", res.Refused, res.Ended, res.Moves[0], kinds[:3])
	}
}

// rounds makes toy a game of three rounds: its game_over is round_over but every third.
type rounds struct{ engine.Engine }

func (r rounds) fix(st *engine.Step, err error) (*engine.Step, error) {
	if st != nil && st.Status.Phase == sdk.PhaseGameOver && st.Status.Round%3 != 0 {
		st.Status.Phase = sdk.PhaseRoundOver
	}
	return st, err
}

func (r rounds) NewGame(ctx context.Context, req *engine.NewGameRequest) (*engine.Step, error) {
	return r.fix(r.Engine.NewGame(ctx, req))
}

func (r rounds) Act(ctx context.Context, req *engine.ActRequest) (*engine.Step, error) {
	return r.fix(r.Engine.Act(ctx, req))
}

// The host deals between rounds, and between games until Games have ended.
func TestDealsBetweenRoundsAndGames(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		games, deals, ended int
	}{{1, 2, 1}, {2, 5, 2}} {
		e := rounds{toyEngine()}
		deals := 0
		res, err := botplay.Play(context.Background(), e, botplay.Config{Seats: 2, Seed: 4, Bot: toyBots(e), Games: c.games,
			OnAct: func(_ context.Context, a botplay.Attempt) error {
				if a.Kind == botplay.KindDeal {
					if a.Action.Seat != sdk.Host || a.Action.Type != sdk.ActDeal || a.Err != nil {
						t.Errorf("deal %+v: %v", a.Action, a.Err)
					}
					deals++
				}
				return nil
			}})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Ended || res.GamesEnded != c.ended || deals != c.deals || res.Final.Status.Phase != sdk.PhaseGameOver {
			t.Fatalf("games %d: ended %v, %d games ended, %d deals, phase %s; want %d ended after %d deals",
				c.games, res.Ended, res.GamesEnded, deals, res.Final.Status.Phase, c.ended, c.deals)
		}
	}
}

// blocking is an engine whose bot answers only when its context ends.
type blocking struct{ engine.Engine }

func (blocking) Bot(ctx context.Context, _ *engine.BotCall) (*engine.BotAnswer, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

func TestCallTimeoutBoundsABot(t *testing.T) {
	t.Parallel()
	e := blocking{toyEngine()}
	_, err := botplay.Play(context.Background(), e, botplay.Config{Seats: 2, Bot: toyBots(e), CallTimeout: time.Millisecond})
	var pe *botplay.Error
	if !errors.Is(err, context.DeadlineExceeded) || !errors.As(err, &pe) || pe.Kind != botplay.KindBot {
		t.Fatalf("err = %v, want the bot's call timed out", err)
	}
}

// deaf is an engine that does not look at its context: only the loop can stop a game.
type deaf struct{ engine.Engine }

func (d deaf) Act(_ context.Context, req *engine.ActRequest) (*engine.Step, error) {
	return d.Engine.Act(context.Background(), req)
}

func (d deaf) Bot(_ context.Context, req *engine.BotCall) (*engine.BotAnswer, error) {
	return d.Engine.Bot(context.Background(), req)
}

func TestCancelledContextStopsPlay(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	e := deaf{toyEngine()}
	inner := toyBots(e)
	stopper := func(ctx context.Context, t *botplay.Turn) (*sdk.Action, error) {
		if t.N == 3 {
			cancel()
		}
		return inner(ctx, t)
	}
	res, err := botplay.Play(ctx, e, botplay.Config{Seats: 2, Seed: 1, Bot: stopper})
	if !errors.Is(err, context.Canceled) || res.Ended || res.Steps != 4 {
		t.Fatalf("err = %v after %d steps, want context.Canceled after the step during which it was cancelled (4)", err, res.Steps)
	}
}

func TestStartFailure(t *testing.T) {
	t.Parallel()
	e := toyEngine()
	_, err := botplay.Play(context.Background(), e, botplay.Config{Seats: 9, Bot: toyBots(e)})
	var pe *botplay.Error
	if !errors.As(err, &pe) || pe.Kind != botplay.KindStart || pe.Step != 0 {
		t.Fatalf("err = %v, want a start *Error", err)
	}
	if _, err := botplay.Play(context.Background(), e, botplay.Config{Seats: 2}); err == nil {
		t.Fatal("a Config without a Bot played")
	}
}

func TestOutOfTurnFirst(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ actors, want []int }{{nil, nil}, {[]int{2}, []int{2}}, {[]int{0, 3}, []int{3, 0}}, {[]int{1, 2, 0}, []int{2, 0, 1}}} {
		st := sdk.Status{Actors: slices.Clone(c.actors)}
		if got := botplay.OutOfTurnFirst(st); !slices.Equal(got, c.want) || !slices.Equal(st.Actors, c.actors) {
			t.Errorf("OutOfTurnFirst(%v) = %v (actors now %v), want %v and the status unchanged", c.actors, got, st.Actors, c.want)
		}
	}
}
