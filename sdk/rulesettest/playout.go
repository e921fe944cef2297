package rulesettest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"

	"cardhouse/sdk"
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

// Attempt is one action tried in a playout.
type Attempt struct {
	// Kind says who chose it: "bot", "random", "bad", "deadline" or "deal".
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

// PlayoutResult is what a playout did.
type PlayoutResult struct {
	// Steps counts the accepted actions (deadline firings and deals included).
	Steps int
	// Refused counts the actions refused (random and bad ones).
	Refused int
	// Moves are the accepted actions in order; Replay plays them again.
	Moves []Move
	// Start is the step that started the game; Final the last one.
	Start *engine.Step
	Final *engine.Step
	// Ended is true when Games games reached game_over within MaxSteps.
	Ended bool
	// GamesEnded counts the games that reached game_over.
	GamesEnded int
	// Now is the game clock at the end, in ms.
	Now int64
}

// ErrNotEnded is wrapped by the error of a playout that reached MaxSteps before the games ended.
var ErrNotEnded = errors.New("playout did not end")

// Playout plays games through e: bots (or random actions) choose for the seats the status names
// as actors, the clock moves ThinkMS before each decision and fires the deadlines that fall due,
// the host deals on round_over (and on game_over until Games games have ended). It returns an
// error wrapping ErrNotEnded when MaxSteps is reached first, and any engine failure, refused bot
// action, accepted bad action, stuck game (no actor acts and no deadline is set) or OnAct error.
// The result is filled in as far as the playout went.
func Playout(ctx context.Context, e engine.Engine, cfg PlayoutConfig) (*PlayoutResult, error) {
	p, err := newPlayer(ctx, e, cfg)
	if err != nil {
		return &PlayoutResult{}, err
	}
	return p.res, p.play()
}

type player struct {
	ctx    context.Context
	e      engine.Engine
	cfg    PlayoutConfig
	rng    sdk.RNG
	res    *PlayoutResult
	cur    *engine.Step
	now    int64
	bots   bool
	views  bool
	allSet []sdk.Card
}

func newPlayer(ctx context.Context, e engine.Engine, cfg PlayoutConfig) (*player, error) {
	if cfg.MaxSteps <= 0 {
		cfg.MaxSteps = 10000
	}
	if cfg.ThinkMS <= 0 {
		cfg.ThinkMS = 500
	}
	if cfg.Games <= 0 {
		cfg.Games = 1
	}
	desc, err := e.Describe(ctx)
	if err != nil {
		return nil, fmt.Errorf("describe: %w", err)
	}
	p := &player{ctx: ctx, e: e, cfg: cfg, rng: sdk.NewRNG(cfg.Seed ^ 0x5eed), res: &PlayoutResult{}}
	p.bots = len(desc.BotLevels) > 0
	if p.cfg.Level == 0 && p.bots {
		p.cfg.Level = slices.Min(desc.BotLevels)
	}
	if !p.bots {
		p.cfg.Random = 1
	}
	p.views = cfg.Views || p.cfg.Random > 0 || p.cfg.Bad > 0
	st, err := e.NewGame(ctx, &engine.NewGameRequest{Seats: cfg.Seats, Options: cfg.Options, Seed: cfg.Seed, Deal: cfg.Deal, NoViews: !p.views})
	if err != nil {
		return nil, fmt.Errorf("new game (%d seats, options %v, seed %d): %w", cfg.Seats, cfg.Options, cfg.Seed, err)
	}
	p.cur, p.res.Start, p.res.Final = st, st, st
	in, err := e.Inspect(ctx, &engine.InspectRequest{State: st.State})
	if err != nil {
		return nil, fmt.Errorf("inspect the start: %w", err)
	}
	p.allSet = in.Cards
	return p, nil
}

func (p *player) play() error {
	for {
		if err := p.ctx.Err(); err != nil {
			return err
		}
		st := p.cur.Status
		switch st.Phase {
		case sdk.PhaseGameOver:
			p.res.GamesEnded++
			if p.res.GamesEnded >= p.cfg.Games {
				p.res.Ended = true
				return nil
			}
			if err := p.try("deal", sdk.Action{Seat: sdk.Host, Type: sdk.ActDeal}, true); err != nil {
				return err
			}
			continue
		case sdk.PhaseRoundOver:
			if err := p.try("deal", sdk.Action{Seat: sdk.Host, Type: sdk.ActDeal}, true); err != nil {
				return err
			}
			continue
		}
		if p.res.Steps >= p.cfg.MaxSteps {
			return fmt.Errorf("%w within %d steps (%d games ended; phase %s, turn %d)", ErrNotEnded, p.cfg.MaxSteps, p.res.GamesEnded, st.Phase, st.Turn)
		}
		p.now += p.cfg.ThinkMS
		fired, err := p.fireDue(p.now)
		if err != nil {
			return err
		}
		if fired {
			continue
		}
		acted, err := p.decide()
		if err != nil {
			return err
		}
		if acted {
			continue
		}
		// Nobody acts: jump to the next deadline, if any.
		if len(p.cur.Status.Deadlines) == 0 {
			return fmt.Errorf("stuck after %d steps: no seat acts (actors %v, turn %d) and no deadline is set", p.res.Steps, p.cur.Status.Actors, p.cur.Status.Turn)
		}
		next := slices.MinFunc(p.cur.Status.Deadlines, func(a, b sdk.Deadline) int { return cmpInt(a.At, b.At) })
		if next.At > p.now {
			p.now = next.At
		}
		if _, err := p.fireDue(p.now); err != nil {
			return err
		}
	}
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

// fireDue fires the earliest deadline due by now, if any.
func (p *player) fireDue(now int64) (bool, error) {
	var due []sdk.Deadline
	for _, d := range p.cur.Status.Deadlines {
		if d.At <= now {
			due = append(due, d)
		}
	}
	if len(due) == 0 {
		return false, nil
	}
	sort.SliceStable(due, func(i, j int) bool { return due[i].At < due[j].At })
	return true, p.try("deadline", sdk.Action{Seat: sdk.Clock, Type: sdk.ActDeadline, Deadline: due[0].ID}, true)
}

// actors are the seats with an action open, in a random order.
func (p *player) actors() []int {
	st := p.cur.Status
	seats := slices.Clone(st.Actors)
	if len(seats) == 0 && st.Turn >= 0 && st.Turn < st.Seats {
		seats = []int{st.Turn}
	}
	p.rng.Shuffle("actors", len(seats), func(i, j int) { seats[i], seats[j] = seats[j], seats[i] })
	return seats
}

// decide lets one actor act; false when none wants to.
func (p *player) decide() (bool, error) {
	if p.cfg.Bad > 0 && p.chance(p.cfg.Bad) {
		if err := p.bad(); err != nil {
			return false, err
		}
	}
	for _, seat := range p.actors() {
		if p.chance(p.cfg.Random) {
			ok, err := p.random(seat)
			if err != nil || ok {
				return ok, err
			}
			if !p.bots {
				continue
			}
		}
		if !p.bots {
			continue
		}
		ans, err := p.e.Bot(p.ctx, &engine.BotCall{State: p.cur.State, Seat: seat, Level: p.cfg.Level, Seed: p.rng.Uint64()})
		if err != nil {
			return false, fmt.Errorf("step %d: bot %d for seat %d: %w", p.res.Steps, p.cfg.Level, seat, err)
		}
		if ans.Action == nil {
			continue
		}
		a := *ans.Action
		a.Seat = seat
		return true, p.try("bot", a, true)
	}
	return false, nil
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

// view decodes seat's view of the current step (nil when views are off or broken).
func (p *player) view(seat int) *sdk.View {
	if seat < 0 || seat >= len(p.cur.Views) {
		return nil
	}
	var v sdk.View
	if json.Unmarshal(p.cur.Views[seat], &v) != nil {
		return nil
	}
	return &v
}

// random tries up to three random actions built from seat's view; true when one was accepted.
func (p *player) random(seat int) (bool, error) {
	v := p.view(seat)
	if v == nil || len(v.Actions) == 0 {
		return false, nil
	}
	for range 3 {
		spec := v.Actions[p.rng.Intn("spec", len(v.Actions))]
		a := RandomAction(&p.rng, seat, spec)
		before := p.res.Steps
		if err := p.try("random", a, false); err != nil {
			return false, err
		}
		if p.res.Steps > before {
			return true, nil
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
			switch spec.Type {
			case sdk.ActPlay:
				a.Suit, a.Color = choiceFields(choice, a.Cards)
			default:
				a.Args = map[string]string{"choice": choice}
			}
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

// choiceFields puts a choice where the cards need it: a colour for Last Card cards, a suit for
// French ones.
func choiceFields(choice string, cards []sdk.Card) (suit, color string) {
	for _, c := range cards {
		if c.IsLastCard() {
			return "", choice
		}
	}
	return choice, ""
}

// bad tries one deliberately bad action, which must be refused.
func (p *player) bad() error {
	st := p.cur.Status
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
			if v := p.view(s); v != nil {
				if z, ok := v.Zone(fmt.Sprintf("hand.%d", s)); ok && len(z.Cards) > 0 {
					a = sdk.Action{Seat: s, Type: sdk.ActPlay, Cards: z.Cards[:1]}
					break
				}
			}
		}
	case 3:
		// The seat in turn plays a card it does not hold.
		if v := p.view(st.Turn); v != nil {
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
	before := p.res.Steps
	if err := p.try("bad", a, false); err != nil {
		return err
	}
	if p.res.Steps > before {
		return fmt.Errorf("step %d: bad action %s was accepted, want refused", before, describe(a))
	}
	return nil
}

// try applies a; a refusal is an error only when mustAccept.
func (p *player) try(kind string, a sdk.Action, mustAccept bool) error {
	att := Attempt{Kind: kind, Before: p.cur.State, BeforeStep: p.cur, Action: a, Now: p.now}
	att.Step, att.Err = p.e.Act(p.ctx, &engine.ActRequest{State: p.cur.State, Action: a, Now: p.now, NoViews: !p.views})
	if p.cfg.OnAct != nil {
		if err := p.cfg.OnAct(p.ctx, att); err != nil {
			return err
		}
	}
	if att.Err != nil {
		if !errors.Is(att.Err, sdk.ErrIllegal) || mustAccept {
			return fmt.Errorf("step %d: %s action %s: %w", p.res.Steps, kind, describe(a), att.Err)
		}
		p.res.Refused++
		return nil
	}
	p.res.Steps++
	p.res.Moves = append(p.res.Moves, Move{Action: a, Now: p.now})
	p.cur, p.res.Final, p.res.Now = att.Step, att.Step, p.now
	return nil
}

func describe(a sdk.Action) string {
	b, _ := json.Marshal(a)
	return string(b)
}

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
