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
			for seq := 1; seq <= 3; seq++ {
				rec := &store.ActionRecord{Seq: seq, Seat: seq % 2, Action: fmt.Sprintf(`{"n":%d}`, seq), Now: int64(seq)}
				if err := st.CommitAction(ctx, g.ID, rec, []byte(fmt.Sprintf("s%d", seq)), "playing", store.GameLive, nil); err != nil {
					t.Fatalf("commit %d: %v", seq, err)
				}
			}
			stale := &store.ActionRecord{Seq: 3, Action: "{}"}
			if err := st.CommitAction(ctx, g.ID, stale, []byte("bad"), "playing", store.GameLive, nil); !errors.Is(err, store.ErrConflict) {
				t.Fatalf("stale commit: err = %v, want ErrConflict", err)
			}
			skip := &store.ActionRecord{Seq: 5, Action: "{}"}
			if err := st.CommitAction(ctx, g.ID, skip, []byte("bad"), "playing", store.GameLive, nil); !errors.Is(err, store.ErrConflict) {
				t.Fatalf("skipping commit: err = %v, want ErrConflict", err)
			}
			g2, err := st.GameByID(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			if string(g2.State) != "s3" || g2.Seq != 3 || g2.Seed != -5 {
				t.Fatalf("game after commits: state %q seq %d seed %d", g2.State, g2.Seq, g2.Seed)
			}
			log, err := st.Actions(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			var seqs []int
			for _, a := range log {
				seqs = append(seqs, a.Seq)
			}
			if diff := cmp.Diff([]int{1, 2, 3}, seqs); diff != "" {
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
