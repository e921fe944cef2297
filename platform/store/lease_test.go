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
)

// leaseGame makes a room with a live game for the lease tests.
func leaseGame(t *testing.T, st *store.Store, code string) (roomID, gameID int64) {
	t.Helper()
	r := storetest.NewRoom(t, st, code)
	g := &store.Game{RoomID: r.ID, Number: 1, Ruleset: "x", Seats: 2, Options: "{}", SeatMembers: "[]", StartNow: 1, State: []byte("s0"), Phase: "playing", Status: store.GameLive, StartedAt: time.Now()}
	if err := st.StartGame(context.Background(), g, r, nil); err != nil {
		t.Fatal(err)
	}
	return r.ID, g.ID
}

// waitExpired waits until the database's clock is past the lease's expiry (the database decides,
// not this process's clock).
func waitExpired(t *testing.T, st *store.Store, roomID int64) {
	t.Helper()
	for range 1000 {
		leases, now, err := st.Leases(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range leases {
			if l.RoomID == roomID && l.ExpiresMs <= now {
				return
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatalf("room %d's lease never expired", roomID)
}

func act(seq int) *store.ActionRecord {
	return &store.ActionRecord{Seq: seq, Seat: seq % 2, Action: fmt.Sprintf(`{"n":%d}`, seq), Now: int64(seq)}
}

// A room's lease passes from node to node only once it expired or was released, each time under a
// higher epoch; the node that lost it can neither renew it nor commit under it, and its refused
// commit stores nothing.
func TestLeaseFencing(t *testing.T) {
	for _, dialect := range storetest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			nodes := storetest.OpenNodes(t, dialect, 2)
			st, stB := nodes[0], nodes[1] // node-a's store and node-b's
			ctx := context.Background()
			roomID, gameID := leaseGame(t, st, "LEASE1")
			if _, err := st.LeaseOf(ctx, roomID); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("a room nobody held: LeaseOf gave %v, want ErrNotFound", err)
			}

			a, err := st.AcquireLease(ctx, roomID, "node-a", time.Hour)
			if err != nil || a.Epoch != 1 || a.Node != "node-a" {
				t.Fatalf("first acquire: %+v, %v; want node-a at epoch 1", a, err)
			}
			held, err := stB.AcquireLease(ctx, roomID, "node-b", time.Hour)
			if !errors.Is(err, store.ErrLeaseHeld) || held.Node != "node-a" || held.Epoch != 1 {
				t.Fatalf("acquire of a held lease: %+v, %v; want node-a's lease and ErrLeaseHeld", held, err)
			}
			if err := st.CommitFenced(ctx, a.Fence(), gameID, act(1), nil); err != nil {
				t.Fatalf("the holder's commit: %v", err)
			}
			before := a.ExpiresMs
			if err := st.RenewLease(ctx, &a, 2*time.Hour); err != nil || a.ExpiresMs <= before {
				t.Fatalf("renew: %v, expiry %d → %d", err, before, a.ExpiresMs)
			}

			// node-a stalls: its lease runs out and node-b takes the room.
			if err := st.RenewLease(ctx, &a, time.Millisecond); err != nil {
				t.Fatal(err)
			}
			waitExpired(t, st, roomID)
			b, err := stB.AcquireLease(ctx, roomID, "node-b", time.Hour)
			if err != nil || b.Epoch != 2 || b.Node != "node-b" {
				t.Fatalf("acquire after expiry: %+v, %v; want node-b at epoch 2", b, err)
			}
			if err := st.CommitFenced(ctx, a.Fence(), gameID, act(2), &store.GameState{State: []byte("stale"), Phase: "playing", Status: store.GameLive, Since: 0}); !errors.Is(err, store.ErrFenced) {
				t.Fatalf("the old holder's commit gave %v, want ErrFenced", err)
			}
			if err := st.RenewLease(ctx, &a, time.Hour); !errors.Is(err, store.ErrFenced) {
				t.Fatalf("the old holder's renew gave %v, want ErrFenced", err)
			}
			if err := stB.CommitFenced(ctx, b.Fence(), gameID, act(2), nil); err != nil {
				t.Fatalf("the new holder's commit: %v", err)
			}
			recs, err := st.Actions(ctx, gameID)
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != 2 || recs[1].Action != `{"n":2}` {
				t.Fatalf("stored actions %+v: want the holders' two", recs)
			}
			g, err := st.GameByID(ctx, gameID)
			if err != nil {
				t.Fatal(err)
			}
			if string(g.State) != "s0" {
				t.Errorf("the fenced commit's state was stored: %q", g.State)
			}

			// A graceful hand-over: released, the room is taken at once, under a new epoch; a release
			// by a node that no longer holds the lease changes nothing.
			if err := st.ReleaseLease(ctx, a); err != nil {
				t.Fatal(err)
			}
			if l, _ := st.LeaseOf(ctx, roomID); l.Node != "node-b" || l.Epoch != 2 || l.ExpiresMs != b.ExpiresMs {
				t.Fatalf("a stale release changed the lease: %+v, want %+v", l, b)
			}
			if err := stB.ReleaseLease(ctx, b); err != nil {
				t.Fatal(err)
			}
			c, err := st.AcquireLease(ctx, roomID, "node-a", time.Hour)
			if err != nil || c.Epoch != 3 {
				t.Fatalf("acquire after release: %+v, %v; want epoch 3", c, err)
			}
			// A node that takes its own lease again (restarted under the same name) gets a new epoch,
			// so that its previous run's writes are fenced off.
			again, err := st.AcquireLease(ctx, roomID, "node-a", time.Hour)
			if err != nil || again.Epoch != 4 {
				t.Fatalf("acquire by the holder: %+v, %v; want epoch 4", again, err)
			}
			if err := st.CommitFenced(ctx, c.Fence(), gameID, act(3), nil); !errors.Is(err, store.ErrFenced) {
				t.Fatalf("a commit under the node's previous epoch gave %v, want ErrFenced", err)
			}
			// node-a goes on from node-b's last action, though its own store last wrote action 1.
			if err := st.CommitFenced(ctx, again.Fence(), gameID, act(3), nil); err != nil {
				t.Fatalf("node-a's action 3 after node-b's 2: %v", err)
			}
			if _, err := st.AcquireLease(ctx, roomID, "", time.Hour); err == nil {
				t.Error("a lease for a node without a name was given")
			}
		})
	}
}

