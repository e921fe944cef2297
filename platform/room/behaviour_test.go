package room_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"cardhouse/platform/room"
	"cardhouse/platform/store"
	"cardhouse/platform/store/storetest"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest/toy"
)

// The room's behaviour, tested beside it through the Manager and Room API (the server's tests in
// platform/server play the same rules over HTTP and WebSockets): a table is a manager over a
// fresh store of a dialect, with the toy ruleset and a fake clock.

type table struct {
	t     *testing.T
	st    *store.Store
	m     *room.Manager
	clock *room.FakeClock
}

func newTable(t *testing.T, dialect string) *table {
	t.Helper()
	st := storetest.Open(t, dialect)
	clock := room.NewFakeClock(time.Unix(1_800_000_000, 0))
	return &table{t: t, st: st, m: newManager(t, st, clock), clock: clock}
}

// newManager starts a table's manager over st (a table's own, or another over the same store: a
// restart), closed when the test ends.
func newManager(t *testing.T, st *store.Store, clock *room.FakeClock) *room.Manager {
	t.Helper()
	m, err := room.NewManager(context.Background(), room.Config{Store: st, Clock: clock,
		Engines: map[string]engine.Engine{toy.ID: engine.New(toy.Ruleset{})},
		Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)), Grace: 20 * time.Second, PauseLimit: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}

// user makes an account: a guest, or a registered user when registered.
func (tb *table) user(name string, registered bool) *store.User {
	tb.t.Helper()
	u := &store.User{DisplayName: name, Guest: !registered, PasswordHash: "x"}
	if registered {
		login := strings.ToLower(name)
		u.Username = &login
	}
	if err := tb.st.CreateUser(context.Background(), u); err != nil {
		tb.t.Fatal(err)
	}
	return u
}

// peer is one connection to a room: what the room sends it, decoded, in order.
type peer struct {
	t    *testing.T
	r    *room.Room
	u    *store.User
	c    *room.Client
	msgs chan map[string]json.RawMessage
	view *sdk.View // the last view read, of action seq
	seq  int
}

func (tb *table) connect(r *room.Room, u *store.User) *peer {
	tb.t.Helper()
	p := &peer{t: tb.t, r: r, u: u, c: room.NewClient(u.ID, 256), msgs: make(chan map[string]json.RawMessage, 1024)}
	if err := r.Attach(context.Background(), u, p.c, nil); err != nil {
		tb.t.Fatalf("%s attaching: %v", u.DisplayName, err)
	}
	go func() {
		defer close(p.msgs)
		read := func(m room.Message) {
			var msg map[string]json.RawMessage
			if err := json.Unmarshal(m.Bytes(), &msg); err != nil {
				panic(fmt.Sprintf("a room message that is not JSON: %q", m.Bytes()))
			}
			m.Done()
			p.msgs <- msg
		}
		for {
			select {
			case m := <-p.c.Out():
				read(m)
			case <-p.c.Gone():
				// What the room queued before dropping the client (a "bye") still arrives, as the
				// server's write loop flushes it.
				for {
					select {
					case m := <-p.c.Out():
						read(m)
					default:
						return
					}
				}
			}
		}
	}()
	return p
}

// until reads messages until one of type typ (any type when "") for which ok (nil: any) holds,
// and returns it.
func (p *peer) until(typ string, ok func(map[string]json.RawMessage) bool) map[string]json.RawMessage {
	p.t.Helper()
	for {
		select {
		case m, open := <-p.msgs:
			if !open {
				p.t.Fatalf("%s: the room dropped the connection while waiting for %s", p.u.DisplayName, typ)
			}
			if string(m["type"]) == `"view"` {
				var v sdk.View
				if err := json.Unmarshal(m["view"], &v); err != nil {
					p.t.Fatal(err)
				}
				p.view = &v
				_ = json.Unmarshal(m["seq"], &p.seq)
			}
			if (typ == "" || string(m["type"]) == `"`+typ+`"`) && (ok == nil || ok(m)) {
				return m
			}
		case <-time.After(10 * time.Second):
			p.t.Fatalf("%s: no %s message within 10 s", p.u.DisplayName, typ)
		}
	}
}

