package botplay

import (
	"context"
	"errors"
	"slices"
	"time"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
)

// Config says how Play plays. Bot is required; every other zero field takes the behaviour its
// comment gives.
type Config struct {
	// Seats, Options, Seed, Deal and HouseRules start the game (engine.NewGameRequest).
	Seats      int
	Options    map[string]any
	Seed       uint64
	Deal       *sdk.Deal
	HouseRules []sdk.HouseRule
	// Now is the game clock at the start, in ms (the NewGame's Now).
	Now int64
	// Views asks the engine for every seat's view at each step; off, the steps come without
	// views (NoViews), which is cheaper.
	Views bool

	// Bot chooses for the seats asked at each decision.
	Bot Bot
	// Order lists the seats asked at a decision, first asked first (nil: the status's Actors as
	// they come). The first seat whose bot answers with an action acts.
	Order func(st sdk.Status) []int
	// Before, when set, runs at each decision before Order and the bots (the kit tries its
	// deliberately bad actions there). An action it applies with Turn.Try makes the step.
	Before func(ctx context.Context, t *Turn) error

	// ThinkMS is how far the clock moves before each decision (a deal moves it not; a deadline
	// moves it to the deadline's time when that is later).
	ThinkMS int64
	// DueFirst fires a deadline that has fallen due (At ≤ the clock) before anyone is asked,
	// as a room's timer would. Off, the clock acts only when no seat does.
	DueFirst bool
	// MaxSteps bounds the steps applied (the bots' actions, deadline firings and deals); 0 means
	// no bound. Play stops there with Result.Ended false and no error.
	MaxSteps int
	// Games is how many games end before Play does: on game_over the host deals again until
	// this many have (0 means 1). round_over is always dealt on.
	Games int
	// CallTimeout bounds each engine call and each Bot call (0: only ctx does).
	CallTimeout time.Duration
	// Record keeps the applied actions in Result.Moves, enough to replay the game.
	Record bool
	// Trace asks the engine for every house-rule hook call of each step (engine.Step.House),
	// for OnAct and Result.Start to read.
	Trace bool
	// OnAct, when set, is told of every action tried, accepted or refused, after the engine
	// answered; an error it returns ends Play with that error.
	OnAct func(ctx context.Context, a Attempt) error
}

// Bot chooses seat t.Seat's action at decision t: nil when the seat does nothing now (the next
// seat is asked). The loop sets the action's Seat to t.Seat. A Bot may instead apply actions
// itself with t.Try (random ones that may be refused); once one is accepted it returns nil.
type Bot func(ctx context.Context, t *Turn) (*sdk.Action, error)

// Turn is one decision of a game: the step its seats choose at, and the seat asked.
type Turn struct {
	// Step is the current step (with views when Config.Views); Start the step the game began at.
	Step, Start *engine.Step
	// Seat is the seat asked and Index its place in the order asked (sdk.NoSeat and -1 in Before).
	Seat, Index int
	// N is the number of steps applied so far: this decision makes step N+1.
	N int
	// Now is the game clock, in ms.
	Now int64
	p   *play
}

// Try applies a, chosen by kind (a name for OnAct and errors, such as "random"), and says
// whether it was accepted. A refusal (sdk.ErrIllegal) is counted in Result.Refused and is no
// error; any other failure is. An accepted action makes this decision's step: the state moves
// on, and the Bot or Before hook that tried it must return without choosing.
func (t *Turn) Try(ctx context.Context, kind string, a sdk.Action) (bool, error) {
	if t.p.res.Steps > t.N {
		return false, errors.New("botplay: Turn.Try after an accepted action: the decision is made")
	}
	return t.p.apply(ctx, kind, a, false)
}

// Attempt is one action tried, as OnAct sees it.
type Attempt struct {
	// Kind says who chose it: "bot", "deal", "deadline", or the kind given to Turn.Try.
	Kind string
	// Before is the state the action was applied to; BeforeStep the step that made it.
	Before     []byte
	BeforeStep *engine.Step
	Action     sdk.Action
	Now        int64
	// Step is the engine's answer when accepted; Err its error when not.
	Step *engine.Step
	Err  error
}

// Move is an accepted action and the clock it was applied at: enough to replay a game.
type Move struct {
	Action sdk.Action `json:"action"`
	Now    int64      `json:"now"`
}

// Result is what Play did, filled in as far as it went.
type Result struct {
	// Steps counts the accepted actions (deadline firings and deals included); Refused the
	// refused ones (tried with Turn.Try).
	Steps   int
	Refused int
	// Moves are the accepted actions in order (with Config.Record).
	Moves []Move
	// Start is the step that started the game; Final the last one.
	Start *engine.Step
	Final *engine.Step
	// Ended is true when Games games reached game_over within MaxSteps.
	Ended bool
	// GamesEnded counts the games that reached game_over.
	GamesEnded int
	// Now is the game clock at the last accepted action, in ms.
	Now int64
}

// Play plays through e until Games games have ended: the host deals on round_over (and on
// game_over until then); at each decision the clock moves ThinkMS, a due deadline fires first
// when DueFirst, then the seats Order lists are asked in turn and the first action chosen is
// applied; when no seat acts, the clock jumps to the earliest deadline and fires it. It stops
// without error at MaxSteps (Result.Ended false) and when ctx ends with ctx's error; a game that
// does not start, a bot that fails, an action of the loop's or a bot's that the engine refuses,
// and a stuck game return an *Error.
func Play(ctx context.Context, e engine.Engine, cfg Config) (*Result, error) {
	if cfg.Bot == nil {
		return &Result{}, errors.New("botplay: Config.Bot is nil: nobody would choose for the seats")
	}
	if cfg.Games <= 0 {
		cfg.Games = 1
	}
	p := &play{e: e, cfg: &cfg, res: &Result{}, now: cfg.Now}
	cctx, cancel := p.call(ctx)
	st, err := e.NewGame(cctx, &engine.NewGameRequest{Seats: cfg.Seats, Options: cfg.Options, Seed: cfg.Seed, Deal: cfg.Deal,
		HouseRules: cfg.HouseRules, Now: cfg.Now, NoViews: !cfg.Views, Trace: cfg.Trace})
	cancel()
	if err != nil {
		return p.res, &Error{Kind: KindStart, Err: err}
	}
	p.cur, p.res.Start, p.res.Final, p.res.Now = st, st, st, cfg.Now
	return p.res, p.loop(ctx)
}

