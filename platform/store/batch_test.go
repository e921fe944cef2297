package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"cardhouse/platform/store"
	"cardhouse/platform/store/storetest"

	"github.com/google/go-cmp/cmp"
)

// sameInstant compares times as instants: the databases hand them back in their own zone.
var sameInstant = cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })

// StaleGames reads a fixed number of statements whatever the number of stale games (3 or 30), and
// lists each game with its newest action (or its start, when it has none).
func TestStaleGamesStatements(t *testing.T) {
	for _, dialect := range storetest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			st := storetest.OpenCounting(t, dialect)
			start := time.Now().UTC().Add(-2 * time.Hour).Truncate(time.Second)
			var want []store.StaleGame
			// add stores n more rooms, each with a live game that started at start; the i-th
			// game has i%3 actions, a minute apart.
			add := func(n int) {
				for range n {
					i := len(want)
					r := storetest.NewRoom(t, st, fmt.Sprintf("STALE%d", i))
					g := &store.Game{RoomID: r.ID, Number: 1, Ruleset: "x", Seats: 2, Options: "{}", SeatMembers: "[]", State: []byte("{}"),
						Phase: "playing", Status: store.GameLive, StartedAt: start}
					if err := st.StartGame(ctx, g, r, nil); err != nil {
						t.Fatal(err)
					}
					sg := store.StaleGame{RoomID: r.ID, Code: r.Code, RoomStatus: store.RoomOpen, Ruleset: "x", GameID: g.ID, Number: 1,
						StartedAt: start, LastAction: start}
					for seq := 1; seq <= i%3; seq++ {
						at := start.Add(time.Duration(seq) * time.Minute)
						if err := st.CommitAction(ctx, g.ID, &store.ActionRecord{Seq: seq, Action: "{}", CreatedAt: at}, nil); err != nil {
							t.Fatal(err)
						}
						sg.Seq, sg.LastAction = seq, at
					}
					want = append(want, sg)
				}
			}
			// stale lists the stale games and counts the statements it took.
			stale := func() int64 {
				cctx, n := storetest.Counting(ctx)
				got, err := st.StaleGames(cctx, time.Now().UTC().Add(-time.Hour), 0)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, got, sameInstant); diff != "" {
					t.Errorf("stale games of %d rooms (-want +got):\n%s", len(want), diff)
				}
				return n.Load()
			}
			add(3)
			few := stale()
			add(27)
			if many := stale(); few == 0 || many != few {
				t.Errorf("StaleGames took %d statements for 3 games and %d for 30: want the same number", few, many)
			}
		})
	}
}
