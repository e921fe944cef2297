package room

import (
	"context"
	"errors"
	"slices"
	"time"

	"cardhouse/platform/cluster"
	"cardhouse/platform/store"
)

// Room ownership in a cluster (Config.Node). A room's actor runs on the node that holds the
// room's lease in the database (cluster.Keeper): the node takes it when it loads the room (a
// member's request, a reload at start, or the sweep below), and the room writes only through
// store.Fenced under it, so a node that lost the room (paused past its lease, cut off from the
// database) writes nothing more. The keeper renews the leases; a lost one stops the room's actor
// at once and its connections are closed with "going away", so that its clients reconnect. Every
// node sweeps for rooms whose games wait for an owner (their lease expired or was released) and
// takes them: a dead node's games go on elsewhere within about a lease's time, re-armed by resume
// (timers, bots, clocks) from the stored state and action log. A room's actor stopping hands its
// lease over at once (Manager.Close: a graceful stop).
type owning struct {
	keeper *cluster.Keeper
	cancel context.CancelFunc
	done   chan struct{}
}

func isElsewhere(err error) bool {
	e, ok := AsError(err)
	return ok && e.Code == "room_elsewhere"
}

func (m *Manager) startOwning() {
	ctx, cancel := context.WithCancel(context.Background())
	o := &owning{cancel: cancel, done: make(chan struct{})}
	o.keeper = cluster.NewKeeper(m.cfg.Store, m.cfg.Node, m.cfg.LeaseTTL, m.leaseLost, m.cfg.Logger)
	o.keeper.Instrument(m.cfg.ClusterMetrics)
	m.owning = o
	go func() {
		defer close(o.done)
		go o.keeper.Run(ctx)
		m.sweep(ctx)
	}()
}

// stopOwning ends the renewals and the sweep, gives every lease still held up (the rooms'
// actors have stopped: Close) and deletes the node's row.
func (m *Manager) stopOwning() {
	o := m.owning
	if o == nil {
		return
	}
	o.cancel()
	<-o.done
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := o.keeper.Leave(ctx); err != nil {
		m.cfg.Logger.Warn("releasing the room leases", "err", err)
	}
}

// own takes the room's lease for this node, on a node of a cluster (nil on a single node).
func (m *Manager) own(ctx context.Context, sr *store.Room) (*store.Fence, error) {
	if m.owning == nil {
		return nil, nil
	}
	f, err := m.owning.keeper.Take(ctx, sr.ID)
	if errors.Is(err, store.ErrLeaseHeld) {
		return nil, RunElsewhere(sr)
	}
	if err != nil {
		return nil, err
	}
	return &f, nil
}

// disown gives up the lease of a room whose actor has stopped (closed, or the node stops).
func (m *Manager) disown(r *Room) {
	if m.owning == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := m.owning.keeper.Release(ctx, r.room.ID); err != nil {
		r.log.Warn("releasing the room's lease", "err", err)
	}
}

// leaseLost stops the actor of a room whose lease another node has taken (or that could not be
// renewed in time).
func (m *Manager) leaseLost(roomID int64, err error) {
	if m.owning != nil {
		m.owning.keeper.Fenced(roomID) // a commit found it taken (the keeper has forgotten a lease it lost)
	}
	m.mu.Lock()
	var lost *Room
	for _, r := range m.rooms {
		if r.room.ID == roomID {
			lost = r
		}
	}
	m.mu.Unlock()
	if lost != nil {
		lost.log.Warn("the room's lease was lost: stopping its actor here", "err", err)
		m.cfg.Metrics.Errors.WithLabelValues("lease_lost").Inc()
		lost.stopAndForget()
	}
}

// RoomMoved says that a node took a room: its lease, under a new epoch. A node hearing it ends
// the sockets it relays to the room's previous owner at once (platform/server), rather than when
// that owner's heartbeats are found missing: their clients reconnect and land on the new owner.
type RoomMoved struct {
	Code   string `json:"code"`
	RoomID int64  `json:"room_id"`
	Node   string `json:"node"`
	Epoch  int64  `json:"epoch"`
}

// OnRoomMoved has fn called for every room a node of the cluster takes, this node included (on
// the manager's goroutines: fn must not block). Delivery is at most once, as every event: the
// relay's heartbeats remain the bound when one is lost.
func (m *Manager) OnRoomMoved(fn func(RoomMoved)) {
	m.movedMu.Lock()
	m.movedTo = append(m.movedTo, fn)
	m.movedMu.Unlock()
}

func (m *Manager) roomMoved(rm RoomMoved) {
	m.movedMu.Lock()
	fns := slices.Clone(m.movedTo)
	m.movedMu.Unlock()
	for _, fn := range fns {
		fn(rm)
	}
}

// tookRoom tells this node's watchers and every other node that this node took a room.
func (m *Manager) tookRoom(rm RoomMoved) {
	m.roomMoved(rm)
	m.publish(eventMoved, event{Moved: &rm})
}

// sweep takes, every eighth of a lease, the rooms whose live games have no owner: a dead node's
// rooms wait at most a lease for their leases to run out, then at most an eighth of a lease more
// (one query per node: with the default 10 s lease, every 1.25 s).
func (m *Manager) sweep(ctx context.Context) {
	t := time.NewTicker(m.cfg.LeaseTTL / 8)
	defer t.Stop()
	for {
		m.adoptOrphans(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (m *Manager) adoptOrphans(ctx context.Context) {
	rooms, err := m.cfg.Store.OrphanedRooms(ctx)
	if err != nil {
		if ctx.Err() == nil {
			m.cfg.Logger.Warn("looking for rooms without an owner", "err", err)
		}
		return
	}
	for i := range rooms {
		code := rooms[i].Code // read before load: the room's actor owns rooms[i] from then on
		if _, err := m.load(ctx, &rooms[i]); err != nil && !isElsewhere(err) && !errors.Is(err, ErrClosed) {
			m.cfg.Logger.Warn("taking a room without an owner", "room", code, "err", err)
		} else if err == nil {
			m.cfg.Logger.Info("took over a room without an owner", "room", code)
		}
	}
}
