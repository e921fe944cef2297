package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"cardhouse/platform/store"
)

// Backups taken while games commit actions are each a consistent moment: in every copy, each
// game's stored state (written with every action, in the action's transaction) is at its last
// action, and its action log runs 1 to N without a gap; the copies grow as the writers go on.
func TestBackupWhileWriting(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	st, err := store.Open(ctx, store.Config{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	const games, actions = 6, 400
	ids := liveGames(t, st, "BK", games)
	var wg sync.WaitGroup
	errs := make(chan error, games)
	for i, id := range ids {
		wg.Go(func() {
			for seq := 1; seq <= actions; seq++ {
				rec := &store.ActionRecord{Seq: seq, Action: fmt.Sprintf(`{"n":%d}`, seq), Now: int64(seq), CreatedAt: time.Now()}
				gs := &store.GameState{State: fmt.Appendf(nil, "g%d s%d", i, seq), Phase: "playing", Status: store.GameLive, Since: seq - 1}
				if err := st.CommitAction(ctx, id, rec, gs); err != nil {
					errs <- fmt.Errorf("game %d action %d: %w", i, seq, err)
					return
				}
			}
		})
	}
	var copies []store.BackupInfo
	for n := 0; n < 4; n++ {
		info, err := store.Backup(ctx, filepath.Join(dir, "cardhouse.db"), filepath.Join(dir, "backups", fmt.Sprintf("b%d.db", n)))
		if err != nil {
			t.Fatal(err)
		}
		copies = append(copies, info)
		time.Sleep(20 * time.Millisecond)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for _, c := range copies {
		db, err := sql.Open("sqlite", c.Path+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		rows, err := db.Query(`SELECT g.id, g.seq, g.state, count(a.seq), coalesce(min(a.seq), 0), coalesce(max(a.seq), 0)
FROM games g LEFT JOIN actions a ON a.game_id = g.id GROUP BY g.id, g.seq, g.state`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id, seq, n, lo, hi int
			var state string
			if err := rows.Scan(&id, &seq, &state, &n, &lo, &hi); err != nil {
				t.Fatal(err)
			}
			if seq != hi || n != hi || n > 0 && lo != 1 || n > 0 && !strings.HasSuffix(state, fmt.Sprintf(" s%d", hi)) {
				t.Errorf("%s: game %d's state is at seq %d (%q) with %d actions from %d to %d: not one moment", filepath.Base(c.Path), id, seq, state, n, lo, hi)
			}
		}
		rows.Close()
		db.Close()
		t.Logf("%s", c)
	}
	if first, last := copies[0].Actions, copies[len(copies)-1].Actions; first == last || first == games*actions {
		t.Logf("the copies did not fall while the writers wrote (%d, then %d actions): the consistency shown is of a still database", first, last)
	}
}

// Restore refuses what it must, and changes nothing when it does: a file that is no database, a
// backup of a newer schema, a database already in place (without --force), a database a Store
// has open.
func TestRestoreRefusals(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.Open(ctx, store.Config{DataDir: filepath.Join(dir, "live")})
	if err != nil {
		t.Fatal(err)
	}
	live := filepath.Join(dir, "live", "cardhouse.db")
	backup := filepath.Join(dir, "b.db")
	if _, err := store.Backup(ctx, live, backup); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Backup(ctx, live, backup); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("a backup over an existing file: %v", err)
	}
	if _, _, err := store.Restore(ctx, backup, live, true); err == nil || !strings.Contains(err.Error(), "running server") {
		t.Errorf("a restore over a database a Store has open: %v", err)
	}
	st.Close()

	junk := filepath.Join(dir, "junk.db")
	if err := os.WriteFile(junk, []byte("not a database at all, but long enough to be read as one"), 0o600); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(dir, "fresh", "cardhouse.db")
	if _, _, err := store.Restore(ctx, junk, fresh, false); err == nil || !strings.Contains(err.Error(), "not a SQLite database") {
		t.Errorf("restoring a file that is no database: %v", err)
	}
	newer := filepath.Join(dir, "newer.db")
	if _, err := store.Backup(ctx, backup, newer); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", newer)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO goose_db_version (version_id, is_applied) VALUES (99999, 1)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, _, err := store.Restore(ctx, newer, fresh, false); err == nil || !strings.Contains(err.Error(), "newer Cardhouse") {
		t.Errorf("restoring a backup of a newer schema: %v", err)
	}
	if _, err := os.Stat(fresh); err == nil {
		t.Errorf("a refused restore left %s", fresh)
	}
	if _, _, err := store.Restore(ctx, backup, fresh, false); err != nil {
		t.Fatal(err)
	}
	if _, _, err := store.Restore(ctx, backup, fresh, false); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Errorf("restoring over a database without force: %v", err)
	}
	_, replaced, err := store.Restore(ctx, backup, fresh, true)
	if err != nil || replaced == "" {
		t.Fatalf("restoring with force: %q, %v", replaced, err)
	}
	if _, err := os.Stat(replaced); err != nil {
		t.Errorf("the replaced database is not kept: %v", err)
	}
	st2, err := store.Open(ctx, store.Config{DataDir: filepath.Join(dir, "fresh")})
	if err != nil {
		t.Fatalf("opening the restored database: %v", err)
	}
	st2.Close()
}
