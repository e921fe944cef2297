package admin

// The admin actions. Each checks its input (a refused action changes nothing), does the work,
// and writes one audit entry naming who, what, on what and why.

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"cardhouse/platform/room"
	"cardhouse/platform/store"

	"golang.org/x/crypto/bcrypt"
)

// MaxReason is the longest reason an admin may give, in characters: a sentence or two, shown on
// pages and in the audit log.
const MaxReason = 500

// checkReason trims a reason and refuses an empty (when required), over-long or control-character
// one, naming the field.
func checkReason(reason string, required bool) (string, error) {
	reason = strings.TrimSpace(reason)
	if reason == "" && required {
		return "", errorf(http.StatusBadRequest, "reason_required", "reason: give a reason (it is shown to the user where it applies and kept in the audit log)")
	}
	if n := utf8.RuneCountInString(reason); n > MaxReason {
		return "", errorf(http.StatusBadRequest, "reason_too_long", "reason: %d characters is over the limit of %d", n, MaxReason)
	}
	for _, r := range reason {
		if unicode.IsControl(r) {
			return "", errorf(http.StatusBadRequest, "bad_reason", "reason: control characters are not allowed")
		}
	}
	return reason, nil
}

// account loads a user that is not deleted, or a 404 naming it.
func (a *Admin) account(ctx context.Context, id int64) (*store.AccountRow, error) {
	row, err := a.st.Account(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errorf(http.StatusNotFound, "no_user", "there is no user %d", id)
	}
	if err != nil {
		return nil, err
	}
	if row.DeletedAt != nil {
		return nil, errorf(http.StatusGone, "user_deleted", "user %d was deleted", id)
	}
	return row, nil
}

func idStr(id int64) string { return strconv.FormatInt(id, 10) }

// Ban bans user id with a reason: the account can no longer sign in or join, its sessions end and
// every live connection it has is closed at once (a "bye" with code "banned" and the reason).
func (a *Admin) Ban(ctx context.Context, by Actor, id int64, reason string) error {
	reason, err := checkReason(reason, true)
	if err != nil {
		return err
	}
	u, err := a.account(ctx, id)
	if err != nil {
		return err
	}
	switch {
	case id == by.ID:
		return errorf(http.StatusBadRequest, "ban_self", "admins cannot ban themselves")
	case u.Role == store.RoleAdmin:
		return errorf(http.StatusConflict, "ban_admin", "%s is an admin: demote them before banning", accountName(&u.User))
	case u.Banned:
		return errorf(http.StatusConflict, "already_banned", "%s is already banned", accountName(&u.User))
	}
	if err := a.st.SetBanned(ctx, id, true); err != nil {
		return err
	}
	a.rooms.DisconnectUser(context.WithoutCancel(ctx), id, "banned", "this account is banned: "+reason)
	a.audit(ctx, by, "user.ban", "user", idStr(id), accountName(&u.User), reason)
	return nil
}

// Unban lifts the ban of user id; the reason is optional.
func (a *Admin) Unban(ctx context.Context, by Actor, id int64, reason string) error {
	reason, err := checkReason(reason, false)
	if err != nil {
		return err
	}
	u, err := a.account(ctx, id)
	if err != nil {
		return err
	}
	if !u.Banned {
		return errorf(http.StatusConflict, "not_banned", "%s is not banned", accountName(&u.User))
	}
	if err := a.st.SetBanned(ctx, id, false); err != nil {
		return err
	}
	a.audit(ctx, by, "user.unban", "user", idStr(id), accountName(&u.User), reason)
	return nil
}

// SetRole promotes (role admin) or demotes (role player) user id. Guests cannot be admins, and an
// admin cannot change their own role (so the last admin cannot lock everyone out).
func (a *Admin) SetRole(ctx context.Context, by Actor, id int64, role string) error {
	if role != store.RoleAdmin && role != store.RolePlayer {
		return errorf(http.StatusBadRequest, "bad_role", "role: want %q or %q, got %q", store.RolePlayer, store.RoleAdmin, role)
	}
	u, err := a.account(ctx, id)
	if err != nil {
		return err
	}
	switch {
	case id == by.ID:
		return errorf(http.StatusBadRequest, "own_role", "admins cannot change their own role; ask another admin")
	case u.Guest && role == store.RoleAdmin:
		return errorf(http.StatusBadRequest, "guest_admin", "%s is a guest: only registered accounts can be admins", accountName(&u.User))
	case u.Banned && role == store.RoleAdmin:
		return errorf(http.StatusConflict, "banned", "%s is banned: unban them first", accountName(&u.User))
	case u.Role == role:
		return errorf(http.StatusConflict, "same_role", "%s is already a %s", accountName(&u.User), role)
	}
	if err := a.st.SetRole(ctx, id, role); err != nil {
		return err
	}
	action := "user.promote"
	if role == store.RolePlayer {
		action = "user.demote"
	}
	a.audit(ctx, by, action, "user", idStr(id), accountName(&u.User), u.Role+" → "+role)
	return nil
}

