package store

// The admin area's storage (issue 8): searching accounts and rooms, the audit log, rulesets
// disabled for new rooms, password resets and account deletion. Migration 00003_admin adds the
// tables and columns these use.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
)

// AuditEntry is one admin action: who (ActorID, with Actor the name at the time; nil ActorID for
// the command line), what (Action, a stable word such as "user.ban"), on what (TargetType and
// TargetID, with Target a readable label), why or how (Detail), and when.
type AuditEntry struct {
	ID         int64     `gorm:"primaryKey" json:"id"`
	ActorID    *int64    `json:"actor_id,omitempty"`
	Actor      string    `json:"actor"`
	Action     string    `json:"action"`
	TargetType string    `json:"target_type"`
	TargetID   string    `json:"target_id"`
	Target     string    `json:"target"`
	Detail     string    `json:"detail"`
	CreatedAt  time.Time `json:"created_at"`
}

// TableName names the audit log table.
func (AuditEntry) TableName() string { return "admin_audit" }

// DisabledRuleset marks a ruleset that new rooms may not use; running rooms keep playing it.
type DisabledRuleset struct {
	Ruleset    string `gorm:"primaryKey"`
	Reason     string
	ActorID    *int64
	DisabledAt time.Time
}

// AccountRow is an account as the admin area lists it: the user, when it was deleted (nil
// while it exists) and when it was last seen.
type AccountRow struct {
	User      `gorm:"embedded"`
	DeletedAt *time.Time
	// LastSeenAt is when one of its sessions was last used (nil: not since issue 23's migration).
	LastSeenAt *time.Time
}

// UserQuery filters and pages the account list. Zero fields do not filter.
type UserQuery struct {
	// Search matches usernames and display names containing it, case-insensitively.
	Search string
	// Role is RolePlayer or RoleAdmin.
	Role string
	// Banned, when set, keeps only banned (true) or not banned (false) accounts.
	Banned *bool
	// Guests includes guest accounts (registered ones are always listed).
	Guests bool
	// Deleted includes deleted accounts.
	Deleted bool
	// Offset and Limit page the result (Limit 0: 50); the order is newest first.
	Offset, Limit int
}

var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// likePattern is a LIKE pattern (with ESCAPE '\') matching strings that contain s.
func likePattern(s string) string { return "%" + likeEscaper.Replace(s) + "%" }

// prefixPattern is a LIKE pattern (with ESCAPE '\') matching strings that start with s.
func prefixPattern(s string) string { return likeEscaper.Replace(s) + "%" }

// Accounts lists the accounts q selects and the total number selected before paging.
func (s *Store) Accounts(ctx context.Context, q UserQuery) ([]AccountRow, int64, error) {
	db := s.db.WithContext(ctx).Model(&User{})
	if q.Search != "" {
		p := likePattern(strings.ToLower(q.Search))
		db = db.Where(`(LOWER(COALESCE(username, '')) LIKE ? ESCAPE '\' OR LOWER(display_name) LIKE ? ESCAPE '\')`, p, p)
	}
	if q.Role != "" {
		db = db.Where("role = ?", q.Role)
	}
	if q.Banned != nil {
		db = db.Where("banned = ?", *q.Banned)
	}
	if !q.Guests {
		db = db.Where("guest = ?", false)
	}
	if !q.Deleted {
		db = db.Where("deleted_at IS NULL")
	}
	return newestPage[AccountRow](db, q.Offset, q.Limit, 50)
}

// Account returns one account, deleted or not.
func (s *Store) Account(ctx context.Context, id int64) (*AccountRow, error) {
	var row AccountRow
	err := s.db.WithContext(ctx).Model(&User{}).Where("id = ?", id).Take(&row).Error
	return &row, notFound(err, fmt.Sprintf("user %d", id))
}

// CountAdmins returns the number of admin accounts that are not deleted.
func (s *Store) CountAdmins(ctx context.Context) (int64, error) {
	var n int64
	err := s.db.WithContext(ctx).Model(&User{}).Where("role = ? AND deleted_at IS NULL", RoleAdmin).Count(&n).Error
	return n, err
}

// SetPasswordHash replaces a user's password hash and ends every session of the user.
func (s *Store) SetPasswordHash(ctx context.Context, id int64, hash string) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&User{}).Where("id = ? AND deleted_at IS NULL", id).Update("password_hash", hash)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return fmt.Errorf("user %d: %w", id, ErrNotFound)
		}
		return tx.Where("user_id = ?", id).Delete(&Session{}).Error
	})
}

// AccountState is what a node's live rooms must follow of an account (room.Manager's
// reconciliation): whether it is banned or deleted, and its look.
type AccountState struct {
	ID             int64
	Banned         bool
	Deleted        bool
	Avatar, Colour string
}

