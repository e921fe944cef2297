package room

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"cardhouse/platform/store"
	"cardhouse/sdk"
)

// Room is one live room. Its actor goroutine alone reads and writes the fields below the line;
// every exported method hands it a function through the bounded inbox and waits for the answer.
type Room struct {
	m    *Manager
	cfg  *Config
	log  *slog.Logger
	code string

	inbox    chan func()
	quit     chan struct{}
	done     chan struct{}
	stopOnce sync.Once

	// ---- owned by the actor ----
	room      *store.Room
	members   []*store.Member
	desc      *sdk.Description
	engine    sdk.Engine
	game      *store.Game
	status    sdk.Status
	views     [][]byte
	spectator []byte
	// viewBufs are the two buffers an action's views are written into (sdk.ActRequest.ViewBuf),
	// in turn: viewBufs[0] is passed to the next Act and holds nothing the room keeps; the views
	// of the last adopted step may lie in viewBufs[1]. Swapping them when a step's views are
	// adopted means a live game allocates nothing for its views (adoptViews).
	viewBufs  [2][]byte
	clients   map[*Client]struct{}
	deadlines map[string]Timer
	bots      map[int]Timer
	graces    map[int64]Timer
	// claims are the pending members asking the host for a dropped guest's seat by name (member
	// id -> the seat's member id), rejoin.go. Kept in memory: after a restart a claim is an
	// ordinary join request.
	claims map[int64]int64
	// pending are the membership changes not yet sent (members.go).
	pending   memberChanges
	pause     Timer
	chatTimes map[int64][]time.Time
	looks     map[int64]look
	broken    error
	// storedSeq is the seq of the game's state in the store (Game.Seq there); unapplied are the
	// stored actions after it not yet applied to r.game.State (after a restart), which refresh
	// replays first.
	storedSeq int
	unapplied []store.ActionRecord
	// houseRules are the room's enabled house rules; gameRules name the current game's pinned
	// versions ("name vN"), houserules.go.
	houseRules []store.EnabledHouseRule
	gameRules  []string
	// windowSince is when the status began to list the actors besides the player in turn that
	// it lists now (a catch-out or LAST CARD window), windowKey those seats; zero while it lists
	// none (Config.ReactionTime).
	windowSince time.Time
	windowKey   string
}

func newRoom(ctx context.Context, m *Manager, sr *store.Room) (*Room, error) {
	ms, err := m.cfg.Store.Members(ctx, sr.ID)
	if err != nil {
		return nil, fmt.Errorf("loading members of room %s: %w", sr.Code, err)
	}
	r := &Room{
		m: m, cfg: &m.cfg, code: sr.Code, log: m.cfg.Logger.With("room", sr.Code),
		inbox: make(chan func(), m.cfg.QueueSize), quit: make(chan struct{}), done: make(chan struct{}),
		room: sr, members: ms, desc: m.descs[sr.Ruleset], engine: m.cfg.Engines[sr.Ruleset],
		clients: map[*Client]struct{}{}, deadlines: map[string]Timer{}, bots: map[int]Timer{},
		graces: map[int64]Timer{}, claims: map[int64]int64{}, chatTimes: map[int64][]time.Time{}, looks: map[int64]look{},
	}
	if sr.GameID != nil {
		g, err := m.cfg.Store.GameByID(ctx, *sr.GameID)
		if err != nil {
			return nil, fmt.Errorf("loading the game of room %s: %w", sr.Code, err)
		}
		r.game, r.storedSeq = g, g.Seq
		if g.LastSeq > g.Seq { // live, or abandoned between two stored states
			if r.unapplied, err = m.cfg.Store.ActionsAfter(ctx, g.ID, g.Seq); err != nil {
				return nil, fmt.Errorf("loading the actions of room %s's game: %w", sr.Code, err)
			}
			r.broken = errCatchingUp
		}
	}
	if err := r.loadHouseRules(ctx); err != nil {
		return nil, err
	}
	return r, nil
}

// Code returns the room's code.
func (r *Room) Code() string { return r.code }

func (r *Room) run() {
	defer close(r.done)
	defer r.m.forget(r)
	for {
		select {
		case f := <-r.inbox:
			f()
		case <-r.quit:
			// Finish what is already queued (in-flight actions), then say goodbye.
			for {
				select {
				case f := <-r.inbox:
					f()
					continue
				default:
				}
				break
			}
			r.stopTimers()
			for c := range r.clients {
				c.push(encode(Outgoing{Type: MsgBye, Code: "going_away", Reason: "the server is shutting down"}))
				c.drop(CloseGoingAway, "server shutting down")
			}
			return
		}
	}
}

func (r *Room) stop() {
	r.stopOnce.Do(func() { close(r.quit) })
	<-r.done
}

// post queues f for the actor without waiting for it (timers, detaches).
func (r *Room) post(f func()) {
	go func() {
		select {
		case r.inbox <- f:
		case <-r.quit:
		case <-r.done:
		}
	}()
}

// do runs f on the actor and returns its error. It waits for room in the bounded inbox no longer
// than ctx allows.
func (r *Room) do(ctx context.Context, f func() error) error {
	res := make(chan error, 1)
	select {
	case r.inbox <- func() { res <- f() }:
	case <-ctx.Done():
		return errf(KindUnavailable, "busy", "the room is busy; try again")
	case <-r.quit:
		return ErrClosed
	}
	select {
	case err := <-res:
		return err
	case <-r.done:
		return ErrClosed
	}
}

func (r *Room) now() time.Time { return r.cfg.Clock.Now() }

func (r *Room) stopTimers() {
	for id, t := range r.deadlines {
		t.Stop()
		delete(r.deadlines, id)
	}
	r.stopBots()
	for id, t := range r.graces {
		t.Stop()
		delete(r.graces, id)
	}
	if r.pause != nil {
		r.pause.Stop()
		r.pause = nil
	}
}

func (r *Room) stopBots() {
	for s, t := range r.bots {
		t.Stop()
		delete(r.bots, s)
	}
}

// ---- reading the room (actor only) ----

func (r *Room) live() bool { return r.game != nil && r.game.Status == store.GameLive }

