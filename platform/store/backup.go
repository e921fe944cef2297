package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	_ "github.com/glebarez/go-sqlite" // the "sqlite" database/sql driver, for copies outside a Store
)

// Backups of the embedded SQLite database. A backup is a whole SQLite file: Backup writes it with
// VACUUM INTO, which reads the database in one read transaction, so the copy is consistent (every
// transaction committed before it began, none after) while a server goes on writing. Restore puts
// one in place of a server's database while no Store has it open (dataLock), keeping the file it
// replaces. A PostgreSQL database is copied with its own tools (docs/operations.md, "Back up and
// restore").

// BackupInfo describes a database file: what Backup wrote or what Restore put in place.
type BackupInfo struct {
	Path  string `json:"path"`
	Bytes int64  `json:"bytes"`
	// Version is the schema's migration version (goose), Known the newest this build has.
	Version int64 `json:"version"`
	Known   int64 `json:"known"`
	Rooms   int64 `json:"rooms"`
	Games   int64 `json:"games"`
	Live    int64 `json:"live_games"`
	Actions int64 `json:"actions"`
	// Took is how long the copy took (Backup only).
	Took time.Duration `json:"took,omitempty"`
}

// String is the one-line summary the commands print.
func (b BackupInfo) String() string {
	s := fmt.Sprintf("%s: %s, schema version %d, %d rooms, %d games (%d live), %d actions",
		b.Path, sizeWords(b.Bytes), b.Version, b.Rooms, b.Games, b.Live, b.Actions)
	if b.Took > 0 {
		s += fmt.Sprintf(", copied in %s", b.Took.Round(time.Millisecond))
	}
	return s
}

func sizeWords(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// SQLitePath is the SQLite file cfg names (its DSN "sqlite:PATH", or cardhouse.db in DataDir when
// the DSN is empty), and false when cfg names a PostgreSQL database.
func SQLitePath(cfg Config) (string, bool) {
	dsn := strings.TrimSpace(cfg.DSN)
	if isPostgres(dsn) {
		return "", false
	}
	path := strings.TrimPrefix(dsn, "sqlite:")
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	if path == "" {
		dir := cfg.DataDir
		if dir == "" {
			dir = "data"
		}
		path = filepath.Join(dir, "cardhouse.db")
	}
	return path, true
}

func isPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") ||
		strings.Contains(dsn, "dbname=") || strings.Contains(dsn, "host=")
}

// SchemaVersion is the newest migration version this build carries: a database it opens is
// migrated to it.
func SchemaVersion() int64 {
	entries, _ := fs.ReadDir(migrations, "migrations/sqlite")
	var v int64
	for _, e := range entries {
		prefix, _, _ := strings.Cut(e.Name(), "_")
		if n, err := strconv.ParseInt(prefix, 10, 64); err == nil && n > v {
			v = n
		}
	}
	return v
}

// Backup copies the SQLite database at src into the new file out, consistently, while a server
// may be writing to it; then it checks the copy (Inspect). out must not exist.
func Backup(ctx context.Context, src, out string) (BackupInfo, error) {
	if _, err := os.Stat(src); err != nil {
		return BackupInfo{}, fmt.Errorf("no database to back up at %s (is --data right?): %w", src, err)
	}
	if _, err := os.Stat(out); err == nil {
		return BackupInfo{}, fmt.Errorf("%s already exists: a backup never overwrites a file; name a new one", out)
	}
	if dir := filepath.Dir(out); dir != "" {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return BackupInfo{}, fmt.Errorf("creating the backup's folder: %w", err)
		}
	}
	db, err := sql.Open("sqlite", src+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return BackupInfo{}, fmt.Errorf("opening %s: %w", src, err)
	}
	defer db.Close()
	start := time.Now()
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, out); err != nil {
		_ = os.Remove(out)
		return BackupInfo{}, fmt.Errorf("copying %s to %s: %w", src, out, err)
	}
	took := time.Since(start)
	if err := syncFile(out); err != nil {
		return BackupInfo{}, err
	}
	info, err := Inspect(ctx, out)
	if err != nil {
		return BackupInfo{}, fmt.Errorf("the copy %s does not check out (kept for a look): %w", out, err)
	}
	info.Took = took
	return info, nil
}

