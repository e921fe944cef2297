package server_test

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"cardhouse/platform/room"

	"github.com/coder/websocket"
)

func memberNamed(in room.Info, name string) (room.MemberInfo, bool) {
	i := slices.IndexFunc(in.Members, func(m room.MemberInfo) bool { return m.Name == name })
	if i < 0 {
		return room.MemberInfo{}, false
	}
	return in.Members[i], true
}

func TestMembership(t *testing.T) { eachDialect(t, testMembership) }

func testMembership(t *testing.T, dialect string) {
	e := newEnv(t, dialect, inProcess())
	alice, bob, carol, dave := e.register("Alice"), e.guest("Bob"), e.guest("Carol"), e.guest("Dave")
	info := alice.createRoom(map[string]any{"ruleset": matcherID, "approval": true, "seats": 3})
	base := "/api/rooms/" + info.Code

	// Approval-only: requests wait for the host.
	var joined struct {
		Member room.MemberInfo `json:"member"`
	}
	bob.must("POST", base+"/join", nil, &joined)
	if joined.Member.Role != "pending" {
		t.Fatalf("bob joining an approval room: %+v", joined.Member)
	}
	var got apiErr
	if st := bob.call("POST", base+"/chat", map[string]any{"text": "let me in"}, &got); st != 403 || got.Error.Code != "pending" {
		t.Fatalf("pending chat: %d %+v", st, got)
	}
	if st := bob.call("POST", base+"/requests/"+itoa(joined.Member.ID), map[string]any{"approve": true}, &got); st != 403 || got.Error.Code != "not_host" {
		t.Fatalf("approving oneself: %d %+v", st, got)
	}
	alice.must("POST", base+"/requests/"+itoa(joined.Member.ID), map[string]any{"approve": true}, nil)
	if m, _ := memberNamed(alice.roomInfo(info.Code), "Bob"); m.Role != "player" || m.Seat != 1 {
		t.Fatalf("bob approved: %+v", m)
	}
	carol.must("POST", base+"/join", nil, &joined)
	alice.must("POST", base+"/requests/"+itoa(joined.Member.ID), map[string]any{"approve": false}, nil)
	if _, ok := memberNamed(alice.roomInfo(info.Code), "Carol"); ok {
		t.Fatal("carol is still a member after being declined")
	}

	// The lobby lists open rooms; locking hides the room and blocks new requests.
	var lobby struct {
		Rooms []room.Info `json:"rooms"`
	}
	dave.must("GET", "/api/rooms", nil, &lobby)
	if !slices.ContainsFunc(lobby.Rooms, func(r room.Info) bool { return r.Code == info.Code }) {
		t.Fatalf("lobby %+v lacks room %s", lobby.Rooms, info.Code)
	}
	alice.must("POST", base+"/lock", map[string]any{"locked": true}, nil)
	dave.must("GET", "/api/rooms", nil, &lobby)
	if slices.ContainsFunc(lobby.Rooms, func(r room.Info) bool { return r.Code == info.Code }) {
		t.Fatal("a locked room is in the lobby")
	}
	if st := dave.call("POST", base+"/join", nil, &got); st != 409 || got.Error.Code != "locked" {
		t.Fatalf("joining a locked room: %d %+v", st, got)
	}
	alice.must("POST", base+"/lock", map[string]any{"locked": false}, nil)

	// Kicking closes the member's connection with a reason.
	cb := bob.connect(info.Code)
	bobID := func() int64 { m, _ := memberNamed(alice.roomInfo(info.Code), "Bob"); return m.ID }
	alice.must("POST", base+"/kick", map[string]any{"member_id": bobID()}, nil)
	if m := cb.expect("bye"); str(m["code"]) != "kicked" {
		t.Fatalf("kicked: %v", m)
	}
	for range cb.msgs {
	}
	if websocket.CloseStatus(cb.closeErr) != websocket.StatusPolicyViolation {
		t.Fatalf("kicked connection closed with %v, want policy violation", cb.closeErr)
	}

	// A bot takes a free seat; the host role passes on when the host leaves.
	var bot struct {
		Member room.MemberInfo `json:"member"`
	}
	alice.must("POST", base+"/bots", map[string]any{"level": 1}, &bot)
	if bot.Member.BotLevel != 1 || bot.Member.Seat != 1 {
		t.Fatalf("bot: %+v", bot.Member)
	}
	if st := alice.call("POST", base+"/bots", map[string]any{"level": 9}, &got); st != 400 || got.Error.Code != "bad_level" {
		t.Fatalf("bot of a missing level: %d %+v", st, got)
	}
	// The kick keeps Bob out (a cooldown by default) until the host lets him back in.
	if st := bob.call("POST", base+"/join", nil, &got); st != http.StatusForbidden || got.Error.Code != "kicked" {
		t.Fatalf("kicked bob joining again at once: %d %+v", st, got)
	}
	alice.must("DELETE", base+"/bans/"+itoa(bob.id), nil, nil)
	bob.must("POST", base+"/join", nil, &joined)
	alice.must("POST", base+"/requests/"+itoa(joined.Member.ID), map[string]any{"approve": true}, nil)
	alice.must("POST", base+"/leave", nil, nil)
	if in := bob.roomInfo(info.Code); in.HostID != bob.id {
		t.Fatalf("after the host left, host is %d, want bob %d", in.HostID, bob.id)
	}
	bob.must("POST", base+"/leave", nil, nil)
	if st := bob.call("GET", base, nil, &got); st != http.StatusNotFound {
		t.Fatalf("a room with no human left: %d %+v", st, got)
	}
}

