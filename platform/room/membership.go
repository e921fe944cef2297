package room

import (
	"cardhouse/platform/store"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

func (r *Room) membersOf(uid int64) []*store.Member {
	var out []*store.Member
	for _, m := range r.members {
		if m.UserID != nil && *m.UserID == uid {
			out = append(out, m)
		}
	}
	return out
}

func (r *Room) memberByID(id int64) *store.Member {
	for _, m := range r.members {
		if m.ID == id {
			return m
		}
	}
	return nil
}

func (r *Room) seatMember(seat int) *store.Member {
	for _, m := range r.members {
		if m.Role == store.MemberPlayer && m.Seat == seat {
			return m
		}
	}
	return nil
}

// seatsOf lists the seats uid plays (several in a pass-the-device room).
func (r *Room) seatsOf(uid int64) []int {
	var seats []int
	for _, m := range r.membersOf(uid) {
		if m.Role == store.MemberPlayer && m.Seat >= 0 {
			seats = append(seats, m.Seat)
		}
	}
	slices.Sort(seats)
	return seats
}

func isHuman(m *store.Member) bool { return m.UserID != nil && m.BotLevel == 0 }

func (r *Room) coverLevel() int {
	if r.desc == nil || len(r.desc.BotLevels) == 0 {
		return 1
	}
	return r.desc.BotLevels[len(r.desc.BotLevels)/2]
}

func (r *Room) freeSeat() int {
	for s := range r.room.Capacity {
		if r.seatMember(s) == nil {
			return s
		}
	}
	return -1
}

func (r *Room) info() Info {
	in := Info{Code: r.room.Code, Ruleset: r.room.Ruleset, Mode: r.room.Mode, HostID: r.room.HostID,
		Approval: r.room.Approval, Locked: r.room.Locked, Capacity: r.room.Capacity, TurnSeconds: r.room.TurnSeconds, Status: r.room.Status,
		Paused: r.room.PausedAt != nil, Members: []MemberInfo{}, Private: r.room.Private, Quick: r.room.Quick, StartsAt: r.quickAt}
	_ = json.Unmarshal([]byte(r.room.Options), &in.Options)
	if r.game != nil {
		in.Game = &GameInfo{Number: r.game.Number, Status: r.game.Status, Phase: r.game.Phase, Turn: r.status.Turn,
			Winner: r.status.Winner, Seats: r.game.Seats, Seq: r.game.Seq, HouseRules: r.gameRules, LastMove: r.lastMove}
	}
	if len(r.houseRules) > 0 {
		in.HouseRules = r.houseRuleInfos()
	}
	in.Members = r.memberInfos(r.members)
	return in
}

// memberInfos is ms as clients see them.
func (r *Room) memberInfos(ms []*store.Member) []MemberInfo {
	online := make(map[int64]bool, len(r.clients))
	for c := range r.clients {
		online[c.UserID] = true
	}
	out := make([]MemberInfo, 0, len(ms))
	for _, m := range ms {
		mi := MemberInfo{ID: m.ID, Name: m.Name, Role: m.Role, Seat: m.Seat, BotLevel: m.BotLevel, WantsSeat: m.WantsSeat, WantsNext: r.asks[m.ID], Covered: m.Covered}
		if seat := r.claimedSeat(m); seat != nil {
			mi.ClaimsSeat = &seat.Seat
		}
		if m.UserID != nil {
			mi.UserID = *m.UserID
			mi.Connected = online[*m.UserID]
			if l, ok := r.looks[*m.UserID]; ok {
				mi.Avatar, mi.Colour = l.avatar, l.colour
			}
		}
		if m.Avatar != "" || m.Colour != "" { // a pass-the-device seat's own look
			mi.Avatar, mi.Colour = m.Avatar, m.Colour
		}
		out = append(out, mi)
	}
	return out
}

func (r *Room) you(uid int64) *You {
	y := &You{UserID: uid, Seats: r.seatsOf(uid), Host: r.isHost(uid), Role: "none"}
	if y.Seats == nil {
		y.Seats = []int{}
	}
	if ms := r.membersOf(uid); len(ms) > 0 {
		y.MemberID, y.Name, y.Role = ms[0].ID, ms[0].Name, ms[0].Role
	}
	return y
}

// Info returns the room as its members see it.
func (r *Room) Info(ctx context.Context) (Info, error) {
	var in Info
	err := r.do(ctx, func() error { in = r.info(); return nil })
	return in, err
}

// Join makes u a member: seated if a seat is free and no game runs, a spectator (taking a seat at
// the next Deal) otherwise, or pending when the room requires approval. Someone joining with the
// name (case-insensitive) of a seated guest who has dropped gets that seat and its cards back
// (D-12), also when the game ended meanwhile. Joining again returns the existing membership.
func (r *Room) Join(ctx context.Context, u *store.User, spectate bool) (MemberInfo, error) {
	var out MemberInfo
	err := r.do(ctx, func() error {
		if u.Banned {
			return errf(KindForbidden, "banned", "this account is banned")
		}
		r.noteLook(u)
		if ms := r.membersOf(u.ID); len(ms) > 0 {
			out = r.memberInfo(ms[0])
			return nil
		}
		if err := r.checkBan(u); err != nil {
			return err
		}
		// A dropped guest's seat comes back by name (rejoin.go).
		if m, prev := r.droppedGuestSeat(ctx, u); m != nil {
			var err error
			out, err = r.rejoinByName(u, m, prev)
			return err
		}
		if r.room.Locked {
			return errf(KindConflict, "locked", "room %s is locked: it takes no new members", r.code)
		}
		uid := u.ID
		m := &store.Member{RoomID: r.room.ID, UserID: &uid, Name: u.DisplayName, Seat: -1}
		switch {
		case r.room.Approval && !r.isHost(u.ID):
			m.Role, m.WantsSeat = store.MemberPending, !spectate
		case spectate || r.room.Mode != store.ModeOnline:
			m.Role = store.MemberSpectator
		case !r.live() && r.freeSeat() >= 0:
			m.Role, m.Seat = store.MemberPlayer, r.freeSeat()
		default:
			m.Role, m.WantsSeat = store.MemberSpectator, true
		}
		if m.Role != store.MemberPlayer && r.spectators() >= r.cfg.MaxSpectators {
			return errf(KindConflict, "spectators_full", "room %s has as many spectators as it takes (%d)", r.code, r.cfg.MaxSpectators)
		}
		if err := r.saveMembers(m); err != nil {
			return err
		}
		r.members = append(r.members, m)
		out = r.memberInfo(m)
		r.noteMembers(m)
		r.quickFull() // quick.go
		return nil
	})
	return out, err
}

func (r *Room) memberInfo(m *store.Member) MemberInfo { return r.memberInfos([]*store.Member{m})[0] }

func (r *Room) hostOnly(u *store.User, what string) error {
	if !r.isHost(u.ID) {
		return errf(KindForbidden, "not_host", "only the host can %s", what)
	}
	return nil
}

// Decide approves or refuses a pending join request; host only.
func (r *Room) Decide(ctx context.Context, u *store.User, memberID int64, approve bool) error {
	return r.do(ctx, func() error {
		if err := r.hostOnly(u, "answer join requests"); err != nil {
			return err
		}
		m := r.memberByID(memberID)
		if m == nil || m.Role != store.MemberPending {
			return errf(KindNotFound, "no_request", "no join request %d in room %s", memberID, r.code)
		}
		if !approve {
			if err := r.deleteMember(m); err != nil {
				return err
			}
			r.dropUser(*m.UserID, "denied", "the host declined your request")
			r.broadcastRoom()
			return nil
		}
		if seat := r.claimedSeat(m); seat != nil {
			return r.grantClaim(m, seat)
		}
		old := *m
		switch {
		case m.WantsSeat && !r.live() && r.freeSeat() >= 0 && r.room.Mode == store.ModeOnline:
			m.Role, m.Seat, m.WantsSeat = store.MemberPlayer, r.freeSeat(), false
		default:
			m.Role = store.MemberSpectator
		}
		if err := r.saveMembers(m); err != nil {
			*m = old
			return err
		}
		r.broadcastRoom()
		for c := range r.clients {
			if c.UserID == *m.UserID {
				r.sendViews(c)
			}
		}
		return nil
	})
}

func (r *Room) deleteMember(m *store.Member) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.cfg.Store.DeleteMember(ctx, m.ID); err != nil {
		return errf(KindUnavailable, "store_failure", "the room could not be saved; try again")
	}
	r.members = slices.DeleteFunc(r.members, func(x *store.Member) bool { return x.ID == m.ID })
	return nil
}

