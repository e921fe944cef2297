package store

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestCheckpointer: the checkpointer copies the WAL back only after commits, copies all of it
// while nobody writes, and the commit after that starts the WAL afresh (so it stays short without
// the committing connection checkpointing).
func TestCheckpointer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ckpt.db")
	st, err := Open(context.Background(), Config{DSN: "sqlite:" + path})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if st.ckpt == nil {
		t.Fatal("a SQLite store has no checkpointer")
	}
	st.ckpt.close() // the store's own: this test ticks one of its own
	var backstop string
	if err := st.sqlDB.QueryRow("PRAGMA wal_autocheckpoint").Scan(&backstop); err != nil || backstop != walBackstopPages {
		t.Fatalf("the connections checkpoint by themselves at %q pages (%v), want %s", backstop, err, walBackstopPages)
	}
	ctx := context.Background()
	game := newTestGame(t, st)
	// A checkpointer of the test's own that only checks when told (tick).
	c := newCheckpointer(st.sqlDB, nil, time.Hour, func() int64 { return st.CommitStats().Batches })
	defer c.close()
	c.seen = st.CommitStats().Batches

	c.tick()
	if n := c.runs.Load(); n != 0 {
		t.Fatalf("%d checkpoints with nothing committed", n)
	}
	state := make([]byte, 6000)
	commit := func(from, to int) {
		t.Helper()
		for seq := from; seq <= to; seq++ {
			rec := &ActionRecord{Seq: seq, Seat: seq % 4, Action: fmt.Sprintf(`{"n":%d}`, seq), Now: int64(seq), CreatedAt: time.Now().UTC()}
			if err := st.CommitAction(ctx, game, rec, &GameState{State: state, Phase: "playing", Status: GameLive, Since: seq - 1}); err != nil {
				t.Fatal(err)
			}
		}
	}
	commit(1, 200)
	fi, err := os.Stat(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	before := int((fi.Size() - 32) / (4096 + 24)) // the WAL's header, then frames of a page and a header each
	c.tick()
	if c.runs.Load() != 1 || c.complete.Load() != 1 {
		t.Fatalf("after 200 commits and a tick: %d checkpoints, %d complete; want 1 and 1", c.runs.Load(), c.complete.Load())
	}
	c.tick()
	if n := c.runs.Load(); n != 1 {
		t.Fatalf("%d checkpoints; a tick with no commit since the last must not checkpoint", n)
	}
	commit(201, 201)
	if after := walFrames(t, st); after >= before || after > 20 {
		t.Errorf("the WAL held %d frames after 200 commits and %d after a complete checkpoint and one more commit; want it started afresh", before, after)
	}
	if acts, err := st.ActionsAfter(ctx, game, 0); err != nil || len(acts) != 201 {
		t.Fatalf("actions after the checkpoints: %d, %v", len(acts), err)
	}
}

// TestCheckpointerRuns: the store's own checkpointer runs by itself after commits.
func TestCheckpointerRuns(t *testing.T) {
	st, err := Open(context.Background(), Config{DSN: "sqlite:" + filepath.Join(t.TempDir(), "ckpt.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rec := &ActionRecord{Seq: 1, Action: `{}`, CreatedAt: time.Now().UTC()}
	if err := st.CommitAction(context.Background(), newTestGame(t, st), rec, nil); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); st.ckpt.runs.Load() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the store's checkpointer never ran after a commit")
		}
	}
	cs := st.CommitCollectors()
	if len(cs) != 6 {
		t.Fatalf("%d collectors on SQLite; want the 4 commit counters and the 2 checkpoint counters", len(cs))
	}
	if runs := testutil.ToFloat64(cs[4]); runs < 1 || runs > float64(st.ckpt.runs.Load()) { // it may run again meanwhile
		t.Errorf("cardhouse_sqlite_checkpoints_total reads %v, the checkpointer counted %d", runs, st.ckpt.runs.Load())
	}
}

// walFrames is the number of frames in the store's WAL (a PASSIVE checkpoint's "log" column; it
// checkpoints too).
func walFrames(t *testing.T, st *Store) int {
	t.Helper()
	var busy, log, copied int
	if err := st.sqlDB.QueryRow("PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &log, &copied); err != nil {
		t.Fatal(err)
	}
	return log
}

// newTestGame creates a user, a room and a live game in st and returns the game's id.
func newTestGame(t *testing.T, st *Store) int64 {
	t.Helper()
	ctx := context.Background()
	name := "host"
	u := &User{Username: &name, DisplayName: "Host", PasswordHash: "x"}
	if err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	r := &Room{Code: "CKPT01", HostID: u.ID, Ruleset: "x", Options: "{}", Mode: ModeOnline, Capacity: 4, Status: RoomOpen}
	if err := st.CreateRoom(ctx, r, nil); err != nil {
		t.Fatal(err)
	}
	g := &Game{RoomID: r.ID, Number: 1, Ruleset: "x", Seats: 4, Options: "{}", SeatMembers: "[]", StartNow: 1, State: []byte("s0"), Phase: "playing", Status: GameLive, StartedAt: time.Now()}
	if err := st.StartGame(ctx, g, r, nil); err != nil {
		t.Fatal(err)
	}
	return g.ID
}

// A checkpoint that fails is logged once, not at every tick.
func TestCheckpointerLogsAFailureOnce(t *testing.T) {
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "gone.db"))
	if err != nil {
		t.Fatal(err)
	}
	db.Close() // every query fails from now on
	var logged bytes.Buffer
	commits := int64(0)
	c := newCheckpointer(db, slog.New(slog.NewTextHandler(&logged, nil)), time.Hour, func() int64 { return commits })
	defer c.close()
	for range 3 {
		commits++
		c.tick()
	}
	if n := strings.Count(logged.String(), "level=WARN"); n != 1 || c.runs.Load() != 0 {
		t.Fatalf("%d warnings and %d checkpoints after three failed ticks; want 1 and 0:\n%s", n, c.runs.Load(), logged.String())
	}
}
