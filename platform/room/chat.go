package room

import (
	"cardhouse/platform/store"
	"context"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Say posts a chat line from u, a member who is not waiting for approval. Lines are trimmed,
// limited to ChatMax characters and ChatBurst lines per ChatWindow, stored, and sent as text.
func (r *Room) Say(ctx context.Context, u *store.User, text string) (ChatLine, error) {
	var line ChatLine
	err := r.do(ctx, func() error {
		var err error
		line, err = r.say(u, text)
		return err
	})
	return line, err
}

func (r *Room) say(u *store.User, text string) (ChatLine, error) {
	ms := r.membersOf(u.ID)
	if len(ms) == 0 {
		return ChatLine{}, errf(KindForbidden, "not_member", "you are not a member of room %s", r.code)
	}
	if ms[0].Role == store.MemberPending {
		return ChatLine{}, errf(KindForbidden, "pending", "your request to join waits for the host")
	}
	text = strings.TrimSpace(text)
	switch n := utf8.RuneCountInString(text); {
	case !utf8.ValidString(text):
		return ChatLine{}, errf(KindInvalid, "bad_chat", "a chat line must be UTF-8 text")
	case n == 0:
		return ChatLine{}, errf(KindInvalid, "bad_chat", "a chat line cannot be empty")
	case n > r.cfg.ChatMax:
		return ChatLine{}, errf(KindInvalid, "chat_too_long", "a chat line has at most %d characters, this one has %d", r.cfg.ChatMax, n)
	}
	now := r.now()
	recent := slices.DeleteFunc(r.chatTimes[u.ID], func(t time.Time) bool { return now.Sub(t) >= r.cfg.ChatWindow })
	if len(recent) >= r.cfg.ChatBurst {
		r.chatTimes[u.ID] = recent
		return ChatLine{}, errf(KindConflict, "chat_rate", "slow down: at most %d chat lines per %s", r.cfg.ChatBurst, r.cfg.ChatWindow)
	}
	r.chatTimes[u.ID] = append(recent, now)
	uid := u.ID
	msg := &store.ChatMessage{RoomID: r.room.ID, UserID: &uid, Name: u.DisplayName, Text: text, CreatedAt: now.UTC()}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.cfg.Store.AddChat(ctx, msg); err != nil {
		return ChatLine{}, errf(KindUnavailable, "store_failure", "the chat line could not be stored; try again")
	}
	line := ChatLine{ID: msg.ID, UserID: uid, Name: msg.Name, Text: text, At: msg.CreatedAt}
	r.sendChat(line)
	return line, nil
}

// sendChat sends a chat line to every connection of a member the host has let in.
func (r *Room) sendChat(line ChatLine) {
	b := encode(Outgoing{Type: MsgChatLine, Chat: &line})
	for c := range r.clients {
		if cm := r.membersOf(c.UserID); len(cm) > 0 && cm[0].Role != store.MemberPending {
			c.push(b)
		}
	}
}
