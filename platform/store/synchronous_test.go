package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSynchronous: every pooled SQLite connection commits with the synchronous setting asked for,
// FULL unless NORMAL is asked for, and a setting that is neither fails Open before the database
// file is created.
func TestSynchronous(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		set  Synchronous
		want int // PRAGMA synchronous: 1 NORMAL, 2 FULL
	}{{"", 2}, {SyncFull, 2}, {"FULL", 2}, {SyncNormal, 1}} {
		path := filepath.Join(t.TempDir(), "sync.db")
		st, err := Open(ctx, Config{DSN: "sqlite:" + path, Synchronous: tc.set})
		if err != nil {
			t.Fatalf("%q: %v", tc.set, err)
		}
		// Hold several connections at once so that the pool opens more than one.
		var conns []interface{ Close() error }
		for i := 0; i < 4; i++ {
			c, err := st.sqlDB.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			conns = append(conns, c)
			var got int
			if err := c.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("setting %q: connection %d has synchronous %d, want %d", tc.set, i, got, tc.want)
			}
		}
		for _, c := range conns {
			_ = c.Close()
		}
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
	}

	path := filepath.Join(t.TempDir(), "bad.db")
	_, err := Open(ctx, Config{DSN: "sqlite:" + path, Synchronous: "off"})
	if err == nil || !strings.Contains(err.Error(), `want full or normal, got "off"`) {
		t.Fatalf("synchronous off: %v, want a clear refusal", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a refused setting left the database file behind: %v", err)
	}
}
