package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	_ "github.com/glebarez/go-sqlite" // the "sqlite" database/sql driver
)

// TestMigrationKeepsData writes a room with the first schema, then opens the database with every
// migration: the room is still there and the new column has its default.
func TestMigrationKeepsData(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", path+"?"+sqlitePragmas)
	if err != nil {
		t.Fatal(err)
	}
	if err := migrateTo(ctx, db, "sqlite", 1); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO users (display_name, created_at) VALUES ('Old', CURRENT_TIMESTAMP)`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO rooms (code, host_id, ruleset, mode, capacity, created_at, updated_at) VALUES ('OLDONE', 1, 'x', 'online', 4, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	st, err := Open(ctx, Config{DSN: "sqlite:" + path})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r, err := st.RoomByCode(ctx, "oldone")
	if err != nil {
		t.Fatalf("the room written before the migration: %v", err)
	}
	if r.Capacity != 4 || r.TurnSeconds != 0 {
		t.Fatalf("migrated room: %+v", r)
	}
}
