package room

import (
	"context"
	"errors"
	"maps"
	"slices"
	"time"

	"cardhouse/platform/cluster"
	"cardhouse/platform/store"
)

// Events between nodes (events.go) are at most once: a node whose broker connection was down
// misses what was published meanwhile. What they make take effect is in the database first, so a
// node of a cluster reconciles its live rooms with the database whenever its bus connection comes
// back, and every reconcileEvery besides (a message the broker dropped while connected): the
// connections of accounts banned or deleted since are closed as the ban's event would have, the
// members' looks are read again, and the rulesets disabled for new rooms are read again. Each
// step is idempotent: what already took effect is left as it is. Two events leave nothing in the
// database to reconcile from and stay at most once: an admin's plugin restart (a node that missed
// it keeps its process, which serves on) and a password reset's sign-out (the socket closes at its
// next reconnection, which the reset's deleted session refuses).

// reconcileEvery is how often a node reconciles while its bus stays connected.
const reconcileEvery = 30 * time.Second

// reconcilePoll is how often the node looks at its bus connection: a reconnection is reconciled
// within this of it.
const reconcilePoll = 250 * time.Millisecond

// startReconciling starts the loop (a node of a cluster only).
func (m *Manager) startReconciling() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	m.reconciling = func() { cancel(); <-done }
	go func() {
		defer close(done)
		t := time.NewTicker(reconcilePoll)
		defer t.Stop()
		up, last := true, time.Now()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			now := cluster.Connected(m.cfg.Bus)
			if now && (!up || time.Since(last) >= reconcileEvery) {
				rctx, cancel := context.WithTimeout(ctx, eventTimeout)
				n := m.reconcile(rctx)
				cancel()
				if !up {
					m.cfg.Logger.Info("reconciled with the database after the bus came back", "closed", n)
				}
				last = time.Now()
			}
			up = now
		}
	}()
}

func (m *Manager) stopReconciling() {
	if m.reconciling != nil {
		m.reconciling()
	}
}

// reconcile brings this node's live rooms in line with the database (above) and returns how many
// users' connections it closed.
func (m *Manager) reconcile(ctx context.Context) int {
	users := map[int64]bool{}
	for _, r := range m.Live() {
		_ = r.do(ctx, func() error {
			for c := range r.clients {
				users[c.UserID] = true
			}
			for _, mem := range r.members {
				if mem.UserID != nil {
					users[*mem.UserID] = true
				}
			}
			return nil
		})
	}
	closed := 0
	for _, uid := range slices.Sorted(maps.Keys(users)) {
		u, err := m.cfg.Store.UserByID(ctx, uid)
		switch {
		case errors.Is(err, store.ErrNotFound):
			continue
		case err != nil:
			m.cfg.Logger.Warn("reconciling: reading a user", "user", uid, "err", err)
			continue
		case u.Banned:
			// A deleted account is banned too: it leaves the rooms, as the deletion's event does.
			if deleted, err := m.cfg.Store.Deleted(ctx, uid); err == nil && deleted {
				m.removeHere(ctx, uid, "deleted", "this account was deleted")
				if m.connectedHere(ctx, uid) {
					m.disconnectHere(ctx, uid, "deleted", "this account was deleted")
				}
				closed++
			} else if m.connectedHere(ctx, uid) {
				m.disconnectHere(ctx, uid, "banned", "this account is banned")
				closed++
			}
		default:
			m.noteLookIfChanged(ctx, u)
		}
	}
	if ds, err := m.cfg.Store.DisabledRulesets(ctx); err != nil {
		m.cfg.Logger.Warn("reconciling: reading the disabled rulesets", "err", err)
	} else {
		want := map[string]string{}
		for _, d := range ds {
			want[d.Ruleset] = d.Reason
		}
		have := m.DisabledRulesets()
		for id, reason := range want {
			if r, ok := have[id]; !ok || r != reason {
				m.setRulesetDisabledHere(id, true, reason)
			}
		}
		for id := range have {
			if _, ok := want[id]; !ok {
				m.setRulesetDisabledHere(id, false, "")
			}
		}
	}
	return closed
}

// connectedHere reports whether user uid has a connection in one of this node's live rooms.
func (m *Manager) connectedHere(ctx context.Context, uid int64) bool {
	found := false
	for _, r := range m.Live() {
		_ = r.do(ctx, func() error {
			found = found || r.connected(uid)
			return nil
		})
	}
	return found
}

// noteLookIfChanged updates u's look in the live rooms where it is a member and differs.
func (m *Manager) noteLookIfChanged(ctx context.Context, u *store.User) {
	for _, r := range m.Live() {
		_ = r.do(ctx, func() error {
			if len(r.membersOf(u.ID)) == 0 || r.looks[u.ID] == (look{avatar: u.Avatar, colour: u.Colour}) {
				return nil
			}
			if _, had := r.looks[u.ID]; !had && u.Avatar == "" && u.Colour == "" {
				return nil
			}
			r.noteLook(u)
			r.broadcastRoom()
			return nil
		})
	}
}
