package admin

// What a moderator reads of an account (issue 23): its sessions (when each signed in, was last
// used and expires; never a token) and its chat lines across rooms.

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"cardhouse/platform/room"
	"cardhouse/platform/store"

	"github.com/labstack/echo/v4"
)

// UserChatLimit is how many of an account's latest chat lines its page shows.
const UserChatLimit = 100

// SessionInfo is one signed-in browser of an account.
type SessionInfo struct {
	CreatedAt  time.Time  `json:"created_at"`
	LastSeenAt *time.Time `json:"last_seen_at,omitempty"`
	ExpiresAt  time.Time  `json:"expires_at"`
}

// ChatInfo is a chat line of an account, with the room it was said in.
type ChatInfo struct {
	Room string    `json:"room"`
	Name string    `json:"name"`
	Text string    `json:"text"`
	At   time.Time `json:"at"`
}

// moderation fills the account's sessions and chat.
func (a *Admin) moderation(ctx context.Context, d *UserDetail, id int64) error {
	ss, err := a.st.UserSessions(ctx, id, a.now())
	if err != nil {
		return err
	}
	d.Sessions = []SessionInfo{}
	for _, s := range ss {
		d.Sessions = append(d.Sessions, SessionInfo{CreatedAt: s.CreatedAt, LastSeenAt: s.LastSeenAt, ExpiresAt: s.ExpiresAt})
	}
	lines, err := a.st.UserChat(ctx, id, UserChatLimit)
	if err != nil {
		return err
	}
	d.Chat = []ChatInfo{}
	for _, l := range lines {
		d.Chat = append(d.Chat, ChatInfo{Room: l.Code, Name: l.Name, Text: l.Text, At: l.CreatedAt})
	}
	return nil
}

// roomBans lists the users room sr keeps out now, as its stored bans say.
func (a *Admin) roomBans(ctx context.Context, sr *store.Room) ([]room.BanInfo, error) {
	bs, err := a.st.RoomBans(ctx, sr.ID)
	if err != nil {
		return nil, err
	}
	out := []room.BanInfo{}
	now := a.now()
	for _, b := range bs {
		if b.Active(now) {
			out = append(out, room.BanInfo{UserID: b.UserID, Name: b.Name, Ban: b.ExpiresAt == nil, Until: b.ExpiresAt, Reason: b.Reason, At: b.CreatedAt})
		}
	}
	return out, nil
}

// LiftRoomBan lets user userID join room code again (a ban from the room, or a kick's cooldown).
func (a *Admin) LiftRoomBan(ctx context.Context, by Actor, code string, userID int64) error {
	r, sr, err := a.liveRoom(ctx, code)
	if err != nil {
		return err
	}
	if err := r.AdminLiftBan(ctx, userID); err != nil {
		return err
	}
	a.audit(ctx, by, "room.unban", "room", sr.Code, sr.Code, fmt.Sprintf("user %d may join again", userID))
	return nil
}

func (a *Admin) apiLiftRoomBan(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("user"), 10, 64)
	if err != nil || id <= 0 {
		return errorf(http.StatusBadRequest, "bad_path", "user must be a positive number, got %q", c.Param("user"))
	}
	return a.roomAction(c, &struct{}{}, func(code string) error { return a.LiftRoomBan(c.Request().Context(), actorOf(c), code, id) })
}
