package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/glebarez/sqlite"
	"github.com/pressly/goose/v3"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

//go:embed migrations
var migrations embed.FS

// ErrNotFound is returned when a looked-up row does not exist.
var ErrNotFound = errors.New("not found")

// ErrConflict is returned when a write lost a race (a duplicate name, a stale game sequence).
var ErrConflict = errors.New("conflict")

// sqlitePragmas hold SQLite to WAL with a busy timeout and IMMEDIATE transactions, the settings
// that avoided "database is locked" under concurrent writers (DEPENDENCIES.md). Statement journals
// stay in memory (temp_store). The WAL is checkpointed by the checkpointer (checkpoint.go) in the
// background; a connection checkpoints on its own only once the WAL reaches walBackstopPages
// (rather than SQLite's 1,000), which happens only while commits come too fast for the background checkpoint to
// ever copy the whole WAL back (docs/performance.md). The synchronous pragma follows them
// (Config.Synchronous).
const sqlitePragmas = "_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)&_pragma=temp_store(MEMORY)&_pragma=wal_autocheckpoint(" + walBackstopPages + ")&_txlock=immediate"

// Synchronous is how far an SQLite commit is written before it counts as done (SQLite's
// synchronous pragma, in WAL mode). PostgreSQL ignores it (its own synchronous_commit applies).
type Synchronous string

const (
	// SyncFull (the default) syncs the WAL to the disk at every commit: a committed action survives
	// a power loss or an operating system crash, not only a killed process. The group committer
	// (commit.go) pays one sync per transaction, not per action.
	SyncFull Synchronous = "full"
	// SyncNormal syncs only at checkpoints: a commit survives the server process being killed, but
	// the last commits before a power loss or an OS crash may be lost (the database stays
	// consistent), so a player may find an action the server had accepted undone.
	SyncNormal Synchronous = "normal"
)

// ParseSynchronous reads a --sqlite-synchronous value: full, normal, or empty for full.
func ParseSynchronous(v string) (Synchronous, error) {
	switch s := Synchronous(strings.ToLower(strings.TrimSpace(v))); s {
	case "", SyncFull:
		return SyncFull, nil
	case SyncNormal:
		return SyncNormal, nil
	}
	return "", fmt.Errorf("want full or normal, got %q", v)
}

// pragma is the synchronous pragma of s for the DSN.
func (s Synchronous) pragma() string {
	if s == SyncNormal {
		return "&_pragma=synchronous(NORMAL)"
	}
	return "&_pragma=synchronous(FULL)"
}

// walBackstopPages is the WAL size (in pages) at which a committing connection checkpoints by
// itself (see checkpoint.go).
const walBackstopPages = "4000"

// maxConns bounds the database connections a server holds open.
const maxConns = 16

// Config says which database to open.
type Config struct {
	// DSN is a PostgreSQL DSN ("postgres://..." or "host=... dbname=..."), or "sqlite:PATH", or
	// empty for the SQLite file cardhouse.db in DataDir.
	DSN string
	// DataDir holds the embedded SQLite database when DSN is empty; it is created if missing.
	DataDir string
	Logger  *slog.Logger
	// OnStatement, when set, is called after each statement the store runs through GORM, with
	// the statement's context and its SQL (placeholders, not values): tests count the statements
	// of one call by marking its context (storetest.CountStatements). The few statements written
	// by hand on the connection pool (leases, owners, checkpoints) are not seen.
	OnStatement func(ctx context.Context, sql string)
	// Synchronous is SQLite's durability at commit: empty or SyncFull (every commit synced to the
	// disk), or SyncNormal (see there for what it gives up). Anything else fails Open.
	Synchronous Synchronous
}

// Store is the database. It is safe for concurrent use.
type Store struct {
	db      *gorm.DB
	sqlDB   *sql.DB
	dialect string
	commits *committer
	ckpt    *checkpointer // SQLite only
	// fence, set on a room's view of the store (Fenced), is checked by every write of the room.
	fence *Fence
	// unlock releases the SQLite file's shared lock (lockData) at Close; nil for PostgreSQL.
	unlock func()
}

// Dialect reports "sqlite" or "postgres".
func (s *Store) Dialect() string { return s.dialect }

