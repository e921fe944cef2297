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
// users' connections it closed. It asks each live room once for its users, reads their accounts in
// batches, and acts only in the rooms each one is in.
func (m *Manager) reconcile(ctx context.Context) int {
	in := map[int64][]*Room{} // each user's rooms: a member, or connected (a spectator too)
	for _, r := range m.Live() {
		_ = r.do(ctx, func() error {
			seen := map[int64]bool{}
			for c := range r.clients {
				seen[c.UserID] = true
			}
			for _, mem := range r.members {
				if mem.UserID != nil {
					seen[*mem.UserID] = true
				}
			}
			for uid := range seen {
				in[uid] = append(in[uid], r)
			}
			return nil
		})
	}
	accounts, err := m.cfg.Store.AccountStates(ctx, slices.Sorted(maps.Keys(in)))
	if err != nil {
		m.cfg.Logger.Warn("reconciling: reading the rooms' accounts", "err", err)
	}
	closed := 0
	for _, a := range accounts {
		switch {
		case a.Deleted: // deleted accounts are banned too: they leave the rooms, as the deletion's event does
			for _, r := range in[a.ID] {
				if _, err := r.AdminRemoveUser(ctx, a.ID, "deleted", "this account was deleted"); err != nil && !errors.Is(err, ErrClosed) {
					r.log.Warn("reconciling: removing a deleted account", "user", a.ID, "err", err)
				}
				r.disconnect(ctx, a.ID, "deleted", "this account was deleted")
			}
			closed++
		case a.Banned:
			dropped := false
			for _, r := range in[a.ID] {
				dropped = r.disconnect(ctx, a.ID, "banned", "this account is banned") || dropped
			}
			if dropped {
				closed++
			}
		default:
			u := &store.User{ID: a.ID, Avatar: a.Avatar, Colour: a.Colour}
			for _, r := range in[a.ID] {
				_ = r.do(ctx, func() error {
					if r.looks[u.ID] != (look{avatar: u.Avatar, colour: u.Colour}) {
						r.noteLook(u)
						r.broadcastRoom()
					}
					return nil
				})
			}
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
