package room

import (
	"time"

	"cardhouse/platform/store"
)

// Quick play (issue 32): a quick room (store.Room.Quick) is opened by quick play and is public.
// It deals by itself when its last seat is taken, or when Config.QuickWait has passed since it
// opened, bots taking the seats still free then; until it starts, Info.StartsAt says when it will
// (the client says so on screen before it starts).

// DefaultQuickWait is Config.QuickWait's default: long enough for a second player to find the
// table, short enough that one alone is not left waiting.
const DefaultQuickWait = 30 * time.Second

// QuickSeats is how many seats quick play opens a table with: the variant's most, at most this
// many, so that a table fills with people rather than bots (and at least the variant's least).
const QuickSeats = 4

// armQuick starts a quick room's wait once, on the actor, if it has not dealt yet.
func (r *Room) armQuick() {
	if !r.room.Quick || r.game != nil || r.quickTimer != nil || r.room.Status != store.RoomOpen {
		return
	}
	at := r.now().Add(r.cfg.QuickWait)
	r.quickAt = &at
	r.quickTimer = r.cfg.Clock.AfterFunc(r.cfg.QuickWait, func() { r.post(r.quickStart) })
}

// quickFull deals a quick room whose seats are all taken now.
func (r *Room) quickFull() {
	if !r.room.Quick || r.game != nil {
		return
	}
	seated := 0
	for _, m := range r.members {
		if m.Role == store.MemberPlayer && m.Seat >= 0 {
			seated++
		}
	}
	if seated >= r.room.Capacity {
		r.quickStart()
	}
}

// quickStart seats bots in the free seats of a quick room that has not dealt and deals, as its
// host. A failure is logged; the host can still deal by hand.
func (r *Room) quickStart() {
	if r.quickTimer != nil {
		r.quickTimer.Stop()
	}
	r.quickTimer, r.quickAt = nil, nil
	if !r.room.Quick || r.game != nil || r.room.Status != store.RoomOpen || r.desc == nil {
		return
	}
	for seat := r.freeSeat(); seat >= 0; seat = r.freeSeat() {
		m := &store.Member{RoomID: r.room.ID, Name: botName(r.members), Role: store.MemberPlayer, Seat: seat, BotLevel: r.coverLevel()}
		if err := r.saveMembers(m); err != nil {
			r.log.Error("seating a bot in a quick room", "err", err)
			return
		}
		r.members = append(r.members, m)
	}
	if err := r.deal(&store.User{ID: r.room.HostID}); err != nil {
		r.log.Error("dealing a quick room", "err", err)
		r.broadcastRoom()
	}
}