// Open opens (creating if needed) the database cfg names and migrates it to the latest schema.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	gcfg := &gorm.Config{Logger: logger.Discard, TranslateError: true}
	var (
		dial    gorm.Dialector
		dialect string
		unlock  = func() {}
	)
	dsn := strings.TrimSpace(cfg.DSN)
	synchronous, err := ParseSynchronous(string(cfg.Synchronous))
	if err != nil {
		return nil, fmt.Errorf("the SQLite synchronous setting: %w", err)
	}
	switch {
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"), strings.Contains(dsn, "dbname="), strings.Contains(dsn, "host="):
		dial, dialect = postgres.Open(dsn), "postgres"
	default:
		path := strings.TrimPrefix(dsn, "sqlite:")
		if path == "" {
			dir := cfg.DataDir
			if dir == "" {
				dir = "data"
			}
			if err := os.MkdirAll(dir, 0o750); err != nil {
				return nil, fmt.Errorf("creating data folder %s: %w", dir, err)
			}
			path = filepath.Join(dir, "cardhouse.db")
		}
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		dial, dialect = sqlite.Open(path+sep+sqlitePragmas+synchronous.pragma()), "sqlite"
		if file, _, _ := strings.Cut(path, "?"); file != ":memory:" && !strings.HasPrefix(file, "file:") {
			var err error
			if unlock, err = lockData(file, false); err != nil {
				return nil, err
			}
		}
	}
	opened := false
	defer func() {
		if !opened {
			unlock()
		}
	}()
	db, err := gorm.Open(dial, gcfg)
	if err != nil {
		return nil, fmt.Errorf("opening the %s database: %w", dialect, err)
	}
	if cfg.OnStatement != nil {
		if err := observe(db, cfg.OnStatement); err != nil {
			return nil, fmt.Errorf("opening the %s database: %w", dialect, err)
		}
	}
	sqlDB, err := db.DB()
	if err != nil {
		return nil, fmt.Errorf("opening the %s database: %w", dialect, err)
	}
	// A bounded pool: without one, a burst (250 rooms dealing at once) opened a connection per
	// request until PostgreSQL refused more (its default max_connections is 100).
	sqlDB.SetMaxOpenConns(maxConns)
	sqlDB.SetMaxIdleConns(maxConns)
	if err := sqlDB.PingContext(ctx); err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("connecting to the %s database: %w", dialect, err)
	}
	if err := migrate(ctx, sqlDB, dialect); err != nil {
		sqlDB.Close()
		return nil, err
	}
	st := &Store{db: db, sqlDB: sqlDB, dialect: dialect, unlock: sync.OnceFunc(unlock)}
	opened = true
	st.startCommitter()
	if dialect == "sqlite" {
		st.ckpt = newCheckpointer(sqlDB, cfg.Logger, checkpointEvery, func() int64 { return st.commits.batches.Load() })
	}
	return st, nil
}

// observe calls f after every statement db runs (Config.OnStatement).
func observe(db *gorm.DB, f func(ctx context.Context, sql string)) error {
	after := func(tx *gorm.DB) { f(tx.Statement.Context, tx.Statement.SQL.String()) }
	cb := db.Callback()
	for _, err := range []error{
		cb.Create().After("gorm:create").Register("cardhouse:observe", after),
		cb.Query().After("gorm:query").Register("cardhouse:observe", after),
		cb.Update().After("gorm:update").Register("cardhouse:observe", after),
		cb.Delete().After("gorm:delete").Register("cardhouse:observe", after),
		cb.Row().After("gorm:row").Register("cardhouse:observe", after),
		cb.Raw().After("gorm:raw").Register("cardhouse:observe", after),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}

func migrate(ctx context.Context, db *sql.DB, dialect string) error {
	return migrateTo(ctx, db, dialect, -1)
}

// migrateTo applies the migrations up to version (-1: all).
func migrateTo(ctx context.Context, db *sql.DB, dialect string, version int64) error {
	sub, err := fs.Sub(migrations, "migrations/"+dialect)
	if err != nil {
		return err
	}
	gd := goose.DialectSQLite3
	if dialect == "postgres" {
		gd = goose.DialectPostgres
	}
	// Out of order: a migration may reach main after a later-numbered one was released (00009
	// after 00010 did), so a database of that release lacks a lower version; it is applied then,
	// not refused (TestUpgradeFromRecordedReleases). Migrations are written to commute.
	p, err := goose.NewProvider(gd, db, sub, goose.WithAllowOutofOrder(true))
	if err != nil {
		return fmt.Errorf("preparing %s migrations: %w", dialect, err)
	}
	if version < 0 {
		_, err = p.Up(ctx)
	} else {
		_, err = p.UpTo(ctx, version)
	}
	if err != nil {
		return fmt.Errorf("migrating the %s database: %w", dialect, err)
	}
	return nil
}

// Close stores the actions still queued, then closes the database.
func (s *Store) Close() error {
	s.stopCommitter()
	if s.ckpt != nil {
		s.ckpt.close()
	}
	if s.unlock != nil {
		defer s.unlock()
	}
	sqlDB, err := s.db.DB()
	if err != nil {
		return err
	}
	return sqlDB.Close()
}

// Ping checks the database answers (for /healthz).
func (s *Store) Ping(ctx context.Context) error {
	sqlDB, err := s.db.DB()
	if err != nil {
		return err
	}
	return sqlDB.PingContext(ctx)
}

func notFound(err error, what string) error {
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return fmt.Errorf("%s: %w", what, ErrNotFound)
	}
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return fmt.Errorf("%s: %w", what, ErrConflict)
	}
	return err
}