// Three nodes race for a room's lease, many times (the first time for a room nobody held, then
// for one its holder released): exactly one takes it each time, and the epochs count up by one per
// hand-over.
func TestLeaseRace(t *testing.T) {
	for _, dialect := range storetest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			st := storetest.Open(t, dialect)
			ctx := context.Background()
			roomID, _ := leaseGame(t, st, "LEASE2")
			const rounds = 20
			for round := 1; round <= rounds; round++ {
				var (
					wg   sync.WaitGroup
					mu   sync.Mutex
					won  []store.Lease
					errs []error
				)
				for _, node := range []string{"node-a", "node-b", "node-c"} {
					wg.Go(func() {
						l, err := st.AcquireLease(ctx, roomID, fmt.Sprintf("%s-%d", node, round), time.Hour)
						mu.Lock()
						defer mu.Unlock()
						switch {
						case err == nil:
							won = append(won, l)
						case !errors.Is(err, store.ErrLeaseHeld):
							errs = append(errs, err)
						}
					})
				}
				wg.Wait()
				if len(errs) > 0 || len(won) != 1 || won[0].Epoch != int64(round) {
					t.Fatalf("round %d: won %+v, errors %v; want one lease at epoch %d", round, won, errs, round)
				}
				if err := st.ReleaseLease(ctx, won[0]); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// A node keeps committing while another takes the room: once the new holder has taken it, not
// one more of the old holder's actions is stored, and each of its refusals is ErrFenced.
func TestFencedCommitsStopAtTakeOver(t *testing.T) {
	for _, dialect := range storetest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			st := storetest.Open(t, dialect)
			ctx := context.Background()
			roomID, gameID := leaseGame(t, st, "LEASE3")
			// A second game commits unfenced in the same batches: a fenced refusal never fails it.
			_, other := leaseGame(t, st, "LEASE4")
			a, err := st.AcquireLease(ctx, roomID, "node-a", time.Millisecond)
			if err != nil {
				t.Fatal(err)
			}
			var (
				mu       sync.Mutex
				lastA    int
				fenced   int
				oldErr   error
				takeover = make(chan struct{})
				taken    = make(chan struct{}) // node-b holds the lease
				done     = make(chan struct{})
			)
			go func() {
				defer close(done)
				after := 0 // commits tried since node-b took the lease (counted, not timed: the machine may be slow)
				for seq := 1; ; seq++ {
					select {
					case <-taken:
						if after++; after > 100 {
							oldErr = errors.New("100 commits after the take-over and never fenced")
							return
						}
					default:
					}
					err := st.CommitFenced(ctx, a.Fence(), gameID, act(seq), nil)
					if errors.Is(err, store.ErrFenced) {
						mu.Lock()
						fenced++
						mu.Unlock()
						return
					}
					if err != nil {
						oldErr = err
						return
					}
					mu.Lock()
					lastA = seq
					mu.Unlock()
					if seq == 5 {
						close(takeover)
					}
				}
			}()
			unfenced := make(chan error, 1)
			go func() {
				for seq := 1; seq <= 40; seq++ {
					if err := st.CommitAction(ctx, other, act(seq), nil); err != nil {
						unfenced <- err
						return
					}
				}
				unfenced <- nil
			}()
			<-takeover
			waitExpired(t, st, roomID)
			b, err := st.AcquireLease(ctx, roomID, "node-b", time.Hour)
			if err != nil {
				t.Fatal(err)
			}
			close(taken)
			<-done
			if oldErr != nil {
				t.Fatalf("the old holder's commit failed otherwise than fenced: %v", oldErr)
			}
			recs, err := st.Actions(ctx, gameID)
			if err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			if fenced != 1 || len(recs) != lastA {
				t.Fatalf("stored %d actions, the old holder saw %d accepted and %d fenced", len(recs), lastA, fenced)
			}
			mu.Unlock()
			// The new holder goes on from the log as stored.
			if err := st.CommitFenced(ctx, b.Fence(), gameID, act(len(recs)+1), nil); err != nil {
				t.Fatalf("the new holder's next action: %v", err)
			}
			if err := <-unfenced; err != nil {
				t.Fatalf("an unfenced game's commit failed: %v", err)
			}
		})
	}
}