func TestPassTheDevice(t *testing.T) { eachDialect(t, testPassTheDevice) }

func testPassTheDevice(t *testing.T, dialect string) {
	e := newEnv(t, dialect, inProcess())
	erin := e.register("Erin")
	info := erin.createRoom(map[string]any{"ruleset": matcherID, "mode": "device", "seats": 3, "options": map[string]any{"call_seconds": 0}})
	if len(info.Members) != 3 {
		t.Fatalf("device room members: %+v", info.Members)
	}
	c := erin.connect(info.Code)
	erin.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)
	seats := map[int]bool{}
	for _, m := range c.sync() {
		if str(m["type"]) == "view" {
			seats[num(m["seat"])] = true
		}
	}
	if len(seats) != 3 {
		t.Fatalf("views received for seats %v, want 0, 1 and 2", seats)
	}
	// Erin acts for each seat in turn, naming it.
	for seat := range 3 {
		c.send(map[string]any{"type": "act", "seat": seat, "action": map[string]any{"type": "draw"}})
		c.expect("accepted")
	}
	c.send(map[string]any{"type": "act", "seat": 1, "action": map[string]any{"type": "draw"}})
	if m := c.expect("error"); str(m["code"]) != "not_your_turn" {
		t.Fatalf("seat 1 out of turn: %v", m)
	}
	c.send(map[string]any{"type": "act", "seat": 7, "action": map[string]any{"type": "draw"}})
	if m := c.expect("error"); str(m["code"]) != "not_your_seat" {
		t.Fatalf("a seat that is not hers: %v", m)
	}
}

func TestWebSocketOrigin(t *testing.T) { eachDialect(t, testWebSocketOrigin) }

func testWebSocketOrigin(t *testing.T, dialect string) {
	e := newEnv(t, dialect, inProcess())
	alice := e.register("Alice")
	info := alice.createRoom(map[string]any{"ruleset": matcherID})
	url := "ws" + e.http.URL[len("http"):] + "/api/rooms/" + info.Code + "/ws"
	_, resp, err := websocket.Dial(context.Background(), url, &websocket.DialOptions{HTTPClient: alice.c,
		HTTPHeader: http.Header{"Origin": {"https://evil.example"}}})
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-origin websocket: err %v, resp %v", err, resp)
	}
}

func itoa(n int64) string { return strconvI(n) }

func TestTurnClock(t *testing.T) { eachDialect(t, testTurnClock) }

func testTurnClock(t *testing.T, dialect string) {
	e := newEnv(t, dialect, inProcess())
	alice, bob := e.register("Alice"), e.guest("Bob")
	var got apiErr
	if st := alice.call("POST", "/api/rooms", map[string]any{"ruleset": matcherID, "turn_seconds": 2}, &got); st != 400 || got.Error.Fields[0].Field != "turn_seconds" {
		t.Fatalf("turn clock of 2 s: %d %+v", st, got)
	}
	info := alice.createRoom(map[string]any{"ruleset": matcherID, "seats": 2, "turn_seconds": 10, "options": map[string]any{"call_seconds": 0}})
	bob.must("POST", "/api/rooms/"+info.Code+"/join", nil, nil)
	ca, cb := alice.connect(info.Code), bob.connect(info.Code)
	alice.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)
	if v := ca.latestView(); v.Turn != 0 {
		t.Fatalf("turn after the deal: %d", v.Turn)
	}
	cb.latestView()
	e.clock.Advance(9 * time.Second)
	for _, m := range ca.sync() {
		if str(m["type"]) == "view" {
			t.Fatal("a move was made before the turn clock ran out")
		}
	}
	e.clock.Advance(time.Second)
	if v := view(ca.expect("view")); v.Turn != 1 {
		t.Fatalf("after alice's turn clock ran out, turn is %d", v.Turn)
	}
	// Bob's clock starts with his turn; he acts in time.
	cb.send(map[string]any{"type": "act", "action": map[string]any{"type": "draw"}})
	cb.expect("accepted")
}
