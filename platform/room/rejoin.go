package room

import (
	"context"
	"strings"

	"cardhouse/platform/store"
)

// Rejoining by name (the rule documents: "rejoin with the room code and your name", D-12 in
// docs/rulings/drugs.md), made safe
// (docs/protocol.md, "Rejoining"):
//   - a guest made in the same browser as the seat's guest (the same guest key) gets the seat back
//     at once, with the host role if the seat's guest had it;
//   - a guest from another device gets the seat in an open room, but never the host role; in a
//     locked room or one with approval it asks the host (a pending member claiming the seat), and
//     the host's approval hands the seat over (Decide);
//   - a registered player comes back by signing in, never by name.

// droppedGuestSeat finds the seat u may take back by name: a seat of a guest whose connections
// are all closed, named as u is (letter case and outer spaces aside), in a room with a game
// (a seat is theirs for the next game too). It returns the seat's member and its guest.
func (r *Room) droppedGuestSeat(ctx context.Context, u *store.User) (*store.Member, *store.User) {
	if r.game == nil || r.room.Mode == store.ModeDevice {
		return nil, nil
	}
	name := strings.TrimSpace(u.DisplayName)
	for _, m := range r.members {
		if !isHuman(m) || m.Role != store.MemberPlayer || m.Seat < 0 || r.connected(*m.UserID) || !strings.EqualFold(strings.TrimSpace(m.Name), name) {
			continue
		}
		if prev, err := r.cfg.Store.UserByID(ctx, *m.UserID); err == nil && prev.Guest {
			return m, prev
		}
	}
	return nil, nil
}

// sameBrowser reports whether guest u was made in the browser that made prev.
func sameBrowser(u, prev *store.User) bool {
	return u.Guest && prev.GuestKeyHash != "" && u.GuestKeyHash == prev.GuestKeyHash
}

// rejoinByName gives u the dropped guest seat m (of prev), or files u's claim on it with the host.
func (r *Room) rejoinByName(u *store.User, m *store.Member, prev *store.User) (MemberInfo, error) {
	same := sameBrowser(u, prev)
	if !same && (r.room.Locked || r.room.Approval) {
		for id, seat := range r.claims { // one claim per seat: a newer one replaces it
			if seat == m.ID {
				if old := r.memberByID(id); old != nil {
					if err := r.deleteMember(old); err != nil {
						return MemberInfo{}, err
					}
					r.dropUser(*old.UserID, "denied", "another request for this seat replaced yours")
				}
				delete(r.claims, id)
			}
		}
		uid := u.ID
		p := &store.Member{RoomID: r.room.ID, UserID: &uid, Name: u.DisplayName, Seat: -1, Role: store.MemberPending, WantsSeat: true}
		if err := r.saveMembers(p); err != nil {
			return MemberInfo{}, err
		}
		r.members = append(r.members, p)
		r.claims[p.ID] = m.ID
		r.log.Info("a guest from another device asks for a dropped seat by name", "seat", m.Seat, "name", m.Name)
		r.broadcastRoom()
		return r.memberInfo(p), nil
	}
	if err := r.handOver(m, u.ID, same); err != nil {
		return MemberInfo{}, err
	}
	r.log.Info("a dropped player rejoined by name", "seat", m.Seat, "name", m.Name, "same_browser", same)
	r.broadcastRoom()
	return r.memberInfo(m), nil
}

// handOver gives seat m to user uid, with the host role only when withHost (the same browser).
// A host that is not handed over passes to the next human member, if there is one.
func (r *Room) handOver(m *store.Member, uid int64, withHost bool) error {
	old := *m.UserID
	m.UserID = &uid
	if err := r.saveMembers(m); err != nil {
		m.UserID = &old
		return err
	}
	if r.room.HostID == old {
		switch next := r.nextHostBut(m); {
		case withHost:
			r.room.HostID = uid
			r.saveRoom()
		case next != nil:
			r.room.HostID = *next.UserID
			r.saveRoom()
		}
	}
	if t, ok := r.graces[m.ID]; ok {
		t.Stop()
		delete(r.graces, m.ID)
	}
	return nil
}

// claimedSeat is the seat pending member p claims, if p's claim still stands (the seat is still
// a dropped guest's).
func (r *Room) claimedSeat(p *store.Member) *store.Member {
	id, ok := r.claims[p.ID]
	if !ok {
		return nil
	}
	m := r.memberByID(id)
	if m == nil || m.Role != store.MemberPlayer || m.Seat < 0 || r.connected(*m.UserID) {
		return nil
	}
	return m
}

// grantClaim is the host's approval of pending member p's claim on seat: p's user takes the seat
// (never the host role) and p's request goes.
func (r *Room) grantClaim(p, seat *store.Member) error {
	uid := *p.UserID
	if err := r.deleteMember(p); err != nil {
		return err
	}
	delete(r.claims, p.ID)
	if err := r.handOver(seat, uid, false); err != nil {
		return err
	}
	r.log.Info("the host gave a dropped seat back by name", "seat", seat.Seat, "name", seat.Name)
	r.broadcastRoom()
	for c := range r.clients {
		if c.UserID == uid {
			r.sendViews(c)
		}
	}
	return nil
}
