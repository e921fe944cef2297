package main

import (
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardhouse/platform/room"
	"cardhouse/platform/store"
)

// Upgrades from a recorded release (docs/operations.md, "Upgrade"). testdata/upgrade holds, per
// release, the SQLite database a server of that release left after a table of each variant had
// played a game to its end and was in the middle of the next (NAME.sql, sqlite3's .dump: text,
// not a binary database) and what a test needs to sit at those tables again (NAME.json).
// TestMakeUpgradeFixture records one with that release's binary; TestUpgradeFromRecordedReleases
// starts today's server on each, which migrates it, and plays every table on.

var (
	oldBinary   = flag.String("upgrade.binary", "", "TestMakeUpgradeFixture: the cardhouse binary of the release to record (built from its commit)")
	fixtureName = flag.String("upgrade.name", "", "TestMakeUpgradeFixture: the fixture's name (the release's short commit)")
)

const upgradeDir = "testdata/upgrade"

// fixturePassword is every fixture account's password.
const fixturePassword = "upgrade fixture"

// upgradeFixture is NAME.json: the release and the tables, each with its three accounts.
type upgradeFixture struct {
	Release string         `json:"release"`
	Schema  int64          `json:"schema"`
	Tables  []fixtureTable `json:"tables"`
}

type fixtureTable struct {
	Code    string `json:"code"`
	Variant string `json:"variant"`
	RoomID  int64  `json:"room_id"`
	Host    string `json:"host"`
	Guest   string `json:"guest"`
	Watcher string `json:"watcher"`
	Games   int    `json:"games"`
}

// newAccountUser is a browser signed in to the account username (registering it first when
// register is set), with the fixture's password.
func newAccountUser(t *testing.T, base, username string, register bool) *e2eUser {
	t.Helper()
	if register {
		return signedInUser(t, base, username, "/api/register", map[string]any{"username": username, "password": fixturePassword, "display_name": username})
	}
	return signedInUser(t, base, username, "/api/login", map[string]any{"username": username, "password": fixturePassword})
}

