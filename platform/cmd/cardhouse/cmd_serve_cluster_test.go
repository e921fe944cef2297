package main

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"cardhouse/platform/server"
	"cardhouse/platform/store"
	"cardhouse/platform/store/storetest"
)

// TestServeClusterSettings: a cluster needs PostgreSQL and a node name fit for the bus; each
// wrong setting is refused with a sentence naming the flag, before anything starts (no database
// is opened: the data folder stays empty).
func TestServeClusterSettings(t *testing.T) {
	pg := "host=127.0.0.1 dbname=x"
	for _, c := range []struct {
		name string
		o    serveOptions
		want string
	}{
		{"sqlite by default", serveOptions{cluster: "nats://127.0.0.1:4222", lease: time.Second}, "--cluster needs PostgreSQL"},
		{"sqlite named", serveOptions{cluster: "nats://127.0.0.1:4222", db: "sqlite:/tmp/x.db", lease: time.Second}, "--cluster needs PostgreSQL"},
		{"a node of no cluster", serveOptions{node: "a"}, "--node names a node of a cluster"},
		{"a bad node name", serveOptions{cluster: "nats://127.0.0.1:4222", db: pg, node: "a.b", lease: time.Second}, `--node "a.b"`},
		{"a short lease", serveOptions{cluster: "nats://127.0.0.1:4222", db: pg, lease: time.Millisecond}, "--lease 1ms"},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.o.data, c.o.logLevel, c.o.addr = t.TempDir(), "error", "127.0.0.1:0"
			err := runServe(context.Background(), c.o)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("runServe: %v, want an error saying %q", err, c.want)
			}
			if files, _ := os.ReadDir(c.o.data); len(files) != 0 {
				t.Errorf("the refused start left %d files in the data folder (%s): it opened the database", len(files), files[0].Name())
			}
		})
	}
	a, b := nodeName(""), nodeName("")
	if a == b || !server.NodeName.MatchString(a) {
		t.Errorf("generated node names %q and %q: want two different names fit for the bus", a, b)
	}
	if got := nodeName("web-1"); got != "web-1" {
		t.Errorf("nodeName(web-1) = %q", got)
	}
}

// TestFrozenNodeMidCommitLetsTheRoomMove: a node frozen in the middle of a room's commit (its
// transaction holding the room's lease row FOR SHARE, as store.checkFences does, then saying
// nothing) must not keep another node from taking the room once the lease has run out. A node's
// sessions get idle_in_transaction_session_timeout from clusterDSN, so the database ends the
// frozen session and its lock; without it the taking waits as long as the node stays frozen
// (TestRunFreezesANodeMidWindow, platform/bench, failed so).
func TestFrozenNodeMidCommitLetsTheRoomMove(t *testing.T) {
	storetest.SkipUnlessAvailable(t, "postgres")
	o := serveOptions{cluster: "nats://127.0.0.1:4222", db: storetest.DSN(t, "postgres", t.TempDir()), lease: time.Second}
	dsn := clusterDSN(o)
	if !strings.Contains(dsn, "idle_in_transaction_session_timeout=1000") {
		t.Fatalf("a node's DSN %q sets no idle_in_transaction_session_timeout of its lease", dsn)
	}
	ctx := context.Background()
	open := func() *store.Store {
		st, err := store.Open(ctx, store.Config{DSN: dsn})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	frozen, taker := open(), open()
	rm := storetest.NewRoom(t, frozen, "FROZE1")
	if _, err := frozen.AcquireLease(ctx, rm.ID, "frozen", o.lease); err != nil {
		t.Fatal(err)
	}
	// The frozen node's commit: its transaction reads the lease row FOR SHARE and goes no further.
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
	var epoch int64
	if err := tx.QueryRowContext(ctx, `SELECT epoch FROM room_leases WHERE room_id = $1 FOR SHARE`, rm.ID).Scan(&epoch); err != nil {
		t.Fatal(err)
	}
	// Another node takes the room once the lease has run out; a minute is far beyond the lease
	// and the session timeout: only a lock held for as long as the node is frozen reaches it.
	tctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for {
		l, err := taker.AcquireLease(tctx, rm.ID, "taker", o.lease)
		if err == nil {
			if l.Epoch != epoch+1 {
				t.Fatalf("the taker holds epoch %d, want %d", l.Epoch, epoch+1)
			}
			break
		}
		if !errors.Is(err, store.ErrLeaseHeld) {
			t.Fatalf("taking the room of a node frozen mid-commit: %v", err)
		}
		select {
		case <-tctx.Done():
			t.Fatal("the lease of the frozen node was never free to take")
		case <-time.After(50 * time.Millisecond):
		}
	}
	// The frozen node's transaction was ended by the database: its commit cannot go on.
	if _, err := tx.ExecContext(ctx, `SELECT 1`); err == nil {
		t.Error("the frozen node's transaction is still usable after the room moved")
	}
}
