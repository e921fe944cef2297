package room

import (
	"cardhouse/platform/store"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// refresh re-reads status and views of the stored state (after a reload or an engine failure).
func (r *Room) refresh() error {
	if err := r.catchUp(); err != nil {
		r.broken = err
		return err
	}
	var in *engine.Inspection
	err := r.call("inspect", func(ctx context.Context) error {
		return r.withState(func(state []byte, ref engine.GameRef) error {
			var err error
			in, err = r.engine.Inspect(ctx, &engine.InspectRequest{GameRef: ref, State: state, Views: true})
			return err
		})
	})
	if err != nil {
		r.broken = err
		return err
	}
	r.broken = nil
	r.dropPending()
	r.status, r.views, r.spectator = in.Status, in.Views, in.Spectator
	r.game.Phase = in.Status.Phase
	r.viewGen++
	return nil
}

// errCatchingUp marks a room whose game has stored actions still to replay.
var errCatchingUp = errors.New("the game's last actions are still to be replayed")

// StateEvery is how often an action is stored with the game's state (besides every action that
// changes the game's phase or status, and the game's end): the actions in between are stored
// alone (P-7 holds: each is durable before anyone hears of it) and a game loaded after a restart
// replays those after its stored state, at most StateEvery-1. Writing a 3-8 KiB state with every
// action was most of a commit's cost.
const StateEvery = 32

// catchUp replays the stored actions after the stored state (r.unapplied) through the engine,
// as the game played them, so that r.game holds the latest state. With a sticky engine they
// become the room's tail instead: the engine replays them with the next call (refresh's).
func (r *Room) catchUp() error {
	if r.sticky() {
		for _, rec := range r.unapplied {
			var a sdk.Action
			if err := json.Unmarshal([]byte(rec.Action), &a); err != nil {
				return fmt.Errorf("replaying game %d: action %d is unreadable: %w", r.game.Number, rec.Seq, err)
			}
			r.tail = append(r.tail, engine.Logged{Action: a, Now: rec.Now})
			r.game.Seq = rec.Seq
		}
		r.unapplied = nil
		return nil
	}
	for len(r.unapplied) > 0 {
		rec := r.unapplied[0]
		var a sdk.Action
		if err := json.Unmarshal([]byte(rec.Action), &a); err != nil {
			return fmt.Errorf("replaying game %d: action %d is unreadable: %w", r.game.Number, rec.Seq, err)
		}
		var step *engine.Step
		err := r.call("replay", func(ctx context.Context) error {
			var err error
			step, err = r.engine.Act(ctx, &engine.ActRequest{State: r.game.State, Action: a, Now: rec.Now, NoViews: true})
			return err
		})
		if err != nil {
			return fmt.Errorf("replaying game %d: action %d (%s of seat %d): %w", r.game.Number, rec.Seq, a.Type, a.Seat, err)
		}
		r.game.State, r.game.Seq, r.game.Phase = step.State, rec.Seq, step.Status.Phase
		r.unapplied = r.unapplied[1:]
	}
	r.unapplied = nil
	return nil
}

// resume runs once when the actor starts: it reads the stored game back and re-arms its timers.
func (r *Room) resume() {
	if r.game != nil {
		if err := r.refresh(); err != nil {
			r.log.Error("reading the stored game", "game", r.game.Number, "err", err)
		}
	}
	r.updatePause()
	r.schedule()
}

// apply sends a to the engine, commits the accepted action (with the new state when it is due:
// StateEvery) in one transaction, and only then tells everyone (P-7). It returns the refusal or
// failure, having changed nothing. Its four stages are callAct, commitStep, adoptStep and tellStep.
func (r *Room) apply(a sdk.Action) error {
	if !r.live() {
		return errf(KindConflict, "no_game", "no game is being played; the host deals to start one")
	}
	if r.broken != nil {
		if err := r.refresh(); err != nil {
			return engineErr(err)
		}
	}
	s := r.newStepping(a)
	if err := r.callAct(s); err != nil {
		return err
	}
	if err := r.commitStep(s); err != nil {
		return err
	}
	r.counted().accepted.Inc()
	prevPhase := r.game.Phase
	r.adoptStep(s)
	r.tellStep(s, prevPhase)
	return nil
}

// stepping is one action on its way through apply: what the engine was asked and answered, and
// what is stored with it.
type stepping struct {
	a       sdk.Action
	nowMs   int64
	watched bool
	due     bool // the state is stored with this action (StateEvery)
	base    *viewBase
	step    *engine.Step
	rec     *store.ActionRecord
	state   *store.GameState // nil: the action is stored alone
	status  string
	ended   *time.Time
}

// newStepping reads what the call for a depends on: its time (a clock action's deadline), who
// watches, whether the state is due, and the views the step's patches are to apply to.
func (r *Room) newStepping(a sdk.Action) *stepping {
	s := &stepping{a: a, nowMs: r.now().UnixMilli(), watched: r.watched(), due: r.game.Seq+1-r.storedSeq >= StateEvery}
	for _, d := range r.status.Deadlines {
		if a.Seat == sdk.Clock && d.ID == a.Deadline && d.At > s.nowMs {
			s.nowMs = d.At
		}
	}
	s.base = r.viewBase()
	return s
}

// callAct asks the engine for the step; a refusal or a failure is counted and returned.
func (r *Room) callAct(s *stepping) error {
	lean := r.asksLean(s.base)
	patches := lean || r.wantsPatches()
	err := r.call("act", func(ctx context.Context) error {
		return r.withState(func(state []byte, ref engine.GameRef) error {
			var err error
			s.step, err = r.engine.Act(ctx, &engine.ActRequest{GameRef: ref, State: state, Action: s.a, Now: s.nowMs, NoSpectator: !s.watched, ViewBuf: r.viewBufs[0],
				OmitState: !s.due, Phase: r.game.Phase, Patches: patches, PatchesOnly: lean})
			return err
		})
	})
	if err != nil {
		if errors.Is(err, sdk.ErrIllegal) {
			r.counted().refused.Inc()
		} else {
			r.counted().failed.Inc()
		}
		r.fault(s.a, err)
		return engineErr(err)
	}
	return nil
}

// commitStep stores the accepted action, with the game's state when it is due or the phase or
// status changed, and waits for the commit (P-7).
func (r *Room) commitStep(s *stepping) error {
	step := s.step
	act, _ := json.Marshal(s.a)
	s.rec = &store.ActionRecord{Seq: r.game.Seq + 1, Seat: s.a.Seat, Action: string(act), Now: s.nowMs}
	s.status = store.GameLive
	if step.Status.Phase == sdk.PhaseGameOver {
		t := r.now().UTC()
		s.status, s.ended = store.GameOver, &t
	}
	if s.status != store.GameLive || step.Status.Phase != r.game.Phase || s.due {
		if step.State == nil {
			r.counted().failed.Inc()
			return engineErr(fmt.Errorf("the engine sent no state for action %d, which is stored with one (phase %q to %q)", s.rec.Seq, r.game.Phase, step.Status.Phase))
		}
		s.state = &store.GameState{State: step.State, Phase: step.Status.Phase, Status: s.status, Ended: s.ended, Since: r.storedSeq}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	start := time.Now()
	err := r.cfg.Store.CommitAction(ctx, r.game.ID, s.rec, s.state)
	r.cfg.Metrics.CommitWait.Observe(time.Since(start).Seconds())
	cancel()
	if err != nil {
		r.counted().storeErrors.Inc()
		r.counted().failed.Inc()
		r.log.Error("storing an action", "err", err)
		if errors.Is(err, store.ErrFenced) { // another node runs the room now
			r.m.leaseLost(r.room.ID, err)
		}
		return errf(KindUnavailable, "store_failure", "the action could not be stored; the game is unchanged, try again")
	}
	return nil
}

// adoptStep makes the committed step the room's: the game's seq, phase and state (or the tail of
// actions after the state the engine keeps), the status, and the views or their patches.
func (r *Room) adoptStep(s *stepping) {
	step, base := s.step, s.base
	r.lastMove = r.now().UTC()
	r.game.Seq, r.game.Phase, r.game.Status, r.game.EndedAt = s.rec.Seq, step.Status.Phase, s.status, s.ended
	if step.State != nil {
		r.game.State, r.tail = step.State, nil
	} else {
		r.tail = append(r.tail, engine.Logged{Action: s.a, Now: s.nowMs})
	}
	if s.state != nil {
		r.storedSeq = s.rec.Seq
	}
	r.status = step.Status
	switch {
	case len(step.Views) == step.Status.Seats && (step.Spectator != nil || !s.watched):
		if base != nil && !base.whole && !stepPatchesApply(step, base) {
			// The views before are diffed: make them whole first (lazy.go).
			if gen := r.viewGen; r.materialise() && r.viewGen == gen {
				base.views, base.spectator, base.whole = r.views, r.spectator, true
			}
		}
		r.adoptViews(step) // no spectators' view when nobody watches
		r.adoptStepPatches(step, base)
	case leanStep(step, base, s.watched):
		r.adoptPatches(step)
		r.adoptStepPatches(step, base)
	default:
		if err := r.refresh(); err != nil {
			r.log.Error("reading views after an action", "err", err)
		}
	}
}

// tellStep sends the step to everyone: the views (or patches), the house rules' log, the room message
// when what it shows changed (the game's status or phase: the views carry the turn and the action
// count), then re-arms pause and timers.
func (r *Room) tellStep(s *stepping, prevPhase string) {
	r.broadcastViewsFrom(s.base)
	r.forwardHouseLog(s.step.House)
	if s.status != store.GameLive || s.step.Status.Phase != prevPhase {
		r.broadcastRoom()
	}
	r.updatePause()
	r.schedule()
	if s.status == store.GameOver {
		r.recordFinished() // results.go
	}
}

// roomCounters are the room's metric series of the per-action path, looked up once per room
// rather than by label on every action.
type roomCounters struct {
	ruleset                                string
	accepted, refused, failed, storeErrors prometheus.Counter
}

// counted returns the room's counters, resolving them on first use (and again if the room's
// ruleset changed).
func (r *Room) counted() *roomCounters {
	if c := r.counters; c != nil && c.ruleset == r.room.Ruleset {
		return c
	}
	m := r.cfg.Metrics
	r.counters = &roomCounters{ruleset: r.room.Ruleset,
		accepted:    m.Actions.WithLabelValues(r.room.Ruleset, "accepted"),
		refused:     m.Actions.WithLabelValues(r.room.Ruleset, "refused"),
		failed:      m.Actions.WithLabelValues(r.room.Ruleset, "failed"),
		storeErrors: m.Errors.WithLabelValues("store")}
	return r.counters
}

// adoptViews makes step's views, written into r.viewBufs[0] when it was large enough, the
// room's, and swaps the buffers: the one that held the views before holds nothing kept now (the
// views are copied into each connection's message), so the next step may write into it. A
// step whose views did not fit gets a spare as large as they were for the next one.
func (r *Room) adoptViews(step *engine.Step) {
	r.dropPending()
	r.views, r.spectator = step.Views, step.Spectator
	r.viewGen++
	size := len(step.Spectator)
	for _, v := range step.Views {
		size += len(v)
	}
	if size <= cap(r.viewBufs[0]) {
		r.viewBufs[0], r.viewBufs[1] = r.viewBufs[1], r.viewBufs[0]
	} else {
		// The views lie in a buffer of the engine's; both of the room's hold nothing kept.
		r.viewBufs[1] = nil
	}
	if cap(r.viewBufs[0]) < size {
		r.viewBufs[0] = make([]byte, 0, size+size/4)
	}
}

// Deal starts the next game (or, in a game between rounds, the next round); host only (P-5).
// Spectators waiting for a seat take the free ones first (P-4).
func (r *Room) Deal(ctx context.Context, u *store.User) error {
	return r.do(ctx, func() error { return r.deal(u) })
}

func (r *Room) deal(u *store.User) (err error) {
	defer func() {
		if err == nil {
			r.clearAsks()
		}
	}()
	if err := r.hostOnly(u, "deal"); err != nil {
		return err
	}
	if r.live() {
		if r.status.Phase == sdk.PhaseRoundOver {
			return r.apply(sdk.Action{Seat: sdk.Host, Type: sdk.ActDeal})
		}
		return errf(KindConflict, "game_running", "a game is being played; deal when it is over")
	}
	if r.engine == nil || r.desc == nil {
		return errf(KindUnavailable, "no_ruleset", "ruleset %q is not available on this server", r.room.Ruleset)
	}
	// Read first: a rule the room may no longer use refuses the deal before anything moves.
	rules, pins, ruleNames, err := r.dealHouseRules()
	if err != nil {
		return err
	}
	var changed []*store.Member
	for _, m := range r.members {
		if m.Role == store.MemberSpectator && m.WantsSeat && isHuman(m) {
			if s := r.freeSeat(); s >= 0 {
				m.Role, m.Seat, m.WantsSeat = store.MemberPlayer, s, false
				changed = append(changed, m)
			}
		}
	}
	var seated []*store.Member
	for _, m := range r.members {
		if m.Role == store.MemberPlayer && m.Seat >= 0 {
			seated = append(seated, m)
		}
	}
	slices.SortFunc(seated, func(a, b *store.Member) int { return a.Seat - b.Seat })
	if n := len(seated); n < r.desc.MinSeats || n > r.desc.MaxSeats {
		_ = r.saveMembers(changed...)
		r.broadcastRoom()
		return errf(KindConflict, "seats", "%s needs %d to %d players; %d seated", r.desc.Name, r.desc.MinSeats, r.desc.MaxSeats, n)
	}
	ids := make([]int64, len(seated))
	for i, m := range seated {
		if m.Seat != i {
			m.Seat = i
			if !slices.Contains(changed, m) {
				changed = append(changed, m)
			}
		}
		ids[i] = m.ID
	}
	var opts map[string]any
	_ = json.Unmarshal([]byte(r.room.Options), &opts)
	var seedb [8]byte
	_, _ = rand.Read(seedb[:])
	seed := binary.LittleEndian.Uint64(seedb[:])
	number := 1
	var opener *int
	if r.game != nil {
		number = r.game.Number + 1
		o := (openerSeat(r.game) + 1) % len(seated)
		opener = &o
	}
	nowMs := r.now().UnixMilli()
	var game string
	if r.sticky() {
		game = r.gameKey(number)
	}
	var step *engine.Step
	err = r.call("start", func(ctx context.Context) error {
		var err error
		step, err = r.engine.NewGame(ctx, &engine.NewGameRequest{Seats: len(seated), Options: opts, Seed: seed, Opener: opener, Now: nowMs, HouseRules: rules, Game: game})
		return err
	})
	if err != nil {
		return engineErr(err)
	}
	first := step.Status.Turn
	if opener != nil {
		first = *opener
	}
	seatJSON, _ := json.Marshal(ids)
	usersJSON, _ := json.Marshal(seatUsers(seated))
	g := &store.Game{RoomID: r.room.ID, Number: number, Ruleset: r.room.Ruleset, Seats: len(seated), Seed: int64(seed),
		Options: r.room.Options, SeatMembers: string(seatJSON), SeatUsers: string(usersJSON), Opener: first, StartNow: nowMs,
		State: step.State, Phase: step.Status.Phase, Status: store.GameLive, StartedAt: r.now().UTC()}
	if opener == nil {
		// Replays must pass the same opener as the deal did: none.
		g.Opener = -1 - first
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.cfg.Store.StartGameWithHouseRules(ctx, g, r.room, changed, pins); err != nil {
		r.cfg.Metrics.Errors.WithLabelValues("store").Inc()
		return errf(KindUnavailable, "store_failure", "the new game could not be stored; try again")
	}
	r.game, r.status, r.broken, r.gameRules = g, step.Status, nil, ruleNames
	r.lastMove = g.StartedAt
	r.storedSeq, r.unapplied, r.tail = 0, nil, nil
	r.dropPending()
	r.views, r.spectator = step.Views, step.Spectator
	r.viewGen++
	if len(r.views) != step.Status.Seats {
		_ = r.refresh()
	}
	r.log.Info("game dealt", "game", number, "seats", len(seated))
	r.gameRuleOwners = map[string]int64{}
	for _, e := range r.houseRules {
		r.gameRuleOwners[e.Script.Name] = e.Script.OwnerID
	}
	r.broadcastRoom()
	r.broadcastViews()
	r.forwardHouseLog(step.House)
	r.updatePause()
	r.schedule()
	return nil
}

// actingSeat resolves which seat uid acts for: the one asked for, else its only seat, else (in a
// pass-the-device room) its seat that is due to act.
func (r *Room) actingSeat(uid int64, want *int) (int, error) {
	ms := r.membersOf(uid)
	if len(ms) == 0 {
		return 0, errf(KindForbidden, "not_member", "you are not a member of room %s", r.code)
	}
	seats := r.seatsOf(uid)
	if len(seats) == 0 || !r.live() {
		switch {
		case ms[0].Role == store.MemberPending:
			return 0, errf(KindForbidden, "pending", "your request to join waits for the host")
		case !r.live() && len(seats) > 0:
			return 0, errf(KindConflict, "no_game", "no game is being played; the host deals to start one")
		}
		return 0, errf(KindForbidden, "spectator", "spectators watch and chat; they cannot act")
	}
	if want != nil {
		if !slices.Contains(seats, *want) {
			return 0, errf(KindForbidden, "not_your_seat", "seat %d is not yours", *want)
		}
		return *want, nil
	}
	if len(seats) == 1 {
		return seats[0], nil
	}
	for _, a := range r.status.Actors {
		if slices.Contains(seats, a) {
			return a, nil
		}
	}
	return seats[0], nil
}

// Act applies an action for u over HTTP (the WebSocket's act message takes the same path, act).
// Seat picks one of u's seats when u holds several. A refusal returns an error and changes nothing.
func (r *Room) Act(ctx context.Context, u *store.User, seat *int, a sdk.Action) error {
	start := time.Now()
	return r.do(ctx, func() error { return r.act(u.ID, seat, a, start) })
}

// act is a player's action, however it came (Act over HTTP, an act message over the WebSocket):
// the seat it is for, its shape (checkAction), then the engine and the commit (apply). start is
// when the request came, for the act time metric.
func (r *Room) act(uid int64, seat *int, a sdk.Action, start time.Time) error {
	s, err := r.actingSeat(uid, seat)
	if err != nil {
		return err
	}
	a.Seat = s
	if err := r.checkAction(a); err != nil {
		return err
	}
	if err := r.apply(a); err != nil {
		return err
	}
	r.cfg.Metrics.ActTime.Observe(time.Since(start).Seconds())
	return nil
}

// Check is a dry run of an action: it says whether it would be accepted, and why not, storing and
// telling nothing.
func (r *Room) Check(ctx context.Context, u *store.User, seat *int, a sdk.Action) error {
	return r.do(ctx, func() error { return r.check(u.ID, seat, a) })
}

func (r *Room) check(uid int64, seat *int, a sdk.Action) error {
	s, err := r.actingSeat(uid, seat)
	if err != nil {
		return err
	}
	a.Seat = s
	if err := r.checkAction(a); err != nil {
		return err
	}
	if r.broken != nil {
		if err := r.refresh(); err != nil {
			return engineErr(err)
		}
	}
	now := r.now().UnixMilli()
	return engineErr(r.call("check", func(ctx context.Context) error {
		return r.withState(func(state []byte, ref engine.GameRef) error {
			_, err := r.engine.Act(ctx, &engine.ActRequest{GameRef: ref, State: state, Action: a, Now: now, NoViews: true, OmitState: true, Phase: r.game.Phase, DryRun: true})
			return err
		})
	}))
}