// Every write a room's actor makes through its fenced view of the store succeeds under the
// room's current lease and, once another node has taken the room, fails with ErrFenced and
// changes nothing: its actions, a new game, its members, its settings, its house rules, its chat.
func TestFencedRoomWrites(t *testing.T) {
	for _, dialect := range storetest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			nodes := storetest.OpenNodes(t, dialect, 2)
			ctx := context.Background()
			roomID, gameID := leaseGame(t, nodes[0], "FENCE1")
			room, err := nodes[0].RoomByCode(ctx, "FENCE1")
			if err != nil {
				t.Fatal(err)
			}
			owner := room.HostID
			sc := &store.HouseRuleScript{OwnerID: owner, Name: "bonus", Description: "d", Rulesets: `["x"]`}
			v := &store.HouseRuleVersion{Source: "name = 'bonus'", Checksum: "c", Description: "d", Declared: "{}"}
			if err := nodes[0].CreateHouseRule(ctx, sc, v); err != nil {
				t.Fatal(err)
			}

			a, err := nodes[0].AcquireLease(ctx, roomID, "node-a", time.Hour)
			if err != nil {
				t.Fatal(err)
			}
			stA := nodes[0].Fenced(a.Fence())
			uid := owner
			member := &store.Member{RoomID: roomID, UserID: &uid, Name: "Host", Role: store.MemberPlayer, Seat: 0}
			writes := func(st *store.Store, seq int) map[string]error {
				room.Locked = !room.Locked
				g := &store.Game{RoomID: roomID, Number: 2 + seq, Ruleset: "x", Seats: 2, Options: "{}", SeatMembers: "[]", StartNow: 1, State: []byte("s"), Phase: "playing", Status: store.GameLive, StartedAt: time.Now()}
				return map[string]error{
					"CommitAction":        st.CommitAction(ctx, gameID, act(seq), nil),
					"SaveMembers":         st.SaveMembers(ctx, member),
					"SaveRoom":            st.SaveRoom(ctx, room),
					"AddChat":             st.AddChat(ctx, &store.ChatMessage{RoomID: roomID, UserID: &uid, Name: "Host", Text: fmt.Sprint("hi ", seq)}),
					"EnableRoomHouseRule": st.EnableRoomHouseRule(ctx, &store.RoomHouseRule{RoomID: roomID, ScriptID: sc.ID, VersionID: v.ID, Options: "{}"}),
					"SetGameStatus":       st.SetGameStatus(ctx, gameID, store.GameLive, nil),
					"StartGame":           st.StartGame(ctx, g, room, nil),
				}
			}
			for name, err := range writes(stA, 1) {
				if err != nil {
					t.Errorf("%s under the current lease: %v", name, err)
				}
			}
			if err := stA.DisableRoomHouseRule(ctx, roomID, sc.ID); err != nil {
				t.Errorf("DisableRoomHouseRule under the current lease: %v", err)
			}
			if err := stA.DeleteMember(ctx, member.ID); err != nil {
				t.Errorf("DeleteMember under the current lease: %v", err)
			}
			member.ID = 0

			// node-b takes the room: each of node-a's writes is refused and changes nothing.
			if err := nodes[0].ReleaseLease(ctx, a); err != nil {
				t.Fatal(err)
			}
			if _, err := nodes[1].AcquireLease(ctx, roomID, "node-b", time.Hour); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, nodes[1], roomID, gameID)
			lockedBefore := room.Locked // as stored: writes toggles it again
			for name, err := range writes(stA, 2) {
				if !errors.Is(err, store.ErrFenced) {
					t.Errorf("%s under the old lease gave %v, want ErrFenced", name, err)
				}
			}
			if err := stA.DisableRoomHouseRule(ctx, roomID, sc.ID); !errors.Is(err, store.ErrFenced) {
				t.Errorf("DisableRoomHouseRule under the old lease gave %v, want ErrFenced", err)
			}
			if err := stA.DeleteMember(ctx, 1); !errors.Is(err, store.ErrFenced) {
				t.Errorf("DeleteMember under the old lease gave %v, want ErrFenced", err)
			}
			if after := snapshot(t, nodes[1], roomID, gameID); after != before {
				t.Errorf("the refused writes changed the room:\n before %s\n after  %s", before, after)
			}
			if r, _ := nodes[1].RoomByCode(ctx, "FENCE1"); r.Locked != lockedBefore {
				t.Errorf("the refused SaveRoom changed the room's lock")
			}
			// The unfenced store (one node, or an admin's write) is not held to any lease.
			if err := nodes[0].AddChat(ctx, &store.ChatMessage{RoomID: roomID, Name: "admin", Text: "x"}); err != nil {
				t.Errorf("an unfenced write: %v", err)
			}
		})
	}
}

