// Package storetest opens a fresh, migrated store for a test: SQLite in the test's temporary
// folder, or, when CARDHOUSE_TEST_POSTGRES_DSN is set, a new schema on that PostgreSQL server that
// is dropped when the test ends (so concurrent runs never collide).
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"cardhouse/platform/store"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver, for creating schemas
)

// PostgresEnv names the variable holding the PostgreSQL DSN of the test server.
const PostgresEnv = "CARDHOUSE_TEST_POSTGRES_DSN"

// Dialects lists the databases tests should run on: "sqlite" always, "postgres" when PostgresEnv
// is set.
func Dialects() []string {
	if os.Getenv(PostgresEnv) != "" {
		return []string{"sqlite", "postgres"}
	}
	return []string{"sqlite"}
}

// SkipUnlessAvailable skips t with a clear message when dialect is "postgres" and PostgresEnv is
// unset.
func SkipUnlessAvailable(t testing.TB, dialect string) {
	t.Helper()
	if dialect == "postgres" && os.Getenv(PostgresEnv) == "" {
		t.Skipf("%s is not set: skipping the PostgreSQL run", PostgresEnv)
	}
}

// DSN returns a DSN for a fresh database of dialect, valid until the test ends. For SQLite it is
// a file under dir (so a test can reopen the same data).
func DSN(t testing.TB, dialect, dir string) string {
	t.Helper()
	if dialect != "postgres" {
		return "sqlite:" + filepath.Join(dir, "cardhouse.db")
	}
	base := os.Getenv(PostgresEnv)
	if base == "" {
		t.Fatalf("%s is not set", PostgresEnv)
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "t_" + hex.EncodeToString(b[:])
	db, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatalf("opening %s: %v", base, err)
	}
	if _, err := db.Exec("CREATE SCHEMA " + schema); err != nil {
		db.Close()
		t.Fatalf("creating schema %s: %v", schema, err)
	}
	t.Cleanup(func() {
		_, _ = db.Exec("DROP SCHEMA " + schema + " CASCADE")
		db.Close()
	})
	return base + " search_path=" + schema
}

// Open returns a fresh migrated store of dialect, closed when the test ends.
func Open(t testing.TB, dialect string) *store.Store {
	t.Helper()
	SkipUnlessAvailable(t, dialect)
	st, err := store.Open(context.Background(), store.Config{DSN: DSN(t, dialect, t.TempDir())})
	if err != nil {
		t.Fatalf("opening the %s store: %v", dialect, err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// OpenCounting is Open with CountStatements watching the store's statements.
func OpenCounting(t testing.TB, dialect string) *store.Store {
	t.Helper()
	SkipUnlessAvailable(t, dialect)
	st, err := store.Open(context.Background(), store.Config{DSN: DSN(t, dialect, t.TempDir()), OnStatement: CountStatements})
	if err != nil {
		t.Fatalf("opening the %s store: %v", dialect, err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// countKey marks a context whose statements CountStatements counts.
type countKey struct{}

// CountStatements is a store.Config.OnStatement that adds one to the counter a statement's
// context carries (Counting); the statements of other contexts (background work, other calls)
// are not counted.
func CountStatements(ctx context.Context, _ string) {
	if n, ok := ctx.Value(countKey{}).(*atomic.Int64); ok {
		n.Add(1)
	}
}

// Counting returns ctx marked so that CountStatements counts its statements, and the count.
func Counting(ctx context.Context) (context.Context, *atomic.Int64) {
	n := &atomic.Int64{}
	return context.WithValue(ctx, countKey{}, n), n
}

// OpenNodes returns n stores on one fresh migrated database of dialect, as n nodes of a cluster
// hold (each with its own connections and group committer), closed when the test ends.
func OpenNodes(t testing.TB, dialect string, n int) []*store.Store {
	t.Helper()
	SkipUnlessAvailable(t, dialect)
	dsn := DSN(t, dialect, t.TempDir())
	sts := make([]*store.Store, n)
	for i := range sts {
		st, err := store.Open(context.Background(), store.Config{DSN: dsn})
		if err != nil {
			t.Fatalf("opening the %s store of node %d: %v", dialect, i, err)
		}
		t.Cleanup(func() { st.Close() })
		sts[i] = st
	}
	return sts
}

// NewRoom stores an open online room of two seats with code, hosted by a new user of its own.
func NewRoom(t testing.TB, st *store.Store, code string) *store.Room {
	t.Helper()
	ctx := context.Background()
	name := "host-" + code
	u := &store.User{Username: &name, DisplayName: "Host", PasswordHash: "x"}
	if err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	r := &store.Room{Code: code, HostID: u.ID, Ruleset: "x", Options: "{}", Mode: store.ModeOnline, Capacity: 2, Status: store.RoomOpen}
	if err := st.CreateRoom(ctx, r, nil); err != nil {
		t.Fatal(err)
	}
	return r
}