// ResetPassword gives user id a new random password, which it returns (to be handed over by the
// admin; it is stored only as a hash). Every session of the user ends and its live connections
// close (code "signed_out").
func (a *Admin) ResetPassword(ctx context.Context, by Actor, id int64) (string, error) {
	u, err := a.account(ctx, id)
	if err != nil {
		return "", err
	}
	if u.Guest || u.Username == nil {
		return "", errorf(http.StatusBadRequest, "guest_password", "%s is a guest account: it has no password", accountName(&u.User))
	}
	pw := newPassword()
	hash, err := bcrypt.GenerateFromPassword([]byte(pw), a.cost)
	if err != nil {
		return "", err
	}
	if err := a.st.SetPasswordHash(ctx, id, string(hash)); err != nil {
		return "", err
	}
	a.rooms.DisconnectUser(context.WithoutCancel(ctx), id, "signed_out", "your password was reset by an admin: sign in again")
	a.audit(ctx, by, "user.password_reset", "user", idStr(id), accountName(&u.User), "sessions ended")
	return pw, nil
}

// passwordLetters are the letters of generated passwords: no look-alikes (0/O, 1/l/I).
const passwordLetters = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"

// newPassword returns 16 random letters (about 93 bits).
func newPassword() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	for i := range b {
		b[i] = passwordLetters[int(b[i])%len(passwordLetters)]
	}
	return string(b[:])
}

// DeletionPolicy says what deleting an account does to its games; the user page shows it.
const DeletionPolicy = `Deleting an account erases its username (which becomes free), password, display name and look, ` +
	`ends its sessions and closes its connections; it cannot be undone. The games it played stay in their rooms' ` +
	`history unchanged, under the name it played with, and their replays still work. In open rooms its seat in a ` +
	`running game passes to a bot and its other memberships are removed; a room it hosts passes to the longest-standing ` +
	`human member, or closes when none is left. Its chat lines stay under the name they were written with.`

// DeleteUser deletes account id (see DeletionPolicy). confirm must repeat the account's name
// (its username, or a guest's display name), so a slip of the mouse deletes nothing. Admins are
// demoted before they can be deleted, and nobody deletes their own account here.
func (a *Admin) DeleteUser(ctx context.Context, by Actor, id int64, confirm string) error {
	u, err := a.account(ctx, id)
	if err != nil {
		return err
	}
	name := u.DisplayName
	if u.Username != nil {
		name = *u.Username
	}
	switch {
	case id == by.ID:
		return errorf(http.StatusBadRequest, "delete_self", "admins cannot delete their own account here")
	case u.Role == store.RoleAdmin:
		return errorf(http.StatusConflict, "delete_admin", "%s is an admin: demote them before deleting", accountName(&u.User))
	case strings.TrimSpace(confirm) != name:
		return errorf(http.StatusBadRequest, "confirm", "confirm: type the account's name %q to delete it", name)
	}
	open := store.RoomOpen
	rooms, _, err := a.st.Rooms(ctx, store.RoomQuery{UserID: id, Status: open, Limit: 10000})
	if err != nil {
		return err
	}
	if err := a.st.DeleteAccount(ctx, id, a.now()); err != nil {
		return err
	}
	// The account is gone (it cannot sign in or join again); now take it out of the open rooms.
	left := 0
	var failed, elsewhere []string
	for _, sr := range rooms {
		r, err := a.rooms.Get(ctx, sr.Code)
		if _, ok := room.Elsewhere(err); ok {
			elsewhere = append(elsewhere, sr.Code)
			continue
		}
		if err != nil {
			continue // closed meanwhile
		}
		was, err := r.AdminRemoveUser(ctx, id, "deleted", "this account was deleted")
		if err != nil {
			failed = append(failed, sr.Code+": "+err.Error())
			continue
		}
		if was {
			left++
		}
	}
	if len(elsewhere) > 0 {
		// Other nodes run those rooms: each takes the account out of its own.
		a.rooms.RemoveUserElsewhere(id, "deleted", "this account was deleted")
	}
	a.rooms.DisconnectUser(context.WithoutCancel(ctx), id, "deleted", "this account was deleted")
	detail := fmt.Sprintf("removed from %d open rooms", left)
	if len(elsewhere) > 0 {
		detail += fmt.Sprintf("; %d run by other nodes asked to remove it (%s)", len(elsewhere), strings.Join(elsewhere, ", "))
	}
	if len(failed) > 0 {
		detail += "; not removed from " + strings.Join(failed, "; ")
	}
	a.audit(ctx, by, "user.delete", "user", idStr(id), name, detail)
	if len(failed) > 0 {
		return errorf(http.StatusServiceUnavailable, "partly_deleted", "account %s is deleted, but it is still a member of: %s (try again to remove it)", name, strings.Join(failed, "; "))
	}
	return nil
}

