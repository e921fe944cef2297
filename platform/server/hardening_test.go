package server_test

// Tests for what attacking the server from outside found (issue 19): each fails without its fix.

import (
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"cardhouse/platform/room"
	"cardhouse/platform/server"
	"cardhouse/sdk"

	"github.com/coder/websocket"
)

// storedActions is the action log as the database holds it, oldest first.
func storedActions(t *testing.T, e *env, dialect string) []string {
	t.Helper()
	var rows []string
	if err := openRaw(t, dialect, e.dsn).Raw("SELECT action FROM actions ORDER BY id").Scan(&rows).Error; err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestOneJSONValue: a body or a message is exactly one JSON value; text after it is bad_json and
// changes nothing, over HTTP and over the WebSocket (pings too).
func TestOneJSONValue(t *testing.T) { eachDialect(t, testOneJSONValue) }

func testOneJSONValue(t *testing.T, dialect string) {
	e := newEnv(t, dialect, inProcess())
	alice, bob, code, ca, cb := twoSeats(e, nil)
	if ca.latestView().Turn != 0 { // the one in turn acts
		alice, ca = bob, cb
	}

	for _, body := range []string{
		`{"action":{"type":"draw"}} this is not JSON`,
		`{"action":{"type":"draw"}}{"action":{"type":"draw"}}`,
		`{"action":{"type":"draw"}}]`,
		`{"action":{"type":"draw"}} "trailing string"`,
		"{\"action\":{\"type\":\"draw\",\"label\":\"\xff\"}}",
	} {
		var got apiErr
		if st := alice.call("POST", "/api/rooms/"+code+"/act", body, &got); st != http.StatusBadRequest || got.Error.Code != "bad_json" {
			t.Errorf("act %q: %d %q (%s), want 400 bad_json", body, st, got.Error.Code, got.Error.Reason)
		}
	}
	if n := len(storedActions(t, e, dialect)); n != 0 {
		t.Fatalf("%d actions stored after refused bodies", n)
	}
	// White space after the value is not text.
	alice.must("POST", "/api/rooms/"+code+"/act", "{\"action\":{\"type\":\"draw\"}} \n\t ", nil)
	if n := len(storedActions(t, e, dialect)); n != 1 {
		t.Fatalf("%d actions stored, want 1", n)
	}

	// The WebSocket: an act and a ping with trailing bytes are bad_json and get no other answer.
	ca.sync()
	for _, msg := range []string{
		`{"type":"ping","id":"p1"} junk`,
		`{"type":"act","id":"a1","action":{"type":"draw"}}{"type":"act","id":"a2","action":{"type":"draw"}}`,
	} {
		ca.sendRaw([]byte(msg))
		before := ca.sync()
		if len(before) != 1 || str(before[0]["type"]) != "error" || str(before[0]["code"]) != "bad_json" {
			t.Errorf("message %q: answered %v, want one bad_json error", msg, before)
		}
	}
	if n := len(storedActions(t, e, dialect)); n != 1 {
		t.Fatalf("%d actions stored after refused messages, want 1", n)
	}
}

// TestInvalidUTF8Closes: a text frame that is not UTF-8 closes the connection with 1007 (RFC 6455
// section 8.1), and nothing it said is applied.
func TestInvalidUTF8Closes(t *testing.T) {
	e := newEnv(t, "sqlite", inProcess())
	_, _, _, ca, _ := twoSeats(e, nil)
	ca.sync()
	ca.sendRaw([]byte("{\"type\":\"chat\",\"text\":\"caf\xe9\"}"))
	deadline := time.After(waitFor)
wait:
	for {
		select {
		case _, ok := <-ca.msgs:
			if !ok {
				break wait
			}
			<-ca.raw
		case <-deadline:
			t.Fatalf("the connection is still open %s after an invalid UTF-8 frame", waitFor)
		}
	}
	if got := websocket.CloseStatus(ca.closeErr); got != websocket.StatusInvalidFramePayloadData {
		t.Fatalf("closed with %v (%v), want 1007", got, ca.closeErr)
	}
	var lines int64
	if err := openRaw(t, "sqlite", e.dsn).Raw("SELECT count(*) FROM chat_messages").Scan(&lines).Error; err != nil {
		t.Fatal(err)
	}
	if lines != 0 {
		t.Fatalf("%d chat lines stored from an invalid frame", lines)
	}
}

// TestActionsCarryOnlyWhatTheirTypeTakes: an action with cards, a target, an index, a zone, a
// choice or args its type does not take (judged by the seat's view) is refused, changes nothing
// and is never stored; args are capped; the actions stored hold only what was asked for.
func TestActionsCarryOnlyWhatTheirTypeTakes(t *testing.T) {
	eachDialect(t, testActionsCarryOnlyWhatTheirTypeTakes)
}

func testActionsCarryOnlyWhatTheirTypeTakes(t *testing.T, dialect string) {
	e := newEnv(t, dialect, inProcess())
	alice, bob, code, ca, cb := twoSeats(e, nil)
	conns, users := []*conn{ca, cb}, []*user{alice, bob}
	v := ca.latestView()
	u, c := users[v.Turn], conns[v.Turn]
	mine := c.latestView()
	play, canPlay := mine.Action(sdk.ActPlay)
	one, three := 1, 3
	big := strings.Repeat("x", 15<<10)
	many := map[string]string{}
	for i := range 9 {
		many[string(rune('a'+i))] = "1"
	}
	junk := []struct {
		name   string
		action map[string]any
	}{
		{"draw with an index", map[string]any{"type": "draw", "index": 3}},
		{"draw with a target", map[string]any{"type": "draw", "target": one}},
		{"draw with cards", map[string]any{"type": "draw", "cards": []string{"AS"}}},
		{"draw from a zone", map[string]any{"type": "draw", "from": "face_up"}},
		{"draw with a suit", map[string]any{"type": "draw", "suit": "H"}},
		{"draw with 15 KB of args", map[string]any{"type": "draw", "args": map[string]string{"note": big}}},
		{"draw with nine args", map[string]any{"type": "draw", "args": many}},
		{"draw with an undeclared arg", map[string]any{"type": "draw", "args": map[string]string{"call": "true"}}},
		{"draw with a deadline", map[string]any{"type": "draw", "deadline": "turn"}},
		{"a type nobody offers, with a target", map[string]any{"type": "swap_hands", "target": three}},
	}
	if canPlay {
		card := play.Cards[0].String()
		junk = append(junk,
			struct {
				name   string
				action map[string]any
			}{"play with a target", map[string]any{"type": "play", "cards": []string{card}, "target": one}},
			struct {
				name   string
				action map[string]any
			}{"play with an index", map[string]any{"type": "play", "cards": []string{card}, "index": 0}},
			struct {
				name   string
				action map[string]any
			}{"play with a colour", map[string]any{"type": "play", "cards": []string{card}, "color": "R"}},
		)
	}
	for i, tc := range junk {
		var got apiErr
		if st := u.call("POST", "/api/rooms/"+code+"/act", map[string]any{"action": tc.action}, &got); st != http.StatusBadRequest || got.Error.Code != "bad_action" {
			t.Errorf("%s over HTTP: %d %q (%s), want 400 bad_action", tc.name, st, got.Error.Code, got.Error.Reason)
		}
		id := "j" + strconvI(int64(i))
		c.send(map[string]any{"type": "act", "id": id, "action": tc.action})
		m := c.expect("error")
		if str(m["code"]) != "bad_action" || str(m["id"]) != id {
			t.Errorf("%s over the WebSocket: %s %s, want bad_action", tc.name, m["code"], m["reason"])
		}
		// A dry run says the same.
		var chk map[string]any
		if st := u.call("POST", "/api/rooms/"+code+"/check", map[string]any{"action": tc.action}, &chk); st != http.StatusBadRequest {
			t.Errorf("%s checked: %d %v, want 400", tc.name, st, chk)
		}
	}
	if rows := storedActions(t, e, dialect); len(rows) != 0 {
		t.Fatalf("refused actions were stored: %v", rows)
	}
	if after := c.latestView(); after.Turn != mine.Turn || len(after.Zones) != len(mine.Zones) {
		t.Fatalf("the table changed after refused actions")
	}

	// What the view offers is accepted, and stored as it was asked for, no more.
	if canPlay {
		u.must("POST", "/api/rooms/"+code+"/act", map[string]any{"action": map[string]any{"type": "play", "cards": []string{play.Cards[0].String()}}}, nil)
	} else {
		u.must("POST", "/api/rooms/"+code+"/act", map[string]any{"action": map[string]any{"type": "draw"}}, nil)
	}
	rows := storedActions(t, e, dialect)
	if len(rows) != 1 {
		t.Fatalf("stored %d actions, want 1", len(rows))
	}
	var stored map[string]json.RawMessage
	if err := json.Unmarshal([]byte(rows[0]), &stored); err != nil {
		t.Fatal(err)
	}
	for k := range stored {
		if k != "seat" && k != "type" && k != "cards" {
			t.Errorf("the stored action %s carries %q", rows[0], k)
		}
	}
}

// TestMemberOnlyRoutesAnswerAlike: every member-only route answers a signed-in non-member 403 not_member
// (or not_host where only the host may), never 404 for a room that exists.
func TestMemberOnlyRoutesAnswerAlike(t *testing.T) {
	e := newEnv(t, "sqlite", inProcess())
	alice := e.register("Alice")
	info := alice.createRoom(map[string]any{"ruleset": matcherID})
	dave := e.guest("Dave")
	base := "/api/rooms/" + info.Code
	for _, tc := range []struct {
		method, path string
		body         any
		code         string
	}{
		{"POST", base + "/leave", nil, "not_member"},
		{"POST", base + "/act", map[string]any{"action": map[string]any{"type": "draw"}}, "not_member"},
		{"POST", base + "/check", map[string]any{"action": map[string]any{"type": "draw"}}, "not_member"},
		{"GET", base + "/chat", nil, "not_member"},
		{"POST", base + "/chat", map[string]any{"text": "hi"}, "not_member"},
		{"GET", base + "/games/1/replay", nil, "not_member"},
		{"GET", base + "/ws", nil, "not_member"},
		{"POST", base + "/lock", map[string]any{"locked": true}, "not_host"},
		{"POST", base + "/kick", map[string]any{"member_id": 1}, "not_host"},
		{"POST", base + "/host", map[string]any{"member_id": 1}, "not_host"},
		{"POST", base + "/bots", map[string]any{"level": 1}, "not_host"},
		{"POST", base + "/deal", nil, "not_host"},
	} {
		var got apiErr
		if st := dave.call(tc.method, tc.path, tc.body, &got); st != http.StatusForbidden || got.Error.Code != tc.code {
			t.Errorf("%s %s as a non-member: %d %q (%s), want 403 %s", tc.method, tc.path, st, got.Error.Code, got.Error.Reason, tc.code)
		}
	}
}

// sameBrowserGuest is a new guest session named name in u's browser: the session cookie is gone
// (expired, cleared), the browser's guest key stays.
func (u *user) sameBrowserGuest(name string) *user {
	u.e.t.Helper()
	base, _ := url.Parse(u.e.http.URL)
	jar, _ := cookiejar.New(nil)
	for _, c := range u.c.Jar.Cookies(base) {
		if c.Name == server.GuestCookie {
			jar.SetCookies(base, []*http.Cookie{{Name: c.Name, Value: c.Value, Path: "/"}})
		}
	}
	nu := &user{e: u.e, name: name, c: &http.Client{Jar: jar}}
	var a accountResp
	nu.must("POST", "/api/guest", map[string]string{"name": name}, &a)
	return nu.signedIn(a)
}

// seatHolder is the user id holding seat in code.
func seatHolder(t *testing.T, u *user, code string, seat int) int64 {
	t.Helper()
	for _, m := range u.roomInfo(code).Members {
		if m.Seat == seat && m.Role == "player" {
			return m.UserID
		}
	}
	t.Fatalf("nobody holds seat %d", seat)
	return 0
}

// TestGuestSeatsAreNotTakenByName: a dropped guest's seat comes back silently to a guest of the
// same browser, even in a locked room and with the host role; from another device it needs the
// host's approval in a locked room, and never carries the host role.
func TestGuestSeatsAreNotTakenByName(t *testing.T) { eachDialect(t, testGuestSeatsAreNotTakenByName) }

func testGuestSeatsAreNotTakenByName(t *testing.T, dialect string) {
	e := newEnv(t, dialect, inProcess())
	alice, bob, code, ca, cb := twoSeats(e, nil) // bob is a guest in seat 1
	alice.must("POST", "/api/rooms/"+code+"/lock", map[string]any{"locked": true}, nil)
	drop := func(c *conn, who string) {
		ca.sync()
		c.ws.CloseNow()
		ca.waitMember(who, func(m room.MemberInfo) bool { return !m.Connected })
	}
	drop(cb, "Bob")

	// Another device, a locked room: a request to the host, not the seat.
	mallory := e.guest("bob")
	var joined struct {
		Member room.MemberInfo `json:"member"`
	}
	mallory.must("POST", "/api/rooms/"+code+"/join", nil, &joined)
	if joined.Member.Role != "pending" || joined.Member.ClaimsSeat == nil || *joined.Member.ClaimsSeat != 1 {
		t.Fatalf("a guest of the same name from another device got %+v, want a pending claim on seat 1", joined.Member)
	}
	if got := seatHolder(t, alice, code, 1); got != bob.id {
		t.Fatalf("seat 1 went to user %d by name alone, want bob (%d)", got, bob.id)
	}
	var st apiErr
	if s := mallory.call("POST", "/api/rooms/"+code+"/act", map[string]any{"action": map[string]any{"type": "draw"}}, &st); s != http.StatusForbidden {
		t.Fatalf("the claimant acted: %d %+v", s, st)
	}

	// The same browser: the seat back at once, though the room is locked.
	bob2 := bob.sameBrowserGuest("Bob")
	bob2.must("POST", "/api/rooms/"+code+"/join", nil, &joined)
	if joined.Member.Role != "player" || joined.Member.Seat != 1 {
		t.Fatalf("the same browser got %+v, want seat 1", joined.Member)
	}
	if got := seatHolder(t, alice, code, 1); got != bob2.id {
		t.Fatalf("seat 1 is user %d's, want bob's new guest %d", got, bob2.id)
	}
	if v := bob2.connect(code).latestView(); v == nil || v.Viewer != 1 {
		t.Fatalf("bob's view after taking the seat back: %+v", v)
	}
	// The superseded claim no longer stands; the host answering it gives nothing.
	var req int64
	for _, m := range alice.roomInfo(code).Members {
		if m.UserID == mallory.id {
			req = m.ID
		}
	}
	if req != 0 {
		alice.must("POST", "/api/rooms/"+code+"/requests/"+strconvI(req), map[string]any{"approve": true}, nil)
		if got := seatHolder(t, alice, code, 1); got != bob2.id {
			t.Fatalf("approving a stale claim moved seat 1 to %d", got)
		}
	}
}

// TestHostRoleNotByName: a guest host's dropped seat taken back by name from another device
// (an open room) comes without the host role, which passes to another member; from the same
// browser the host role comes back too.
func TestHostRoleNotByName(t *testing.T) {
	e := newEnv(t, "sqlite", inProcess())
	gina, bob := e.guest("Gina"), e.register("Bob")
	info := gina.createRoom(map[string]any{"ruleset": matcherID, "seats": 2})
	bob.must("POST", "/api/rooms/"+info.Code+"/join", nil, nil)
	cg, cb := gina.connect(info.Code), bob.connect(info.Code)
	gina.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)
	cg.sync()
	cb.sync()
	cg.ws.CloseNow()
	cb.waitMember("Gina", func(m room.MemberInfo) bool { return !m.Connected })
	other := e.guest("GINA")
	other.must("POST", "/api/rooms/"+info.Code+"/join", nil, nil)
	in := bob.roomInfo(info.Code)
	if got := seatHolder(t, bob, info.Code, 0); got != other.id {
		t.Fatalf("seat 0 is %d's, want the rejoining guest %d (an open room)", got, other.id)
	}
	if in.HostID != bob.id {
		t.Fatalf("the host is %d after a rejoin by name, want bob (%d), never the rejoiner (%d)", in.HostID, bob.id, other.id)
	}
}