// info polls the room until want holds of its Info (the room's timers fire on their own
// goroutines: no sleeping, a bounded poll).
func (tb *table) waitInfo(r *room.Room, what string, want func(room.Info) bool) room.Info {
	tb.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		in, err := r.Info(context.Background())
		if err != nil {
			tb.t.Fatal(err)
		}
		if want(in) {
			return in
		}
		if time.Now().After(deadline) {
			tb.t.Fatalf("%s: never; the room is %+v", what, in)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func member(in room.Info, name string) room.MemberInfo {
	i := slices.IndexFunc(in.Members, func(m room.MemberInfo) bool { return m.Name == name })
	if i < 0 {
		return room.MemberInfo{}
	}
	return in.Members[i]
}

// twoPlayers makes Alice's room of two seats with Bob seated, both connected, and deals.
func (tb *table) twoPlayers() (r *room.Room, alice, bob *store.User, pa, pb *peer) {
	tb.t.Helper()
	ctx := context.Background()
	alice, bob = tb.user("Alice", true), tb.user("Bob", false)
	r, err := tb.m.Create(ctx, alice, room.CreateRequest{Ruleset: toy.ID, Seats: 2, Options: map[string]any{"hand_size": 7}})
	if err != nil {
		tb.t.Fatal(err)
	}
	if _, err := r.Join(ctx, bob, false); err != nil {
		tb.t.Fatal(err)
	}
	pa, pb = tb.connect(r, alice), tb.connect(r, bob)
	if err := r.Deal(ctx, alice); err != nil {
		tb.t.Fatal(err)
	}
	pa.until("view", nil)
	pb.until("view", nil)
	return r, alice, bob, pa, pb
}

// A dropped player keeps the seat through the grace period (P-6), then a bot covers it and plays
// for them; a guest of the same name coming back takes the seat and its cards back, and the bot
// stops; a guest named like a registered player does not take that player's seat.
func TestDropCoverRejoin(t *testing.T) {
	for _, dialect := range storetest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			tb := newTable(t, dialect)
			ctx := context.Background()
			r, alice, _, pa, pb := tb.twoPlayers()
			r.Detach(pb.c)
			tb.waitInfo(r, "Bob shown dropped", func(in room.Info) bool { return !member(in, "Bob").Connected })
			tb.clock.Advance(19 * time.Second)
			if member(tb.waitInfo(r, "", func(room.Info) bool { return true }), "Bob").Covered {
				t.Fatal("covered before the grace period ended")
			}
			tb.clock.Advance(time.Second)
			tb.waitInfo(r, "Bob's seat covered", func(in room.Info) bool { return member(in, "Bob").Covered })

			// Alice plays until it is her turn again: the bot answers for Bob's seat.
			for pa.view.Turn != 0 {
				pa.until("view", nil)
			}
			if err := r.Act(ctx, alice, nil, sdk.Action{Type: sdk.ActDraw}); err != nil {
				t.Fatal(err)
			}
			pa.until("view", func(m map[string]json.RawMessage) bool {
				var v sdk.View
				_ = json.Unmarshal(m["view"], &v)
				return v.Turn == 0
			})

			bob2 := tb.user("BOB", false)
			mi, err := r.Join(ctx, bob2, false)
			if err != nil || mi.Seat != 1 || mi.Role != store.MemberPlayer {
				t.Fatalf("rejoin by name: %+v, %v; want seat 1 as a player", mi, err)
			}
			pb2 := tb.connect(r, bob2)
			v := pb2.until("view", nil)
			var bv sdk.View
			_ = json.Unmarshal(v["view"], &bv)
			if hand, _ := bv.Zone("hand.1"); bv.Viewer != 1 || len(hand.Cards) == 0 || len(hand.Cards) != hand.Count {
				t.Fatalf("Bob's view after rejoining: viewer %d, hand %+v", bv.Viewer, hand)
			}
			tb.waitInfo(r, "Bob uncovered", func(in room.Info) bool { return !member(in, "Bob").Covered })

			r.Detach(pa.c)
			tb.waitInfo(r, "Alice shown dropped", func(in room.Info) bool { return !member(in, "Alice").Connected })
			eve := tb.user("alice", false)
			if mi, err := r.Join(ctx, eve, false); err != nil || mi.Seat != -1 || mi.Role != store.MemberSpectator {
				t.Fatalf("a guest named like a registered player took %+v (%v)", mi, err)
			}
		})
	}
}

// A game whose only person dropped pauses (D-12); after the pause limit it is abandoned and no
// longer paused.
func TestPauseAndAbandon(t *testing.T) {
	for _, dialect := range storetest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			tb := newTable(t, dialect)
			ctx := context.Background()
			alice := tb.user("Alice", true)
			r, err := tb.m.Create(ctx, alice, room.CreateRequest{Ruleset: toy.ID, Mode: store.ModeComputer, Bots: []int{1}})
			if err != nil {
				t.Fatal(err)
			}
			pa := tb.connect(r, alice)
			if err := r.Deal(ctx, alice); err != nil {
				t.Fatal(err)
			}
			pa.until("view", nil)
			r.Detach(pa.c)
			tb.waitInfo(r, "the game paused", func(in room.Info) bool { return in.Paused })
			tb.clock.Advance(4 * time.Minute)
			if in := tb.waitInfo(r, "", func(room.Info) bool { return true }); in.Game.Status != store.GameLive {
				t.Fatalf("abandoned before the pause limit: %+v", in.Game)
			}
			tb.clock.Advance(time.Minute)
			in := tb.waitInfo(r, "the game abandoned", func(in room.Info) bool { return in.Game != nil && in.Game.Status == store.GameAbandoned })
			if in.Paused {
				t.Fatal("an abandoned game is still paused")
			}
		})
	}
}

