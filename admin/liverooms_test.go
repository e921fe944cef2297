package admin_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"cardhouse/admin"
	"cardhouse/platform/store"
	"cardhouse/platform/store/storetest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The live room list (refreshed every few seconds by the admin page) reads the same number of
// statements for 3 stored rooms as for 30, beside a running room, and shows each room's game and
// last activity as stored: a room with no game, a live game not moved yet, a live game with
// actions (its newest action), a closed room's game (its start), an open room's abandoned game.
func TestLiveRoomListStatements(t *testing.T) { eachDialect(t, testLiveRoomListStatements) }

func testLiveRoomListStatements(t *testing.T, dialect string) {
	e := newEnv(t, dialect)
	ctx := context.Background()
	live := e.register("Alice").createRoom(map[string]any{"ruleset": "hotspot", "seats": 2})
	start := time.Now().UTC().Add(time.Hour).Truncate(time.Second) // after every room's update: the games' times show
	var want []admin.RoomSummary
	summary := func(r *store.Room) admin.RoomSummary {
		return admin.RoomSummary{Code: r.Code, Ruleset: r.Ruleset, Mode: r.Mode, Status: r.Status, HostID: r.HostID, Capacity: r.Capacity,
			CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, LastActivity: r.UpdatedAt, Idle: r.Status == store.RoomOpen}
	}
	lr, err := e.st.RoomByCode(ctx, live.Code)
	if err != nil {
		t.Fatal(err)
	}
	ls := summary(lr)
	ls.Running, ls.Members = true, 1
	want = append(want, ls)

	// add stores n more rooms, the i-th of kind i%5.
	add := func(n int) {
		for range n {
			i := len(want)
			r := storetest.NewRoom(e.t, e.st, fmt.Sprintf("LIST%02d", i))
			kind := i % 5
			if kind == 0 { // no game
				want = append(want, summary(r))
				continue
			}
			status, actions := store.GameLive, []int{}
			switch kind {
			case 2:
				actions = []int{1, 2}
			case 3:
				r.Status, status, actions = store.RoomClosed, store.GameAbandoned, []int{5}
			case 4:
				status, actions = store.GameAbandoned, []int{3}
			}
			g := &store.Game{RoomID: r.ID, Number: 1, Ruleset: "x", Seats: 2, Options: "{}", SeatMembers: "[]", State: []byte("{}"),
				Phase: "playing", Status: status, StartedAt: start}
			if err := e.st.StartGame(ctx, g, r, nil); err != nil {
				t.Fatal(err)
			}
			s := summary(r)
			s.Game, s.GameStatus, s.LastActivity = 1, status, start
			for seq, min := range actions {
				at := start.Add(time.Duration(min) * time.Minute)
				if err := e.st.CommitAction(ctx, g.ID, &store.ActionRecord{Seq: seq + 1, Action: "{}", CreatedAt: at}, nil); err != nil {
					t.Fatal(err)
				}
				if r.Status == store.RoomOpen {
					s.LastActivity = at
				}
			}
			s.Stale = s.Idle && status == store.GameAbandoned
			want = append(want, s)
		}
	}
	// list lists every room, checks what it shows and returns the statements it took.
	list := func() int64 {
		cctx, n := storetest.Counting(ctx)
		got, err := e.adm.Rooms(cctx, store.RoomQuery{Limit: 200}, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		byCode := func(a, b admin.RoomSummary) bool { return a.Code < b.Code }
		if diff := cmp.Diff(want, got.Rooms, cmpopts.SortSlices(byCode), cmpopts.EquateApproxTime(time.Millisecond)); diff != "" {
			t.Errorf("the list of %d rooms (-want +got):\n%s", len(want), diff)
		}
		return n.Load()
	}
	add(3)
	few := list()
	add(27)
	if many := list(); few == 0 || many != few {
		t.Errorf("the room list took %d statements for 4 rooms and %d for 31: want the same number", few, many)
	}
}