// storedRoom reads room code as stored, open or closed; an unknown code is a 404 no_room.
func (a *Admin) storedRoom(ctx context.Context, code string) (*store.Room, error) {
	sr, err := a.st.RoomByCode(ctx, code)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errorf(http.StatusNotFound, "no_room", "there is no room %q", strings.ToUpper(code))
	}
	return sr, err
}

// liveRoom returns the running room with code, loading an open one; a closed or unknown room is
// a 404 or 409 naming it.
func (a *Admin) liveRoom(ctx context.Context, code string) (*room.Room, *store.Room, error) {
	sr, err := a.storedRoom(ctx, code)
	if err != nil {
		return nil, nil, err
	}
	if sr.Status != store.RoomOpen {
		return nil, sr, errorf(http.StatusConflict, "room_closed", "room %s is closed", sr.Code)
	}
	r, err := a.rooms.Get(ctx, sr.Code)
	return r, sr, err
}

// CloseRoom closes room code for good with a reason: its game in progress is abandoned and every
// connection gets a "bye" with code "closed" and the reason.
func (a *Admin) CloseRoom(ctx context.Context, by Actor, code, reason string) error {
	reason, err := checkReason(reason, true)
	if err != nil {
		return err
	}
	r, sr, err := a.liveRoom(ctx, code)
	if err != nil {
		return err
	}
	if err := r.AdminClose(ctx, "closed by an admin: "+reason); err != nil {
		if !errors.Is(err, room.ErrClosed) {
			return err
		}
		// The actor stopped meanwhile (its last human left): close what is stored.
		if err := a.st.CloseStoredRoom(ctx, sr.ID, a.now()); err != nil && !errors.Is(err, store.ErrConflict) {
			return err
		}
	}
	a.audit(ctx, by, "room.close", "room", sr.Code, sr.Code+" ("+sr.Ruleset+")", reason)
	return nil
}

// memberName returns the name of member id of a room's info ("" when absent).
func memberName(in room.Info, id int64) (string, bool) {
	for _, m := range in.Members {
		if m.ID == id {
			return m.Name, true
		}
	}
	return "", false
}

// Kick removes member memberID from room code with a reason and keeps the user out as opts say
// (see room.Room.AdminKick; opts.Reason is set from reason).
func (a *Admin) Kick(ctx context.Context, by Actor, code string, memberID int64, reason string, opts room.KickOptions) error {
	reason, err := checkReason(reason, true)
	if err != nil {
		return err
	}
	opts.Reason = reason
	r, sr, err := a.liveRoom(ctx, code)
	if err != nil {
		return err
	}
	in, err := r.Info(ctx)
	if err != nil {
		return err
	}
	name, ok := memberName(in, memberID)
	if !ok {
		return errorf(http.StatusNotFound, "no_member", "no member %d in room %s", memberID, sr.Code)
	}
	if err := r.AdminKick(ctx, memberID, opts, by.ID); err != nil {
		return err
	}
	out := "banned from the room"
	if !opts.Ban {
		cd := opts.Cooldown
		if cd == 0 {
			cd = room.DefaultKickCooldown
		}
		out = fmt.Sprintf("kept out %d minutes", int(cd/time.Minute))
	}
	a.audit(ctx, by, "room.kick", "room", sr.Code, sr.Code, fmt.Sprintf("member %d (%s), %s: %s", memberID, name, out, reason))
	return nil
}