// AccountStates reads the accounts ids, in batches of a few hundred; an id with no account is
// left out.
func (s *Store) AccountStates(ctx context.Context, ids []int64) ([]AccountState, error) {
	var out []AccountState
	for len(ids) > 0 {
		batch := ids[:min(len(ids), 500)]
		ids = ids[len(batch):]
		var rows []struct {
			ID             int64
			Banned         bool
			DeletedAt      *time.Time
			Avatar, Colour string
		}
		if err := s.db.WithContext(ctx).Model(&User{}).Select("id, banned, deleted_at, avatar, colour").
			Where("id IN ?", batch).Find(&rows).Error; err != nil {
			return nil, err
		}
		for _, r := range rows {
			out = append(out, AccountState{ID: r.ID, Banned: r.Banned, Deleted: r.DeletedAt != nil, Avatar: r.Avatar, Colour: r.Colour})
		}
	}
	return out, nil
}

// DeleteAccount deletes an account, keeping a tombstone row so the rooms it hosted and the games
// it played stay whole: the username (freed for others), password, display name and look are
// erased, the account is marked banned and deleted, and its sessions end. Members and chat lines
// keep the names they were created with. Deleting a deleted account returns ErrNotFound.
func (s *Store) DeleteAccount(ctx context.Context, id int64, now time.Time) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&User{}).Where("id = ? AND deleted_at IS NULL", id).Updates(map[string]any{
			"username": nil, "password_hash": "", "display_name": fmt.Sprintf("Deleted user %d", id),
			"avatar": "", "colour": "", "banned": true, "deleted_at": now.UTC(),
		})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return fmt.Errorf("user %d: %w", id, ErrNotFound)
		}
		return tx.Where("user_id = ?", id).Delete(&Session{}).Error
	})
}

// RoomQuery filters and pages the room list. Zero fields do not filter.
type RoomQuery struct {
	// Code matches room codes starting with it (case-insensitive).
	Code string
	// Status is RoomOpen or RoomClosed.
	Status string
	// Ruleset is a ruleset id.
	Ruleset string
	// Mode is ModeOnline, ModeComputer or ModeDevice.
	Mode string
	// UserID keeps rooms the user hosts or is a member of.
	UserID int64
	// Offset and Limit page the result (Limit 0: 50); the order is newest first.
	Offset, Limit int
}

// Rooms lists the rooms q selects and the total number selected before paging.
func (s *Store) Rooms(ctx context.Context, q RoomQuery) ([]Room, int64, error) {
	db := s.db.WithContext(ctx).Model(&Room{})
	if q.Code != "" {
		db = db.Where(`code LIKE ? ESCAPE '\'`, prefixPattern(strings.ToUpper(strings.TrimSpace(q.Code))))
	}
	if q.Status != "" {
		db = db.Where("status = ?", q.Status)
	}
	if q.Ruleset != "" {
		db = db.Where("ruleset = ?", q.Ruleset)
	}
	if q.Mode != "" {
		db = db.Where("mode = ?", q.Mode)
	}
	if q.UserID != 0 {
		db = db.Where("(host_id = ? OR id IN (SELECT room_id FROM members WHERE user_id = ?))", q.UserID, q.UserID)
	}
	return newestPage[Room](db, q.Offset, q.Limit, 50)
}

// gameListColumns are a game's columns but its state.
const gameListColumns = "games.id, games.room_id, games.number, games.ruleset, games.seats, games.seed, games.options, games.seat_members, games.opener, games.start_now, games.seq, games.phase, games.status, games.started_at, games.ended_at"

// RoomGames lists a room's games, newest first, without their state.
func (s *Store) RoomGames(ctx context.Context, roomID int64) ([]Game, error) {
	var gs []Game
	err := s.db.WithContext(ctx).Select(gameListColumns+", "+lastSeqColumn).Where("room_id = ?", roomID).Order("number DESC").Find(&gs).Error
	return gs, err
}

// UserGame is a game a user took part in, with its room's code.
type UserGame struct {
	Game
	Code string
}

// UserGames lists the newest limit games of the rooms a user hosts or is a member of, newest
// first, without their state.
func (s *Store) UserGames(ctx context.Context, userID int64, limit int) ([]UserGame, error) {
	if limit <= 0 {
		limit = 20
	}
	var gs []UserGame
	err := s.db.WithContext(ctx).Table("games").
		Select(gameListColumns+", "+lastSeqColumn+", rooms.code").
		Joins("JOIN rooms ON rooms.id = games.room_id").
		Where("rooms.host_id = ? OR rooms.id IN (SELECT room_id FROM members WHERE user_id = ?)", userID, userID).
		Order("games.id DESC").Limit(limit).Scan(&gs).Error
	return gs, err
}

