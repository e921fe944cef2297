package room

import (
	"time"

	"cardhouse/platform/store"
)

// Membership changes that touch only members (someone connects, drops, joins to watch, leaves)
// go out as small "members" deltas, gathered for memberTick and encoded once for everyone,
// instead of the whole room to every socket on each change: with N sockets joining a room that
// was N whole member lists to N sockets, N^2 messages of N members. A "room" message (any other
// change) carries everything and supersedes the changes not yet sent.

// memberTick is how long membership changes gather before they go out: long enough for a burst
// of joins to share a message, short enough that nobody notices the wait.
const memberTick = 50 * time.Millisecond

// memberChanges are the members changed and gone since the last room or members message.
type memberChanges struct {
	changed   map[int64]*store.Member
	gone      []int64
	scheduled bool
}

// noteMembers queues ms as changed, to go out within memberTick.
func (r *Room) noteMembers(ms ...*store.Member) {
	if r.pending.changed == nil {
		r.pending.changed = map[int64]*store.Member{}
	}
	for _, m := range ms {
		r.pending.changed[m.ID] = m
	}
	r.scheduleMembers()
}

// noteGone queues member id as gone.
func (r *Room) noteGone(id int64) {
	delete(r.pending.changed, id)
	r.pending.gone = append(r.pending.gone, id)
	r.scheduleMembers()
}

func (r *Room) scheduleMembers() {
	if r.pending.scheduled {
		return
	}
	r.pending.scheduled = true
	time.AfterFunc(memberTick, func() { r.post(r.flushMembers) })
}

// dropMemberChanges forgets the queued changes (a room message carries them).
func (r *Room) dropMemberChanges() {
	clear(r.pending.changed)
	r.pending.gone = r.pending.gone[:0]
}

// flushMembers sends the queued changes to every client in one message.
func (r *Room) flushMembers() {
	r.pending.scheduled = false
	if len(r.pending.changed) == 0 && len(r.pending.gone) == 0 {
		return
	}
	ms := make([]*store.Member, 0, len(r.pending.changed))
	for _, m := range r.members { // in the room's order
		if _, ok := r.pending.changed[m.ID]; ok {
			ms = append(ms, m)
		}
	}
	out := Outgoing{Type: MsgMembers, Members: r.memberInfos(ms), Gone: append([]int64(nil), r.pending.gone...)}
	r.dropMemberChanges()
	b := encode(out)
	for c := range r.clients {
		c.push(b)
	}
}

// spectators counts the members watching or waiting for approval.
func (r *Room) spectators() int {
	n := 0
	for _, m := range r.members {
		if isHuman(m) && (m.Role == store.MemberSpectator || m.Role == store.MemberPending) {
			n++
		}
	}
	return n
}
