package room

// What a kick does after the member is gone (issue 23): the room keeps the kicked player out,
// for a cooldown the host chooses or, banned from the room, until the host lifts it. The bans
// are stored (store.RoomBan) and loaded with the room, so a restart or another node running
// the room keeps them.

import (
	"context"
	"fmt"
	"slices"
	"time"

	"cardhouse/platform/store"
)

// Kick cooldowns: DefaultKickCooldown when the host names none (a kick that let the player
// straight back in did nothing), at most MaxKickCooldown (longer is a ban).
const (
	DefaultKickCooldown = 10 * time.Minute
	MaxKickCooldown     = 24 * time.Hour
)

// KickOptions say how long a kicked player is kept out of the room.
type KickOptions struct {
	// Ban keeps the player out until the host lifts the ban (LiftBan).
	Ban bool
	// Cooldown keeps the player out this long (zero: DefaultKickCooldown); a whole number of
	// minutes up to MaxKickCooldown. Not with Ban.
	Cooldown time.Duration
	// Reason is kept with the ban (an admin's; the host gives none).
	Reason string
}

// check refuses options that make no sense, naming the field.
func (o KickOptions) check() error {
	switch {
	case o.Ban && o.Cooldown != 0:
		return errf(KindInvalid, "bad_kick", "a ban from the room has no length: choose a ban or a cooldown in minutes, not both")
	case o.Cooldown < 0 || o.Cooldown > MaxKickCooldown || o.Cooldown%time.Minute != 0:
		return errf(KindInvalid, "bad_kick", "cooldown: want 1 to %d whole minutes, got %s", int(MaxKickCooldown/time.Minute), o.Cooldown)
	}
	return nil
}

// minutes says d in whole minutes, a part of a minute counted as one.
func minutes(d time.Duration) string {
	n := int((d + time.Minute - 1) / time.Minute)
	if n == 1 {
		return "1 minute"
	}
	return fmt.Sprintf("%d minutes", n)
}

// BanInfo is a player a room keeps out, as the host's list shows it.
type BanInfo struct {
	UserID int64  `json:"user_id"`
	Name   string `json:"name"`
	// Ban is true for a ban from the room (until lifted); otherwise Until ends the cooldown.
	Ban    bool       `json:"ban"`
	Until  *time.Time `json:"until,omitempty"`
	Reason string     `json:"reason,omitempty"`
	At     time.Time  `json:"at"`
}

// loadBans reads the room's bans when its actor starts.
func (r *Room) loadBans(ctx context.Context) error {
	bs, err := r.cfg.Store.RoomBans(ctx, r.room.ID)
	if err != nil {
		return fmt.Errorf("loading the bans of room %s: %w", r.code, err)
	}
	r.bans = make(map[int64]store.RoomBan, len(bs))
	for _, b := range bs {
		r.bans[b.UserID] = b
	}
	return nil
}