// TestJoinBurstBesideAPlayingRoom: 150 sockets joining one room cost each socket small
// membership deltas, not the whole member list per join (that was N^2 messages of N members,
// some 200 MB here), and a game in another room plays on meanwhile. Spectators are capped.
func TestJoinBurstBesideAPlayingRoom(t *testing.T) {
	const n = 150
	e := newEnvTuned(t, "sqlite", inProcess(), func(rc *room.Config, _ *server.Config) { rc.MaxSpectators = n })
	_, _, _, ca, cb := twoSeats(e, nil)
	host := e.register("Hana")
	info := host.createRoom(map[string]any{"ruleset": matcherID, "seats": 2})
	watchers := []*conn{host.connect(info.Code)}
	for i := range n {
		g := e.guest("Watcher " + strconvI(int64(i)))
		g.must("POST", "/api/rooms/"+info.Code+"/join", map[string]any{"spectate": true}, nil)
		watchers = append(watchers, g.connect(info.Code))
		if i%10 == 0 {
			drawAlternately(ca, cb, 1) // the other room plays on through the burst
		}
	}
	knowsAll := func(w *conn) bool {
		if len(w.room.Members) != n+1 {
			return false
		}
		for _, m := range w.room.Members {
			if m.UserID != 0 && !m.Connected {
				return false
			}
		}
		return true
	}
	total, msgs := 0, 0
	for _, w := range watchers {
		for w.sync(); !knowsAll(w); {
			w.next() // the last changes are on their way (memberTick)
		}
		total, msgs = total+w.bytes, msgs+w.n
	}
	// Each socket learns of each later join and connect: about 2 n^2 member records of ~150 bytes
	// in all, plus the hellos. The whole room per change was ~n^3/2 records.
	if limit := 600 * n * n; total > limit {
		t.Errorf("the burst sent %d bytes in %d messages to the room's sockets, want at most %d", total, msgs, limit)
	}
	t.Logf("%d sockets joining: %d messages, %d bytes to the room's sockets", n, msgs, total)
	in := host.roomInfo(info.Code)
	if len(in.Members) != n+1 {
		t.Fatalf("%d members, want %d", len(in.Members), n+1)
	}
	// The spectator cap: one more is refused with a clear error, and changes nothing.
	late := e.guest("Late")
	var got apiErr
	if st := late.call("POST", "/api/rooms/"+info.Code+"/join", map[string]any{"spectate": true}, &got); st != http.StatusConflict || got.Error.Code != "spectators_full" {
		t.Fatalf("spectator %d: %d %q (%s), want 409 spectators_full", n+1, st, got.Error.Code, got.Error.Reason)
	}
	if got := len(host.roomInfo(info.Code).Members); got != n+1 {
		t.Fatalf("%d members after a refused join", got)
	}
}