type play struct {
	e   engine.Engine
	cfg *Config
	res *Result
	cur *engine.Step
	now int64
}

func (p *play) loop(ctx context.Context) error {
	cfg, res := p.cfg, p.res
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		phase := p.cur.Status.Phase
		if phase == sdk.PhaseGameOver {
			res.GamesEnded++
			if res.GamesEnded >= cfg.Games {
				res.Ended = true
				return nil
			}
		}
		if cfg.MaxSteps > 0 && res.Steps >= cfg.MaxSteps {
			return nil
		}
		if phase == sdk.PhaseGameOver || phase == sdk.PhaseRoundOver {
			if _, err := p.apply(ctx, KindDeal, sdk.Action{Seat: sdk.Host, Type: sdk.ActDeal}, true); err != nil {
				return err
			}
			continue
		}
		p.now += cfg.ThinkMS
		if cfg.DueFirst {
			if d, ok := earliest(p.cur.Status.Deadlines); ok && d.At <= p.now {
				if _, err := p.fire(ctx, d); err != nil {
					return err
				}
				continue
			}
		}
		if err := p.decide(ctx); err != nil {
			return err
		}
	}
}

// decide makes one step: a seat's action, else the earliest deadline's firing.
func (p *play) decide(ctx context.Context) error {
	cfg, res := p.cfg, p.res
	steps := res.Steps
	t := &Turn{Step: p.cur, Start: res.Start, Seat: sdk.NoSeat, Index: -1, N: steps, Now: p.now, p: p}
	if cfg.Before != nil {
		if err := cfg.Before(ctx, t); err != nil {
			return err
		}
		if res.Steps > steps {
			return nil
		}
	}
	seats := p.cur.Status.Actors
	if cfg.Order != nil {
		seats = cfg.Order(p.cur.Status)
	}
	for i, seat := range seats {
		t.Seat, t.Index = seat, i
		bctx, cancel := p.call(ctx)
		a, err := cfg.Bot(bctx, t)
		cancel()
		if err != nil {
			return &Error{Step: steps + 1, Kind: KindBot, Seat: seat, Err: err}
		}
		if res.Steps > steps {
			return nil // the bot's Try was accepted
		}
		if a != nil {
			a.Seat = seat
			_, err := p.apply(ctx, KindBot, *a, true)
			return err
		}
	}
	d, ok := earliest(p.cur.Status.Deadlines)
	if !ok {
		return &Error{Step: steps + 1, Kind: KindStuck, Seat: sdk.NoSeat, Actors: p.cur.Status.Actors, Err: ErrStuck}
	}
	_, err := p.fire(ctx, d)
	return err
}

// fire moves the clock to d when d is later and sends the clock's action for it.
func (p *play) fire(ctx context.Context, d sdk.Deadline) (bool, error) {
	p.now = max(p.now, d.At)
	return p.apply(ctx, KindDeadline, sdk.Action{Seat: sdk.Clock, Type: sdk.ActDeadline, Deadline: d.ID}, true)
}

// earliest is the deadline due first (the first listed of those due together).
func earliest(dls []sdk.Deadline) (sdk.Deadline, bool) {
	if len(dls) == 0 {
		return sdk.Deadline{}, false
	}
	return slices.MinFunc(dls, func(a, b sdk.Deadline) int { return cmpInt(a.At, b.At) }), true
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// apply sends a to the engine at the current clock; a refusal is an error when mustAccept (or
// when it is no refusal but a failure), else it is counted.
func (p *play) apply(ctx context.Context, kind string, a sdk.Action, mustAccept bool) (bool, error) {
	att := Attempt{Kind: kind, Before: p.cur.State, BeforeStep: p.cur, Action: a, Now: p.now}
	cctx, cancel := p.call(ctx)
	att.Step, att.Err = p.e.Act(cctx, &engine.ActRequest{State: p.cur.State, Action: a, Now: p.now, NoViews: !p.cfg.Views, Trace: p.cfg.Trace})
	cancel()
	if p.cfg.OnAct != nil {
		if err := p.cfg.OnAct(ctx, att); err != nil {
			return false, err
		}
	}
	if att.Err != nil {
		if mustAccept || !errors.Is(att.Err, sdk.ErrIllegal) {
			if err := ctx.Err(); err != nil {
				return false, err
			}
			return false, &Error{Step: p.res.Steps + 1, Kind: kind, Seat: a.Seat, Action: &att.Action, Err: att.Err}
		}
		p.res.Refused++
		return false, nil
	}
	p.res.Steps++
	if p.cfg.Record {
		p.res.Moves = append(p.res.Moves, Move{Action: a, Now: p.now})
	}
	p.cur, p.res.Final, p.res.Now = att.Step, att.Step, p.now
	return true, nil
}

// call is the context of one engine or bot call: ctx, bounded by CallTimeout when set.
func (p *play) call(ctx context.Context) (context.Context, context.CancelFunc) {
	if p.cfg.CallTimeout > 0 {
		return context.WithTimeout(ctx, p.cfg.CallTimeout)
	}
	return ctx, noCancel
}

func noCancel() {}
