package store_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"cardhouse/platform/rating"
	"cardhouse/platform/store"
	"cardhouse/platform/store/storetest"
)

// TestRecordFinished records a game of two accounts, a guest and a bot on each database: results
// for the three people, ratings for the two accounts only (as rating.RateGame computes them), and a
// second record of the same game, even two at once, changes nothing.
func TestRecordFinished(t *testing.T) {
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			st := storetest.Open(t, dialect)
			ctx := context.Background()
			a, b := newUser(t, st, "ann"), newUser(t, st, "bob")
			g := &store.User{DisplayName: "Guest", Guest: true, Role: store.RolePlayer}
			if err := st.CreateUser(ctx, g); err != nil {
				t.Fatal(err)
			}
			rm := storetest.NewRoom(t, st, "RATE1")
			game := &store.Game{RoomID: rm.ID, Number: 1, Ruleset: "hotspot", Seats: 4, Options: "{}", SeatMembers: "[]", State: []byte("{}"), Status: store.GameOver, StartedAt: time.Now()}
			if err := st.StartGame(ctx, game, rm, nil); err != nil {
				t.Fatal(err)
			}
			f := store.Finished{GameID: game.ID, Ruleset: "hotspot", EndedAt: time.Now(), Seats: []store.FinishedSeat{
				{UserID: b.ID, Team: 0, Place: 2}, {UserID: 0, Team: 1, Place: 1}, {UserID: a.ID, Team: 2, Place: 3}, {UserID: g.ID, Team: 3, Place: 4},
			}}
			// Recorded twice at once (two nodes seeing the finish): once only.
			var wg sync.WaitGroup
			errs := make([]error, 2)
			for i := range errs {
				wg.Add(1)
				go func() { defer wg.Done(); _, errs[i] = st.RecordFinished(ctx, f) }()
			}
			wg.Wait()
			if (errs[0] == nil) == (errs[1] == nil) || !errors.Is(errs[0], store.ErrRecorded) && !errors.Is(errs[1], store.ErrRecorded) {
				t.Fatalf("two records of one game: errs %v", errs)
			}
			if _, err := st.RecordFinished(ctx, f); !errors.Is(err, store.ErrRecorded) {
				t.Fatalf("a third record: err %v, want ErrRecorded", err)
			}
			want, _ := rating.Default().RateGame([]rating.Seat{{Account: b.ID, Place: 2}, {Account: a.ID, Team: 2, Place: 3}}, nil)
			for _, u := range []*store.User{a, b} {
				rs, err := st.Ratings(ctx, u.ID)
				if err != nil || len(rs) != 1 {
					t.Fatalf("ratings of %d: %v %v", u.ID, rs, err)
				}
				if r := rs[0]; r.Mu != want[u.ID].Mu || r.Sigma != want[u.ID].Sigma || r.Games != 1 || r.Wins != 0 || r.Ruleset != "hotspot" {
					t.Errorf("rating of %d: %+v, want %+v", u.ID, r, want[u.ID])
				}
			}
			if rs, _ := st.Ratings(ctx, g.ID); len(rs) != 0 {
				t.Errorf("a guest was rated: %v", rs)
			}
			hist, err := st.History(ctx, g.ID, 10, 0)
			if err != nil || len(hist) != 1 || hist[0].Place != 4 || hist[0].RoomCode != "RATE1" || hist[0].MuAfter != nil || hist[0].Players != 4 {
				t.Fatalf("the guest's history: %+v %v", hist, err)
			}
			board, err := st.Leaderboard(ctx, "hotspot", 10, 0)
			if err != nil || len(board) != 2 || board[0].UserID != b.ID || board[0].DisplayName != "bob" {
				t.Fatalf("leaderboard: %+v %v", board, err)
			}
			stats, err := st.Stats(ctx, b.ID)
			if err != nil || len(stats) != 1 || stats[0].Games != 1 || stats[0].Wins != 0 {
				t.Fatalf("stats: %+v %v", stats, err)
			}

			// A second game that b wins: the rating moves on from the stored one and counts a win.
			game2 := &store.Game{RoomID: rm.ID, Number: 2, Ruleset: "hotspot", Seats: 2, Options: "{}", SeatMembers: "[]", State: []byte("{}"), Status: store.GameOver, StartedAt: time.Now()}
			if err := st.StartGame(ctx, game2, rm, nil); err != nil {
				t.Fatal(err)
			}
			if _, err := st.RecordFinished(ctx, store.Finished{GameID: game2.ID, Ruleset: "hotspot", EndedAt: time.Now(), Seats: []store.FinishedSeat{
				{UserID: a.ID, Team: 0, Place: 2}, {UserID: b.ID, Team: 1, Place: 1}}}); err != nil {
				t.Fatal(err)
			}
			want2, _ := rating.Default().RateGame([]rating.Seat{{Account: a.ID, Place: 2}, {Account: b.ID, Team: 1, Place: 1}}, want)
			rs, _ := st.Ratings(ctx, b.ID)
			if rs[0].Mu != want2[b.ID].Mu || rs[0].Games != 2 || rs[0].Wins != 1 {
				t.Errorf("b after a win: %+v, want mu %g, 2 games, 1 win", rs[0], want2[b.ID].Mu)
			}
			board, _ = st.Leaderboard(ctx, "hotspot", 10, 0)
			if board[0].UserID != b.ID {
				t.Errorf("leaderboard after: %+v", board)
			}
		})
	}
}
