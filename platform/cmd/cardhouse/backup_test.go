package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardhouse/sdk"
)

// TestBackupRestoreMidPlay is docs/operations.md's "Back up and restore" as an operator does it,
// on real processes: a `cardhouse serve` plays a table of each variant (two players and a
// spectator over WebSockets, games dealt one after another); `cardhouse backup` copies its SQLite
// database while they play; play goes on past the copy; `cardhouse restore` refuses to replace
// the database of the running server, then puts the copy into a fresh --data; a server started
// there holds every action a client saw accepted before the backup began, each game's action log
// whole, and every table plays on to the end of its game, each replay matching its stored state.
func TestBackupRestoreMidPlay(t *testing.T) {
	ce := newSingleEnv(t, "backup", "sqlite")
	ce.start("n1")
	tables := make([]*clusterTable, len(clusterVariants))
	for i := range tables {
		tables[i] = newClusterTable(t, ce, i, "n1")
	}
	file := filepath.Join(t.TempDir(), "cardhouse-backup.db")
	var before []map[gameSeq]string
	var during int
	playTables(t, tables, func(done <-chan struct{}) {
		if !awaitProgress(t, tables, 0, 40, done) {
			t.Fatal("the tables stopped before the backup")
		}
		before = acceptedSoFar(tables)
		from := totalProgress(tables)
		out, err := exec.Command(ce.bin, "backup", "--data", ce.data, file).CombinedOutput()
		if err != nil {
			t.Fatalf("cardhouse backup: %v: %s", err, out)
		}
		during = totalProgress(tables) - from
		t.Logf("%s(%d actions accepted while it copied)", out, during)
		// Play goes on after the copy: what follows is not in it.
		awaitProgress(t, tables, totalProgress(tables), 30, done)
		out, err = exec.Command(ce.bin, "restore", "--force", "--data", ce.data, file).CombinedOutput()
		if err == nil || !strings.Contains(string(out), "running server") {
			t.Fatalf("restore over a running server's database: %v: %s; want a refusal naming the running server", err, out)
		}
	})
	after := totalProgress(tables)
	ce.term("n1")

	re := newSingleEnv(t, "restored", "sqlite")
	out, err := exec.Command(ce.bin, "restore", "--data", re.data, file).CombinedOutput()
	if err != nil {
		t.Fatalf("cardhouse restore: %v: %s", err, out)
	}
	t.Logf("%s", out)
	re.start("n1")
	kept := 0
	for i, tb := range tables {
		for gs, who := range before[i] {
			var n int
			if err := re.db.QueryRow(`SELECT count(*) FROM actions a JOIN games g ON a.game_id = g.id
WHERE g.room_id = ? AND g.number = ? AND a.seq = ?`, tb.roomID, gs.game, gs.seq).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != 1 {
				t.Errorf("room %s (%s) game %d: action %d, seen accepted by %s before the backup began, is %d times in the restored database", tb.code, tb.variant, gs.game, gs.seq, who, n)
			}
			kept++
		}
	}
	var stored int
	if err := re.db.QueryRow(`SELECT count(*) FROM actions`).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if stored >= after {
		t.Errorf("the restored database holds %d actions, the server had accepted %d by the end: the copy holds what came after it", stored, after)
	}
	t.Logf("%d actions seen accepted before the backup are all in the restored database, which holds %d of the %d accepted by the end", kept, stored, after)
	re.checkActionLogs()

	again := make([]*clusterTable, len(tables))
	for i, tb := range tables {
		again[i] = tb.reopen(re)
	}
	playTables(t, again, func(<-chan struct{}) {})
	for _, tb := range again {
		if tb.progress() == 0 {
			t.Errorf("room %s (%s): no action accepted after the restore", tb.code, tb.variant)
		}
		tb.check(t)
	}
}

// acceptedSoFar copies each table's actions seen accepted.
func acceptedSoFar(tables []*clusterTable) []map[gameSeq]string {
	out := make([]map[gameSeq]string, len(tables))
	for i, tb := range tables {
		tb.mu.Lock()
		out[i] = make(map[gameSeq]string, len(tb.accepted))
		for gs, who := range tb.accepted {
			out[i][gs] = who
		}
		tb.mu.Unlock()
	}
	return out
}

// reopen is the same room and people on the servers of ce (a restored database): everyone
// connects to n1, nothing yet seen.
func (tb *clusterTable) reopen(ce *clusterEnv) *clusterTable {
	n := &clusterTable{ce: ce, variant: tb.variant, bot: tb.bot, code: tb.code, roomID: tb.roomID,
		host: tb.host, guest: tb.guest, watcher: tb.watcher, users: tb.users, rng: sdk.NewRNG(uint64(tb.roomID) + 99),
		dealt: map[int]bool{}, conns: map[*e2eUser]*e2eConn{}, down: map[*e2eUser]time.Time{},
		accepted: map[gameSeq]string{}, byes: map[string]int{}, more: func() bool { return false }}
	n.prefer = map[*e2eUser][]string{}
	for _, u := range n.users {
		n.prefer[u] = []string{"n1", "n1", "n1"}
	}
	return n
}
