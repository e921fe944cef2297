package store

// Moderation (issue 23): the players a room keeps out after a kick, when accounts and sessions
// were last seen, and an account's chat across rooms for the admin area.

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// RoomBan keeps a user out of a room after a kick: until ExpiresAt (a cooldown), or, with ExpiresAt nil,
// until the host lifts it (a room ban). GuestKeyHash, for a guest, is the key of the browser the
// guest was made in, so that a new guest of that browser is kept out too.
type RoomBan struct {
	RoomID    int64 `gorm:"primaryKey;autoIncrement:false"`
	UserID    int64 `gorm:"primaryKey;autoIncrement:false"`
	ExpiresAt *time.Time
	// Name is the member's name in the room when kicked (the host's list of bans shows it).
	Name         string
	Reason       string
	GuestKeyHash string
	// ByID is who kicked: the host, or an admin.
	ByID      *int64
	CreatedAt time.Time
}

// Active reports whether the ban keeps its user out at now.
func (b RoomBan) Active(now time.Time) bool { return b.ExpiresAt == nil || now.Before(*b.ExpiresAt) }

// SetRoomBan stores b, replacing the ban the user had in the room.
func (s *Store) SetRoomBan(ctx context.Context, b *RoomBan) error {
	if b.CreatedAt.IsZero() {
		b.CreatedAt = time.Now().UTC()
	}
	return s.roomWrite(ctx, func(tx *gorm.DB) error {
		return tx.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "room_id"}, {Name: "user_id"}}, UpdateAll: true}).Create(b).Error
	})
}

// RoomBans lists a room's bans (expired cooldowns included), oldest first.
func (s *Store) RoomBans(ctx context.Context, roomID int64) ([]RoomBan, error) {
	var bs []RoomBan
	err := s.db.WithContext(ctx).Where("room_id = ?", roomID).Order("created_at, user_id").Find(&bs).Error
	return bs, err
}

// DeleteRoomBan lifts user userID's ban from room roomID; ErrNotFound when there is none.
func (s *Store) DeleteRoomBan(ctx context.Context, roomID, userID int64) error {
	return s.roomWrite(ctx, func(tx *gorm.DB) error {
		res := tx.Where("room_id = ? AND user_id = ?", roomID, userID).Delete(&RoomBan{})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return fmt.Errorf("room %d has no ban of user %d: %w", roomID, userID, ErrNotFound)
		}
		return nil
	})
}

// SeenEvery is how often a session's and its user's last_seen_at are written as it is used: a
// request within this long of the last write changes nothing, so a busy player costs one write
// every few minutes, not one per request.
const SeenEvery = 2 * time.Minute

// TouchSession records that session tokenHash of user userID was used at now: the session's and
// the user's last_seen_at.
func (s *Store) TouchSession(ctx context.Context, tokenHash string, userID int64, now time.Time) error {
	now = now.UTC()
	return s.write(ctx, func(tx *gorm.DB) error {
		if err := tx.Model(&Session{}).Where("token_hash = ?", tokenHash).Update("last_seen_at", now).Error; err != nil {
			return err
		}
		return tx.Model(&User{}).Where("id = ?", userID).Update("last_seen_at", now).Error
	})
}

// UserSessions lists user userID's unexpired sessions at now, the most recently used first.
func (s *Store) UserSessions(ctx context.Context, userID int64, now time.Time) ([]Session, error) {
	var ss []Session
	err := s.db.WithContext(ctx).Where("user_id = ? AND expires_at > ?", userID, now).
		Order("COALESCE(last_seen_at, created_at) DESC").Find(&ss).Error
	return ss, err
}

// UserChatLine is a chat line of one account with the room it was said in.
type UserChatLine struct {
	ChatMessage `gorm:"embedded"`
	Code        string
}

// UserChat returns the last limit chat lines user userID wrote, in every room, newest first.
func (s *Store) UserChat(ctx context.Context, userID int64, limit int) ([]UserChatLine, error) {
	var ls []UserChatLine
	err := s.db.WithContext(ctx).Table("chat_messages").
		Select("chat_messages.*, rooms.code AS code").
		Joins("JOIN rooms ON rooms.id = chat_messages.room_id").
		Where("chat_messages.user_id = ?", userID).
		Order("chat_messages.id DESC").Limit(limit).Scan(&ls).Error
	return ls, err
}