// Inspect checks that path is a whole Cardhouse SQLite database (SQLite's integrity check, the
// schema's version, the tables) and counts what it holds. It changes nothing.
func Inspect(ctx context.Context, path string) (BackupInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return BackupInfo{}, fmt.Errorf("no file %s: %w", path, err)
	}
	db, err := sql.Open("sqlite", path+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		return BackupInfo{}, fmt.Errorf("opening %s: %w", path, err)
	}
	defer db.Close()
	var check string
	if err := db.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&check); err != nil {
		return BackupInfo{}, fmt.Errorf("%s is not a SQLite database: %w", path, err)
	}
	if check != "ok" {
		return BackupInfo{}, fmt.Errorf("%s is damaged: SQLite's integrity check says %q", path, check)
	}
	info := BackupInfo{Path: path, Bytes: st.Size(), Known: SchemaVersion()}
	if err := db.QueryRowContext(ctx, `SELECT coalesce(max(version_id), 0) FROM goose_db_version WHERE is_applied`).Scan(&info.Version); err != nil {
		return BackupInfo{}, fmt.Errorf("%s is a SQLite database but not Cardhouse's (no migration table): %w", path, err)
	}
	for _, c := range []struct {
		n     *int64
		query string
	}{
		{&info.Rooms, `SELECT count(*) FROM rooms`},
		{&info.Games, `SELECT count(*) FROM games`},
		{&info.Live, `SELECT count(*) FROM games WHERE status = 'live'`},
		{&info.Actions, `SELECT count(*) FROM actions`},
	} {
		if err := db.QueryRowContext(ctx, c.query).Scan(c.n); err != nil {
			return BackupInfo{}, fmt.Errorf("%s is not a whole Cardhouse database: %w", path, err)
		}
	}
	return info, nil
}

// Restore puts the backup file in place of the SQLite database at dst, which no Store may have
// open (a running server, or `cardhouse admin`): it checks the backup first (Inspect; a backup
// made by a newer Cardhouse than this build is refused), copies it beside dst and renames it into
// place. A database already at dst is kept, with its WAL, as dst.replaced-TIME (returned), and
// only with force: without it an existing database is refused. The next Open migrates the
// restored file if it is older than this build.
func Restore(ctx context.Context, backup, dst string, force bool) (info BackupInfo, replaced string, err error) {
	info, err = Inspect(ctx, backup)
	if err != nil {
		return info, "", err
	}
	if info.Version > info.Known {
		return info, "", fmt.Errorf("%s was made by a newer Cardhouse (schema version %d; this build knows up to %d): restore it with that release", backup, info.Version, info.Known)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o750); err != nil {
		return info, "", fmt.Errorf("creating the data folder: %w", err)
	}
	unlock, err := lockData(dst, true)
	if err != nil {
		return info, "", err
	}
	defer unlock()
	if _, err := os.Stat(dst); err == nil {
		if !force {
			return info, "", fmt.Errorf("a database is already at %s: restoring over it needs --force (it is kept as %s.replaced-TIME)", dst, filepath.Base(dst))
		}
		replaced = dst + ".replaced-" + time.Now().UTC().Format("20060102T150405Z")
		for _, suffix := range []string{"", "-wal", "-shm"} {
			if err := os.Rename(dst+suffix, replaced+suffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return info, "", fmt.Errorf("moving the current database aside: %w", err)
			}
		}
	} else {
		// A WAL or shared-memory file without its database belongs to nothing: it must not be
		// read as the restored file's.
		for _, suffix := range []string{"-wal", "-shm"} {
			if err := os.Remove(dst + suffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return info, "", err
			}
		}
	}
	tmp := dst + ".restoring"
	if err := copyFile(backup, tmp); err != nil {
		_ = os.Remove(tmp)
		return info, replaced, fmt.Errorf("copying the backup: %w", err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		return info, replaced, fmt.Errorf("putting the backup in place: %w", err)
	}
	if err := syncDir(filepath.Dir(dst)); err != nil {
		return info, replaced, err
	}
	info.Path = dst
	return info, replaced, nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o640)
	if err != nil {
		return err
	}
	if _, err := out.ReadFrom(in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	_ = d.Sync() // not every file system syncs a folder; the rename is what matters
	return nil
}
