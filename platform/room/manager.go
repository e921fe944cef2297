package room

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"cardhouse/platform/cluster"
	"cardhouse/platform/store"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/plugin"
)

// Config configures the room layer. Zero durations take the defaults named.
type Config struct {
	Store *store.Store
	// Engines are the variants by ruleset id (plugins, or in-process engines in tests).
	Engines map[string]engine.Engine
	// Plugins is the plugin folder a rescan adds rulesets from (nil: none; rulesets.go).
	Plugins PluginFolder
	Clock   Clock
	Logger  *slog.Logger
	Metrics *Metrics
	// BotDelay is how long a bot "thinks" before acting (default 0: at once; the server sets a
	// human-like delay).
	BotDelay time.Duration
	// ReactionTime is how long bots leave a person to react when a window opens in which others
	// than the player in turn may act (a catch-out, a LAST CARD call): while such a window is open
	// in a game with a human player, no bot acts before ReactionTime has passed since it opened
	// (default 0: only BotDelay; the server sets 2.5 s).
	ReactionTime time.Duration
	// Grace is how long a dropped player keeps the seat before a bot covers it (P-6; default 20 s).
	Grace time.Duration
	// PauseLimit is how long a game with every human dropped stays paused before it is abandoned
	// (D-12; default 5 min).
	PauseLimit time.Duration
	// CallTimeout bounds each call into an engine (default 10 s).
	CallTimeout time.Duration
	// QueueSize bounds a room's inbox and each connection's outbox (default 64).
	QueueSize int
	// ChatMax is the longest chat line in characters (default 500); ChatBurst lines per ChatWindow
	// (default 5 per 10 s) is the chat rate limit per member.
	ChatMax    int
	ChatBurst  int
	ChatWindow time.Duration
	// MaxSpectators bounds the members of a room who watch or wait for the host's approval
	// (default 200): every membership change reaches each of them.
	MaxSpectators int
	// MaxRoomsPerHost is how many open rooms one account may host at once (default
	// DefaultMaxRoomsPerHost; negative: no limit). Without it one guest could fill the lobby.
	MaxRoomsPerHost int
	// Node names this node of a cluster; empty (the default) is a single node, which takes no
	// leases. A node runs a room's actor only while it holds the room's lease, and the room then
	// writes through store.Fenced under it (ownership.go).
	Node string
	// LeaseTTL is how long a room's lease lasts without being renewed (default 10 s): about how
	// long a dead node's rooms wait before another node takes them.
	LeaseTTL time.Duration
	// Bus, on a node of a cluster, carries the cluster-wide events (events.go): a ban's
	// disconnect, a look change and an admin's plugin changes made on this node reach every
	// node, and theirs this one. Nil: they act on this node only (a single node).
	Bus cluster.Bus
	// ClusterMetrics counts the node's leases and events (default: not registered).
	ClusterMetrics *cluster.Metrics
	// SuspendAfter is how many failures of one house rule in one game suspend it for the rest of
	// that game (default DefaultSuspendAfter), faults.go.
	SuspendAfter int
	// CheckPlugin tunes the plugin processes house-rule checks run in (checkprocs.go): one per
	// ruleset served by a plugin process, launched from that process's spec when a check needs it,
	// never the process serving live games. The zero value takes plugin.Config's defaults.
	CheckPlugin plugin.Config
	// CheckIdle is how long a check process stays up after its last check (default 1 min):
	// a modder checks again within seconds, and an idle process costs memory.
	CheckIdle time.Duration
	// QuickWait is how long a quick-play table waits for players before bots take its empty
	// seats and it starts (default DefaultQuickWait; quick.go).
	QuickWait time.Duration
}

// DefaultMaxRoomsPerHost is the default of Config.MaxRoomsPerHost: a few tables to hop between,
// far below what could flood a lobby.
const DefaultMaxRoomsPerHost = 5

