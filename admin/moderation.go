package admin

// What a moderator reads of an account (issue 23): its sessions (when each signed in, was last
// used and expires; never a token) and its chat lines across rooms.

import (
	"context"
	"time"
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
