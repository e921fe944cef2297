package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"cardhouse/platform/store"
	"cardhouse/platform/store/storetest"
)

// Every write on a player's path goes through the group committer: while the committer holds a
// transaction open (on SQLite the one write lock), each of them waits in its queue instead of
// starting a transaction of its own, and once released they are all stored in ONE transaction
// (one sync), an action among them. A write that fails (a taken username) fails alone. Before,
// each was a transaction of its own: on SQLite it slept in the busy handler behind the
// committer's transaction (holding a pool connection meanwhile), on PostgreSQL it went past it.
func TestPlayerPathWritesShareTheCommitter(t *testing.T) {
	for _, dialect := range storetest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			st := storetest.Open(t, dialect)
			ctx := context.Background()
			games := liveGames(t, st, "PW", 1)
			room := storetest.NewRoom(t, st, "PWROOM")
			other := storetest.NewRoom(t, st, "PWNEXT")
			name := "player-pw"
			u := &store.User{Username: &name, DisplayName: "Player", PasswordHash: "x"}
			if err := st.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
			seated := &store.Member{RoomID: room.ID, UserID: &u.ID, Name: "Player", Role: store.MemberPlayer, Seat: 0}
			leaving := &store.Member{RoomID: room.ID, Name: "Bot", Role: store.MemberPlayer, Seat: 1, BotLevel: 1}
			if err := st.SaveMembers(ctx, seated, leaving); err != nil {
				t.Fatal(err)
			}
			if err := st.CreateSession(ctx, &store.Session{TokenHash: "old", UserID: u.ID, ExpiresAt: time.Now().Add(time.Hour)}); err != nil {
				t.Fatal(err)
			}
			taken := name
			now := time.Now().UTC()

			writes := []struct {
				name string
				do   func() error
				want error // nil: stored
			}{
				{"an action", func() error {
					return st.CommitAction(ctx, games[0], &store.ActionRecord{Seq: 1, Action: "{}"}, nil)
				}, nil},
				{"a guest's account", func() error {
					return st.CreateUser(ctx, &store.User{DisplayName: "Guest", Guest: true})
				}, nil},
				{"an account whose name is taken", func() error {
					return st.CreateUser(ctx, &store.User{Username: &taken, DisplayName: "Again", PasswordHash: "x"})
				}, store.ErrConflict},
				{"a sign-in's session", func() error {
					return st.CreateSession(ctx, &store.Session{TokenHash: "new", UserID: u.ID, ExpiresAt: now.Add(time.Hour)})
				}, nil},
				{"a session seen", func() error { return st.TouchSession(ctx, "old", u.ID, now) }, nil},
				{"a sign-out", func() error { return st.DeleteSession(ctx, "old") }, nil},
				{"a profile", func() error { return st.UpdateProfile(ctx, u.ID, "Renamed", "", "") }, nil},
				{"a language", func() error { return st.SetLocale(ctx, u.ID, "fr") }, nil},
				{"a new room", func() error {
					return st.CreateRoom(ctx, &store.Room{Code: "PWNEW", HostID: u.ID, Ruleset: "x", Options: "{}", Mode: store.ModeOnline, Capacity: 2, Status: store.RoomOpen}, nil)
				}, nil},
				{"a room (a pause, a lock)", func() error { room.Locked = true; return st.SaveRoom(ctx, room) }, nil},
				{"a seat", func() error { seated.Covered = true; return st.SaveMembers(ctx, seated) }, nil},
				{"a member leaving", func() error { return st.DeleteMember(ctx, leaving.ID) }, nil},
				{"a deal", func() error {
					g := &store.Game{RoomID: other.ID, Number: 1, Ruleset: "x", Seats: 2, Options: "{}", SeatMembers: "[]", StartNow: 1, State: []byte("s0"), Phase: "playing", Status: store.GameLive, StartedAt: now}
					return st.StartGame(ctx, g, other, nil)
				}, nil},
				{"a game abandoned", func() error { return st.SetGameStatus(ctx, games[0], store.GameAbandoned, &now) }, nil},
				{"a chat line", func() error {
					return st.AddChat(ctx, &store.ChatMessage{RoomID: room.ID, Name: "Player", Text: "hello"})
				}, nil},
			}

			before := st.CommitStats()
			release := make(chan struct{})
			held := st.HoldCommitter(release)
			type result struct {
				i   int
				err error
			}
			done := make(chan result, len(writes))
			for i, w := range writes {
				go func() { done <- result{i, w.do()} }()
			}
			// Every write waits in the committer's queue; one that ends first went past it.
			for st.Queued() < len(writes) {
				select {
				case r := <-done:
					close(release)
					t.Fatalf("%s ended (%v) while the committer held its transaction: it did not go through the committer", writes[r.i].name, r.err)
				case <-time.After(time.Millisecond):
				}
			}
			close(release)
			if err := <-held; err != nil {
				t.Fatal(err)
			}
			for range writes {
				r := <-done
				if w := writes[r.i]; (w.want == nil && r.err != nil) || (w.want != nil && !errors.Is(r.err, w.want)) {
					t.Errorf("%s: %v, want %v", w.name, r.err, w.want)
				}
			}
			after := st.CommitStats()
			if got := after.Batches - before.Batches; got != 2 {
				t.Errorf("%d transactions, want 2: the held one and one for all %d writes", got, len(writes))
			}
			if got := (after.Writes + after.Actions) - (before.Writes + before.Actions); got != int64(len(writes))+1 {
				t.Errorf("the committer stored %d requests, want %d", got, len(writes)+1)
			}

			// What they wrote is there (and the refused account is not).
			if _, u2, err := st.SessionUser(ctx, "new", now); err != nil || u2.DisplayName != "Renamed" || u2.Locale != "fr" {
				t.Errorf("the new session's user: %+v, %v", u2, err)
			}
			if _, _, err := st.SessionUser(ctx, "old", now); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("the signed-out session: %v, want ErrNotFound", err)
			}
			if acts, err := st.Actions(ctx, games[0]); err != nil || len(acts) != 1 {
				t.Errorf("the game's actions: %v, %v", acts, err)
			}
			ms, err := st.Members(ctx, room.ID)
			if err != nil || len(ms) != 1 || !ms[0].Covered {
				t.Errorf("the room's members: %+v, %v", ms, err)
			}
			if r, err := st.RoomByCode(ctx, "PWROOM"); err != nil || !r.Locked {
				t.Errorf("the room: %+v, %v", r, err)
			}
			if _, err := st.RoomByCode(ctx, "PWNEW"); err != nil {
				t.Errorf("the new room: %v", err)
			}
			if chat, err := st.Chat(ctx, room.ID, 10); err != nil || len(chat) != 1 {
				t.Errorf("the chat: %v, %v", chat, err)
			}
			if g, err := st.GameByID(ctx, games[0]); err != nil || g.Status != store.GameAbandoned {
				t.Errorf("the abandoned game: %+v, %v", g, err)
			}
			if _, err := st.UserByUsername(ctx, name); err != nil {
				t.Error(err)
			}
			t.Logf("%s: %d writes and an action in one transaction", dialect, len(writes)-1)
		})
	}
}