func (c *Config) defaults() {
	if c.Clock == nil {
		c.Clock = SystemClock{}
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.Metrics == nil {
		c.Metrics = NewMetrics(nil)
	}
	if c.Grace == 0 {
		c.Grace = 20 * time.Second
	}
	if c.QuickWait <= 0 {
		c.QuickWait = DefaultQuickWait
	}
	if c.PauseLimit == 0 {
		c.PauseLimit = 5 * time.Minute
	}
	if c.CallTimeout == 0 {
		c.CallTimeout = 10 * time.Second
	}
	if c.QueueSize == 0 {
		c.QueueSize = 64
	}
	if c.ChatMax == 0 {
		c.ChatMax = 500
	}
	if c.ChatBurst == 0 {
		c.ChatBurst = 5
	}
	if c.ChatWindow == 0 {
		c.ChatWindow = 10 * time.Second
	}
	if c.MaxSpectators == 0 {
		c.MaxSpectators = 200
	}
	if c.MaxRoomsPerHost == 0 {
		c.MaxRoomsPerHost = DefaultMaxRoomsPerHost
	}
	if c.LeaseTTL == 0 {
		c.LeaseTTL = 10 * time.Second
	}
	if c.ClusterMetrics == nil {
		c.ClusterMetrics = cluster.NewMetrics(nil)
	}
	if c.SuspendAfter <= 0 {
		c.SuspendAfter = DefaultSuspendAfter
	}
	if c.CheckIdle <= 0 {
		c.CheckIdle = time.Minute
	}
}

// Manager owns the live rooms: it creates them, reloads them at start and finds them by code.
type Manager struct {
	cfg Config
	// set holds the engines and their descriptions by ruleset id, replaced whole when a plugin
	// is added (rulesets.go); read it through engine, desc and rulesetIDs.
	set atomic.Pointer[rulesetSet]

	mu     sync.Mutex
	rooms  map[string]*Room
	loads  map[string]*roomLoad // rooms being loaded (load), by code
	closed bool
	wg     sync.WaitGroup
	// creating serialises counting a host's rooms with storing a new one (the room limit).
	creating sync.Mutex

	// disabled are the rulesets an admin disabled for new rooms (admin.go).
	disabled disabledSet
	// ready is the last answer of CheckRulesets (ready.go).
	ready readiness

	// owning is set on a node of a cluster (Config.Node; ownership.go).
	owning *owning
	// events is the subscription to the cluster-wide events (Config.Bus; events.go).
	events cluster.Subscription
	// instance names this manager in its events, so that it skips its own.
	instance string
	// reconciling stops the reconciliation loop (reconcile.go); nil on a single node.
	reconciling func()
	// checks are the processes house-rule checks run in (checkprocs.go).
	checks *checkProcs
	// movedTo are told of every room a node of the cluster takes (OnRoomMoved; ownership.go).
	movedMu sync.Mutex
	movedTo []func(RoomMoved)
}

// NewManager describes every engine (a ruleset that cannot describe itself is left out and
// logged) and returns a manager with no room running; call LoadAll to resume stored rooms.
func NewManager(ctx context.Context, cfg Config) (*Manager, error) {
	cfg.defaults()
	if cfg.Store == nil {
		return nil, errors.New("room: Config.Store is required")
	}
	m := &Manager{cfg: cfg, rooms: map[string]*Room{}, loads: map[string]*roomLoad{}, checks: newCheckProcs(cfg.CheckPlugin, cfg.CheckIdle)}
	set := &rulesetSet{engines: maps.Clone(cfg.Engines), descs: map[string]*engine.Description{}}
	if set.engines == nil {
		set.engines = map[string]engine.Engine{}
	}
	for id, e := range cfg.Engines {
		cctx, cancel := context.WithTimeout(ctx, cfg.CallTimeout)
		d, err := e.Describe(cctx)
		cancel()
		if err != nil {
			cfg.Logger.Error("ruleset cannot describe itself; not offered", "ruleset", id, "err", err)
			continue
		}
		set.descs[id] = d
	}
	m.set.Store(set)
	if cfg.Bus != nil {
		if err := m.startEvents(); err != nil {
			return nil, err
		}
		m.startReconciling()
	}
	if cfg.Node != "" {
		m.startOwning()
	}
	return m, nil
}

// Rulesets returns the descriptions of the rulesets rooms can be created with, by id order.
func (m *Manager) Rulesets() []*engine.Description {
	set := m.set.Load()
	ids := slices.Sorted(maps.Keys(set.descs))
	out := make([]*engine.Description, len(ids))
	for i, id := range ids {
		out[i] = set.descs[id]
	}
	return out
}

// LoadAll starts an actor for every open room in the store, resuming its game where it was (P-7).
func (m *Manager) LoadAll(ctx context.Context) error {
	rooms, err := m.cfg.Store.OpenRooms(ctx)
	if err != nil {
		return fmt.Errorf("listing rooms to reload: %w", err)
	}
	for i := range rooms {
		if _, err := m.load(ctx, &rooms[i]); err != nil && !isElsewhere(err) {
			m.cfg.Logger.Error("reloading room", "room", rooms[i].Code, "err", err)
		}
	}
	return nil
}

// Get returns the live room with code, loading it from the store if needed.
func (m *Manager) Get(ctx context.Context, code string) (*Room, error) {
	code = strings.ToUpper(strings.TrimSpace(code))
	m.mu.Lock()
	r, ok := m.rooms[code]
	m.mu.Unlock()
	if ok {
		select {
		case <-r.quit:
			// Its actor is stopping (the room closed, its lease was lost, the server stops): once it
			// is gone the store says what the room is now, rather than the stopping actor's "closed".
			<-r.done
		default:
			return r, nil
		}
	}
	sr, err := m.cfg.Store.RoomByCode(ctx, code)
	if errors.Is(err, store.ErrNotFound) || (err == nil && sr.Status != store.RoomOpen) {
		return nil, errf(KindNotFound, "no_room", "there is no open room with code %q", code)
	}
	if err != nil {
		return nil, err
	}
	return m.load(ctx, sr)
}

// Live returns the rooms whose actors run, in no order.
func (m *Manager) Live() []*Room {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Collect(maps.Values(m.rooms))
}

// Lobby states of a listed room.
const (
	LobbyWaiting = "waiting" // no game running: a new member takes a free seat
	LobbyPlaying = "playing" // a game runs: a new member watches and sits at the next deal
)

// LobbyRoom is a room as the lobby lists it: its Info and whether it waits or plays.
type LobbyRoom struct {
	Info
	State string `json:"state"`
}

// Lobby lists the open online rooms someone can still sit down in, by code: not locked, with a
// seat free, and not finished or abandoned (a game over, a game given up, or paused with every
// player gone). Each says whether it waits for players or plays.
func (m *Manager) Lobby(ctx context.Context) []LobbyRoom {
	var out []LobbyRoom
	for _, r := range m.Live() {
		info, err := r.Info(ctx)
		if err != nil || info.Mode != store.ModeOnline || info.Private || info.Locked || info.Status != store.RoomOpen || info.Paused {
			continue
		}
		seated := 0
		for _, mi := range info.Members {
			if mi.Role == store.MemberPlayer && mi.Seat >= 0 {
				seated++
			}
		}
		if seated >= info.Capacity {
			continue
		}
		state := LobbyWaiting
		if info.Game != nil {
			switch info.Game.Status {
			case store.GameLive:
				state = LobbyPlaying
			default: // over or abandoned
				continue
			}
		}
		out = append(out, LobbyRoom{Info: info, State: state})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

// Close stops every room after it finishes the work already queued, closing its connections with
// "going away".
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	rooms := slices.Collect(maps.Values(m.rooms))
	m.mu.Unlock()
	for _, r := range rooms {
		r.stop()
	}
	m.wg.Wait()
	m.stopReconciling()
	m.stopEvents()
	m.stopOwning()
	m.checks.close()
}

// roomLoad is a room being loaded (load): a second caller for the same room waits for it rather
// than load the room again.
type roomLoad struct {
	done chan struct{}
	r    *Room
	err  error
}

// load returns the live room of sr, loading it when no actor runs it: its lease taken (on a node
// of a cluster) and its members and game read, off the manager's lock, so that one slow load (a
// lease row another node holds locked, a busy database) holds up no other room; callers of the
// same room share one load.
func (m *Manager) load(ctx context.Context, sr *store.Room) (*Room, error) {
	for {
		m.mu.Lock()
		if m.closed {
			m.mu.Unlock()
			return nil, ErrClosed
		}
		if r, ok := m.rooms[sr.Code]; ok {
			m.mu.Unlock()
			return r, nil
		}
		if l, ok := m.loads[sr.Code]; ok {
			m.mu.Unlock()
			select {
			case <-l.done:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if l.err != nil && ctx.Err() == nil && (errors.Is(l.err, context.Canceled) || errors.Is(l.err, context.DeadlineExceeded)) {
				continue // the other caller gave up (its request went away): load it for this one
			}
			return l.r, l.err
		}
		l := &roomLoad{done: make(chan struct{})}
		m.loads[sr.Code] = l
		m.wg.Add(1) // Close waits for a load under way
		m.mu.Unlock()
		l.r, l.err = m.loadRoom(ctx, sr)
		close(l.done)
		m.wg.Done()
		return l.r, l.err
	}
}

// loadRoom is load's work for one caller: it takes the room's lease, reads the room and starts
// its actor, unless the manager closed meanwhile.
func (m *Manager) loadRoom(ctx context.Context, sr *store.Room) (*Room, error) {
	fence, err := m.own(ctx, sr)
	if err != nil {
		m.loaded(sr.Code)
		return nil, err
	}
	release := func() {
		if fence != nil {
			_ = m.owning.keeper.Release(context.WithoutCancel(ctx), sr.ID)
		}
	}
	r, err := newRoom(ctx, m, sr, fence)
	if err != nil {
		m.loaded(sr.Code)
		release()
		return nil, err
	}
	m.mu.Lock()
	delete(m.loads, sr.Code)
	if m.closed {
		m.mu.Unlock()
		release()
		return nil, ErrClosed
	}
	m.rooms[sr.Code] = r
	m.cfg.Metrics.Rooms.Inc()
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		r.run()
	}()
	r.post(r.resume)
	if sr.Quick {
		r.post(r.armQuick) // a quick table reloaded (a restart, another node) waits again (quick.go)
	}
	m.mu.Unlock()
	if fence != nil { // told off the manager's lock: a watcher closes sockets
		go m.tookRoom(RoomMoved{Code: sr.Code, RoomID: sr.ID, Node: m.cfg.Node, Epoch: fence.Epoch})
	}
	return r, nil
}

// loaded forgets a load that ended without a room.
func (m *Manager) loaded(code string) {
	m.mu.Lock()
	delete(m.loads, code)
	m.mu.Unlock()
}

func (m *Manager) forget(r *Room) {
	m.mu.Lock()
	if m.rooms[r.code] == r {
		delete(m.rooms, r.code)
		m.cfg.Metrics.Rooms.Dec()
	}
	m.mu.Unlock()
	m.disown(r)
}

// CreateRequest asks for a new room.
type CreateRequest struct {
	Ruleset string         `json:"ruleset"`
	Options map[string]any `json:"options"`
	// Mode is "online" (default), "computer" or "device".
	Mode string `json:"mode"`
	// Seats is the number of seats; default the ruleset's maximum (online), 1 + len(Bots)
	// (computer) or the ruleset's minimum (device).
	Seats int `json:"seats"`
	// Bots are the levels of the bot seats of a computer room, seat 1 onwards.
	Bots []int `json:"bots"`
	// Approval makes join requests wait for the host's yes (P-3).
	Approval bool `json:"approval"`
	// TurnSeconds, when set (5 to 600), is the room's turn clock: a seated player who has not
	// acted in that time has a bot act for them once.
	TurnSeconds int `json:"turn_seconds"`
	// HouseRules are the house rules the room starts with, checked as EnableHouseRule checks them.
	HouseRules []HouseRuleChoice `json:"house_rules,omitempty"`
	// Private rooms (online only) are reached by their code and never listed in the lobby.
	Private bool `json:"private"`
	// Quick marks a quick-play table (online, public): it deals by itself when full or after
	// Config.QuickWait, bots taking the empty seats (quick.go). Its seats default to QuickSeats.
	Quick bool `json:"-"`
}

// codeLetters are the letters of room codes: A-Z without the look-alikes I, L and O.
const codeLetters = "ABCDEFGHJKMNPQRSTUVWXYZ"

// CodeLength is the number of letters of a room code (P-2).
const CodeLength = 6

func newCode() string {
	var b [CodeLength]byte
	_, _ = rand.Read(b[:])
	for i := range b {
		b[i] = codeLetters[int(b[i])%len(codeLetters)]
	}
	return string(b[:])
}

// Create validates req and opens a room hosted by host, who takes seat 0.
func (m *Manager) Create(ctx context.Context, host *store.User, req CreateRequest) (*Room, error) {
	if err := m.checkEnabled(req.Ruleset); err != nil {
		return nil, err
	}
	d, ok := m.desc(req.Ruleset)
	if !ok {
		return nil, errf(KindInvalid, "unknown_ruleset", "no ruleset %q on this server (it has: %s)", req.Ruleset, strings.Join(m.rulesetIDs(), ", "))
	}
	if req.Mode == "" {
		req.Mode = store.ModeOnline
	}
	var fieldErrs sdk.OptionErrors
	switch req.Mode {
	case store.ModeOnline:
		if len(req.Bots) > 0 {
			fieldErrs = append(fieldErrs, sdk.OptionError{Field: "bots", Reason: "bots are set for computer rooms; an online host adds bots to seats instead"})
		}
		if req.Seats == 0 {
			req.Seats = d.MaxSeats
			if req.Quick {
				req.Seats = max(d.MinSeats, min(d.MaxSeats, QuickSeats))
			}
		}
		if req.Quick && req.Private {
			fieldErrs = append(fieldErrs, sdk.OptionError{Field: "private", Reason: "a quick-play table is public"})
		}
	case store.ModeComputer:
		if len(req.Bots) == 0 {
			fieldErrs = append(fieldErrs, sdk.OptionError{Field: "bots", Reason: "a computer room needs at least one bot level"})
		}
		for i, lvl := range req.Bots {
			if len(d.BotLevels) == 0 {
				fieldErrs = append(fieldErrs, sdk.OptionError{Field: "bots", Reason: d.Name + " has no bots"})
				break
			}
			if !slices.Contains(d.BotLevels, lvl) {
				fieldErrs = append(fieldErrs, sdk.OptionError{Field: fmt.Sprintf("bots[%d]", i), Reason: fmt.Sprintf("no bot level %d (levels: %v)", lvl, d.BotLevels)})
			}
		}
		if req.Seats == 0 {
			req.Seats = 1 + len(req.Bots)
		} else if req.Seats != 1+len(req.Bots) {
			fieldErrs = append(fieldErrs, sdk.OptionError{Field: "seats", Reason: fmt.Sprintf("a computer room has you and its bots: %d seats, got %d", 1+len(req.Bots), req.Seats)})
		}
	case store.ModeDevice:
		if req.Seats == 0 {
			req.Seats = d.MinSeats
		}
	default:
		fieldErrs = append(fieldErrs, sdk.OptionError{Field: "mode", Reason: fmt.Sprintf("want online, computer or device, got %q", req.Mode)})
	}
	if req.TurnSeconds != 0 && (req.TurnSeconds < 5 || req.TurnSeconds > 600) {
		fieldErrs = append(fieldErrs, sdk.OptionError{Field: "turn_seconds", Reason: fmt.Sprintf("want 0 (no clock) or 5 to 600 seconds, got %d", req.TurnSeconds)})
	}
	raw := maps.Clone(req.Options)
	if raw == nil {
		raw = map[string]any{}
	}
	// L-8: online rooms of a ruleset with a last_card_mode option play it "auto" unless the host
	// chose otherwise.
	if req.Mode == store.ModeOnline {
		for _, o := range d.Options {
			if o.Name == "last_card_mode" && slices.Contains(o.Choices, "auto") {
				if _, given := raw[o.Name]; !given {
					raw[o.Name] = "auto"
				}
			}
		}
	}
	opts, err := sdk.CheckOptions(d.Info, nil, req.Seats, raw)
	if err != nil {
		var oe sdk.OptionErrors
		if !errors.As(err, &oe) {
			return nil, err
		}
		fieldErrs = append(fieldErrs, oe...)
	}
	if len(fieldErrs) > 0 {
		return nil, fieldErrs
	}
	// A trial deal runs the ruleset's own cross-field checks (OptionChecker) for this many seats.
	eng := m.engine(req.Ruleset)
	cctx, cancel := context.WithTimeout(ctx, m.cfg.CallTimeout)
	_, err = eng.NewGame(cctx, &engine.NewGameRequest{Seats: req.Seats, Options: map[string]any(opts), Seed: 1, NoViews: true})
	cancel()
	if re, ok := sdk.AsRefusal(err); ok {
		return nil, sdk.OptionErrors{{Field: "options", Reason: re.Reason}}
	} else if err != nil {
		return nil, errf(KindUnavailable, "engine", "ruleset %s failed to check the options: %v", req.Ruleset, err)
	}
	optJSON, _ := json.Marshal(opts)
	// The form's house rules, checked as enabling them would be (houserules.go).
	enabled, err := m.formHouseRules(ctx, host, req, opts)
	if err != nil {
		return nil, err
	}

	uid := host.ID
	members := []*store.Member{{UserID: &uid, Name: host.DisplayName, Role: store.MemberPlayer, Seat: 0}}
	switch req.Mode {
	case store.ModeComputer:
		for i, lvl := range req.Bots {
			members = append(members, &store.Member{Name: botName(members), Role: store.MemberPlayer, Seat: i + 1, BotLevel: lvl})
		}
	case store.ModeDevice:
		for i := 1; i < req.Seats; i++ {
			members = append(members, &store.Member{UserID: &uid, Name: fmt.Sprintf("Player %d", i+1), Role: store.MemberPlayer, Seat: i})
		}
	}
	m.creating.Lock()
	defer m.creating.Unlock()
	if limit := m.cfg.MaxRoomsPerHost; limit > 0 {
		codes, err := m.cfg.Store.OpenRoomsHostedBy(ctx, host.ID)
		if err != nil {
			return nil, err
		}
		if len(codes) >= limit {
			return nil, errf(KindConflict, "too_many_rooms", "You already host %d open rooms (%s), the most one player may have: leave one of them before opening another", len(codes), strings.Join(codes, ", "))
		}
	}
	for range 10 {
		sr := &store.Room{Code: newCode(), HostID: host.ID, Ruleset: req.Ruleset, Options: string(optJSON), Mode: req.Mode,
			Approval: req.Approval, Capacity: req.Seats, TurnSeconds: req.TurnSeconds, Status: store.RoomOpen,
			Private: req.Private && req.Mode == store.ModeOnline, Quick: req.Quick && req.Mode == store.ModeOnline}
		for _, mem := range members {
			mem.ID = 0
		}
		err := m.cfg.Store.CreateRoomWithHouseRules(ctx, sr, members, enabled)
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		if err != nil {
			return nil, err
		}
		r, err := m.load(ctx, sr)
		if err == nil && sr.Quick {
			err = r.do(ctx, func() error { r.armQuick(); return nil })
		}
		return r, err
	}
	return nil, errors.New("room: could not find a free room code")
}

// NoteLook shows user u's new avatar and colour in every live room u is a member of, at once
// (a room otherwise learns a look when u joins or connects), on this node and, in a cluster, on
// every other (events.go).
func (m *Manager) NoteLook(ctx context.Context, u *store.User) {
	m.noteLookHere(ctx, u)
	m.publish(eventLook, event{User: u.ID, Avatar: u.Avatar, Colour: u.Colour})
}

func (m *Manager) noteLookHere(ctx context.Context, u *store.User) {
	for _, r := range m.Live() {
		_ = r.do(ctx, func() error {
			if len(r.membersOf(u.ID)) > 0 {
				r.noteLook(u)
				r.broadcastRoom()
			}
			return nil
		})
	}
}

// DisconnectUser closes every connection of user uid in every live room with reason (a ban), on
// this node and, in a cluster, on every other (events.go): the owner of each room closes its
// connections, relayed ones included, whatever node their sockets are on. Memberships stay; a
// seated player's seat is covered after the grace period as for any drop.
func (m *Manager) DisconnectUser(ctx context.Context, uid int64, code, reason string) {
	m.disconnectHere(ctx, uid, code, reason)
	m.publish(eventDisconnect, event{User: uid, Code: code, Reason: reason})
}

func (m *Manager) disconnectHere(ctx context.Context, uid int64, code, reason string) {
	for _, r := range m.Live() {
		r.disconnect(ctx, uid, code, reason)
	}
}

// disconnect closes user uid's connections to the room with a bye of code and reason, and
// reports whether it had any.
func (r *Room) disconnect(ctx context.Context, uid int64, code, reason string) bool {
	had := false
	_ = r.do(ctx, func() error {
		if had = r.connected(uid); had {
			r.dropUser(uid, code, reason)
			r.broadcastRoom()
			r.updatePause()
		}
		return nil
	})
	return had
}