// SetLocked locks or unlocks the room; a locked room takes no new members (P-3). Host only.
func (r *Room) SetLocked(ctx context.Context, u *store.User, locked bool) error {
	return r.do(ctx, func() error {
		if err := r.hostOnly(u, "lock the room"); err != nil {
			return err
		}
		r.room.Locked = locked
		r.saveRoom()
		r.broadcastRoom()
		return nil
	})
}

// remove takes m out of the room: in a running game its seat passes to a bot, otherwise the
// member is deleted.
func (r *Room) remove(m *store.Member) error {
	if r.live() && m.Role == store.MemberPlayer && m.Seat >= 0 {
		old := *m
		m.UserID, m.BotLevel, m.Covered, m.Name = nil, r.coverLevel(), false, "Bot for "+m.Name
		if err := r.saveMembers(m); err != nil {
			*m = old
			return err
		}
		return nil
	}
	return r.deleteMember(m)
}

// Kick removes a member (a player's seat in a running game passes to a bot) and keeps the
// player out of the room as opts say (kickban.go); host only.
func (r *Room) Kick(ctx context.Context, u *store.User, memberID int64, opts KickOptions) error {
	if err := opts.check(); err != nil {
		return err
	}
	opts.Reason = ""
	return r.do(ctx, func() error {
		if err := r.hostOnly(u, "remove members"); err != nil {
			return err
		}
		m := r.memberByID(memberID)
		if m == nil {
			return errf(KindNotFound, "no_member", "no member %d in room %s", memberID, r.code)
		}
		if m.UserID != nil && *m.UserID == u.ID {
			return errf(KindInvalid, "kick_self", "the host cannot remove themselves; leave the room instead")
		}
		uid := m.UserID
		by := u.ID
		if err := r.keepOut(m, opts, &by); err != nil {
			return err
		}
		if err := r.remove(m); err != nil {
			return err
		}
		if uid != nil && len(r.membersOf(*uid)) == 0 {
			r.sendAway(*uid, r.kickBye(*uid, "the host", ""))
		}
		r.broadcastRoom()
		r.updatePause()
		r.schedule()
		return nil
	})
}