// CountActionsSince returns the number of actions accepted at or after t.
func (s *Store) CountActionsSince(ctx context.Context, t time.Time) (int64, error) {
	var n int64
	err := s.db.WithContext(ctx).Model(&ActionRecord{}).Where("created_at >= ?", t.UTC()).Count(&n).Error
	return n, err
}

// AddAudit appends e to the audit log and sets its ID.
func (s *Store) AddAudit(ctx context.Context, e *AuditEntry) error {
	if e.CreatedAt.IsZero() {
		e.CreatedAt = time.Now().UTC()
	}
	return s.db.WithContext(ctx).Create(e).Error
}

// AuditQuery filters and pages the audit log. Zero fields do not filter.
type AuditQuery struct {
	// ActorID keeps the actions of one admin.
	ActorID int64
	// ActorName keeps the actions of the admin with this name (any case): the name the entry
	// was written under, or the account's user name or display name now.
	ActorName string
	// Action keeps one kind of action ("user.ban") or, ending in ".", a family ("user.").
	Action string
	// TargetType and TargetID keep the actions on one thing ("user", "12").
	TargetType, TargetID string
	// Offset and Limit page the result (Limit 0: 100); the order is newest first.
	Offset, Limit int
}

// Audit lists the audit entries q selects and the total number selected before paging.
func (s *Store) Audit(ctx context.Context, q AuditQuery) ([]AuditEntry, int64, error) {
	db := s.db.WithContext(ctx).Model(&AuditEntry{})
	if q.ActorID != 0 {
		db = db.Where("actor_id = ?", q.ActorID)
	}
	if name := strings.ToLower(strings.TrimSpace(q.ActorName)); name != "" {
		db = db.Where("LOWER(actor) = ? OR actor_id IN (SELECT id FROM users WHERE LOWER(username) = ? OR LOWER(display_name) = ?)", name, name, name)
	}
	if strings.HasSuffix(q.Action, ".") {
		db = db.Where(`action LIKE ? ESCAPE '\'`, prefixPattern(q.Action))
	} else if q.Action != "" {
		db = db.Where("action = ?", q.Action)
	}
	if q.TargetType != "" {
		db = db.Where("target_type = ?", q.TargetType)
	}
	if q.TargetID != "" {
		db = db.Where("target_id = ?", q.TargetID)
	}
	return newestPage[AuditEntry](db, q.Offset, q.Limit, 100)
}

// DisabledRulesets lists the rulesets disabled for new rooms.
func (s *Store) DisabledRulesets(ctx context.Context) ([]DisabledRuleset, error) {
	var ds []DisabledRuleset
	err := s.db.WithContext(ctx).Order("ruleset").Find(&ds).Error
	return ds, err
}

// SetRulesetDisabled disables (d set) or enables again (d nil) the ruleset id for new rooms.
func (s *Store) SetRulesetDisabled(ctx context.Context, id string, d *DisabledRuleset) error {
	if d == nil {
		return s.db.WithContext(ctx).Where("ruleset = ?", id).Delete(&DisabledRuleset{}).Error
	}
	d.Ruleset = id
	if d.DisabledAt.IsZero() {
		d.DisabledAt = time.Now().UTC()
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Where("ruleset = ?", id).Delete(&DisabledRuleset{}).Error; err != nil {
			return err
		}
		return tx.Create(d).Error
	})
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return fmt.Errorf("disabling ruleset %s: %w", id, ErrConflict)
	}
	return err
}

// RoomByID finds a room by its ID.
func (s *Store) RoomByID(ctx context.Context, id int64) (*Room, error) {
	var r Room
	err := s.db.WithContext(ctx).Take(&r, id).Error
	return &r, notFound(err, fmt.Sprintf("room %d", id))
}

// CloseStoredRoom marks a room that has no running actor closed, and its live game abandoned.
// A room already closed returns ErrConflict.
func (s *Store) CloseStoredRoom(ctx context.Context, id int64, now time.Time) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&Room{}).Where("id = ? AND status = ?", id, RoomOpen).
			Updates(map[string]any{"status": RoomClosed, "updated_at": now.UTC()})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return fmt.Errorf("room %d is not open: %w", id, ErrConflict)
		}
		return tx.Model(&Game{}).Where("room_id = ? AND status = ?", id, GameLive).
			Updates(map[string]any{"status": GameAbandoned, "ended_at": now.UTC()}).Error
	})
}

// newestPage counts the rows a filtered query matches and returns one page of them, newest (highest
// id) first: limit rows from offset, or def rows when limit is not positive.
func newestPage[T any](db *gorm.DB, offset, limit, def int) ([]T, int64, error) {
	var total int64
	if err := db.Count(&total).Error; err != nil {
		return nil, 0, err
	}
	if limit <= 0 {
		limit = def
	}
	var rows []T
	err := db.Order("id DESC").Offset(max(offset, 0)).Limit(limit).Find(&rows).Error
	return rows, total, err
}
