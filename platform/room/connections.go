package room

import (
	"cardhouse/platform/store"
	"cardhouse/sdk"
	"context"
	"encoding/json"
	"strconv"
)

func (r *Room) connected(uid int64) bool {
	for c := range r.clients {
		if c.UserID == uid {
			return true
		}
	}
	return false
}

// Attach registers c as a connection of its user, who must be a member; it sends the hello, the
// recent chat and the user's views.
func (r *Room) Attach(ctx context.Context, u *store.User, c *Client, chat []ChatLine) error {
	return r.do(ctx, func() error {
		ms := r.membersOf(u.ID)
		if len(ms) == 0 {
			return errf(KindForbidden, "not_member", "you are not a member of room %s; join it first", r.code)
		}
		r.noteLook(u)
		c.admin = u.Role == store.RoleAdmin
		r.clients[c] = struct{}{}
		r.cfg.Metrics.Connections.Inc()
		for _, m := range ms {
			if t, ok := r.graces[m.ID]; ok {
				t.Stop()
				delete(r.graces, m.ID)
			}
		}
		var uncovered []*store.Member
		for _, m := range ms {
			if m.Covered {
				m.Covered = false
				uncovered = append(uncovered, m)
			}
		}
		if len(uncovered) > 0 {
			_ = r.saveMembers(uncovered...)
		}
		in := r.info()
		hello := Outgoing{Type: MsgHello, Room: &in, You: r.you(u.ID), Protocol: ProtocolVersion}
		if c.Protocol == ProtocolPatches {
			hello.Protocol = ProtocolPatches
		}
		if ms[0].Role != store.MemberPending {
			hello.Chats = chat
		}
		c.push(encode(hello))
		r.sendViews(c)
		r.sendHouseLog(c)
		r.noteMembers(ms...)
		r.updatePause()
		r.schedule()
		return nil
	})
}

// Detach unregisters c (its connection closed). A seated player who has no other connection gets
// the grace period before a bot covers the seat.
func (r *Room) Detach(c *Client) {
	r.post(func() {
		if _, ok := r.clients[c]; !ok {
			return
		}
		delete(r.clients, c)
		r.cfg.Metrics.Connections.Dec()
		c.drop(CloseGoingAway, "detached")
		if !r.connected(c.UserID) && r.live() {
			for _, m := range r.membersOf(c.UserID) {
				if m.Role == store.MemberPlayer && m.Seat >= 0 && !m.Covered {
					id := m.ID
					if t, ok := r.graces[id]; ok {
						t.Stop()
					}
					r.graces[id] = r.cfg.Clock.AfterFunc(r.cfg.Grace, func() { r.post(func() { r.cover(id) }) })
				}
			}
		}
		r.noteMembers(r.membersOf(c.UserID)...)
		r.updatePause()
	})
}

// broadcastRoom sends every client the whole room (and who it is in it): the room is encoded
// once, and only each client's "you" apart. It supersedes the membership changes not yet sent.
func (r *Room) broadcastRoom() {
	r.dropMemberChanges()
	if len(r.clients) == 0 {
		return
	}
	in := r.info()
	room, err := json.Marshal(&in)
	if err != nil {
		panic("room: encoding the room: " + err.Error())
	}
	head := `{"v":` + strconv.Itoa(ProtocolVersion) + `,"type":"` + MsgRoom + `","room":`
	for c := range r.clients {
		you, err := json.Marshal(r.you(c.UserID))
		if err != nil {
			panic("room: encoding you: " + err.Error())
		}
		b := make([]byte, 0, len(head)+len(room)+len(you)+9)
		b = append(append(append(append(append(b, head...), room...), `,"you":`...), you...), '}')
		c.push(b)
	}
}

func (r *Room) sendViews(c *Client) { r.sendViewsShared(c, nil) }

