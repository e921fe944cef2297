package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"cardhouse/platform/room"
)

// A single real `cardhouse serve` process (no cluster) killed with SIGKILL at random moments
// while six rooms play, two of each variant (Last Card, Hotspot, DRUGS), and started again at
// once on the same data: SQLite in its --data folder (its default), or PostgreSQL (--db). Several
// rooms of a variant play at once, so their calls cross one plugin process together (batched, each
// game in the plugin's sticky cache) and the group committer stores several rooms' actions in one
// transaction; the games run past room.StateEvery actions, so kills find games whose state is
// stored with a tail of actions after it, which a restarted server replays. The clients reconnect
// by themselves. Every action a client saw accepted is in its game's replay exactly once, every
// replay matches its stored state, every game's action log is 1 to N without a gap or a repeat,
// and every game goes on to its end (the checks of the cluster tests, cluster_harness_test.go).

// serverKills is how many times the server is killed, at least.
const serverKills = 6

func TestServerKilledMidGameOnRealProcess(t *testing.T) {
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) { testServerKilledMidGame(t, dialect) })
	}
}

func testServerKilledMidGame(t *testing.T, dialect string) {
	ce := newSingleEnv(t, "solo", dialect)
	ce.start("n1")
	tables := make([]*clusterTable, 2*len(clusterVariants))
	for i := range tables {
		tables[i] = newClusterTable(t, ce, i, "n1")
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("the kills' moments come from seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 21))
	kills, tails := 0, 0
	var batches, stored float64
	playTables(t, tables, func(done <-chan struct{}) {
		// Until serverKills kills, and one of them found a game with its state stored after
		// StateEvery actions or more and a tail after it (a bounded number more at most).
		for kills < serverKills || tails == 0 && kills < 4*serverKills {
			// A random moment: after 5 to 70 more actions accepted over the tables.
			if !awaitProgress(t, tables, totalProgress(tables), 5+rng.IntN(66), done) {
				return
			}
			m := ce.metrics("n1")
			batches += m["cardhouse_commit_batches_total"]
			stored += m["cardhouse_commit_actions_total"]
			at := totalProgress(tables)
			ce.kill("n1")
			// The database as the killed server left it, which the next one loads.
			live := ce.liveGames()
			for _, g := range live {
				if g.stored >= room.StateEvery && g.last > g.stored {
					tails++
					break
				}
			}
			t.Logf("kill %d after %d actions accepted; live games (stored state's seq+tail): %v", kills+1, at, live)
			ce.start("n1")
			kills++
		}
	})
	if kills < serverKills {
		t.Fatalf("the games ended after %d kills, want %d", kills, serverKills)
	}
	if tails == 0 {
		t.Fatalf("none of %d kills found a game with its state stored after %d actions or more and actions after it", kills, room.StateEvery)
	}
	t.Logf("%d kills, %d of them with a game's state stored at seq %d or later and a tail after it; the group committer stored %.0f actions in %.0f transactions before the kills", kills, tails, room.StateEvery, stored, batches)
	for _, tb := range tables {
		tb.check(t)
	}
	ce.checkActionLogs()
}

// liveGame is a live game in the database: the seq its state is stored at, and its last action's.
type liveGame struct{ stored, last int }

func (g liveGame) String() string { return fmt.Sprintf("%d+%d", g.stored, g.last-g.stored) }

// liveGames reads the live games from the database.
func (ce *clusterEnv) liveGames() []liveGame {
	t := ce.t
	t.Helper()
	rows, err := ce.db.Query(`SELECT g.seq, coalesce(max(a.seq), 0) FROM games g LEFT JOIN actions a ON a.game_id = g.id
WHERE g.status = 'live' GROUP BY g.id, g.seq ORDER BY g.id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var gs []liveGame
	for rows.Next() {
		var g liveGame
		if err := rows.Scan(&g.stored, &g.last); err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return gs
}

// metrics reads node short's counters and gauges without labels from its /metrics.
func (ce *clusterEnv) metrics(short string) map[string]float64 {
	t := ce.t
	t.Helper()
	resp, err := http.Get(ce.node(short).url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]float64{}
	for line := range strings.Lines(string(body)) {
		var name string
		var v float64
		if strings.HasPrefix(line, "#") || strings.Contains(line, "{") {
			continue
		}
		if _, err := fmt.Sscan(line, &name, &v); err == nil {
			m[name] = v
		}
	}
	return m
}