// Leave takes u out of the room. When the host leaves, the host role passes to the longest-standing
// human member; a room with no human left closes.
func (r *Room) Leave(ctx context.Context, u *store.User) error {
	return r.do(ctx, func() error {
		ms := r.membersOf(u.ID)
		if len(ms) == 0 {
			return errf(KindForbidden, "not_member", "you are not a member of room %s", r.code)
		}
		for _, m := range ms {
			if err := r.remove(m); err != nil {
				return err
			}
		}
		r.dropUser(u.ID, "left", "you left the room")
		if r.isHost(u.ID) && !r.passHostOn() {
			return nil // the last human left: the room is closed
		}
		r.broadcastRoom()
		r.updatePause()
		r.schedule()
		return nil
	})
}

func (r *Room) nextHost() *store.Member { return r.nextHostBut(nil) }

// nextHostBut is nextHost among the human members other than but (nil: all of them): a
// player before a spectator, in the room's order.
func (r *Room) nextHostBut(but *store.Member) *store.Member {
	var best *store.Member
	for _, m := range r.members {
		if m == but || !isHuman(m) || m.Role == store.MemberPending {
			continue
		}
		if best == nil || (m.Role == store.MemberPlayer && best.Role != store.MemberPlayer) {
			best = m
		}
	}
	return best
}

// SeatLook is a pass-the-device seat's name plate: nil fields stay as they are; an empty
// avatar and colour give the seat the account's look back.
type SeatLook struct {
	Name   *string
	Avatar *string
	Colour *string
}