// snapshot sums up what a room's writes change.
func snapshot(t *testing.T, st *store.Store, roomID, gameID int64) string {
	t.Helper()
	ctx := context.Background()
	acts, err := st.Actions(ctx, gameID)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := st.Members(ctx, roomID)
	if err != nil {
		t.Fatal(err)
	}
	chat, err := st.Chat(ctx, roomID, 100)
	if err != nil {
		t.Fatal(err)
	}
	rules, err := st.RoomHouseRules(ctx, roomID)
	if err != nil {
		t.Fatal(err)
	}
	games, err := st.RoomGames(ctx, roomID)
	if err != nil {
		t.Fatal(err)
	}
	r, err := st.RoomByCode(ctx, "FENCE1")
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("actions %d, members %d, chat %d, rules %d, games %d, room game %v", len(acts), len(ms), len(chat), len(rules), len(games), *r.GameID)
}

// A node renews all its leases in one statement: those it still holds are renewed, one another
// node took is left out of the answer (and untouched), and a lease named under an old epoch is
// not renewed.
func TestRenewLeases(t *testing.T) {
	for _, dialect := range storetest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			st := storetest.Open(t, dialect)
			ctx := context.Background()
			var held []store.Lease
			for i := range 3 {
				l, err := st.AcquireLease(ctx, storetest.NewRoom(t, st, fmt.Sprint("RENEW", i)).ID, "node-a", time.Minute)
				if err != nil {
					t.Fatal(err)
				}
				held = append(held, l)
			}
			// Room 1 goes to node-b; room 2's lease is named under an epoch node-a no longer has.
			if err := st.ReleaseLease(ctx, held[1]); err != nil {
				t.Fatal(err)
			}
			taken, err := st.AcquireLease(ctx, held[1].RoomID, "node-b", time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			again, err := st.AcquireLease(ctx, held[2].RoomID, "node-a", time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			renewed, err := st.RenewLeases(ctx, "node-a", held, time.Hour)
			if err != nil {
				t.Fatal(err)
			}
			if len(renewed) != 1 || renewed[held[0].RoomID] <= held[0].ExpiresMs {
				t.Fatalf("renewed %v: want room %d alone, later than %d", renewed, held[0].RoomID, held[0].ExpiresMs)
			}
			if l, _ := st.LeaseOf(ctx, taken.RoomID); l != taken {
				t.Errorf("node-b's lease changed: %+v, want %+v", l, taken)
			}
			if l, _ := st.LeaseOf(ctx, again.RoomID); l != again {
				t.Errorf("the lease under the new epoch changed: %+v, want %+v", l, again)
			}
		})
	}
}