func (r *Room) isHost(uid int64) bool { return r.room.HostID == uid }

func (r *Room) membersOf(uid int64) []*store.Member {
	var out []*store.Member
	for _, m := range r.members {
		if m.UserID != nil && *m.UserID == uid {
			out = append(out, m)
		}
	}
	return out
}

func (r *Room) memberByID(id int64) *store.Member {
	for _, m := range r.members {
		if m.ID == id {
			return m
		}
	}
	return nil
}

func (r *Room) seatMember(seat int) *store.Member {
	for _, m := range r.members {
		if m.Role == store.MemberPlayer && m.Seat == seat {
			return m
		}
	}
	return nil
}

// seatsOf lists the seats uid plays (several in a pass-the-device room).
func (r *Room) seatsOf(uid int64) []int {
	var seats []int
	for _, m := range r.membersOf(uid) {
		if m.Role == store.MemberPlayer && m.Seat >= 0 {
			seats = append(seats, m.Seat)
		}
	}
	slices.Sort(seats)
	return seats
}

func (r *Room) connected(uid int64) bool {
	for c := range r.clients {
		if c.UserID == uid {
			return true
		}
	}
	return false
}

func isHuman(m *store.Member) bool { return m.UserID != nil && m.BotLevel == 0 }

func (r *Room) coverLevel() int {
	if r.desc == nil || len(r.desc.BotLevels) == 0 {
		return 1
	}
	return r.desc.BotLevels[len(r.desc.BotLevels)/2]
}

func (r *Room) freeSeat() int {
	for s := range r.room.Capacity {
		if r.seatMember(s) == nil {
			return s
		}
	}
	return -1
}

func (r *Room) info() Info {
	in := Info{Code: r.room.Code, Ruleset: r.room.Ruleset, Mode: r.room.Mode, HostID: r.room.HostID,
		Approval: r.room.Approval, Locked: r.room.Locked, Capacity: r.room.Capacity, TurnSeconds: r.room.TurnSeconds, Status: r.room.Status,
		Paused: r.room.PausedAt != nil, Members: []MemberInfo{}}
	_ = json.Unmarshal([]byte(r.room.Options), &in.Options)
	if r.game != nil {
		in.Game = &GameInfo{Number: r.game.Number, Status: r.game.Status, Phase: r.game.Phase, Turn: r.status.Turn,
			Winner: r.status.Winner, Seats: r.game.Seats, Seq: r.game.Seq, HouseRules: r.gameRules}
	}
	if len(r.houseRules) > 0 {
		in.HouseRules = r.houseRuleInfos()
	}
	in.Members = r.memberInfos(r.members)
	return in
}

// memberInfos is ms as clients see them.
func (r *Room) memberInfos(ms []*store.Member) []MemberInfo {
	online := make(map[int64]bool, len(r.clients))
	for c := range r.clients {
		online[c.UserID] = true
	}
	out := make([]MemberInfo, 0, len(ms))
	for _, m := range ms {
		mi := MemberInfo{ID: m.ID, Name: m.Name, Role: m.Role, Seat: m.Seat, BotLevel: m.BotLevel, WantsSeat: m.WantsSeat, Covered: m.Covered}
		if seat := r.claimedSeat(m); seat != nil {
			mi.ClaimsSeat = &seat.Seat
		}
		if m.UserID != nil {
			mi.UserID = *m.UserID
			mi.Connected = online[*m.UserID]
			if l, ok := r.looks[*m.UserID]; ok {
				mi.Avatar, mi.Colour = l.avatar, l.colour
			}
		}
		if m.Avatar != "" || m.Colour != "" { // a pass-the-device seat's own look
			mi.Avatar, mi.Colour = m.Avatar, m.Colour
		}
		out = append(out, mi)
	}
	return out
}

func (r *Room) you(uid int64) *You {
	y := &You{UserID: uid, Seats: r.seatsOf(uid), Host: r.isHost(uid), Role: "none"}
	if y.Seats == nil {
		y.Seats = []int{}
	}
	if ms := r.membersOf(uid); len(ms) > 0 {
		y.MemberID, y.Name, y.Role = ms[0].ID, ms[0].Name, ms[0].Role
	}
	return y
}

// ---- telling clients (actor only) ----

// broadcastRoom sends every client the whole room (and who it is in it): the room is encoded
// once, and only each client's "you" apart. It supersedes the membership changes not yet sent.
func (r *Room) broadcastRoom() {
	r.dropMemberChanges()
	if len(r.clients) == 0 {
		return
	}
	in := r.info()
	room, err := json.Marshal(&in)
	if err != nil {
		panic("room: encoding the room: " + err.Error())
	}
	head := `{"v":` + strconv.Itoa(ProtocolVersion) + `,"type":"` + MsgRoom + `","room":`
	for c := range r.clients {
		you, err := json.Marshal(r.you(c.UserID))
		if err != nil {
			panic("room: encoding you: " + err.Error())
		}
		b := make([]byte, 0, len(head)+len(room)+len(you)+9)
		b = append(append(append(append(append(b, head...), room...), `,"you":`...), you...), '}')
		c.push(b)
	}
}

func (r *Room) sendViews(c *Client) { r.sendViewsShared(c, nil) }

// sendViewsShared sends c its views; spec, when not nil, keeps the spectators' message of this
// broadcast so that it is encoded once for all spectators.
func (r *Room) sendViewsShared(c *Client, spec *[]byte) {
	if r.game == nil || r.views == nil {
		return
	}
	ms := r.membersOf(c.UserID)
	if len(ms) == 0 || ms[0].Role == store.MemberPending {
		return
	}
	now := r.now().UnixMilli()
	seats := r.seatsOf(c.UserID)
	if r.game.Status != store.GameLive && r.game.Status != store.GameOver {
		seats = nil
	}
	sent := false
	for _, s := range seats {
		if s < len(r.views) {
			buf := messageBufs.Get().(*[]byte)
			*buf = appendViewMessage((*buf)[:0], s, r.game.Number, r.game.Seq, now, r.views[s])
			c.pushOwn(buf)
			sent = true
		}
	}
	if sent {
		return
	}
	if r.spectator == nil { // nobody watched the last action: make the view now
		if err := r.refresh(); err != nil || r.spectator == nil {
			r.log.Error("reading the spectators' view", "err", err)
			return
		}
	}
	if spec == nil {
		c.push(viewMessage(sdk.Spectator, r.game.Number, r.game.Seq, now, r.spectator))
		return
	}
	if *spec == nil {
		*spec = viewMessage(sdk.Spectator, r.game.Number, r.game.Seq, now, r.spectator)
	}
	c.push(*spec)
}

