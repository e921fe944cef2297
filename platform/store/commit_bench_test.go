package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkCommitBatch stores batches of actions of distinct games straight through the
// committer's commitBatch, with a new state of the size of a Last Card game's (about 5 KiB) with
// every action or with one action in 32 (as rooms store them): the cost of one action's durable
// write on SQLite, by batch size (ns/op is per action).
func BenchmarkCommitBatch(b *testing.B) {
	for _, c := range []struct{ size, every int }{{1, 1}, {4, 1}, {16, 1}, {64, 1}, {1, 32}, {4, 32}, {16, 32}, {64, 32}} {
		size := c.size
		b.Run(fmt.Sprintf("batch=%d/state=1in%d", c.size, c.every), func(b *testing.B) {
			st, games := benchStore(b, 256)
			state := make([]byte, benchStateSize)
			rng := rand.New(rand.NewPCG(1, 2))
			for i := range state {
				state[i] = 'a' + byte(rng.IntN(26))
			}
			seq, stored := make([]int, len(games)), make([]int, len(games))
			batch := make([]*commitReq, size)
			next := 0
			now := time.Now().UTC()
			b.ResetTimer()
			for i := 0; i < b.N; i += size {
				for j := range batch {
					g := next % len(games)
					next++
					seq[g]++
					rec := &ActionRecord{GameID: games[g], Seq: seq[g], Seat: seq[g] % 4, Action: `{"type":"play","card":"R7"}`, Now: int64(seq[g]), CreatedAt: now}
					batch[j] = &commitReq{gameID: games[g], rec: rec, done: make(chan error, 1)}
					if seq[g]-stored[g] >= c.every {
						batch[j].state = &GameState{State: state, Phase: "playing", Status: GameLive, Since: stored[g]}
						stored[g] = seq[g]
					}
				}
				st.commitBatch(batch)
				for _, r := range batch {
					if err := <-r.done; err != nil {
						b.Fatal(err)
					}
				}
			}
			b.StopTimer()
			if cs := st.CommitStats(); cs.Retried != 0 {
				b.Fatalf("%d batches retried", cs.Retried)
			}
		})
	}
}

// benchStore opens a SQLite store in a temporary folder with n live games.
func benchStore(b *testing.B, n int) (*Store, []int64) {
	b.Helper()
	dir := b.TempDir()
	// NORMAL: the benchmark times the transaction's own work; FULL adds a wait for the disk
	// (docs/performance.md, "Durable means durable"), measured by the bench's commit wait.
	st, err := Open(context.Background(), Config{DSN: "sqlite:" + filepath.Join(dir, "bench.db"), Synchronous: SyncNormal})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close(); os.RemoveAll(dir) })
	ctx := context.Background()
	name := "host"
	u := &User{Username: &name, DisplayName: "Host", PasswordHash: "x"}
	if err := st.CreateUser(ctx, u); err != nil {
		b.Fatal(err)
	}
	games := make([]int64, n)
	for i := range games {
		r := &Room{Code: fmt.Sprintf("B%05d", i), HostID: u.ID, Ruleset: "x", Options: "{}", Mode: ModeOnline, Capacity: 4, Status: RoomOpen}
		if err := st.CreateRoom(ctx, r, nil); err != nil {
			b.Fatal(err)
		}
		g := &Game{RoomID: r.ID, Number: 1, Ruleset: "x", Seats: 4, Options: "{}", SeatMembers: "[]", StartNow: 1, State: []byte("s0"), Phase: "playing", Status: GameLive, StartedAt: time.Now()}
		if err := st.StartGame(ctx, g, r, nil); err != nil {
			b.Fatal(err)
		}
		games[i] = g.ID
	}
	return st, games
}

const benchStateSize = 5000 // about a Last Card state