// A renewal already on its way when the lease is released (a node stopping: its keeper's round
// was sent just before the room's actor stopped and gave the lease up) lands after the release:
// it must not bring the lease back, or the room waits a whole lease for its next node (the cluster
// test's rolling restart found a stopped node still holding a live lease).
func TestReleaseOutlastsALateRenewal(t *testing.T) {
	for _, dialect := range storetest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			st := storetest.Open(t, dialect)
			ctx := context.Background()
			l, err := st.AcquireLease(ctx, storetest.NewRoom(t, st, "LATE").ID, "node-a", time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			if err := st.ReleaseLease(ctx, l); err != nil {
				t.Fatal(err)
			}
			renewed, err := st.RenewLeases(ctx, "node-a", []store.Lease{l}, time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			if len(renewed) != 0 {
				t.Errorf("a renewal after the release renewed %v, want nothing", renewed)
			}
			if err := st.RenewLease(ctx, &l, time.Minute); !errors.Is(err, store.ErrFenced) {
				t.Errorf("renewing the released lease gave %v, want ErrFenced", err)
			}
			taken, err := st.AcquireLease(ctx, l.RoomID, "node-b", time.Minute)
			if err != nil || taken.Epoch != l.Epoch+1 {
				t.Fatalf("another node taking the released room: %+v, %v; want it at epoch %d", taken, err, l.Epoch+1)
			}
		})
	}
}