// watched reports whether a connection would be sent the spectators' view: someone holding no
// seat of the game is connected.
func (r *Room) watched() bool {
	for c := range r.clients {
		if len(r.seatsOf(c.UserID)) == 0 {
			return true
		}
	}
	return false
}

func (r *Room) broadcastViews() {
	var spec []byte
	for c := range r.clients {
		r.sendViewsShared(c, &spec)
	}
}

func (r *Room) tell(uid int64, b []byte) {
	for c := range r.clients {
		if c.UserID == uid {
			c.push(b)
		}
	}
}

func (r *Room) dropUser(uid int64, code, reason string) {
	for c := range r.clients {
		if c.UserID == uid {
			c.push(encode(Outgoing{Type: MsgBye, Code: code, Reason: reason}))
			c.drop(ClosePolicy, reason)
			delete(r.clients, c)
			r.cfg.Metrics.Connections.Dec()
		}
	}
}

// ---- engine calls ----

// call runs one engine call with a deadline and records it. A failure that is not a refusal is
// tried once more: a crashed plugin process is relaunched by its supervisor on the next call, and
// the room still holds the stored state, so the game goes on.
func (r *Room) call(op string, f func(ctx context.Context) error) error {
	if r.engine == nil {
		return errf(KindUnavailable, "no_ruleset", "ruleset %q is not available on this server", r.room.Ruleset)
	}
	var err error
	for attempt := range 2 {
		ctx, cancel := context.WithTimeout(context.Background(), r.cfg.CallTimeout)
		start := time.Now()
		err = f(ctx)
		cancel()
		result := "ok"
		switch {
		case err == nil:
		case errors.Is(err, sdk.ErrIllegal):
			result = "refused"
		default:
			result = "failed"
		}
		r.cfg.Metrics.EngineCalls.WithLabelValues(r.room.Ruleset, op, result).Observe(time.Since(start).Seconds())
		if err == nil || errors.Is(err, sdk.ErrIllegal) {
			return err
		}
		r.cfg.Metrics.Errors.WithLabelValues("engine").Inc()
		r.log.Warn("engine call failed", "op", op, "attempt", attempt+1, "err", err)
	}
	return err
}

func engineErr(err error) error {
	if err == nil {
		return nil
	}
	if re, ok := sdk.AsRefusal(err); ok {
		return &Error{Kind: KindConflict, Code: re.Code, Reason: re.Reason}
	}
	if e, ok := AsError(err); ok {
		return e
	}
	return errf(KindUnavailable, "engine_failure", "the game engine failed; the game is unchanged, try again (%v)", err)
}

