package cluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"cardhouse/platform/store"
)

// Keeper holds a node's room leases: it takes a room's lease when the node first needs the room,
// renews every lease it holds in the background (Run), and tells the node (onLost) when one is
// lost, so the node drops the room before anything else is asked of it there. A lease counts as
// held only until the last renewal's start plus its duration: the database's expiry is later than
// that, so a node that cannot reach the database stops acting on a room before another node may
// take it. Fencing (store.CommitFenced) makes that a courtesy: a node that acts anyway writes
// nothing.
type Keeper struct {
	st     *store.Store
	node   string
	ttl    time.Duration
	onLost func(roomID int64, err error)
	log    *slog.Logger
	now    func() time.Time
	m      *Metrics

	mu   sync.Mutex
	held map[int64]*heldLease
}

// clockSlack is taken off a lease's local validity. The database stamps a lease's expiry in whole
// milliseconds of its own clock (SQLite truncates julianday's float, PostgreSQL rounds), so the
// expiry it stores can lie up to a millisecond before the request's start plus the lease, and
// another node may take the room from that millisecond on: without the slack this node could
// still offer a fence for a lease the database already counts as expired (TestKeeper saw it on
// a loaded machine). A few milliseconds cover the rounding on both sides with room to spare.
const clockSlack = 5 * time.Millisecond

type heldLease struct {
	lease store.Lease
	valid time.Time // this node's clock: the lease is its own until then at least
}

// ErrLeaseExpired is the reason given to onLost for a lease the node could not renew in time.
var ErrLeaseExpired = errors.New("the room's lease could not be renewed in time")

// NewKeeper returns the keeper of node's leases, each taken for ttl and renewed three times per
// ttl. onLost (which may be nil) is called, from Run's goroutine, once per lease lost.
func NewKeeper(st *store.Store, node string, ttl time.Duration, onLost func(roomID int64, err error), log *slog.Logger) *Keeper {
	if log == nil {
		log = slog.Default()
	}
	if onLost == nil {
		onLost = func(int64, error) {}
	}
	return &Keeper{st: st, node: node, ttl: ttl, onLost: onLost, log: log, now: time.Now, m: NewMetrics(nil), held: map[int64]*heldLease{}}
}

// Instrument makes the keeper count its leases in m (RoomsOwned, LeasesTaken, LeasesLost,
// RenewalFailures). Call it before Take or Run.
func (k *Keeper) Instrument(m *Metrics) {
	if m != nil {
		k.m = m
	}
}

// Node is the name of the node whose leases these are.
func (k *Keeper) Node() string { return k.node }

// Take returns the fence of the room's lease, taking the lease when the node does not hold it.
// A room another node holds returns that node's lease and store.ErrLeaseHeld.
func (k *Keeper) Take(ctx context.Context, roomID int64) (store.Fence, error) {
	if f, ok := k.Fence(roomID); ok {
		return f, nil
	}
	start := k.now()
	// Bounded: a caller (the manager loads a room under its lock) must not wait on a lease row
	// locked by a node that stopped mid-transaction (the database ends that session after a
	// lease of idleness: serve's idle_in_transaction_session_timeout).
	actx, cancel := context.WithTimeout(ctx, k.ttl)
	defer cancel()
	l, err := k.st.AcquireLease(actx, roomID, k.node, k.ttl)
	if err != nil {
		return store.Fence{}, err
	}
	k.mu.Lock()
	k.held[roomID] = &heldLease{lease: l, valid: start.Add(k.ttl - clockSlack)}
	k.m.RoomsOwned.Set(float64(len(k.held)))
	k.mu.Unlock()
	k.m.LeasesTaken.Inc()
	k.log.Info("took a room's lease", "room_id", roomID, "epoch", l.Epoch)
	return l.Fence(), nil
}

// Fence returns the fence of the room's lease while the node holds it.
func (k *Keeper) Fence(roomID int64) (store.Fence, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	h := k.held[roomID]
	if h == nil || !k.now().Before(h.valid) {
		return store.Fence{}, false
	}
	return h.lease.Fence(), true
}

// Held returns the leases the node holds.
func (k *Keeper) Held() []store.Lease {
	k.mu.Lock()
	defer k.mu.Unlock()
	out := make([]store.Lease, 0, len(k.held))
	for _, h := range k.held {
		out = append(out, h.lease)
	}
	return out
}