// ---- accounts ----

// CreateUser inserts u and sets its ID; a taken username returns ErrConflict.
func (s *Store) CreateUser(ctx context.Context, u *User) error {
	if u.Role == "" {
		u.Role = RolePlayer
	}
	if u.CreatedAt.IsZero() {
		u.CreatedAt = time.Now().UTC()
	}
	return notFound(s.write(ctx, func(tx *gorm.DB) error { return tx.Create(u).Error }), "creating user")
}

// UserByUsername finds a registered account by its (lower-case) username.
func (s *Store) UserByUsername(ctx context.Context, username string) (*User, error) {
	var u User
	err := s.db.WithContext(ctx).Where("username = ?", strings.ToLower(username)).Take(&u).Error
	return &u, notFound(err, "user "+username)
}

// UserByID finds an account.
func (s *Store) UserByID(ctx context.Context, id int64) (*User, error) {
	var u User
	err := s.db.WithContext(ctx).Take(&u, id).Error
	return &u, notFound(err, fmt.Sprintf("user %d", id))
}

// UpdateProfile stores the user's display name and look.
func (s *Store) UpdateProfile(ctx context.Context, id int64, displayName, avatar, colour string) error {
	return s.write(ctx, func(tx *gorm.DB) error {
		return tx.Model(&User{}).Where("id = ?", id).
			Updates(map[string]any{"display_name": displayName, "avatar": avatar, "colour": colour}).Error
	})
}

// SetRole sets a user's role.
func (s *Store) SetRole(ctx context.Context, id int64, role string) error {
	res := s.db.WithContext(ctx).Model(&User{}).Where("id = ?", id).Update("role", role)
	if res.Error == nil && res.RowsAffected == 0 {
		return fmt.Errorf("user %d: %w", id, ErrNotFound)
	}
	return res.Error
}

// SetBanned bans or unbans a user; banning also ends the user's sessions.
func (s *Store) SetBanned(ctx context.Context, id int64, banned bool) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&User{}).Where("id = ?", id).Update("banned", banned)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return fmt.Errorf("user %d: %w", id, ErrNotFound)
		}
		if banned {
			return tx.Where("user_id = ?", id).Delete(&Session{}).Error
		}
		return nil
	})
}

// CreateSession stores a session.
func (s *Store) CreateSession(ctx context.Context, sess *Session) error {
	return s.write(ctx, func(tx *gorm.DB) error { return tx.Create(sess).Error })
}

// SessionUser returns the unexpired session with the token hash and its user.
func (s *Store) SessionUser(ctx context.Context, tokenHash string, now time.Time) (*Session, *User, error) {
	var sess Session
	if err := s.db.WithContext(ctx).Where("token_hash = ? AND expires_at > ?", tokenHash, now).Take(&sess).Error; err != nil {
		return nil, nil, notFound(err, "session")
	}
	u, err := s.UserByID(ctx, sess.UserID)
	if err != nil {
		return nil, nil, err
	}
	return &sess, u, nil
}

// DeleteSession ends a session.
func (s *Store) DeleteSession(ctx context.Context, tokenHash string) error {
	return s.write(ctx, func(tx *gorm.DB) error { return tx.Where("token_hash = ?", tokenHash).Delete(&Session{}).Error })
}

// ---- rooms ----

// CreateRoom inserts a room with its first members in one transaction; a taken code returns
// ErrConflict.
func (s *Store) CreateRoom(ctx context.Context, r *Room, members []*Member) error {
	now := time.Now().UTC()
	r.CreatedAt, r.UpdatedAt = now, now
	return notFound(s.write(ctx, func(tx *gorm.DB) error {
		if err := tx.Create(r).Error; err != nil {
			return err
		}
		for _, m := range members {
			m.RoomID = r.ID
			if m.CreatedAt.IsZero() {
				m.CreatedAt = now
			}
			if err := tx.Create(m).Error; err != nil {
				return err
			}
		}
		return nil
	}), "creating room "+r.Code)
}

