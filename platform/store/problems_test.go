package store_test

import (
	"context"
	"testing"
	"time"

	"cardhouse/platform/store"
	"cardhouse/platform/store/storetest"

	"github.com/google/go-cmp/cmp"
)

// House-rule failures are stored and counted per rule and version; live games that have not
// moved since a time are found, games that moved or ended are not.
func TestProblems(t *testing.T) {
	for _, dialect := range storetest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			st := storetest.Open(t, dialect)
			still, moving := storetest.NewRoom(t, st, "STILL1"), storetest.NewRoom(t, st, "MOVES1")
			old := time.Now().UTC().Add(-time.Hour)
			start := func(r *store.Room) *store.Game {
				g := &store.Game{RoomID: r.ID, Number: 1, Ruleset: "x", Seats: 2, Options: "{}", SeatMembers: "[]", State: []byte("{}"),
					Phase: "playing", Status: store.GameLive, StartedAt: old}
				if err := st.StartGame(ctx, g, r, nil); err != nil {
					t.Fatal(err)
				}
				return g
			}
			gs, gm := start(still), start(moving)
			if err := st.CommitAction(ctx, gm.ID, &store.ActionRecord{Seq: 1, Action: "{}"}, nil); err != nil {
				t.Fatal(err)
			}
			stale, err := st.StaleGames(ctx, time.Now().UTC().Add(-time.Minute), 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(stale) != 1 || stale[0].Code != "STILL1" || stale[0].GameID != gs.ID || stale[0].RoomStatus != store.RoomOpen {
				t.Fatalf("stale games: %+v, want only STILL1's", stale)
			}
			if d := stale[0].LastAction.Sub(old); d > time.Second || d < -time.Second {
				t.Errorf("STILL1 last moved at %v, want its start %v", stale[0].LastAction, old)
			}

			fail := func(g *store.Game, code, rule string, version int, suspended bool) {
				f := &store.HouseRuleFailure{RoomID: g.RoomID, RoomCode: code, GameID: g.ID, GameNumber: 1, Seq: 1, Rule: rule, Version: version,
					Hook: "before_action", Line: 4, Seat: 0, Action: "draw", Bot: true, Message: "boom", Suspended: suspended}
				if err := st.AddHouseRuleFailure(ctx, f); err != nil {
					t.Fatal(err)
				}
			}
			fail(gs, "STILL1", "spin", 1, false)
			fail(gs, "STILL1", "spin", 1, false)
			fail(gs, "STILL1", "spin", 1, true)
			fail(gm, "MOVES1", "spin", 1, false)
			fail(gm, "MOVES1", "spin", 2, false)
			stats, err := st.HouseRuleFailureStats(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for i := range stats {
				if stats[i].Last.IsZero() {
					t.Errorf("stat %d has no time", i)
				}
				stats[i].Last, stats[i].LastID = time.Time{}, 0
			}
			want := []store.HouseRuleFailureStat{
				{Rule: "spin", Version: 2, Failures: 1, Games: 1},
				{Rule: "spin", Version: 1, Failures: 4, Games: 2, Suspensions: 1},
			}
			if diff := cmp.Diff(want, stats); diff != "" {
				t.Errorf("stats (-want +got):\n%s", diff)
			}
			n, err := st.CountHouseRuleFailures(ctx, gs.ID, "spin")
			if err != nil || n != 3 {
				t.Errorf("failures of spin in STILL1's game: %d, %v; want 3", n, err)
			}
			fs, err := st.HouseRuleFailures(ctx, store.HouseRuleFailureQuery{Rule: "spin", Version: 1, Limit: 2})
			if err != nil || len(fs) != 2 || fs[0].RoomCode != "MOVES1" || fs[0].Line != 4 || !fs[0].Bot {
				t.Errorf("newest failures of spin v1: %+v, %v", fs, err)
			}
		})
	}
}
