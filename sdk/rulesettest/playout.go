package rulesettest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"cardhouse/sdk"
	"cardhouse/sdk/botplay"
	"cardhouse/sdk/engine"
)

// PlayoutConfig says how Playout plays one game through an engine.
type PlayoutConfig struct {
	Seats   int
	Options map[string]any
	Seed    uint64
	// Deal fixes the start (nil: the ruleset's own deal).
	Deal *sdk.Deal
	// Level is the bot level every seat plays at; 0 means the lowest of the ruleset's BotLevels.
	Level int
	// Random is the share (0 to 1) of decisions taken by a random action built from the seat's
	// view (its ActionSpecs) instead of the bot; 1 when the ruleset has no bots. A random action
	// may be refused: the refusal is reported to OnAct and the bot (or another random action)
	// decides instead.
	Random float64
	// Bad is the share (0 to 1) of decisions preceded by a deliberately bad action (a card not
	// held, a seat with no action open, an unknown action type, the host dealing mid-game) that
	// must be refused. An accepted bad action ends the playout with an error.
	Bad float64
	// MaxSteps bounds the accepted steps (actions, deadline firings, deals); 0 means 10000.
	MaxSteps int
	// ThinkMS is how far the game clock moves before each decision; 0 means 500 ms.
	ThinkMS int64
	// Games is how many games to play: on game_over the host deals again until this many have
	// ended (0 means 1). round_over is always dealt on.
	Games int
	// Views asks the engine for the views at every step (they are always fetched when Random > 0).
	Views bool
	// OnAct, when set, is called after every action tried, accepted or refused; an error it
	// returns ends the playout with that error.
	OnAct func(ctx context.Context, a Attempt) error
}

// Attempt is one action tried in a playout; its Kind is "bot", "random", "bad", "deadline" or
// "deal".
type Attempt = botplay.Attempt

// Move is an accepted action and the clock it was applied at: enough to replay a game.
type Move = botplay.Move

// PlayoutResult is what a playout did, filled in as far as it went.
type PlayoutResult = botplay.Result

// ErrNotEnded is wrapped by the error of a playout that reached MaxSteps before the games ended.
var ErrNotEnded = errors.New("playout did not end")

// Playout plays games through e (botplay.Play): bots (or random actions) choose for the seats the
// status names as actors, in a random order, the clock moves ThinkMS before each decision and
// fires the deadlines that fall due, the host deals on round_over (and on game_over until Games
// games have ended). It returns an error wrapping ErrNotEnded when MaxSteps is reached first, and
// any engine failure, refused bot action, accepted bad action, stuck game (no actor acts and no
// deadline is set) or OnAct error. The result is filled in as far as the playout went.
func Playout(ctx context.Context, e engine.Engine, cfg PlayoutConfig) (*PlayoutResult, error) {
	if cfg.MaxSteps <= 0 {
		cfg.MaxSteps = 10000
	}
	if cfg.ThinkMS <= 0 {
		cfg.ThinkMS = 500
	}
	desc, err := e.Describe(ctx)
	if err != nil {
		return &PlayoutResult{}, fmt.Errorf("describe: %w", err)
	}
	p := &player{e: e, cfg: cfg, rng: sdk.NewRNG(cfg.Seed ^ 0x5eed)}
	p.bots = len(desc.BotLevels) > 0
	if p.cfg.Level == 0 && p.bots {
		p.cfg.Level = slices.Min(desc.BotLevels)
	}
	if !p.bots {
		p.cfg.Random = 1
	}
	bc := botplay.Config{Seats: cfg.Seats, Options: cfg.Options, Seed: cfg.Seed, Deal: cfg.Deal,
		Views: cfg.Views || p.cfg.Random > 0 || p.cfg.Bad > 0, Bot: p.decide, Order: p.actors,
		ThinkMS: cfg.ThinkMS, DueFirst: true, MaxSteps: cfg.MaxSteps, Games: cfg.Games, Record: true, OnAct: cfg.OnAct}
	if p.cfg.Bad > 0 {
		bc.Before = p.bad
	}
	res, err := botplay.Play(ctx, e, bc)
	var pe *botplay.Error
	switch {
	case errors.As(err, &pe) && pe.Kind == botplay.KindStart:
		return res, fmt.Errorf("new game (%d seats, options %v, seed %d): %w", cfg.Seats, cfg.Options, cfg.Seed, pe.Err)
	case err == nil && !res.Ended:
		st := res.Final.Status
		return res, fmt.Errorf("%w within %d steps (%d games ended; phase %s, turn %d)", ErrNotEnded, cfg.MaxSteps, res.GamesEnded, st.Phase, st.Turn)
	}
	return res, err
}

