package room

// Hooks for the admin area (issue 8): what an admin may do to any room, and what the dashboard
// and the plugin page read. Each operation runs on the room's actor like every other.

import (
	"context"
	"maps"
	"sync"
	"time"

	"cardhouse/platform/store"
	"cardhouse/sdk/engine"
)

// disabledSet holds the rulesets disabled for new rooms, by id, with the reason given.
type disabledSet struct {
	once sync.Once
	mu   sync.Mutex
	ids  map[string]string
}

func (m *Manager) disabledSet() *disabledSet {
	m.disabled.once.Do(func() { m.disabled.ids = map[string]string{} })
	return &m.disabled
}

// SetRulesetDisabled disables (disabled true, with reason) or enables again the ruleset id for
// new rooms, on this node and, in a cluster, on every other (events.go). Rooms already playing it
// go on: their games, deals and new rounds are untouched.
func (m *Manager) SetRulesetDisabled(id string, disabled bool, reason string) {
	m.setRulesetDisabledHere(id, disabled, reason)
	m.publish(eventRuleset, event{Ruleset: id, Disabled: disabled, Reason: reason})
}

// LoadDisabledRulesets disables the rulesets named (id → reason) for new rooms on this node only:
// what the store says at start, which every node reads for itself.
func (m *Manager) LoadDisabledRulesets(ids map[string]string) {
	for id, reason := range ids {
		m.setRulesetDisabledHere(id, true, reason)
	}
}

func (m *Manager) setRulesetDisabledHere(id string, disabled bool, reason string) {
	d := m.disabledSet()
	d.mu.Lock()
	defer d.mu.Unlock()
	if disabled {
		d.ids[id] = reason
	} else {
		delete(d.ids, id)
	}
}

// DisabledRulesets returns the rulesets disabled for new rooms, with the reasons given.
func (m *Manager) DisabledRulesets() map[string]string {
	d := m.disabledSet()
	d.mu.Lock()
	defer d.mu.Unlock()
	return maps.Clone(d.ids)
}

// checkEnabled refuses a new room of a disabled ruleset.
func (m *Manager) checkEnabled(id string) error {
	d := m.disabledSet()
	d.mu.Lock()
	reason, off := d.ids[id]
	d.mu.Unlock()
	if !off {
		return nil
	}
	if reason == "" {
		return errf(KindConflict, "ruleset_disabled", "ruleset %q is disabled for new rooms by an admin", id)
	}
	return errf(KindConflict, "ruleset_disabled", "ruleset %q is disabled for new rooms by an admin: %s", id, reason)
}

// Engines returns the engines rooms play, by ruleset id (a copy of the map; the engines are
// shared). The admin area type-asserts them for plugin statistics and restarts.
func (m *Manager) Engines() map[string]engine.Engine { return maps.Clone(m.set.Load().engines) }

// Node is the name of this node of a cluster ("" on a single node).
func (m *Manager) Node() string { return m.cfg.Node }

// Metrics returns the room layer's collectors.
func (m *Manager) Metrics() *Metrics { return m.cfg.Metrics }

// Running returns the room with code when its actor runs, and nil otherwise; unlike Get it never
// loads a room.
func (m *Manager) Running(code string) *Room {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.rooms[code]
}

// AdminClose closes the room for good: a game in progress is abandoned, every connection gets a
// "bye" with code "closed" and reason, and the actor stops; AdminClose returns once it has. The
// room stays in the store, closed.
func (r *Room) AdminClose(ctx context.Context, reason string) error {
	err := r.do(ctx, func() error {
		now := r.now().UTC()
		if r.live() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			err := r.cfg.Store.SetGameStatus(ctx, r.game.ID, store.GameAbandoned, &now)
			cancel()
			if err != nil {
				return errf(KindUnavailable, "store_failure", "the room could not be saved; try again")
			}
			r.game.Status, r.game.EndedAt = store.GameAbandoned, &now
		}
		r.room.Status = store.RoomClosed
		r.saveRoom()
		r.stopTimers()
		for c := range r.clients {
			c.push(encode(Outgoing{Type: MsgBye, Code: "closed", Reason: reason}))
			c.drop(ClosePolicy, reason)
			delete(r.clients, c)
			r.cfg.Metrics.Connections.Dec()
		}
		r.log.Info("room closed by an admin", "reason", reason)
		return nil
	})
	if err != nil {
		return err
	}
	// Outside the actor: stop it and wait until the manager has forgotten the room.
	r.stop()
	return nil
}

// AdminKick removes a member as the host would (a seat in a running game passes to a bot), keeps
// the user out as opts say (kickban.go; opts.Reason is the admin's reason) and closes the removed
// user's connections with a "bye" of code "kicked". by is the admin. Removing the host passes the
// host role to the longest-standing human left, or closes the room when there is none.
func (r *Room) AdminKick(ctx context.Context, memberID int64, opts KickOptions, by int64) error {
	if err := opts.check(); err != nil {
		return err
	}
	return r.do(ctx, func() error {
		m := r.memberByID(memberID)
		if m == nil {
			return errf(KindNotFound, "no_member", "no member %d in room %s", memberID, r.code)
		}
		uid := m.UserID
		if err := r.keepOut(m, opts, &by); err != nil {
			return err
		}
		if err := r.remove(m); err != nil {
			return err
		}
		if uid != nil && len(r.membersOf(*uid)) == 0 {
			r.sendAway(*uid, r.kickBye(*uid, "an admin", opts.Reason))
		}
		if uid != nil && r.isHost(*uid) && len(r.membersOf(*uid)) == 0 {
			if !r.passHostOn() {
				return nil
			}
		}
		r.broadcastRoom()
		r.updatePause()
		r.schedule()
		return nil
	})
}

// passHostOn gives the host role to the next human member; with none left it closes the room and
// reports false.
func (r *Room) passHostOn() bool {
	next := r.nextHost()
	if next == nil {
		r.room.Status = store.RoomClosed
		r.saveRoom()
		r.log.Info("room closed: no human left")
		r.stopAndForget() // before the answer: a request after it finds the room stopping, not open
		return false
	}
	r.room.HostID = *next.UserID
	r.saveRoom()
	return true
}

// AdminSetHost gives the host role to a human member who is not waiting for approval.
func (r *Room) AdminSetHost(ctx context.Context, memberID int64) error {
	return r.do(ctx, func() error {
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

// AdminRemoveUser takes every membership of user uid out of the room (an account being deleted):
// seats in a running game pass to bots, other memberships are deleted, the user's connections
// get a "bye" with code and reason, and a room the user hosted passes to the next human or
// closes. It reports whether the user was a member.
func (r *Room) AdminRemoveUser(ctx context.Context, uid int64, code, reason string) (bool, error) {
	var was bool
	err := r.do(ctx, func() error {
		ms := r.membersOf(uid)
		was = len(ms) > 0
		for _, m := range ms {
			if err := r.remove(m); err != nil {
				return err
			}
		}
		r.dropUser(uid, code, reason)
		if r.isHost(uid) && !r.passHostOn() {
			return nil
		}
		r.broadcastRoom()
		r.updatePause()
		r.schedule()
		return nil
	})
	return was, err
}