// Release gives the room's lease up at once (the room was closed, or the node stops): another
// node may take it without waiting for its expiry.
func (k *Keeper) Release(ctx context.Context, roomID int64) error {
	k.mu.Lock()
	h := k.held[roomID]
	delete(k.held, roomID)
	k.m.RoomsOwned.Set(float64(len(k.held)))
	k.mu.Unlock()
	if h == nil {
		return nil
	}
	return k.st.ReleaseLease(ctx, h.lease)
}

// Fenced forgets the room's lease, which a commit of the room found taken by another node
// (store.ErrFenced), and counts it lost; a lease already forgotten (the renewal found it first)
// is not counted twice.
func (k *Keeper) Fenced(roomID int64) {
	k.mu.Lock()
	_, held := k.held[roomID]
	delete(k.held, roomID)
	k.m.RoomsOwned.Set(float64(len(k.held)))
	k.mu.Unlock()
	if held {
		k.m.LeasesLost.WithLabelValues("taken").Inc()
	}
}

// ReleaseAll gives every lease up (a graceful stop hands the rooms over).
func (k *Keeper) ReleaseAll(ctx context.Context) error {
	var errs []error
	for _, l := range k.Held() {
		if err := k.Release(ctx, l.RoomID); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Leave gives every lease up and deletes the node's row (store.NodeLeft): a graceful stop.
func (k *Keeper) Leave(ctx context.Context) error {
	return errors.Join(k.ReleaseAll(ctx), k.st.NodeLeft(ctx, k.node))
}

// Run renews the leases and writes the node's row (store.NodeSeen: the admin area's nodes page)
// every third of a lease until ctx ends.
func (k *Keeper) Run(ctx context.Context) {
	t := time.NewTicker(k.ttl / 3)
	defer t.Stop()
	k.seen(ctx, true)
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			k.renew(ctx)
			k.seen(ctx, false)
		}
	}
}

// seen writes the node's row; a failure is logged (the row is only shown, never relied on).
func (k *Keeper) seen(ctx context.Context, starting bool) {
	sctx, cancel := context.WithTimeout(ctx, k.ttl/3)
	defer cancel()
	if err := k.st.NodeSeen(sctx, k.node, k.ttl, starting); err != nil && ctx.Err() == nil {
		k.log.Warn("writing the node's row", "err", err)
	}
}

// renew renews every held lease once, in one round trip; a lease taken by another node, or one
// not renewed before its local validity ended, is dropped and reported.
func (k *Keeper) renew(ctx context.Context) {
	held := k.Held()
	if len(held) == 0 {
		return
	}
	start := k.now()
	rctx, cancel := context.WithTimeout(ctx, k.ttl/3)
	renewed, rerr := k.st.RenewLeases(rctx, k.node, held, k.ttl)
	cancel()
	if rerr != nil {
		k.m.RenewalFailures.Inc()
		k.log.Warn("renewing the room leases failed; trying again", "leases", len(held), "err", rerr)
	}
	for _, l := range held {
		err := rerr
		if err == nil {
			if exp, ok := renewed[l.RoomID]; ok {
				l.ExpiresMs = exp
			} else {
				err = fmt.Errorf("renewing room %d's lease (epoch %d): %w", l.RoomID, l.Epoch, store.ErrFenced)
			}
		}
		k.mu.Lock()
		h := k.held[l.RoomID]
		if h == nil || h.lease.Epoch != l.Epoch { // released or taken again meanwhile
			k.mu.Unlock()
			continue
		}
		var lost error
		reason := "taken"
		switch {
		case err == nil:
			h.lease, h.valid = l, start.Add(k.ttl-clockSlack)
		case errors.Is(err, store.ErrFenced):
			lost = err
		case !k.now().Before(h.valid):
			lost, reason = fmt.Errorf("%w: %w", ErrLeaseExpired, err), "expired"
		}
		if lost != nil {
			delete(k.held, l.RoomID)
			k.m.RoomsOwned.Set(float64(len(k.held)))
			k.m.LeasesLost.WithLabelValues(reason).Inc()
		}
		k.mu.Unlock()
		if lost != nil {
			k.log.Warn("lost a room's lease", "room_id", l.RoomID, "epoch", l.Epoch, "err", lost)
			k.onLost(l.RoomID, lost)
		}
	}
}