// A locked room takes no one new, and says so; a kicked player is out of the room and told why.
func TestLockAndKick(t *testing.T) {
	for _, dialect := range storetest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			tb := newTable(t, dialect)
			ctx := context.Background()
			r, alice, bob, _, pb := tb.twoPlayers()
			if err := r.SetLocked(ctx, bob, true); err == nil {
				t.Fatal("a player who is not the host locked the room")
			}
			if err := r.SetLocked(ctx, alice, true); err != nil {
				t.Fatal(err)
			}
			carol := tb.user("Carol", false)
			_, err := r.Join(ctx, carol, true)
			if e, ok := room.AsError(err); !ok || e.Code != "locked" {
				t.Fatalf("joining a locked room gave %v, want the locked refusal", err)
			}
			id := member(tb.waitInfo(r, "", func(room.Info) bool { return true }), "Bob").ID
			if err := r.Kick(ctx, alice, id, room.KickOptions{}); err != nil {
				t.Fatal(err)
			}
			bye := pb.until("bye", nil)
			if string(bye["code"]) != `"kicked"` {
				t.Fatalf("Bob was told %s, want kicked", bye["code"])
			}
			if m := member(tb.waitInfo(r, "Bob gone", func(in room.Info) bool { return member(in, "Bob").ID == 0 }), "Bob"); m.ID != 0 {
				t.Fatalf("Bob is still a member: %+v", m)
			}
			if err := r.Act(ctx, bob, nil, sdk.Action{Type: sdk.ActDraw}); err == nil || errors.Is(err, room.ErrClosed) {
				t.Fatalf("a kicked player's action gave %v, want a refusal", err)
			}
		})
	}
}

// playToTheEnd has the seat in turn play its first playable card (else draw, else call) until
// the game is over, reading every peer's messages as it goes.
func (tb *table) playToTheEnd(r *room.Room, users []*store.User, peers []*peer) {
	tb.t.Helper()
	ctx := context.Background()
	for step := 0; ; step++ {
		if step > 2000 {
			tb.t.Fatal("the game did not end in 2,000 actions")
		}
		in := tb.waitInfo(r, "", func(room.Info) bool { return true })
		if in.Game != nil && in.Game.Status == store.GameOver {
			return
		}
		seat := in.Game.Turn
		p := peers[seat]
		for p.view == nil || p.seq != in.Game.Seq {
			p.until("view", nil)
		}
		v := p.view
		a := sdk.Action{Type: v.Actions[0].Type}
		if len(v.Actions[0].Cards) > 0 {
			a.Cards = v.Actions[0].Cards[:1]
		}
		if err := r.Act(ctx, users[seat], nil, a); err != nil {
			tb.t.Fatalf("seat %d's %+v: %v", seat, a, err)
		}
	}
}

// Once a game is over a seated player asks the host for a rematch: everyone sees the ask on the
// player's member, the host cannot ask (the host deals), a spectator cannot, asking twice is
// fine, asking mid-game is refused; the host's deal clears the asks.
func TestAskForTheNextGame(t *testing.T) {
	for _, dialect := range storetest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			tb := newTable(t, dialect)
			ctx := context.Background()
			r, alice, bob, pa, pb := tb.twoPlayers()
			carol := tb.user("Carol", false)
			if _, err := r.Join(ctx, carol, true); err != nil {
				t.Fatal(err)
			}
			pc := tb.connect(r, carol)
			ask := func(p *peer) map[string]json.RawMessage {
				t.Helper()
				if err := r.Handle(ctx, p.u, p.c, room.Incoming{Type: room.MsgAskNext, ID: "n1"}); err != nil {
					t.Fatal(err)
				}
				return p.until("", func(m map[string]json.RawMessage) bool { return string(m["id"]) == `"n1"` })
			}
			if m := ask(pb); string(m["code"]) != `"game_running"` {
				t.Fatalf("an ask mid-game was answered %v, want game_running", m)
			}
			tb.playToTheEnd(r, []*store.User{alice, bob}, []*peer{pa, pb})
			if m := ask(pb); string(m["type"]) != `"accepted"` {
				t.Fatalf("Bob's ask after the game: %v", m)
			}
			if m := ask(pb); string(m["type"]) != `"accepted"` {
				t.Fatalf("Bob's second ask: %v", m)
			}
			for _, who := range []*peer{pa, pc} { // the host and the spectator see it
				who.until("members", func(m map[string]json.RawMessage) bool {
					return strings.Contains(string(m["members"]), `"wants_next":true`)
				})
			}
			if m := ask(pa); string(m["code"]) != `"host_deals"` {
				t.Fatalf("the host's ask was answered %v, want host_deals", m)
			}
			if m := ask(pc); string(m["code"]) != `"not_player"` {
				t.Fatalf("the spectator's ask was answered %v, want not_player", m)
			}
			if !member(tb.waitInfo(r, "", func(room.Info) bool { return true }), "Bob").WantsNext {
				t.Fatal("the room's members do not show Bob's ask")
			}
			if err := r.Deal(ctx, alice); err != nil {
				t.Fatal(err)
			}
			tb.waitInfo(r, "the asks cleared by the deal", func(in room.Info) bool { return !member(in, "Bob").WantsNext })
		})
	}
}
