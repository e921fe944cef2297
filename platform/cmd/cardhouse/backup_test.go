package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBackupRestoreMidPlay is docs/operations.md's "Back up and restore" as an operator does it,
// on real processes: a `cardhouse serve` plays a table of each variant (two players and a
// spectator over WebSockets, games dealt one after another); the database is copied while they
// play (`cardhouse backup` on SQLite, pg_dump on PostgreSQL); play goes on past the copy; on
// SQLite `cardhouse restore` refuses to replace the database of the running server, then puts
// the copy into a fresh --data; on PostgreSQL, the server stopped, the schema is dropped and
// pg_restore puts the copy back. A server started on the restored database holds every action
// a client saw accepted before the backup began, each game's action log whole, and every table
// plays on to the end of its game, each replay matching its stored state.
func TestBackupRestoreMidPlay(t *testing.T) {
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) { testBackupRestoreMidPlay(t, dialect) })
	}
}

func testBackupRestoreMidPlay(t *testing.T, dialect string) {
	ce := newSingleEnv(t, "backup", dialect)
	pg := newPGTools(t, ce)
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
		backup := exec.Command(ce.bin, "backup", "--data", ce.data, file)
		if pg != nil {
			backup = pg.dump(file)
		}
		out, err := backup.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v: %s", backup, err, out)
		}
		during = totalProgress(tables) - from
		t.Logf("%s(%d actions accepted while it copied)", out, during)
		// Play goes on after the copy: what follows is not in it.
		awaitProgress(t, tables, totalProgress(tables), 30, done)
		out, err = exec.Command(ce.bin, "restore", "--force", "--data", ce.data, "--db", ce.dsn, file).CombinedOutput()
		want := "running server"
		if pg != nil {
			want = "pg_restore" // the command says how
		}
		if err == nil || !strings.Contains(string(out), want) {
			t.Fatalf("cardhouse restore over a running server's database: %v: %s; want a refusal saying %q", err, out, want)
		}
	})
	after := totalProgress(tables)
	ce.term("n1")

	re, restore := ce, (*exec.Cmd)(nil)
	if pg != nil {
		restore = pg.restore(file) // into the same database, its schema dropped first
	} else {
		re = newSingleEnv(t, "restored", dialect)
		restore = exec.Command(ce.bin, "restore", "--data", re.data, file)
	}
	out, err := restore.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v: %s", restore, err, out)
	}
	t.Logf("%s: %s", restore, out)
	re.start("n1")
	kept := 0
	for i, tb := range tables {
		for gs, who := range before[i] {
			var n int
			if err := re.db.QueryRow(`SELECT count(*) FROM actions a JOIN games g ON a.game_id = g.id
WHERE g.room_id = $1 AND g.number = $2 AND a.seq = $3`, tb.roomID, gs.game, gs.seq).Scan(&n); err != nil {
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

// reopen is the same room and people on the server of ce (a restored database): nothing yet seen.
func (tb *clusterTable) reopen(ce *clusterEnv) *clusterTable {
	n := ce.emptyTable(tb.variant, uint64(tb.roomID)+99)
	n.code, n.roomID = tb.code, tb.roomID
	n.seatOn(tb.host, tb.guest, tb.watcher)
	return n
}

// pgTools runs PostgreSQL's own backup tools, as docs/operations.md says, on the test's schema.
type pgTools struct {
	t            *testing.T
	ce           *clusterEnv
	base, schema string
}

// newPGTools returns nil for an env on SQLite; on PostgreSQL it needs pg_dump and pg_restore.
func newPGTools(t *testing.T, ce *clusterEnv) *pgTools {
	if ce.dsn == "" {
		return nil
	}
	for _, tool := range []string{"pg_dump", "pg_restore"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: skipping the PostgreSQL backup (.ci/run's machine has it)", tool)
		}
	}
	base, schema, ok := strings.Cut(ce.dsn, " search_path=")
	if !ok {
		t.Fatalf("the test's DSN %q names no schema", ce.dsn)
	}
	return &pgTools{t: t, ce: ce, base: base, schema: schema}
}

// dump is pg_dump of the test's schema (the docs' command, narrowed to it: the database is shared).
func (p *pgTools) dump(file string) *exec.Cmd {
	return exec.Command("pg_dump", "--format=custom", "--file="+file, "--schema="+p.schema, "--dbname="+p.base)
}

// restore drops the schema (the loss), then is pg_restore of the dump.
func (p *pgTools) restore(file string) *exec.Cmd {
	if _, err := p.ce.db.Exec("DROP SCHEMA " + p.schema + " CASCADE"); err != nil {
		p.t.Fatal(err)
	}
	return exec.Command("pg_restore", "--clean", "--if-exists", "--no-owner", "--dbname="+p.base, file)
}