// keepOut stores that the user of member m is kept out as opts say; by is who kicked. It runs
// before the member is removed, so a failure to store it leaves the room as it was.
func (r *Room) keepOut(m *store.Member, opts KickOptions, by *int64) error {
	if m.UserID == nil {
		return nil
	}
	if b, ok := r.bans[*m.UserID]; ok && b.Active(r.now()) && b.ExpiresAt == nil && !opts.Ban {
		opts.Ban = true // a player banned from the room (kicked again from another membership) stays banned
	}
	now := r.now().UTC()
	b := store.RoomBan{RoomID: r.room.ID, UserID: *m.UserID, Name: m.Name, Reason: opts.Reason, ByID: by, CreatedAt: now}
	if !opts.Ban {
		cd := opts.Cooldown
		if cd == 0 {
			cd = DefaultKickCooldown
		}
		until := now.Add(cd)
		b.ExpiresAt = &until
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if u, err := r.cfg.Store.UserByID(ctx, *m.UserID); err == nil && u.Guest {
		b.GuestKeyHash = u.GuestKeyHash
	}
	if err := r.cfg.Store.SetRoomBan(ctx, &b); err != nil {
		r.cfg.Metrics.Errors.WithLabelValues("store").Inc()
		r.log.Error("saving a room ban", "err", err)
		return errf(KindUnavailable, "store_failure", "the room could not be saved; try again")
	}
	r.bans[b.UserID] = b
	return nil
}

// kickBye is the "bye" of user uid kicked from the room by who ("the host", "an admin"): it says
// how long the room keeps them out (their ban, kept by keepOut) and why, when a reason is given.
func (r *Room) kickBye(uid int64, who, reason string) Outgoing {
	bye := Outgoing{Type: MsgBye, Code: "kicked", Reason: who + " removed you from the room"}
	if b, ok := r.bans[uid]; ok {
		if b.ExpiresAt == nil {
			bye.Ban = true
			bye.Reason += " and banned you from it"
		} else {
			bye.Until = b.ExpiresAt.UnixMilli()
			bye.Reason += " for " + minutes(b.ExpiresAt.Sub(r.now()))
		}
	}
	if reason != "" {
		bye.Reason += ": " + reason
	}
	return bye
}

// checkBan refuses a user the room keeps out: by account, or a guest of the browser a kicked
// guest was made in.
func (r *Room) checkBan(u *store.User) error {
	now := r.now()
	for _, b := range r.bans {
		if !b.Active(now) {
			continue
		}
		if b.UserID != u.ID && !(u.Guest && b.GuestKeyHash != "" && b.GuestKeyHash == u.GuestKeyHash) {
			continue
		}
		if b.ExpiresAt == nil {
			return errf(KindForbidden, "room_banned", "the host of room %s has banned you from it", r.code)
		}
		return errf(KindForbidden, "kicked", "you were removed from room %s: you can join again in %s (at %s)",
			r.code, minutes(b.ExpiresAt.Sub(now)), b.ExpiresAt.UTC().Format("15:04 UTC"))
	}
	return nil
}

// Bans lists the players the room keeps out now, oldest first; host only.
func (r *Room) Bans(ctx context.Context, u *store.User) ([]BanInfo, error) {
	var out []BanInfo
	err := r.do(ctx, func() error {
		if err := r.hostOnly(u, "see who is kept out"); err != nil {
			return err
		}
		out = r.banInfos()
		return nil
	})
	return out, err
}

// AdminBans lists the players the room keeps out now, for the admin area.
func (r *Room) AdminBans(ctx context.Context) ([]BanInfo, error) {
	var out []BanInfo
	err := r.do(ctx, func() error { out = r.banInfos(); return nil })
	return out, err
}

func (r *Room) banInfos() []BanInfo {
	now := r.now()
	out := []BanInfo{}
	for _, b := range r.bans {
		if b.Active(now) {
			out = append(out, BanInfo{UserID: b.UserID, Name: b.Name, Ban: b.ExpiresAt == nil, Until: b.ExpiresAt, Reason: b.Reason, At: b.CreatedAt})
		}
	}
	slices.SortFunc(out, func(a, b BanInfo) int {
		if c := a.At.Compare(b.At); c != 0 {
			return c
		}
		return int(a.UserID - b.UserID)
	})
	return out
}

// LiftBan lets user userID join the room again (a ban or a cooldown not yet over); host only.
func (r *Room) LiftBan(ctx context.Context, u *store.User, userID int64) error {
	return r.do(ctx, func() error {
		if err := r.hostOnly(u, "let a removed player back in"); err != nil {
			return err
		}
		return r.liftBan(userID)
	})
}

// AdminLiftBan is LiftBan for the admin area.
func (r *Room) AdminLiftBan(ctx context.Context, userID int64) error {
	return r.do(ctx, func() error { return r.liftBan(userID) })
}

func (r *Room) liftBan(userID int64) error {
	b, ok := r.bans[userID]
	if !ok || !b.Active(r.now()) {
		return errf(KindNotFound, "no_ban", "room %s does not keep user %d out", r.code, userID)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.cfg.Store.DeleteRoomBan(ctx, r.room.ID, userID); err != nil {
		r.log.Error("lifting a room ban", "err", err)
		return errf(KindUnavailable, "store_failure", "the room could not be saved; try again")
	}
	delete(r.bans, userID)
	return nil
}
