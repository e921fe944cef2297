package store_test

import (
	"context"
	"slices"
	"testing"

	"cardhouse/platform/store"
	"cardhouse/platform/store/storetest"
)

// TestOpenRoomsHostedBy lists a host's open rooms only: not closed ones, not another host's.
func TestOpenRoomsHostedBy(t *testing.T) {
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			st := storetest.Open(t, dialect)
			ctx := context.Background()
			alice, bob := &store.User{DisplayName: "Alice", Guest: true}, &store.User{DisplayName: "Bob", Guest: true}
			for _, u := range []*store.User{alice, bob} {
				if err := st.CreateUser(ctx, u); err != nil {
					t.Fatal(err)
				}
			}
			open := func(code string, host *store.User, status string) {
				t.Helper()
				r := &store.Room{Code: code, HostID: host.ID, Ruleset: "x", Options: "{}", Mode: store.ModeOnline, Capacity: 2, Status: status}
				if err := st.CreateRoom(ctx, r, nil); err != nil {
					t.Fatal(err)
				}
			}
			open("AAAAAA", alice, store.RoomOpen)
			open("BBBBBB", alice, store.RoomOpen)
			open("CCCCCC", alice, store.RoomClosed)
			open("DDDDDD", bob, store.RoomOpen)
			for _, c := range []struct {
				who  *store.User
				want []string
			}{{alice, []string{"AAAAAA", "BBBBBB"}}, {bob, []string{"DDDDDD"}}, {&store.User{ID: 999}, nil}} {
				got, err := st.OpenRoomsHostedBy(ctx, c.who.ID)
				if err != nil || !slices.Equal(got, c.want) {
					t.Errorf("OpenRoomsHostedBy(%s) = %v, %v; want %v", c.who.DisplayName, got, err, c.want)
				}
			}
		})
	}
}