// player is what a playout's bots share: the playout's random source, drawn from in a fixed
// order, and the cards of the game (for bad actions).
type player struct {
	e      engine.Engine
	cfg    PlayoutConfig
	rng    sdk.RNG
	bots   bool
	allSet []sdk.Card
}

// actors are the seats with an action open (the seat in turn when none is), in a random order.
func (p *player) actors(st sdk.Status) []int {
	seats := slices.Clone(st.Actors)
	if len(seats) == 0 && st.Turn >= 0 && st.Turn < st.Seats {
		seats = []int{st.Turn}
	}
	p.rng.Shuffle("actors", len(seats), func(i, j int) { seats[i], seats[j] = seats[j], seats[i] })
	return seats
}

// decide chooses for one seat: a random action (tried, it may be refused) with the share Random,
// else the engine's bot of the playout's level.
func (p *player) decide(ctx context.Context, t *botplay.Turn) (*sdk.Action, error) {
	if p.chance(p.cfg.Random) {
		if ok, err := p.random(ctx, t); err != nil || ok || !p.bots {
			return nil, err
		}
	}
	if !p.bots {
		return nil, nil
	}
	ans, err := p.e.Bot(ctx, &engine.BotCall{State: t.Step.State, Seat: t.Seat, Level: p.cfg.Level, Seed: p.rng.Uint64()})
	if err != nil {
		return nil, fmt.Errorf("bot %d: %w", p.cfg.Level, err)
	}
	return ans.Action, nil
}

func (p *player) chance(share float64) bool {
	if share <= 0 {
		return false
	}
	if share >= 1 {
		return true
	}
	return float64(p.rng.Uint64()>>11)/(1<<53) < share
}

// view decodes seat's view of st (nil when views are off or broken).
func view(st *engine.Step, seat int) *sdk.View {
	if seat < 0 || seat >= len(st.Views) {
		return nil
	}
	var v sdk.View
	if json.Unmarshal(st.Views[seat], &v) != nil {
		return nil
	}
	return &v
}