// RoomByCode finds a room by its code (upper case).
func (s *Store) RoomByCode(ctx context.Context, code string) (*Room, error) {
	var r Room
	err := s.db.WithContext(ctx).Where("code = ?", strings.ToUpper(code)).Take(&r).Error
	return &r, notFound(err, "room "+code)
}

// OpenRooms lists every open room (the live ones a starting server reloads), oldest first.
func (s *Store) OpenRooms(ctx context.Context) ([]Room, error) {
	var rs []Room
	err := s.db.WithContext(ctx).Where("status = ?", RoomOpen).Order("id").Find(&rs).Error
	return rs, err
}

// OpenRoomsHostedBy returns the codes of the open rooms whose host is user hostID, oldest first
// (the per-account room limit).
func (s *Store) OpenRoomsHostedBy(ctx context.Context, hostID int64) ([]string, error) {
	var codes []string
	err := s.db.WithContext(ctx).Model(&Room{}).Where("status = ? AND host_id = ?", RoomOpen, hostID).Order("id").Pluck("code", &codes).Error
	return codes, err
}

// SaveRoom writes every field of r.
func (s *Store) SaveRoom(ctx context.Context, r *Room) error {
	r.UpdatedAt = time.Now().UTC()
	return s.roomWrite(ctx, func(tx *gorm.DB) error { return tx.Select("*").Save(r).Error })
}

// Members lists a room's members in order of joining.
func (s *Store) Members(ctx context.Context, roomID int64) ([]*Member, error) {
	var ms []*Member
	err := s.db.WithContext(ctx).Where("room_id = ?", roomID).Order("id").Find(&ms).Error
	return ms, err
}