// TestMakeUpgradeFixture records testdata/upgrade/NAME.{sql,json} with an older release's binary:
//
//	git worktree add /tmp/old COMMIT && (cd /tmp/old && go build -o /tmp/cardhouse-old ./platform/cmd/cardhouse)
//	go test -run TestMakeUpgradeFixture ./platform/cmd/cardhouse/ -upgrade.binary /tmp/cardhouse-old -upgrade.name COMMIT
//
// It needs sqlite3 (the command line shell) for the dump. Skipped without -upgrade.binary.
func TestMakeUpgradeFixture(t *testing.T) {
	if *oldBinary == "" || *fixtureName == "" {
		t.Skip("records an upgrade fixture: give -upgrade.binary and -upgrade.name (see its comment)")
	}
	sqlite3 := needTool(t, "sqlite3")
	ce := newSingleEnv(t, "fixture", "sqlite")
	ce.bin, ce.old = *oldBinary, true
	ce.start("n1")
	fx := upgradeFixture{Release: *fixtureName}
	tables := make([]*clusterTable, len(clusterVariants))
	for i, v := range clusterVariants {
		n := ce.node("n1")
		tb := ce.emptyTable(v.id, uint64(i)+7)
		ft := fixtureTable{Variant: v.id, Host: fmt.Sprintf("host%d", i), Guest: fmt.Sprintf("guest%d", i), Watcher: fmt.Sprintf("watcher%d", i)}
		tb.seatOn(newAccountUser(t, n.url, ft.Host, true), newAccountUser(t, n.url, ft.Guest, true), newAccountUser(t, n.url, ft.Watcher, true))
		var created struct{ Room room.Info }
		tb.host.call(t, n.url, "POST", "/api/rooms", map[string]any{"ruleset": v.id, "seats": 2, "options": v.options}, &created)
		tb.code = created.Room.Code
		tb.guest.call(t, n.url, "POST", "/api/rooms/"+tb.code+"/join", nil, nil)
		tb.watcher.call(t, n.url, "POST", "/api/rooms/"+tb.code+"/join", nil, nil)
		if err := ce.db.QueryRow(`SELECT id FROM rooms WHERE code = $1`, tb.code).Scan(&tb.roomID); err != nil {
			t.Fatal(err)
		}
		ft.Code, ft.RoomID = tb.code, tb.roomID
		fx.Tables = append(fx.Tables, ft)
		tables[i] = tb
	}
	// Each table plays a whole game, then the next one until it has 12 actions; then every seat
	// holds, and the server stops (SIGTERM) with those games live.
	errs := make(chan error, len(tables))
	for _, tb := range tables {
		tb.more = func() bool { return true }
		go func() { errs <- tb.play() }()
	}
	deadline := time.Now().Add(3 * time.Minute)
	for {
		ready := 0
		for _, tb := range tables {
			tb.mu.Lock()
			for gs := range tb.accepted {
				if gs.game == 2 && gs.seq >= 12 {
					tb.holdAll.Store(true)
					ready++
					break
				}
			}
			tb.mu.Unlock()
		}
		if ready == len(tables) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tables did not reach their second game's 12th action in 3 minutes: %v", tables)
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond) // the actions in flight are answered
	ce.term("n1")
	if err := ce.db.QueryRow(`SELECT max(version_id) FROM goose_db_version WHERE is_applied`).Scan(&fx.Schema); err != nil {
		t.Fatal(err)
	}
	for i, tb := range tables {
		fx.Tables[i].Games = 2
		var live int
		if err := ce.db.QueryRow(`SELECT count(*) FROM games WHERE room_id = $1 AND status = 'live'`, tb.roomID).Scan(&live); err != nil || live != 1 {
			t.Fatalf("room %s: %d live games (%v), want 1", tb.code, live, err)
		}
	}
	ce.db.Close()
	dump, err := exec.Command(sqlite3, filepath.Join(ce.data, "cardhouse.db"), ".dump").Output()
	if err != nil {
		t.Fatalf("sqlite3 .dump: %v", err)
	}
	meta, _ := json.MarshalIndent(fx, "", "  ")
	if err := os.MkdirAll(upgradeDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{*fixtureName + ".sql": dump, *fixtureName + ".json": append(meta, '\n')} {
		if err := os.WriteFile(filepath.Join(upgradeDir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("recorded %s (schema %d, %d bytes of SQL)", *fixtureName, fx.Schema, len(dump))
}

// TestUpgradeFromRecordedReleases starts today's server on each recorded release's database:
// it migrates it to today's schema at start, every account signs in with its password, every
// table's live game plays on from where that release left it to its end, and every game of every
// table, those the old release finished included, replays to its stored state with today's
// plugins.
func TestUpgradeFromRecordedReleases(t *testing.T) {
	fixtures, err := filepath.Glob(filepath.Join(upgradeDir, "*.json"))
	if err != nil || len(fixtures) == 0 {
		t.Fatalf("no upgrade fixture in %s (%v)", upgradeDir, err)
	}
	for _, path := range fixtures {
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		t.Run(name, func(t *testing.T) { testUpgradeFrom(t, name) })
	}
}

func testUpgradeFrom(t *testing.T, name string) {
	var fx upgradeFixture
	raw, err := os.ReadFile(filepath.Join(upgradeDir, name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatal(err)
	}
	dump, err := os.ReadFile(filepath.Join(upgradeDir, name+".sql"))
	if err != nil {
		t.Fatal(err)
	}
	ce := newSingleEnv(t, "upgrade", "sqlite")
	load, err := sql.Open("sqlite", filepath.Join(ce.data, "cardhouse.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := load.Exec(string(dump)); err != nil {
		t.Fatalf("loading %s.sql: %v", name, err)
	}
	load.Close()
	ce.start("n1")
	var version int64
	if err := ce.db.QueryRow(`SELECT max(version_id) FROM goose_db_version WHERE is_applied`).Scan(&version); err != nil {
		t.Fatal(err)
	}
	t.Logf("release %s: schema %d migrated to %d", fx.Release, fx.Schema, version)
	if known := store.SchemaVersion(); version != known {
		t.Errorf("the schema is at %d after the start (the fixture's was %d): want today's, %d", version, fx.Schema, known)
	}
	n := ce.node("n1")
	tables := make([]*clusterTable, len(fx.Tables))
	for i, ft := range fx.Tables {
		tb := ce.emptyTable(ft.Variant, uint64(i)+11)
		tb.code, tb.roomID = ft.Code, ft.RoomID
		tb.seatOn(newAccountUser(t, n.url, ft.Host, false), newAccountUser(t, n.url, ft.Guest, false), newAccountUser(t, n.url, ft.Watcher, false))
		tables[i] = tb
	}
	playTables(t, tables, func(<-chan struct{}) {})
	for i, tb := range tables {
		if tb.progress() == 0 {
			t.Errorf("room %s (%s): no action accepted after the upgrade", tb.code, tb.variant)
		}
		if tb.games != fx.Tables[i].Games {
			t.Errorf("room %s (%s): the game played on is number %d, want %d (the one the old release left live)", tb.code, tb.variant, tb.games, fx.Tables[i].Games)
		}
		tb.check(t)
	}
	ce.checkActionLogs()
}
