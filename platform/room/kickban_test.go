package room_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"cardhouse/platform/room"
	"cardhouse/platform/store"
	"cardhouse/platform/store/storetest"
)

// refusedWith fails unless err is a room refusal of code.
func refusedWith(t *testing.T, what string, err error, code string) *room.Error {
	t.Helper()
	e, ok := room.AsError(err)
	if !ok || e.Code != code {
		t.Fatalf("%s: got %v, want the refusal %s", what, err, code)
	}
	return e
}

// A kicked player is kept out of the room (issue 23): for the cooldown the host chose, then let
// back in; banned from the room, until the host lifts the ban, through a reload of the room and
// also as a new guest of the same browser. A kick the room cannot make sense of changes nothing.
func TestKickKeepsOut(t *testing.T) {
	for _, dialect := range storetest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			tb := newTable(t, dialect)
			ctx := context.Background()
			r, alice, bob, _, pb := tb.twoPlayers()
			bobID := func() int64 { return member(tb.waitInfo(r, "", func(room.Info) bool { return true }), "Bob").ID }

			// Bad choices are refused and Bob stays.
			for _, opts := range []room.KickOptions{{Ban: true, Cooldown: time.Minute}, {Cooldown: 25 * time.Hour}, {Cooldown: -time.Minute}, {Cooldown: 90 * time.Second}} {
				refusedWith(t, "kicking with "+opts.Cooldown.String(), r.Kick(ctx, alice, bobID(), opts), "bad_kick")
			}
			if bobID() == 0 {
				t.Fatal("a refused kick removed Bob")
			}
			refusedWith(t, "Bob kicking Alice", r.Kick(ctx, bob, member(tb.waitInfo(r, "", func(room.Info) bool { return true }), "Alice").ID, room.KickOptions{}), "not_host")

			// A cooldown of five minutes.
			if err := r.Kick(ctx, alice, bobID(), room.KickOptions{Cooldown: 5 * time.Minute}); err != nil {
				t.Fatal(err)
			}
			bye := pb.until("bye", nil)
			if !strings.Contains(string(bye["reason"]), "for 5 minutes") {
				t.Errorf("Bob was told %s, want how long he is kept out", bye["reason"])
			}
			_, err := r.Join(ctx, bob, false)
			if e := refusedWith(t, "Bob rejoining at once", err, "kicked"); !strings.Contains(e.Reason, "5 minutes") {
				t.Errorf("the refusal says %q, want how long is left", e.Reason)
			}
			tb.clock.Advance(5*time.Minute - time.Second)
			_, err = r.Join(ctx, bob, false)
			refusedWith(t, "Bob rejoining a second before the cooldown ends", err, "kicked")
			tb.clock.Advance(time.Second)
			if _, err := r.Join(ctx, bob, false); err != nil {
				t.Fatalf("Bob rejoining after the cooldown: %v", err)
			}

			// A ban from the room: for good, through a reload, and for a new guest of Bob's browser.
			if err := r.Kick(ctx, alice, bobID(), room.KickOptions{Ban: true}); err != nil {
				t.Fatal(err)
			}
			tb.clock.Advance(48 * time.Hour)
			_, err = r.Join(ctx, bob, true)
			refusedWith(t, "banned Bob rejoining two days later", err, "room_banned")
			bans, err := r.Bans(ctx, alice)
			if err != nil || len(bans) != 1 || bans[0].UserID != bob.ID || !bans[0].Ban || bans[0].Name != "Bob" {
				t.Fatalf("the host's list of bans: %+v, %v", bans, err)
			}
			_, err = r.Bans(ctx, bob)
			refusedWith(t, "Bob reading the bans", err, "not_host")

			// Reload the room on a fresh manager; the stored ban carries the key of Bob's browser.
			if err := tb.st.SetRoomBan(ctx, &store.RoomBan{RoomID: roomID(t, tb.st, r.Code()), UserID: bob.ID, Name: "Bob", GuestKeyHash: "bobs-browser", CreatedAt: tb.clock.Now()}); err != nil {
				t.Fatal(err)
			}
			tb.m.Close()
			r3, err := newManager(t, tb.st, tb.clock).Get(ctx, r.Code())
			if err != nil {
				t.Fatal(err)
			}
			_, err = r3.Join(ctx, bob, false)
			refusedWith(t, "banned Bob rejoining the reloaded room", err, "room_banned")
			bob2 := &store.User{DisplayName: "Bobby", Guest: true, GuestKeyHash: "bobs-browser"}
			other := &store.User{DisplayName: "Carol", Guest: true, GuestKeyHash: "another-browser"}
			for _, u := range []*store.User{bob2, other} {
				if err := tb.st.CreateUser(ctx, u); err != nil {
					t.Fatal(err)
				}
			}
			_, err = r3.Join(ctx, bob2, true)
			refusedWith(t, "a new guest of Bob's browser", err, "room_banned")
			if _, err := r3.Join(ctx, other, true); err != nil {
				t.Fatalf("a guest of another browser: %v", err)
			}

			// The host lifts the ban.
			refusedWith(t, "Bob lifting his ban", r3.LiftBan(ctx, bob, bob.ID), "not_host")
			if err := r3.LiftBan(ctx, alice, bob.ID); err != nil {
				t.Fatal(err)
			}
			refusedWith(t, "lifting it twice", r3.LiftBan(ctx, alice, bob.ID), "no_ban")
			if _, err := r3.Join(ctx, bob, true); err != nil {
				t.Fatalf("Bob rejoining once the ban is lifted: %v", err)
			}
		})
	}
}

func roomID(t *testing.T, st *store.Store, code string) int64 {
	t.Helper()
	sr, err := st.RoomByCode(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	return sr.ID
}