// SaveMembers inserts new members (ID 0) and writes every field of the others, in one transaction.
func (s *Store) SaveMembers(ctx context.Context, ms ...*Member) error {
	return s.roomWrite(ctx, func(tx *gorm.DB) error {
		for _, m := range ms {
			if m.CreatedAt.IsZero() {
				m.CreatedAt = time.Now().UTC()
			}
			var err error
			if m.ID == 0 {
				err = tx.Create(m).Error
			} else {
				err = tx.Select("*").Save(m).Error
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// DeleteMember removes a member from its room.
func (s *Store) DeleteMember(ctx context.Context, id int64) error {
	return s.roomWrite(ctx, func(tx *gorm.DB) error { return tx.Delete(&Member{}, id).Error })
}

// ---- games ----

// StartGame inserts a game, points its room at it and saves the room's members (seats may have
// been reassigned for the deal), in one transaction.
func (s *Store) StartGame(ctx context.Context, g *Game, r *Room, ms []*Member) error {
	return s.roomWrite(ctx, func(tx *gorm.DB) error {
		if err := tx.Create(g).Error; err != nil {
			return err
		}
		r.GameID = &g.ID
		r.UpdatedAt = time.Now().UTC()
		if err := tx.Select("*").Save(r).Error; err != nil {
			return err
		}
		for _, m := range ms {
			if err := tx.Select("*").Save(m).Error; err != nil {
				return err
			}
		}
		return nil
	})
}

// lastSeqColumn selects a game's last action (Game.LastSeq) beside its row.
const lastSeqColumn = "COALESCE((SELECT MAX(a.seq) FROM actions a WHERE a.game_id = games.id), games.seq) AS last_seq"

// GameByID loads a game.
func (s *Store) GameByID(ctx context.Context, id int64) (*Game, error) {
	var g Game
	err := s.db.WithContext(ctx).Select("games.*, "+lastSeqColumn).Take(&g, id).Error
	return &g, notFound(err, fmt.Sprintf("game %d", id))
}

// idChunk bounds the IDs one IN list of the batch reads carries (SQLite allows 32,766 parameters).
const idChunk = 500

// inChunks calls f with ids, idChunk at a time.
func inChunks(ids []int64, f func(chunk []int64) error) error {
	for len(ids) > 0 {
		chunk := ids[:min(len(ids), idChunk)]
		ids = ids[len(chunk):]
		if err := f(chunk); err != nil {
			return err
		}
	}
	return nil
}

// GamesByID loads the games of ids, by ID, as GameByID does each (with LastSeq), in one statement
// per idChunk games; an ID with no game is absent.
func (s *Store) GamesByID(ctx context.Context, ids []int64) (map[int64]*Game, error) {
	out := make(map[int64]*Game, len(ids))
	err := inChunks(ids, func(chunk []int64) error {
		var gs []*Game
		if err := s.db.WithContext(ctx).Select("games.*, "+lastSeqColumn).Where("id IN ?", chunk).Find(&gs).Error; err != nil {
			return err
		}
		for _, g := range gs {
			out[g.ID] = g
		}
		return nil
	})
	return out, err
}

// LastAction is a game's newest action: its seq and when it was stored.
type LastAction struct {
	Seq int
	At  time.Time
}

// LastActions returns the newest action of each game of ids, by game ID (a game with no action is
// absent), in one statement per idChunk games.
func (s *Store) LastActions(ctx context.Context, ids []int64) (map[int64]LastAction, error) {
	out := make(map[int64]LastAction, len(ids))
	err := inChunks(ids, func(chunk []int64) error {
		var rows []struct {
			GameID    int64
			Seq       int
			CreatedAt time.Time
		}
		err := s.db.WithContext(ctx).Table("actions a").Select("a.game_id, a.seq, a.created_at").
			Joins("JOIN (SELECT game_id, MAX(seq) AS seq FROM actions WHERE game_id IN ? GROUP BY game_id) m ON m.game_id = a.game_id AND m.seq = a.seq", chunk).
			Scan(&rows).Error
		if err != nil {
			return err
		}
		for _, r := range rows {
			out[r.GameID] = LastAction{Seq: r.Seq, At: r.CreatedAt}
		}
		return nil
	})
	return out, err
}

// GameByNumber loads a room's game by its number (from 1).
func (s *Store) GameByNumber(ctx context.Context, roomID int64, number int) (*Game, error) {
	var g Game
	err := s.db.WithContext(ctx).Select("games.*, "+lastSeqColumn).Where("room_id = ? AND number = ?", roomID, number).Take(&g).Error
	return &g, notFound(err, fmt.Sprintf("game %d", number))
}

// LastGameNumber returns the highest game number of a room (0 when none).
func (s *Store) LastGameNumber(ctx context.Context, roomID int64) (int, error) {
	var n *int
	err := s.db.WithContext(ctx).Model(&Game{}).Where("room_id = ?", roomID).Select("MAX(number)").Scan(&n).Error
	if err != nil || n == nil {
		return 0, err
	}
	return *n, nil
}

// SetGameStatus sets a game's status (abandoned) without an action.
func (s *Store) SetGameStatus(ctx context.Context, gameID int64, status string, ended *time.Time) error {
	return s.roomWrite(ctx, func(tx *gorm.DB) error {
		return tx.Model(&Game{}).Where("id = ?", gameID).Updates(map[string]any{"status": status, "ended_at": ended}).Error
	})
}

// Actions returns a game's action log in order.
func (s *Store) Actions(ctx context.Context, gameID int64) ([]ActionRecord, error) {
	return s.ActionsAfter(ctx, gameID, 0)
}

// ActionsAfter returns the actions of a game after the first seq, in order: those since its stored
// state when seq is the game's Seq.
func (s *Store) ActionsAfter(ctx context.Context, gameID int64, seq int) ([]ActionRecord, error) {
	var as []ActionRecord
	err := s.db.WithContext(ctx).Where("game_id = ? AND seq > ?", gameID, seq).Order("seq").Find(&as).Error
	return as, err
}

// ---- chat ----

// AddChat stores a chat line and sets its ID.
func (s *Store) AddChat(ctx context.Context, m *ChatMessage) error {
	if m.CreatedAt.IsZero() {
		m.CreatedAt = time.Now().UTC()
	}
	return s.roomWrite(ctx, func(tx *gorm.DB) error { return tx.Create(m).Error })
}

// Chat returns a room's last limit chat lines, oldest first.
func (s *Store) Chat(ctx context.Context, roomID int64, limit int) ([]ChatMessage, error) {
	var ms []ChatMessage
	if err := s.db.WithContext(ctx).Where("room_id = ?", roomID).Order("id DESC").Limit(limit).Find(&ms).Error; err != nil {
		return nil, err
	}
	for i, j := 0, len(ms)-1; i < j; i, j = i+1, j-1 {
		ms[i], ms[j] = ms[j], ms[i]
	}
	return ms, nil
}