// random tries up to three random actions built from the seat's view; true when one was accepted.
func (p *player) random(ctx context.Context, t *botplay.Turn) (bool, error) {
	v := view(t.Step, t.Seat)
	if v == nil || len(v.Actions) == 0 {
		return false, nil
	}
	for range 3 {
		spec := v.Actions[p.rng.Intn("spec", len(v.Actions))]
		if ok, err := t.Try(ctx, "random", RandomAction(&p.rng, t.Seat, spec)); err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

// RandomAction builds an action of seat from one of its view's ActionSpecs, choosing with rng:
// one card of the spec's cards (or, when Multi, one to three of them), a choice when the spec
// has choices, a target and an index when it lists them. It may be illegal (a group that is no
// group); the ruleset must refuse it cleanly then.
func RandomAction(rng *sdk.RNG, seat int, spec sdk.ActionSpec) sdk.Action {
	a := sdk.Action{Seat: seat, Type: spec.Type, From: spec.From}
	if n := len(spec.Cards); n > 0 {
		k := 1
		if spec.Multi {
			k = 1 + rng.Intn("cards", min(3, n))
		}
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		rng.Shuffle("cards", n, func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		for _, i := range idx[:k] {
			a.Cards = append(a.Cards, spec.Cards[i])
		}
	}
	if len(spec.Choices) > 0 {
		choice := spec.Choices[rng.Intn("choice", len(spec.Choices))]
		needs := len(spec.ChoiceFor) == 0
		for _, c := range a.Cards {
			needs = needs || slices.Contains(spec.ChoiceFor, c)
		}
		if needs {
			a = a.WithChoice(choice)
		}
	}
	if len(spec.Targets) > 0 {
		t := spec.Targets[rng.Intn("target", len(spec.Targets))]
		a.Target = &t
	}
	if len(spec.Indexes) > 0 {
		i := spec.Indexes[rng.Intn("index", len(spec.Indexes))]
		a.Index = &i
	}
	return a
}

// bad tries, with the share Bad, one deliberately bad action, which must be refused.
func (p *player) bad(ctx context.Context, t *botplay.Turn) error {
	if !p.chance(p.cfg.Bad) {
		return nil
	}
	if p.allSet == nil {
		in, err := p.e.Inspect(ctx, &engine.InspectRequest{State: t.Start.State})
		if err != nil {
			return fmt.Errorf("inspect the start: %w", err)
		}
		p.allSet = in.Cards
	}
	st := t.Step.Status
	var a sdk.Action
	switch p.rng.Intn("bad", 4) {
	case 0:
		a = sdk.Action{Seat: max(st.Turn, 0), Type: "no_such_action_type"}
	case 1:
		// The host deals in the middle of a game.
		a = sdk.Action{Seat: sdk.Host, Type: sdk.ActDeal}
	case 2:
		// A seat with no action open plays a card it holds.
		for s := range st.Seats {
			if slices.Contains(st.Actors, s) || s == st.Turn {
				continue
			}
			if v := view(t.Step, s); v != nil {
				if z, ok := v.Zone(fmt.Sprintf("hand.%d", s)); ok && len(z.Cards) > 0 {
					a = sdk.Action{Seat: s, Type: sdk.ActPlay, Cards: z.Cards[:1]}
					break
				}
			}
		}
	case 3:
		// The seat in turn plays a card it does not hold.
		if v := view(t.Step, st.Turn); v != nil {
			z, ok := v.Zone(fmt.Sprintf("hand.%d", st.Turn))
			if !ok {
				break
			}
			held := sdk.CountCards(z.Cards)
			for _, c := range p.allSet {
				if held[c] == 0 {
					a = sdk.Action{Seat: st.Turn, Type: sdk.ActPlay, Cards: []sdk.Card{c}}
					break
				}
			}
		}
	}
	if a.Type == "" {
		return nil
	}
	ok, err := t.Try(ctx, "bad", a)
	if err != nil {
		return err
	}
	if ok {
		return fmt.Errorf("step %d: bad action %s was accepted, want refused", t.N, describe(a))
	}
	return nil
}

func describe(a sdk.Action) string { return botplay.Describe(a) }

// Replay starts the game of cfg again and applies moves in order, returning every step (the
// start first). A refused move is an error naming it.
func Replay(ctx context.Context, e engine.Engine, cfg PlayoutConfig, moves []Move) ([]*engine.Step, error) {
	st, err := e.NewGame(ctx, &engine.NewGameRequest{Seats: cfg.Seats, Options: cfg.Options, Seed: cfg.Seed, Deal: cfg.Deal, NoViews: true})
	if err != nil {
		return nil, fmt.Errorf("new game: %w", err)
	}
	steps := []*engine.Step{st}
	for i, m := range moves {
		st, err = e.Act(ctx, &engine.ActRequest{State: st.State, Action: m.Action, Now: m.Now, NoViews: true})
		if err != nil {
			return steps, fmt.Errorf("move %d (%s at %d ms): %w", i+1, describe(m.Action), m.Now, err)
		}
		steps = append(steps, st)
	}
	return steps, nil
}
