package store_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"cardhouse/platform/store"
	"cardhouse/platform/store/storetest"

	"github.com/google/go-cmp/cmp"
)

func TestStore(t *testing.T) {
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			st := storetest.Open(t, dialect)
			if st.Dialect() != dialect {
				t.Fatalf("Dialect() = %q, want %q", st.Dialect(), dialect)
			}
			ctx := context.Background()
			name := "alice"
			u := &store.User{Username: &name, DisplayName: "Alice", PasswordHash: "x"}
			if err := st.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
			dup := &store.User{Username: &name, DisplayName: "Other"}
			if err := st.CreateUser(ctx, dup); !errors.Is(err, store.ErrConflict) {
				t.Fatalf("duplicate username: err = %v, want ErrConflict", err)
			}
			got, err := st.UserByUsername(ctx, "ALICE")
			if err != nil || got.ID != u.ID || got.Role != store.RolePlayer {
				t.Fatalf("UserByUsername = %+v, %v", got, err)
			}
			if _, err := st.UserByUsername(ctx, "bob"); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("missing user: err = %v, want ErrNotFound", err)
			}

			r := &store.Room{Code: "ABCDEF", HostID: u.ID, Ruleset: "x", Options: "{}", Mode: store.ModeOnline, Capacity: 4, Status: store.RoomOpen}
			m := &store.Member{UserID: &u.ID, Name: "Alice", Role: store.MemberPlayer, Seat: 0}
			if err := st.CreateRoom(ctx, r, []*store.Member{m}); err != nil {
				t.Fatal(err)
			}
			if err := st.CreateRoom(ctx, &store.Room{Code: "ABCDEF", HostID: u.ID, Mode: "online", Status: "open"}, nil); !errors.Is(err, store.ErrConflict) {
				t.Fatalf("duplicate code: err = %v, want ErrConflict", err)
			}
			g := &store.Game{RoomID: r.ID, Number: 1, Ruleset: "x", Seats: 2, Seed: -5, Options: "{}", SeatMembers: "[]", StartNow: 1, State: []byte("s0"), Phase: "playing", Status: store.GameLive, StartedAt: time.Now()}
			if err := st.StartGame(ctx, g, r, []*store.Member{m}); err != nil {
				t.Fatal(err)
			}
			// Action 1 comes with its state; 2 and 3 alone: the row keeps state 1, the log the rest.
			for seq := 1; seq <= 3; seq++ {
				rec := &store.ActionRecord{Seq: seq, Seat: seq % 2, Action: fmt.Sprintf(`{"n":%d}`, seq), Now: int64(seq)}
				var gs *store.GameState
				if seq == 1 {
					gs = &store.GameState{State: []byte("s1"), Phase: "playing", Status: store.GameLive}
				}
				if err := st.CommitAction(ctx, g.ID, rec, gs); err != nil {
					t.Fatalf("commit %d: %v", seq, err)
				}
			}
			g2, err := st.GameByID(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			if string(g2.State) != "s1" || g2.Seq != 1 || g2.LastSeq != 3 || g2.Seed != -5 {
				t.Fatalf("game after commits: state %q seq %d last seq %d seed %d", g2.State, g2.Seq, g2.LastSeq, g2.Seed)
			}
			if after, err := st.ActionsAfter(ctx, g.ID, g2.Seq); err != nil || len(after) != 2 || after[0].Seq != 2 || after[1].Seq != 3 || after[1].Action != `{"n":3}` {
				t.Fatalf("ActionsAfter(1) = %+v, %v", after, err)
			}
			// A state that does not replace the stored one fails, and its action with it.
			four := &store.ActionRecord{Seq: 4, Action: `{"n":4}`}
			if err := st.CommitAction(ctx, g.ID, four, &store.GameState{State: []byte("bad"), Phase: "playing", Status: store.GameLive, Since: 3}); !errors.Is(err, store.ErrConflict) {
				t.Fatalf("a state replacing one not stored: err = %v, want ErrConflict", err)
			}
			ended := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
			if err := st.CommitAction(ctx, g.ID, four, &store.GameState{State: []byte("s4"), Phase: "over", Status: store.GameOver, Ended: &ended, Since: 1}); err != nil {
				t.Fatalf("commit 4 with its state: %v", err)
			}
			stale := &store.ActionRecord{Seq: 3, Action: "{}"}
			if err := st.CommitAction(ctx, g.ID, stale, nil); !errors.Is(err, store.ErrConflict) {
				t.Fatalf("stale commit: err = %v, want ErrConflict", err)
			}
			skip := &store.ActionRecord{Seq: 6, Action: "{}"}
			if err := st.CommitAction(ctx, g.ID, skip, nil); !errors.Is(err, store.ErrConflict) {
				t.Fatalf("skipping commit: err = %v, want ErrConflict", err)
			}
			if g2, err = st.GameByNumber(ctx, r.ID, 1); err != nil {
				t.Fatal(err)
			}
			if string(g2.State) != "s4" || g2.Seq != 4 || g2.LastSeq != 4 || g2.Status != store.GameOver || g2.Phase != "over" || g2.EndedAt == nil || !g2.EndedAt.Equal(ended) {
				t.Fatalf("game after its end: %+v", g2)
			}
			if gs, err := st.RoomGames(ctx, r.ID); err != nil || len(gs) != 1 || gs[0].LastSeq != 4 || gs[0].State != nil {
				t.Fatalf("RoomGames = %+v, %v", gs, err)
			}
			if gs, err := st.UserGames(ctx, u.ID, 5); err != nil || len(gs) != 1 || gs[0].LastSeq != 4 || gs[0].Code != "ABCDEF" {
				t.Fatalf("UserGames = %+v, %v", gs, err)
			}
			log, err := st.Actions(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			var seqs []int
			for _, a := range log {
				seqs = append(seqs, a.Seq)
			}
			if diff := cmp.Diff([]int{1, 2, 3, 4}, seqs); diff != "" {
				t.Fatalf("action log (-want +got):\n%s", diff)
			}
			if n, err := st.LastGameNumber(ctx, r.ID); err != nil || n != 1 {
				t.Fatalf("LastGameNumber = %d, %v", n, err)
			}
			for i := range 3 {
				if err := st.AddChat(ctx, &store.ChatMessage{RoomID: r.ID, Name: "Alice", Text: fmt.Sprint("line ", i)}); err != nil {
					t.Fatal(err)
				}
			}
			chat, err := st.Chat(ctx, r.ID, 2)
			if err != nil || len(chat) != 2 || chat[0].Text != "line 1" || chat[1].Text != "line 2" {
				t.Fatalf("Chat = %+v, %v", chat, err)
			}
			if err := st.SetBanned(ctx, u.ID, true); err != nil {
				t.Fatal(err)
			}
			if err := st.SetBanned(ctx, 9999, true); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("ban of a missing user: %v", err)
			}
		})
	}
}
