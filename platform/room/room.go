package room

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"cardhouse/platform/store"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
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
	room *store.Room
	// counters are the per-action metric series of the room's ruleset (game.go, counted).
	counters *roomCounters
	desc     *engine.Description
	engine   engine.Engine
	// Each concern of the room keeps its state in a part of its own, named after it and kept by
	// the methods of its file: the current game (game.go), the members (membership.go, members.go,
	// rejoin.go), the connections (connections.go) and the timers (timers.go).
	roomGame
	roomMembers
	roomConns
	roomTimers
	roomFaults
	// houseRules are the room's enabled house rules; gameRules name the current game's pinned
	// versions ("name vN"), houserules.go.
	houseRules []store.EnabledHouseRule
	gameRules  []string
	// gameRuleOwners maps the current game's rules to their owners, who see what a rule prints
	// (forwardHouseLog).
	gameRuleOwners map[string]int64
}

// roomGame is the room's current game as the actor holds it (game.go).
type roomGame struct {
	game      *store.Game
	status    sdk.Status
	views     [][]byte
	spectator []byte
	// viewGen counts the times views and spectator were replaced (a step, a deal, a refresh): a
	// connection holding the views of the generation before an action's is sent its patches
	// (patches.go), any other a full view.
	viewGen int
	// patchBuf holds the patches of the last sending of views, one after another (patches.go).
	patchBuf []byte
	// stepPatches are the engine's patches of the last step, when they apply (patches.go).
	stepPatches stepPatches
	// viewBufs are the two buffers an action's views are written into (engine.ActRequest.ViewBuf),
	// in turn: viewBufs[0] is passed to the next Act and holds nothing the room keeps; the views
	// of the last adopted step may lie in viewBufs[1]. Swapping them when a step's views are
	// adopted means a live game allocates nothing for its views (adoptViews).
	viewBufs [2][]byte
	// lazySteps are the patches of the lean steps since views and spectator were last held whole,
	// oldest first (lazy.go): the game's views are those with the patches applied (materialise).
	// lazyBytes are their bytes; lazyActions are the seats' open actions as the last lean step
	// gave them, valid while lazySteps holds steps. lazyBufs are the two buffers materialised
	// views are written into, in turn.
	lazySteps   []pendingStep
	lazyBytes   int
	lazyActions [][]byte
	lazyBufs    [2][]byte
	// broken is why the views and status are not the game's (a failed engine call, or stored
	// actions still to replay): refresh reads them again before the next use.
	broken error
	// storedSeq is the seq of the game's state in the store (Game.Seq there); unapplied are the
	// stored actions after it not yet applied to r.game.State (after a restart), which refresh
	// replays first.
	storedSeq int
	unapplied []store.ActionRecord
	// tail are the accepted actions after r.game.State (a sticky engine sends a state back only
	// when it is stored): r.game.State is the game after r.game.Seq-len(tail) actions (sticky.go).
	tail []engine.Logged
	// lastMove is when the game last moved: its newest accepted action, or its start.
	lastMove time.Time
	// epoch is drawn when the room is loaded; it keeps the room's game keys apart from any other
	// copy's in a sticky engine (gameKey).
	epoch uint64
	// leaseEpoch is the epoch of the node's lease on the room (a node of a cluster; 0 otherwise).
	leaseEpoch int64
}

// roomMembers are the room's members and what is pending about them (membership.go).
type roomMembers struct {
	members []*store.Member
	// looks are the members' looks as last seen (look.go).
	looks map[int64]look
	// claims are the pending members asking the host for a dropped guest's seat by name (member
	// id -> the seat's member id), rejoin.go. Kept in memory: after a restart a claim is an
	// ordinary join request.
	claims map[int64]int64
	// asks are the players asking the host for the next round or game (member ids), asknext.go.
	asks map[int64]bool
	// pending are the membership changes not yet sent (members.go).
	pending memberChanges
	// bans are the users the room keeps out after a kick, by user id (kickban.go).
	bans map[int64]store.RoomBan
}