// sendViewsShared sends c its views: a patch of each view c holds that vs patches (patches.go),
// else the full view. vs, when not nil, keeps the spectators' messages of this broadcast so that
// they are encoded once for all spectators.
func (r *Room) sendViewsShared(c *Client, vs *viewSend) {
	if r.game == nil || r.views == nil {
		return
	}
	ms := r.membersOf(c.UserID)
	if len(ms) == 0 || ms[0].Role == store.MemberPending {
		return
	}
	now := r.now().UnixMilli()
	seats := r.seatsOf(c.UserID)
	if r.game.Status != store.GameLive && r.game.Status != store.GameOver {
		seats = nil
	}
	sent := false
	for _, s := range seats {
		if s < len(r.views) {
			buf := messageBufs.Get().(*[]byte)
			if p := vs.patchFor(c, s); p != nil {
				*buf = appendPatchMessage((*buf)[:0], s, vs.base.seq, r.game.Seq, patchClock(p, now), len(c.held) > 1, p)
			} else {
				r.materialise()
				*buf = appendViewMessage((*buf)[:0], s, r.game.Number, r.game.Seq, now, r.views[s])
			}
			c.pushOwn(buf)
			c.hold(s, r.viewGen)
			sent = true
		}
	}
	if sent {
		return
	}
	if p := vs.patchFor(c, sdk.Spectator); p != nil {
		// Encoded once for all spectators; with "seat" for one that held a seat's view before.
		withSeat := len(c.held) > 1
		m := &vs.specPatch[0]
		if withSeat {
			m = &vs.specPatch[1]
		}
		if *m == nil {
			*m = appendPatchMessage(make([]byte, 0, len(p)+48), sdk.Spectator, vs.base.seq, r.game.Seq, patchClock(p, now), withSeat, p)
		}
		c.push(*m)
		c.hold(sdk.Spectator, r.viewGen)
		return
	}
	r.materialise()
	if r.spectator == nil { // nobody watched the last action: make the view now
		if err := r.refresh(); err != nil || r.spectator == nil {
			r.log.Error("reading the spectators' view", "err", err)
			return
		}
	}
	defer c.hold(sdk.Spectator, r.viewGen)
	if vs == nil {
		c.push(viewMessage(sdk.Spectator, r.game.Number, r.game.Seq, now, r.spectator))
		return
	}
	if vs.spec == nil {
		vs.spec = viewMessage(sdk.Spectator, r.game.Number, r.game.Seq, now, r.spectator)
	}
	c.push(vs.spec)
}

// watched reports whether a connection would be sent the spectators' view: someone holding no
// seat of the game is connected.
func (r *Room) watched() bool {
	for c := range r.clients {
		if len(r.seatsOf(c.UserID)) == 0 {
			return true
		}
	}
	return false
}

// broadcastViews sends every connection its full views.
func (r *Room) broadcastViews() { r.broadcastViewsFrom(nil) }

// broadcastViewsFrom sends every connection its views: patches from base (the views before an
// action, viewBase) to the connections that speak ProtocolPatches and hold them, full views to
// the others. A nil base sends full views.
func (r *Room) broadcastViewsFrom(base *viewBase) {
	vs := r.patchesFrom(base)
	for c := range r.clients {
		r.sendViewsShared(c, vs)
	}
}

func (r *Room) tell(uid int64, b []byte) {
	for c := range r.clients {
		if c.UserID == uid {
			c.push(b)
		}
	}
}

func (r *Room) dropUser(uid int64, code, reason string) {
	r.sendAway(uid, Outgoing{Type: MsgBye, Code: code, Reason: reason})
}

// sendAway is dropUser with the whole bye message.
func (r *Room) sendAway(uid int64, bye Outgoing) {
	for c := range r.clients {
		if c.UserID == uid {
			c.push(encode(bye))
			c.drop(ClosePolicy, bye.Reason)
			delete(r.clients, c)
			r.cfg.Metrics.Connections.Dec()
		}
	}
}