// SetSeatLook names a seat of a pass-the-device room and gives it a look of its own, so that
// the players sharing the device tell their seats apart; host only.
func (r *Room) SetSeatLook(ctx context.Context, u *store.User, memberID int64, l SeatLook) (MemberInfo, error) {
	var out MemberInfo
	err := r.do(ctx, func() error {
		if err := r.hostOnly(u, "name the seats"); err != nil {
			return err
		}
		m := r.memberByID(memberID)
		if m == nil || m.Role != store.MemberPlayer || m.UserID == nil || *m.UserID != u.ID || r.room.Mode != store.ModeDevice {
			return errf(KindInvalid, "not_device_seat", "member %d is not a pass-the-device seat of room %s: other players choose their own name and look", memberID, r.code)
		}
		old := *m
		if l.Name != nil {
			m.Name = *l.Name
		}
		if l.Avatar != nil {
			m.Avatar = *l.Avatar
		}
		if l.Colour != nil {
			m.Colour = *l.Colour
		}
		if err := r.saveMembers(m); err != nil {
			*m = old
			return err
		}
		out = r.memberInfo(m)
		r.broadcastRoom()
		return nil
	})
	return out, err
}

// PassHost hands the host role to another human member; host only.
func (r *Room) PassHost(ctx context.Context, u *store.User, memberID int64) error {
	return r.do(ctx, func() error {
		if err := r.hostOnly(u, "pass the host role on"); err != nil {
			return err
		}
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

// AddBot seats a bot of level in a free seat between games; host only.
func (r *Room) AddBot(ctx context.Context, u *store.User, level int) (MemberInfo, error) {
	var out MemberInfo
	err := r.do(ctx, func() error {
		if err := r.hostOnly(u, "add bots"); err != nil {
			return err
		}
		if r.desc == nil || !slices.Contains(r.desc.BotLevels, level) {
			levels := []int{}
			if r.desc != nil {
				levels = r.desc.BotLevels
			}
			return errf(KindInvalid, "bad_level", "no bot level %d for %s (levels: %v)", level, r.room.Ruleset, levels)
		}
		if r.live() {
			return errf(KindConflict, "game_running", "bots take seats between games")
		}
		seat := r.freeSeat()
		if seat < 0 {
			return errf(KindConflict, "full", "every seat of room %s is taken", r.code)
		}
		m := &store.Member{RoomID: r.room.ID, Name: botName(r.members), Role: store.MemberPlayer, Seat: seat, BotLevel: level}
		if err := r.saveMembers(m); err != nil {
			return err
		}
		r.members = append(r.members, m)
		out = r.memberInfo(m)
		r.broadcastRoom()
		return nil
	})
	return out, err
}

func (r *Room) saveRoom() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.cfg.Store.SaveRoom(ctx, r.room); err != nil {
		r.cfg.Metrics.Errors.WithLabelValues("store").Inc()
		r.log.Error("saving room", "err", err)
	}
}

func (r *Room) saveMembers(ms ...*store.Member) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.cfg.Store.SaveMembers(ctx, ms...); err != nil {
		r.cfg.Metrics.Errors.WithLabelValues("store").Inc()
		r.log.Error("saving members", "err", err)
		return errf(KindUnavailable, "store_failure", "the room could not be saved; try again")
	}
	return nil
}

// botNames are the names bots take, in turn: short (a seat plate shows a few letters on a phone),
// distinct from each other at a glance, none a word a player could mistake for a message. The
// level is the member's BotLevel, shown beside the name.
var botNames = []string{"Rosie", "Otto", "Juno", "Pip", "Mabel", "Rex", "Tilly", "Hugo", "Nell", "Cyrus", "Ivy", "Bruno"}

// botName is a name for a new bot among members: the first of botNames nobody in the room bears
// (in any letter case), else "Bot N" with the first number free.
func botName(members []*store.Member) string {
	taken := map[string]bool{}
	for _, m := range members {
		taken[strings.ToLower(strings.TrimSpace(m.Name))] = true
	}
	for _, n := range botNames {
		if !taken[strings.ToLower(n)] {
			return n
		}
	}
	for i := 1; ; i++ {
		if n := fmt.Sprintf("Bot %d", i); !taken[strings.ToLower(n)] {
			return n
		}
	}
}