// roomConns are the room's live connections (connections.go) and their chat rate (chat.go).
type roomConns struct {
	clients   map[*Client]struct{}
	chatTimes map[int64][]time.Time
}

// roomTimers are the room's timers, all on the Config's Clock (timers.go).
type roomTimers struct {
	deadlines map[string]Timer // the game's deadlines, by id
	bots      map[int]Timer    // a bot's (or a turn clock's) move, by seat
	graces    map[int64]Timer  // a dropped player's grace period, by member
	pause     Timer            // the abandon timer of a paused game
	// quickTimer deals a quick room that is not full at quickAt (quick.go).
	quickTimer Timer
	quickAt    *time.Time
	// windowSince is when the status began to list the actors besides the player in turn that
	// it lists now (a catch-out or LAST CARD window), windowKey those seats; zero while it lists
	// none (Config.ReactionTime).
	windowSince time.Time
	windowKey   string
}

// newRoom loads a room; fence, when set, is the node's lease on it, under which every write of
// the room is made (store.Fenced).
func newRoom(ctx context.Context, m *Manager, sr *store.Room, fence *store.Fence) (*Room, error) {
	ms, err := m.cfg.Store.Members(ctx, sr.ID)
	if err != nil {
		return nil, fmt.Errorf("loading members of room %s: %w", sr.Code, err)
	}
	cfg := &m.cfg
	if fence != nil {
		c := m.cfg
		c.Store = m.cfg.Store.Fenced(*fence)
		cfg = &c
	}
	r := &Room{
		m: m, cfg: cfg, code: sr.Code, log: m.cfg.Logger.With("room", sr.Code),
		inbox: make(chan func(), m.cfg.QueueSize), quit: make(chan struct{}), done: make(chan struct{}),
		room: sr, desc: m.descOrNil(sr.Ruleset), engine: m.engine(sr.Ruleset),
		roomMembers: roomMembers{members: ms, looks: map[int64]look{}, claims: map[int64]int64{}, asks: map[int64]bool{}},
		roomConns:   roomConns{clients: map[*Client]struct{}{}, chatTimes: map[int64][]time.Time{}},
		roomTimers:  roomTimers{deadlines: map[string]Timer{}, bots: map[int]Timer{}, graces: map[int64]Timer{}},
	}
	if fence != nil {
		r.leaseEpoch = fence.Epoch
	}
	var epoch [8]byte
	_, _ = rand.Read(epoch[:]) // crypto/rand.Read never fails on supported platforms
	r.epoch = binary.LittleEndian.Uint64(epoch[:])
	if sr.GameID != nil {
		g, err := m.cfg.Store.GameByID(ctx, *sr.GameID)
		if err != nil {
			return nil, fmt.Errorf("loading the game of room %s: %w", sr.Code, err)
		}
		r.game, r.storedSeq, r.lastMove = g, g.Seq, g.StartedAt
		if g.LastSeq > 0 {
			last, err := m.cfg.Store.ActionsAfter(ctx, g.ID, g.LastSeq-1)
			if err != nil {
				return nil, fmt.Errorf("loading the last action of room %s's game: %w", sr.Code, err)
			}
			if len(last) > 0 {
				r.lastMove = last[len(last)-1].CreatedAt
			}
		}
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
	if err := r.loadBans(ctx); err != nil {
		return nil, err
	}
	return r, nil
}

// Code returns the room's code.
func (r *Room) Code() string { return r.code }

// LeaseEpoch is the epoch of the lease this node runs the room under, on a node of a cluster
// (0 on a single node): a relayed socket's edge keeps it, to tell a later owner's RoomMoved.
func (r *Room) LeaseEpoch() int64 { return r.leaseEpoch }

func (r *Room) now() time.Time { return r.cfg.Clock.Now() }

func (r *Room) live() bool { return r.game != nil && r.game.Status == store.GameLive }

func (r *Room) isHost(uid int64) bool { return r.room.HostID == uid }
