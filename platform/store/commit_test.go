package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"cardhouse/platform/store"
	"cardhouse/platform/store/storetest"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// Many games committing at once share transactions (group commit); a stale action thrown into the
// same moment fails alone with ErrConflict while every other action is stored, in order, with the
// states that come with them.
func TestGroupCommit(t *testing.T) {
	for _, dialect := range storetest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			st := storetest.Open(t, dialect)
			ctx := context.Background()
			const games, actions = 24, 30
			ids := liveGames(t, st, "GC", games)
			at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
			var wg sync.WaitGroup
			errs := make(chan error, games*actions*2)
			for i, id := range ids {
				wg.Go(func() {
					for seq := 1; seq <= actions; seq++ {
						status, phase := store.GameLive, "playing"
						var ended *time.Time
						if seq == actions {
							status, phase, ended = store.GameOver, "game_over", &at
						}
						rec := &store.ActionRecord{Seq: seq, Seat: seq % 2, Action: fmt.Sprintf(`{"g":%d,"n":%d}`, i, seq), Now: int64(seq), CreatedAt: at}
						// The state comes with every third action and the last.
						var gs *store.GameState
						if seq%3 == 0 || seq == actions {
							gs = &store.GameState{State: fmt.Appendf(nil, "g%d s%d", i, seq), Phase: phase, Status: status, Ended: ended, Since: seq - 1 - (seq-1)%3}
						}
						if err := st.CommitAction(ctx, id, rec, gs); err != nil {
							errs <- fmt.Errorf("game %d action %d: %w", i, seq, err)
						}
						if seq%10 == 5 { // a stale writer at the same moment: a duplicate, a gap, a stale state
							if err := st.CommitAction(ctx, id, &store.ActionRecord{Seq: seq, Action: "{}"}, nil); !errors.Is(err, store.ErrConflict) {
								errs <- fmt.Errorf("game %d: a duplicate action %d gave %v, want ErrConflict", i, seq, err)
							}
							if err := st.CommitAction(ctx, id, &store.ActionRecord{Seq: seq + 2, Action: "{}"}, nil); !errors.Is(err, store.ErrConflict) {
								errs <- fmt.Errorf("game %d: action %d after %d gave %v, want ErrConflict", i, seq+2, seq, err)
							}
							if err := st.CommitAction(ctx, id, &store.ActionRecord{Seq: seq + 1, Action: "{}"}, &store.GameState{State: []byte("stale"), Since: seq + 7}); !errors.Is(err, store.ErrConflict) {
								errs <- fmt.Errorf("game %d: a state replacing one never stored gave %v, want ErrConflict", i, err)
							}
						}
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			for i, id := range ids {
				g, err := st.GameByID(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				if want := fmt.Sprintf("g%d s%d", i, actions); string(g.State) != want || g.Seq != actions || g.Status != store.GameOver || g.Phase != "game_over" || g.EndedAt == nil || !g.EndedAt.Equal(at) {
					t.Fatalf("game %d: state %q seq %d status %s phase %s ended %v", i, g.State, g.Seq, g.Status, g.Phase, g.EndedAt)
				}
				log, err := st.Actions(ctx, id)
				if err != nil || len(log) != actions {
					t.Fatalf("game %d: %d actions stored (%v), want %d", i, len(log), err, actions)
				}
				for j, a := range log {
					if a.Seq != j+1 || a.Seat != (j+1)%2 || a.Action != fmt.Sprintf(`{"g":%d,"n":%d}`, i, j+1) || a.Now != int64(j+1) || !a.CreatedAt.Equal(at) {
						t.Fatalf("game %d action %d: %+v", i, j+1, a)
					}
				}
			}
			cs := st.CommitStats()
			if want := int64(games * (actions + 3*(actions/10))); cs.Actions != want || cs.Batches < 1 || cs.Batches > cs.Actions {
				t.Fatalf("commit stats %+v, want %d actions in at most as many batches", cs, want)
			}
			for i, want := range []int64{cs.Batches, cs.Actions, cs.Writes, cs.Retried} {
				if got := testutil.ToFloat64(st.CommitCollectors()[i]); got != float64(want) {
					t.Errorf("commit collector %d reads %v, want %d", i, got, want)
				}
			}
			t.Logf("%s: %d actions in %d transactions, %d batches retried one by one", dialect, cs.Actions, cs.Batches, cs.Retried)
		})
	}
}

// Close stores what is queued and then refuses new actions with an error rather than hanging.
func TestCommitAfterClose(t *testing.T) {
	st := storetest.Open(t, "sqlite")
	_ = st.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := st.CommitAction(ctx, 1, &store.ActionRecord{Seq: 1, Action: "{}"}, nil); err == nil {
		t.Fatal("a commit after Close succeeded")
	}
}

// liveGames makes n rooms (codes prefix0000, prefix0001, ...) of one host, each with a live game
// of ruleset "x" at its start, and returns the games' ids.
func liveGames(t *testing.T, st *store.Store, prefix string, n int) []int64 {
	t.Helper()
	ctx := context.Background()
	name := "host-" + prefix
	u := &store.User{Username: &name, DisplayName: "Host", PasswordHash: "x"}
	if err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	ids := make([]int64, n)
	for i := range ids {
		r := &store.Room{Code: fmt.Sprintf("%s%04d", prefix, i), HostID: u.ID, Ruleset: "x", Options: "{}", Mode: store.ModeOnline, Capacity: 2, Status: store.RoomOpen}
		if err := st.CreateRoom(ctx, r, nil); err != nil {
			t.Fatal(err)
		}
		g := &store.Game{RoomID: r.ID, Number: 1, Ruleset: "x", Seats: 2, Options: "{}", SeatMembers: "[]", StartNow: 1, State: []byte("s0"), Phase: "playing", Status: store.GameLive, StartedAt: time.Now()}
		if err := st.StartGame(ctx, g, r, nil); err != nil {
			t.Fatal(err)
		}
		ids[i] = g.ID
	}
	return ids
}