// refresh re-reads status and views of the stored state (after a reload or an engine failure).
func (r *Room) refresh() error {
	if err := r.catchUp(); err != nil {
		r.broken = err
		return err
	}
	var in *sdk.Inspection
	err := r.call("inspect", func(ctx context.Context) error {
		var err error
		in, err = r.engine.Inspect(ctx, &sdk.InspectRequest{State: r.game.State, Views: true})
		return err
	})
	if err != nil {
		r.broken = err
		return err
	}
	r.broken = nil
	r.status, r.views, r.spectator = in.Status, in.Views, in.Spectator
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
// as the game played them, so that r.game holds the latest state.
func (r *Room) catchUp() error {
	for len(r.unapplied) > 0 {
		rec := r.unapplied[0]
		var a sdk.Action
		if err := json.Unmarshal([]byte(rec.Action), &a); err != nil {
			return fmt.Errorf("replaying game %d: action %d is unreadable: %w", r.game.Number, rec.Seq, err)
		}
		var step *sdk.Step
		err := r.call("replay", func(ctx context.Context) error {
			var err error
			step, err = r.engine.Act(ctx, &sdk.ActRequest{State: r.game.State, Action: a, Now: rec.Now, NoViews: true})
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

// ---- applying actions ----

// apply sends a to the engine, commits the accepted action (with the new state when it is due:
// StateEvery) in one transaction, and only then tells everyone (P-7). It returns the refusal or
// failure, having changed nothing.
func (r *Room) apply(a sdk.Action) error {
	if !r.live() {
		return errf(KindConflict, "no_game", "no game is being played; the host deals to start one")
	}
	if r.broken != nil {
		if err := r.refresh(); err != nil {
			return engineErr(err)
		}
	}
	nowMs := r.now().UnixMilli()
	for _, d := range r.status.Deadlines {
		if a.Seat == sdk.Clock && d.ID == a.Deadline && d.At > nowMs {
			nowMs = d.At
		}
	}
	var step *sdk.Step
	watched := r.watched()
	err := r.call("act", func(ctx context.Context) error {
		var err error
		step, err = r.engine.Act(ctx, &sdk.ActRequest{State: r.game.State, Action: a, Now: nowMs, NoSpectator: !watched, ViewBuf: r.viewBufs[0]})
		return err
	})
	if err != nil {
		result := "failed"
		if errors.Is(err, sdk.ErrIllegal) {
			result = "refused"
		}
		r.cfg.Metrics.Actions.WithLabelValues(r.room.Ruleset, result).Inc()
		return engineErr(err)
	}
	act, _ := json.Marshal(a)
	rec := &store.ActionRecord{Seq: r.game.Seq + 1, Seat: a.Seat, Action: string(act), Now: nowMs}
	status := store.GameLive
	var ended *time.Time
	if step.Status.Phase == sdk.PhaseGameOver {
		status = store.GameOver
		t := r.now().UTC()
		ended = &t
	}
	var state *store.GameState
	if status != store.GameLive || step.Status.Phase != r.game.Phase || rec.Seq-r.storedSeq >= StateEvery {
		state = &store.GameState{State: step.State, Phase: step.Status.Phase, Status: status, Ended: ended, Since: r.storedSeq}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	start := time.Now()
	err = r.cfg.Store.CommitAction(ctx, r.game.ID, rec, state)
	r.cfg.Metrics.CommitWait.Observe(time.Since(start).Seconds())
	cancel()
	if err != nil {
		r.cfg.Metrics.Errors.WithLabelValues("store").Inc()
		r.cfg.Metrics.Actions.WithLabelValues(r.room.Ruleset, "failed").Inc()
		r.log.Error("storing an action", "err", err)
		return errf(KindUnavailable, "store_failure", "the action could not be stored; the game is unchanged, try again")
	}
	r.cfg.Metrics.Actions.WithLabelValues(r.room.Ruleset, "accepted").Inc()
	prevPhase := r.game.Phase
	r.game.State, r.game.Seq, r.game.Phase, r.game.Status, r.game.EndedAt = step.State, rec.Seq, step.Status.Phase, status, ended
	if state != nil {
		r.storedSeq = rec.Seq
	}
	r.status = step.Status
	if len(step.Views) == step.Status.Seats && (step.Spectator != nil || !watched) {
		r.adoptViews(step) // no spectators' view when nobody watches
	} else if err := r.refresh(); err != nil {
		r.log.Error("reading views after an action", "err", err)
	}
	r.broadcastViews()
	// The views carry the turn and the action count; the room message goes out only when what it
	// shows changes (the game's status or phase), not with every action.
	if status != store.GameLive || step.Status.Phase != prevPhase {
		r.broadcastRoom()
	}
	r.updatePause()
	r.schedule()
	return nil
}

// adoptViews makes step's views, written into r.viewBufs[0] when it was large enough, the
// room's, and swaps the buffers: the one that held the views before holds nothing kept now (the
// views are copied into each connection's message), so the next step may write into it. A
// step whose views did not fit gets a spare as large as they were for the next one.
func (r *Room) adoptViews(step *sdk.Step) {
	r.views, r.spectator = step.Views, step.Spectator
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

// schedule arms the timers the current state needs: one per ruleset deadline, and one per bot
// (or covered) seat that is due to act.
func (r *Room) schedule() {
	want := map[string]bool{}
	if r.live() {
		for _, d := range r.status.Deadlines {
			want[d.ID] = true
			if _, ok := r.deadlines[d.ID]; ok {
				continue
			}
			gameID, id := r.game.ID, d.ID
			wait := time.Duration(d.At-r.now().UnixMilli()) * time.Millisecond
			r.deadlines[id] = r.cfg.Clock.AfterFunc(wait, func() { r.post(func() { r.fireDeadline(gameID, id) }) })
		}
	}
	for id, t := range r.deadlines {
		if !want[id] {
			t.Stop()
			delete(r.deadlines, id)
		}
	}
	r.stopBots()
	if !r.live() || r.room.PausedAt != nil {
		r.windowSince, r.windowKey = time.Time{}, ""
		return
	}
	botWait := r.botWait()
	for _, seat := range r.status.Actors {
		m := r.seatMember(seat)
		gameID, seq, s := r.game.ID, r.game.Seq, seat
		switch {
		case m == nil:
		case m.BotLevel > 0 || m.Covered:
			r.bots[seat] = r.cfg.Clock.AfterFunc(botWait, func() { r.post(func() { r.botMove(gameID, seq, s, false) }) })
		case r.room.TurnSeconds > 0 && seat == r.status.Turn:
			// The turn clock: a bot acts once for a player who lets it run out.
			wait := time.Duration(r.room.TurnSeconds) * time.Second
			r.bots[seat] = r.cfg.Clock.AfterFunc(wait, func() { r.post(func() { r.botMove(gameID, seq, s, true) }) })
		}
	}
}

// botWait is how long a bot waits before its move now: BotDelay, and while a window is open in
// which others than the player in turn may act, at least until ReactionTime has passed since it
// opened, so that a person at the table can call or catch first (a human plays in the game).
func (r *Room) botWait() time.Duration {
	wait := r.cfg.BotDelay
	if len(r.status.Actors) < 2 {
		r.windowSince, r.windowKey = time.Time{}, ""
		return wait
	}
	now := r.now()
	if key := fmt.Sprint(r.status.Actors[1:]); r.windowSince.IsZero() || key != r.windowKey {
		r.windowSince, r.windowKey = now, key
	}
	person := slices.ContainsFunc(r.members, func(m *store.Member) bool {
		return m.Role == store.MemberPlayer && m.Seat >= 0 && isHuman(m) && !m.Covered
	})
	if left := r.windowSince.Add(r.cfg.ReactionTime).Sub(now); person && left > wait {
		wait = left
	}
	return wait
}

func (r *Room) fireDeadline(gameID int64, id string) {
	if r.game == nil || r.game.ID != gameID {
		return
	}
	delete(r.deadlines, id)
	due := false
	for _, d := range r.status.Deadlines {
		due = due || d.ID == id
	}
	if !due {
		return
	}
	if err := r.apply(sdk.Action{Seat: sdk.Clock, Type: sdk.ActDeadline, Deadline: id}); err != nil {
		r.log.Error("a deadline's clock action failed", "deadline", id, "err", err)
	}
}

// botMove asks the bot for seat's action and applies it, if the game is still where it was when
// the move was scheduled. turnClock makes a bot act for a human whose turn clock ran out.
func (r *Room) botMove(gameID int64, seq, seat int, turnClock bool) {
	if !r.live() || r.game.ID != gameID || r.game.Seq != seq || r.room.PausedAt != nil {
		return
	}
	delete(r.bots, seat)
	m := r.seatMember(seat)
	if m == nil || (m.BotLevel == 0 && !m.Covered && !turnClock) {
		return
	}
	level := m.BotLevel
	if level == 0 {
		level = r.coverLevel()
	}
	seed := uint64(r.game.Seed) ^ uint64(seq+1)*0x9E3779B97F4A7C15 ^ uint64(seat+1)<<56
	var ans *sdk.BotAnswer
	err := r.call("bot", func(ctx context.Context) error {
		var err error
		ans, err = r.engine.Bot(ctx, &sdk.BotCall{State: r.game.State, Seat: seat, Level: level, Seed: seed})
		return err
	})
	if err != nil {
		r.log.Error("bot failed to choose", "seat", seat, "level", level, "err", err)
		return
	}
	if ans == nil || ans.Action == nil {
		return
	}
	a := *ans.Action
	a.Seat = seat
	if err := r.apply(a); err != nil {
		r.log.Error("bot action refused", "seat", seat, "action", a.Type, "err", err)
	}
}

// ---- presence, grace, pause ----

// updatePause pauses a live game when every seated human has dropped, resumes it when one is
// back, and abandons it once paused for the room's pause limit (D-12: option pause_minutes, else
// Config.PauseLimit).
func (r *Room) updatePause() {
	humans, anyOn := 0, false
	for _, m := range r.members {
		if m.Role == store.MemberPlayer && m.Seat >= 0 && isHuman(m) {
			humans++
			anyOn = anyOn || r.connected(*m.UserID)
		}
	}
	should := r.live() && humans > 0 && !anyOn
	switch {
	case should && r.room.PausedAt == nil:
		t := r.now().UTC()
		r.room.PausedAt = &t
		r.saveRoom()
		r.armPause()
		r.stopBots()
		r.broadcastRoom()
	case should && r.pause == nil:
		r.armPause()
	case !should && r.room.PausedAt != nil:
		r.room.PausedAt = nil
		if r.pause != nil {
			r.pause.Stop()
			r.pause = nil
		}
		r.saveRoom()
		r.broadcastRoom()
		r.schedule()
	}
}

// PauseOption is the room option that sets the room's own pause limit in minutes, for a ruleset
// that declares it (DRUGS, D-12); rooms without it wait Config.PauseLimit.
const PauseOption = "pause_minutes"

// pauseLimit is how long this room's paused game waits before it is abandoned.
func (r *Room) pauseLimit() time.Duration {
	var o map[string]any
	_ = json.Unmarshal([]byte(r.room.Options), &o)
	if m, ok := o[PauseOption].(float64); ok && m > 0 {
		return time.Duration(m * float64(time.Minute))
	}
	return r.cfg.PauseLimit
}

func (r *Room) armPause() {
	left := r.pauseLimit() - r.now().Sub(*r.room.PausedAt)
	gameID := r.game.ID
	r.pause = r.cfg.Clock.AfterFunc(left, func() { r.post(func() { r.abandon(gameID) }) })
}

func (r *Room) abandon(gameID int64) {
	r.pause = nil
	if !r.live() || r.game.ID != gameID || r.room.PausedAt == nil {
		return
	}
	t := r.now().UTC()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.cfg.Store.SetGameStatus(ctx, gameID, store.GameAbandoned, &t); err != nil {
		r.log.Error("abandoning a game", "err", err)
		return
	}
	r.game.Status, r.game.EndedAt = store.GameAbandoned, &t
	r.room.PausedAt = nil
	r.saveRoom()
	r.stopTimers()
	r.log.Info("game abandoned: every player dropped", "game", r.game.Number)
	r.broadcastRoom()
}

func (r *Room) saveRoom() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.cfg.Store.SaveRoom(ctx, r.room); err != nil {
		r.cfg.Metrics.Errors.WithLabelValues("store").Inc()
		r.log.Error("saving room", "err", err)
	}
}

func (r *Room) saveMembers(ms ...*store.Member) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.cfg.Store.SaveMembers(ctx, ms...); err != nil {
		r.cfg.Metrics.Errors.WithLabelValues("store").Inc()
		r.log.Error("saving members", "err", err)
		return errf(KindUnavailable, "store_failure", "the room could not be saved; try again")
	}
	return nil
}

func (r *Room) cover(memberID int64) {
	delete(r.graces, memberID)
	m := r.memberByID(memberID)
	if m == nil || m.UserID == nil || r.connected(*m.UserID) || m.Covered || !r.live() {
		return
	}
	m.Covered = true
	_ = r.saveMembers(m)
	r.log.Info("a bot covers a dropped player", "seat", m.Seat, "name", m.Name)
	r.broadcastRoom()
	r.schedule()
}

// ---- operations ----

// Info returns the room as its members see it.
func (r *Room) Info(ctx context.Context) (Info, error) {
	var in Info
	err := r.do(ctx, func() error { in = r.info(); return nil })
	return in, err
}

// Attach registers c as a connection of its user, who must be a member; it sends the hello, the
// recent chat and the user's views.
func (r *Room) Attach(ctx context.Context, u *store.User, c *Client, chat []ChatLine) error {
	return r.do(ctx, func() error {
		ms := r.membersOf(u.ID)
		if len(ms) == 0 {
			return errf(KindForbidden, "not_member", "you are not a member of room %s; join it first", r.code)
		}
		r.noteLook(u)
		r.clients[c] = struct{}{}
		r.cfg.Metrics.Connections.Inc()
		for _, m := range ms {
			if t, ok := r.graces[m.ID]; ok {
				t.Stop()
				delete(r.graces, m.ID)
			}
		}
		var uncovered []*store.Member
		for _, m := range ms {
			if m.Covered {
				m.Covered = false
				uncovered = append(uncovered, m)
			}
		}
		if len(uncovered) > 0 {
			_ = r.saveMembers(uncovered...)
		}
		in := r.info()
		hello := Outgoing{Type: MsgHello, Room: &in, You: r.you(u.ID)}
		if ms[0].Role != store.MemberPending {
			hello.Chats = chat
		}
		c.push(encode(hello))
		r.sendViews(c)
		r.noteMembers(ms...)
		r.updatePause()
		r.schedule()
		return nil
	})
}

// Detach unregisters c (its connection closed). A seated player who has no other connection gets
// the grace period before a bot covers the seat.
func (r *Room) Detach(c *Client) {
	r.post(func() {
		if _, ok := r.clients[c]; !ok {
			return
		}
		delete(r.clients, c)
		r.cfg.Metrics.Connections.Dec()
		c.drop(CloseGoingAway, "detached")
		if !r.connected(c.UserID) && r.live() {
			for _, m := range r.membersOf(c.UserID) {
				if m.Role == store.MemberPlayer && m.Seat >= 0 && !m.Covered {
					id := m.ID
					if t, ok := r.graces[id]; ok {
						t.Stop()
					}
					r.graces[id] = r.cfg.Clock.AfterFunc(r.cfg.Grace, func() { r.post(func() { r.cover(id) }) })
				}
			}
		}
		r.noteMembers(r.membersOf(c.UserID)...)
		r.updatePause()
	})
}

// Join makes u a member: seated if a seat is free and no game runs, a spectator (taking a seat at
// the next Deal) otherwise, or pending when the room requires approval. Someone joining with the
// name (case-insensitive) of a seated guest who has dropped gets that seat and its cards back
// (D-12), also when the game ended meanwhile. Joining again returns the existing membership.
func (r *Room) Join(ctx context.Context, u *store.User, spectate bool) (MemberInfo, error) {
	var out MemberInfo
	err := r.do(ctx, func() error {
		if u.Banned {
			return errf(KindForbidden, "banned", "this account is banned")
		}
		r.noteLook(u)
		if ms := r.membersOf(u.ID); len(ms) > 0 {
			out = r.memberInfo(ms[0])
			return nil
		}
		// A dropped guest's seat comes back by name (rejoin.go).
		if m, prev := r.droppedGuestSeat(ctx, u); m != nil {
			var err error
			out, err = r.rejoinByName(u, m, prev)
			return err
		}
		if r.room.Locked {
			return errf(KindConflict, "locked", "room %s is locked: it takes no new members", r.code)
		}
		uid := u.ID
		m := &store.Member{RoomID: r.room.ID, UserID: &uid, Name: u.DisplayName, Seat: -1}
		switch {
		case r.room.Approval && !r.isHost(u.ID):
			m.Role, m.WantsSeat = store.MemberPending, !spectate
		case spectate || r.room.Mode != store.ModeOnline:
			m.Role = store.MemberSpectator
		case !r.live() && r.freeSeat() >= 0:
			m.Role, m.Seat = store.MemberPlayer, r.freeSeat()
		default:
			m.Role, m.WantsSeat = store.MemberSpectator, true
		}
		if m.Role != store.MemberPlayer && r.spectators() >= r.cfg.MaxSpectators {
			return errf(KindConflict, "spectators_full", "room %s has as many spectators as it takes (%d)", r.code, r.cfg.MaxSpectators)
		}
		if err := r.saveMembers(m); err != nil {
			return err
		}
		r.members = append(r.members, m)
		out = r.memberInfo(m)
		r.noteMembers(m)
		return nil
	})
	return out, err
}

func (r *Room) memberInfo(m *store.Member) MemberInfo { return r.memberInfos([]*store.Member{m})[0] }

func (r *Room) hostOnly(u *store.User, what string) error {
	if !r.isHost(u.ID) {
		return errf(KindForbidden, "not_host", "only the host can %s", what)
	}
	return nil
}

// Decide approves or refuses a pending join request; host only.
func (r *Room) Decide(ctx context.Context, u *store.User, memberID int64, approve bool) error {
	return r.do(ctx, func() error {
		if err := r.hostOnly(u, "answer join requests"); err != nil {
			return err
		}
		m := r.memberByID(memberID)
		if m == nil || m.Role != store.MemberPending {
			return errf(KindNotFound, "no_request", "no join request %d in room %s", memberID, r.code)
		}
		if !approve {
			if err := r.deleteMember(m); err != nil {
				return err
			}
			r.dropUser(*m.UserID, "denied", "the host declined your request")
			r.broadcastRoom()
			return nil
		}
		if seat := r.claimedSeat(m); seat != nil {
			return r.grantClaim(m, seat)
		}
		old := *m
		switch {
		case m.WantsSeat && !r.live() && r.freeSeat() >= 0 && r.room.Mode == store.ModeOnline:
			m.Role, m.Seat, m.WantsSeat = store.MemberPlayer, r.freeSeat(), false
		default:
			m.Role = store.MemberSpectator
		}
		if err := r.saveMembers(m); err != nil {
			*m = old
			return err
		}
		r.broadcastRoom()
		for c := range r.clients {
			if c.UserID == *m.UserID {
				r.sendViews(c)
			}
		}
		return nil
	})
}

func (r *Room) deleteMember(m *store.Member) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.cfg.Store.DeleteMember(ctx, m.ID); err != nil {
		return errf(KindUnavailable, "store_failure", "the room could not be saved; try again")
	}
	r.members = slices.DeleteFunc(r.members, func(x *store.Member) bool { return x.ID == m.ID })
	return nil
}

// SetLocked locks or unlocks the room; a locked room takes no new members (P-3). Host only.
func (r *Room) SetLocked(ctx context.Context, u *store.User, locked bool) error {
	return r.do(ctx, func() error {
		if err := r.hostOnly(u, "lock the room"); err != nil {
			return err
		}
		r.room.Locked = locked
		r.saveRoom()
		r.broadcastRoom()
		return nil
	})
}

// remove takes m out of the room: in a running game its seat passes to a bot, otherwise the
// member is deleted.
func (r *Room) remove(m *store.Member) error {
	if r.live() && m.Role == store.MemberPlayer && m.Seat >= 0 {
		old := *m
		m.UserID, m.BotLevel, m.Covered, m.Name = nil, r.coverLevel(), false, "Bot for "+m.Name
		if err := r.saveMembers(m); err != nil {
			*m = old
			return err
		}
		return nil
	}
	return r.deleteMember(m)
}

// Kick removes a member (a player's seat in a running game passes to a bot); host only.
func (r *Room) Kick(ctx context.Context, u *store.User, memberID int64) error {
	return r.do(ctx, func() error {
		if err := r.hostOnly(u, "remove members"); err != nil {
			return err
		}
		m := r.memberByID(memberID)
		if m == nil {
			return errf(KindNotFound, "no_member", "no member %d in room %s", memberID, r.code)
		}
		if m.UserID != nil && *m.UserID == u.ID {
			return errf(KindInvalid, "kick_self", "the host cannot remove themselves; leave the room instead")
		}
		uid := m.UserID
		if err := r.remove(m); err != nil {
			return err
		}
		if uid != nil && len(r.membersOf(*uid)) == 0 {
			r.dropUser(*uid, "kicked", "the host removed you from the room")
		}
		r.broadcastRoom()
		r.updatePause()
		r.schedule()
		return nil
	})
}

// Leave takes u out of the room. When the host leaves, the host role passes to the longest-standing
// human member; a room with no human left closes.
func (r *Room) Leave(ctx context.Context, u *store.User) error {
	return r.do(ctx, func() error {
		ms := r.membersOf(u.ID)
		if len(ms) == 0 {
			return errf(KindForbidden, "not_member", "you are not a member of room %s", r.code)
		}
		for _, m := range ms {
			if err := r.remove(m); err != nil {
				return err
			}
		}
		r.dropUser(u.ID, "left", "you left the room")
		if r.isHost(u.ID) {
			next := r.nextHost()
			if next == nil {
				r.room.Status = store.RoomClosed
				r.saveRoom()
				r.log.Info("room closed: no human left")
				go r.stopAndForget()
				return nil
			}
			r.room.HostID = *next.UserID
			r.saveRoom()
		}
		r.broadcastRoom()
		r.updatePause()
		r.schedule()
		return nil
	})
}

func (r *Room) stopAndForget() {
	r.stopOnce.Do(func() { close(r.quit) })
}

func (r *Room) nextHost() *store.Member {
	var best *store.Member
	for _, m := range r.members {
		if !isHuman(m) || m.Role == store.MemberPending {
			continue
		}
		if best == nil || (m.Role == store.MemberPlayer && best.Role != store.MemberPlayer) {
			best = m
		}
	}
	return best
}

// SeatLook is a pass-the-device seat's name plate: nil fields stay as they are; an empty
// avatar and colour give the seat the account's look back.
type SeatLook struct {
	Name   *string
	Avatar *string
	Colour *string
}

// SetSeatLook names a seat of a pass-the-device room and gives it a look of its own, so that
// the players sharing the device tell their seats apart; host only.
func (r *Room) SetSeatLook(ctx context.Context, u *store.User, memberID int64, l SeatLook) (MemberInfo, error) {
	var out MemberInfo
	err := r.do(ctx, func() error {
		if err := r.hostOnly(u, "name the seats"); err != nil {
			return err
		}
		m := r.memberByID(memberID)
		if m == nil || m.Role != store.MemberPlayer || m.UserID == nil || *m.UserID != u.ID || r.room.Mode != store.ModeDevice {
			return errf(KindInvalid, "not_device_seat", "member %d is not a pass-the-device seat of room %s: other players choose their own name and look", memberID, r.code)
		}
		old := *m
		if l.Name != nil {
			m.Name = *l.Name
		}
		if l.Avatar != nil {
			m.Avatar = *l.Avatar
		}
		if l.Colour != nil {
			m.Colour = *l.Colour
		}
		if err := r.saveMembers(m); err != nil {
			*m = old
			return err
		}
		out = r.memberInfo(m)
		r.broadcastRoom()
		return nil
	})
	return out, err
}

// PassHost hands the host role to another human member; host only.
func (r *Room) PassHost(ctx context.Context, u *store.User, memberID int64) error {
	return r.do(ctx, func() error {
		if err := r.hostOnly(u, "pass the host role on"); err != nil {
			return err
		}
		m := r.memberByID(memberID)
		if m == nil || !isHuman(m) || m.Role == store.MemberPending {
			return errf(KindInvalid, "bad_member", "member %d cannot host room %s", memberID, r.code)
		}
		r.room.HostID = *m.UserID
		r.saveRoom()
		r.broadcastRoom()
		return nil
	})
}

// AddBot seats a bot of level in a free seat between games; host only.
func (r *Room) AddBot(ctx context.Context, u *store.User, level int) (MemberInfo, error) {
	var out MemberInfo
	err := r.do(ctx, func() error {
		if err := r.hostOnly(u, "add bots"); err != nil {
			return err
		}
		if r.desc == nil || !slices.Contains(r.desc.BotLevels, level) {
			levels := []int{}
			if r.desc != nil {
				levels = r.desc.BotLevels
			}
			return errf(KindInvalid, "bad_level", "no bot level %d for %s (levels: %v)", level, r.room.Ruleset, levels)
		}
		if r.live() {
			return errf(KindConflict, "game_running", "bots take seats between games")
		}
		seat := r.freeSeat()
		if seat < 0 {
			return errf(KindConflict, "full", "every seat of room %s is taken", r.code)
		}
		m := &store.Member{RoomID: r.room.ID, Name: fmt.Sprintf("Bot (level %d)", level), Role: store.MemberPlayer, Seat: seat, BotLevel: level}
		if err := r.saveMembers(m); err != nil {
			return err
		}
		r.members = append(r.members, m)
		out = r.memberInfo(m)
		r.broadcastRoom()
		return nil
	})
	return out, err
}

// Deal starts the next game (or, in a game between rounds, the next round); host only (P-5).
// Spectators waiting for a seat take the free ones first (P-4).
func (r *Room) Deal(ctx context.Context, u *store.User) error {
	return r.do(ctx, func() error { return r.deal(u) })
}

func (r *Room) deal(u *store.User) error {
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
	var step *sdk.Step
	err = r.call("start", func(ctx context.Context) error {
		var err error
		step, err = r.engine.NewGame(ctx, &sdk.NewGameRequest{Seats: len(seated), Options: opts, Seed: seed, Opener: opener, Now: nowMs, HouseRules: rules})
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
	g := &store.Game{RoomID: r.room.ID, Number: number, Ruleset: r.room.Ruleset, Seats: len(seated), Seed: int64(seed),
		Options: r.room.Options, SeatMembers: string(seatJSON), Opener: first, StartNow: nowMs,
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
	r.storedSeq, r.unapplied = 0, nil
	r.views, r.spectator = step.Views, step.Spectator
	if len(r.views) != step.Status.Seats {
		_ = r.refresh()
	}
	r.log.Info("game dealt", "game", number, "seats", len(seated))
	r.broadcastRoom()
	r.broadcastViews()
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

// Act applies an action for u (HTTP or WebSocket). Seat picks one of u's seats when u holds
// several. A refusal returns an error and changes nothing.
func (r *Room) Act(ctx context.Context, u *store.User, seat *int, a sdk.Action) error {
	return r.do(ctx, func() error {
		s, err := r.actingSeat(u.ID, seat)
		if err != nil {
			return err
		}
		a.Seat = s
		if err := r.checkAction(a); err != nil {
			return err
		}
		return r.apply(a)
	})
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
	state := r.game.State
	return engineErr(r.call("check", func(ctx context.Context) error {
		_, err := r.engine.Act(ctx, &sdk.ActRequest{State: state, Action: a, Now: r.now().UnixMilli(), NoViews: true})
		return err
	}))
}

// Say posts a chat line from u, a member who is not waiting for approval. Lines are trimmed,
// limited to ChatMax characters and ChatBurst lines per ChatWindow, stored, and sent as text.
func (r *Room) Say(ctx context.Context, u *store.User, text string) (ChatLine, error) {
	var line ChatLine
	err := r.do(ctx, func() error {
		var err error
		line, err = r.say(u, text)
		return err
	})
	return line, err
}

func (r *Room) say(u *store.User, text string) (ChatLine, error) {
	ms := r.membersOf(u.ID)
	if len(ms) == 0 {
		return ChatLine{}, errf(KindForbidden, "not_member", "you are not a member of room %s", r.code)
	}
	if ms[0].Role == store.MemberPending {
		return ChatLine{}, errf(KindForbidden, "pending", "your request to join waits for the host")
	}
	text = strings.TrimSpace(text)
	switch n := utf8.RuneCountInString(text); {
	case !utf8.ValidString(text):
		return ChatLine{}, errf(KindInvalid, "bad_chat", "a chat line must be UTF-8 text")
	case n == 0:
		return ChatLine{}, errf(KindInvalid, "bad_chat", "a chat line cannot be empty")
	case n > r.cfg.ChatMax:
		return ChatLine{}, errf(KindInvalid, "chat_too_long", "a chat line has at most %d characters, this one has %d", r.cfg.ChatMax, n)
	}
	now := r.now()
	recent := slices.DeleteFunc(r.chatTimes[u.ID], func(t time.Time) bool { return now.Sub(t) >= r.cfg.ChatWindow })
	if len(recent) >= r.cfg.ChatBurst {
		r.chatTimes[u.ID] = recent
		return ChatLine{}, errf(KindConflict, "chat_rate", "slow down: at most %d chat lines per %s", r.cfg.ChatBurst, r.cfg.ChatWindow)
	}
	r.chatTimes[u.ID] = append(recent, now)
	uid := u.ID
	msg := &store.ChatMessage{RoomID: r.room.ID, UserID: &uid, Name: u.DisplayName, Text: text, CreatedAt: now.UTC()}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.cfg.Store.AddChat(ctx, msg); err != nil {
		return ChatLine{}, errf(KindUnavailable, "store_failure", "the chat line could not be stored; try again")
	}
	line := ChatLine{ID: msg.ID, UserID: uid, Name: msg.Name, Text: text, At: msg.CreatedAt}
	b := encode(Outgoing{Type: MsgChatLine, Chat: &line})
	for c := range r.clients {
		if cm := r.membersOf(c.UserID); len(cm) > 0 && cm[0].Role != store.MemberPending {
			c.push(b)
		}
	}
	return line, nil
}

// Handle runs one message a client sent and answers that client only (the views of an accepted
// action go to everyone). It returns an error only when the room cannot take the message.
func (r *Room) Handle(ctx context.Context, u *store.User, c *Client, msg Incoming) error {
	start := time.Now()
	return r.do(ctx, func() error {
		reply := func(err error, ok []byte) {
			if err == nil {
				if ok != nil {
					c.push(ok)
				}
				return
			}
			code, reason := "error", err.Error()
			if e, isErr := AsError(err); isErr {
				code, reason = e.Code, e.Reason
			}
			c.push(errorMsg(msg.ID, code, reason))
		}
		switch msg.Type {
		case MsgAct:
			if msg.Action == nil {
				reply(errf(KindInvalid, "bad_message", "an act message needs an action"), nil)
				return nil
			}
			a := *msg.Action
			s, err := r.actingSeat(u.ID, msg.Seat)
			if err == nil {
				a.Seat = s
				err = r.checkAction(a)
			}
			if err == nil {
				err = r.apply(a)
			}
			if err == nil {
				r.cfg.Metrics.ActTime.Observe(time.Since(start).Seconds())
			}
			seq := 0
			if r.game != nil {
				seq = r.game.Seq
			}
			reply(err, encode(Outgoing{Type: MsgAccepted, ID: msg.ID, Seq: &seq}))
		case MsgCheck:
			if msg.Action == nil {
				reply(errf(KindInvalid, "bad_message", "a check message needs an action"), nil)
				return nil
			}
			err := r.check(u.ID, msg.Seat, *msg.Action)
			ok := err == nil
			out := Outgoing{Type: MsgCheckRes, ID: msg.ID, OK: &ok}
			if e, isErr := AsError(err); isErr {
				out.Code, out.Reason = e.Code, e.Reason
			} else if err != nil {
				out.Code, out.Reason = "error", err.Error()
			}
			c.push(encode(out))
		case MsgDeal:
			reply(r.deal(u), encode(Outgoing{Type: MsgAccepted, ID: msg.ID}))
		case MsgChat:
			_, err := r.say(u, msg.Text)
			reply(err, nil)
		case MsgPing:
			c.push(encode(Outgoing{Type: MsgPong, ID: msg.ID}))
		default:
			reply(errf(KindInvalid, "unknown_type", "unknown message type %q (want act, check, deal, chat or ping)", msg.Type), nil)
		}
		return nil
	})
}