// SetHost gives the host role of room code to member memberID, a human member.
func (a *Admin) SetHost(ctx context.Context, by Actor, code string, memberID int64) error {
	r, sr, err := a.liveRoom(ctx, code)
	if err != nil {
		return err
	}
	in, err := r.Info(ctx)
	if err != nil {
		return err
	}
	name, ok := memberName(in, memberID)
	if !ok {
		return errorf(http.StatusNotFound, "no_member", "no member %d in room %s", memberID, sr.Code)
	}
	if err := r.AdminSetHost(ctx, memberID); err != nil {
		return err
	}
	a.audit(ctx, by, "room.host", "room", sr.Code, sr.Code, fmt.Sprintf("host → member %d (%s)", memberID, name))
	return nil
}

// engine returns the engine of ruleset id, or a 404 listing the ids there are.
func (a *Admin) engine(id string) (any, error) {
	engines := a.rooms.Engines()
	e, ok := engines[id]
	if !ok {
		ids := make([]string, 0, len(engines))
		for k := range engines {
			ids = append(ids, k)
		}
		return nil, errorf(http.StatusNotFound, "no_ruleset", "no ruleset %q on this server (it has: %s)", id, strings.Join(sortedStrings(ids), ", "))
	}
	return e, nil
}

// RestartPlugin kills the plugin process serving ruleset id and launches a fresh one. The rooms'
// games go on: the host keeps every game's state, so the next action is sent to the new process
// (a call in flight on the old one fails once and the room tries it again).
func (a *Admin) RestartPlugin(ctx context.Context, by Actor, id string) (room.PluginStats, error) {
	if _, err := a.engine(id); err != nil {
		return room.PluginStats{}, err
	}
	before, ok := a.rooms.PluginStats(id)
	if !ok {
		return room.PluginStats{}, errorf(http.StatusConflict, "in_process", "ruleset %s runs inside the server, not as a plugin process: there is nothing to restart", id)
	}
	st, err := a.rooms.RestartPlugin(id)
	if err != nil {
		a.audit(ctx, by, "plugin.restart", "plugin", id, id, fmt.Sprintf("pid %d → failed: %v", before.PID, err))
		return st, errorf(http.StatusServiceUnavailable, "restart_failed", "restarting the plugin of %s: %v", id, err)
	}
	a.audit(ctx, by, "plugin.restart", "plugin", id, id, fmt.Sprintf("pid %d → %d", before.PID, st.PID))
	return st, nil
}

// DisablePlugin disables ruleset id for new rooms with a reason; rooms already playing it go on.
func (a *Admin) DisablePlugin(ctx context.Context, by Actor, id, reason string) error {
	reason, err := checkReason(reason, true)
	if err != nil {
		return err
	}
	if _, err := a.engine(id); err != nil {
		return err
	}
	if _, off := a.rooms.DisabledRulesets()[id]; off {
		return errorf(http.StatusConflict, "already_disabled", "ruleset %s is already disabled for new rooms", id)
	}
	d := &store.DisabledRuleset{Reason: reason, DisabledAt: a.now().UTC()}
	if by.ID != 0 {
		uid := by.ID
		d.ActorID = &uid
	}
	if err := a.st.SetRulesetDisabled(ctx, id, d); err != nil {
		return err
	}
	a.rooms.SetRulesetDisabled(id, true, reason)
	a.audit(ctx, by, "plugin.disable", "plugin", id, id, reason)
	return nil
}

// EnablePlugin lets new rooms use ruleset id again.
func (a *Admin) EnablePlugin(ctx context.Context, by Actor, id string) error {
	if _, err := a.engine(id); err != nil {
		return err
	}
	if _, off := a.rooms.DisabledRulesets()[id]; !off {
		return errorf(http.StatusConflict, "not_disabled", "ruleset %s is not disabled", id)
	}
	if err := a.st.SetRulesetDisabled(ctx, id, nil); err != nil {
		return err
	}
	a.rooms.SetRulesetDisabled(id, false, "")
	a.audit(ctx, by, "plugin.enable", "plugin", id, id, "")
	return nil
}
