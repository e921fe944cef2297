package room_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"cardhouse/platform/room"
	"cardhouse/platform/store"
	"cardhouse/platform/store/storetest"

	_ "github.com/jackc/pgx/v5/stdlib" // the test's own session on the database
)

// A room whose load is slow holds up no other room of the node (issue 31): here the slow room's
// lease row is locked by another session (as a node frozen mid-commit holds it), so taking its
// lease waits; meanwhile another room is loaded and answered, and the first load is still the
// same wait when it is. Once the lock goes, the slow room loads too.
func TestSlowRoomLoadHoldsUpNoOtherRoom(t *testing.T) {
	storetest.SkipUnlessAvailable(t, "postgres")
	ctx := t.Context()
	dsn := storetest.DSN(t, "postgres", t.TempDir())
	st, err := store.Open(ctx, store.Config{DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	slow, _ := storetest.NewRoom(t, st, "SLOW01"), storetest.NewRoom(t, st, "QUICK1")
	l, err := st.AcquireLease(ctx, slow.ID, "gone", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.ReleaseLease(ctx, l); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.ExecContext(ctx, `SELECT epoch FROM room_leases WHERE room_id = $1 FOR UPDATE`, slow.ID); err != nil {
		t.Fatal(err)
	}

	// The lease (30 s) bounds how long taking one may wait: far longer than this test needs.
	m, err := room.NewManager(ctx, room.Config{Store: st, Node: "node-a", LeaseTTL: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	slowDone := make(chan error, 1)
	go func() {
		_, err := m.Get(ctx, "SLOW01")
		slowDone <- err
	}()

	// The slow load waits on the lock: that session's wait, as the database reports it.
	type wait struct {
		pid   int
		since time.Time
	}
	waiting := func() (w wait, ok bool) {
		err := db.QueryRowContext(ctx, `SELECT pid, query_start FROM pg_stat_activity
WHERE wait_event_type = 'Lock' AND query LIKE '%room_leases%' AND pid <> pg_backend_pid() ORDER BY query_start LIMIT 1`).Scan(&w.pid, &w.since)
		if err == sql.ErrNoRows {
			return w, false
		}
		if err != nil {
			t.Fatal(err)
		}
		return w, true
	}
	var first wait
	for i := 0; ; i++ {
		w, ok := waiting()
		if ok {
			first = w
			break
		}
		if i == 1000 {
			t.Fatal("the slow room's load never waited on its lease row")
		}
		time.Sleep(10 * time.Millisecond)
	}

	quick, err := m.Get(ctx, "QUICK1")
	if err != nil {
		t.Fatalf("loading another room while the slow one waits: %v", err)
	}
	if info, err := quick.Info(ctx); err != nil || info.Code != "QUICK1" {
		t.Fatalf("the other room answers %+v, %v", info, err)
	}
	select {
	case err := <-slowDone:
		t.Fatalf("the slow room's load ended (%v) before the other room was answered: the other waited for it", err)
	default:
	}
	if w, ok := waiting(); !ok || w != first {
		t.Fatalf("the slow load's wait is %+v (%v), was %+v: the other room was answered only after that wait ended", w, ok, first)
	}

	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-slowDone:
		if err != nil {
			t.Fatalf("the slow room after the lock went: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the slow room never loaded after the lock went")
	}
	if _, err := m.Get(context.Background(), "SLOW01"); err != nil {
		t.Fatalf("the slow room, again: %v", err)
	}
}
