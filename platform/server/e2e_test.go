package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"cardhouse/platform/room"
	"cardhouse/platform/server"
	"cardhouse/platform/store/storetest"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func inProcess() map[string]engine.Engine {
	return map[string]engine.Engine{matcherID: matcherEngine()}
}

// noHandCards fails when a spectator's view shows any card of a hand while a round is played
// (once it is over the variants show every hand left: the reveal).
func noHandCards(t *testing.T, who string, v sdk.View) {
	t.Helper()
	for _, z := range v.Zones {
		if v.Phase != sdk.PhasePlaying {
			break
		}
		if z.Kind == sdk.ZoneHand && len(z.Cards) > 0 {
			t.Fatalf("%s received cards of %s: %v", who, z.ID, z.Cards)
		}
	}
	for _, ev := range v.Events {
		if ev.Private && len(ev.Cards) > 0 {
			t.Fatalf("%s received the private cards of event %s: %v", who, ev.Name, ev.Cards)
		}
	}
}

// ownHandOnly fails when seat's view shows cards of another seat's hand while a round is played.
func ownHandOnly(t *testing.T, seat int, v sdk.View) {
	t.Helper()
	if v.Phase != sdk.PhasePlaying {
		return // the reveal: every hand left is shown once the round is over
	}
	for _, z := range v.Zones {
		if z.Kind == sdk.ZoneHand && z.Owner != seat && len(z.Cards) > 0 {
			t.Fatalf("seat %d received cards of %s: %v", seat, z.ID, z.Cards)
		}
	}
}

// choose picks a legal action from a view: call, else the first playable card, else draw.
func choose(v sdk.View) *sdk.Action {
	if v.Has(sdk.ActCall) {
		return &sdk.Action{Type: sdk.ActCall}
	}
	if p, ok := v.Action(sdk.ActPlay); ok {
		return &sdk.Action{Type: sdk.ActPlay, Cards: p.Cards[:1]}
	}
	for _, a := range v.Actions {
		return &sdk.Action{Type: a.Type}
	}
	return nil
}

// playOut plays the game through the players' connections until it is over, checking every view
// each connection receives. It returns the number of actions sent.
func playOut(t *testing.T, players map[int]*conn, watchers []*conn, maxActions int) int {
	t.Helper()
	last := map[int]*sdk.View{}
	for seat, c := range players {
		c.onView = func(got int, v sdk.View) {
			if got != seat {
				t.Errorf("seat %d received the view of seat %d", seat, got)
			}
			ownHandOnly(t, seat, v)
		}
	}
	for _, w := range watchers {
		w.onView = func(_ int, v sdk.View) { noHandCards(t, w.u.name, v) }
	}
	sent := 0
	for sent < maxActions {
		for seat, c := range players {
			last[seat] = c.latestView()
		}
		for _, w := range watchers {
			w.sync()
		}
		over := false
		for _, v := range last {
			over = over || v.Phase == sdk.PhaseGameOver
		}
		if over {
			return sent
		}
		acted := false
		for seat := range len(players) {
			v := last[seat]
			if v == nil {
				continue
			}
			a := choose(*v)
			if a == nil {
				continue
			}
			c := players[seat]
			id := fmt.Sprint("a", sent)
			c.send(map[string]any{"type": "act", "id": id, "action": a})
			reply := c.expectSeen("accepted", func(m map[string]json.RawMessage) {
				if str(m["type"]) == "error" {
					t.Fatalf("seat %d: %s refused: %s", seat, a.Type, m["reason"])
				}
			})
			if str(reply["id"]) != id {
				t.Fatalf("accepted answers %s, want %s", reply["id"], id)
			}
			sent++
			acted = true
			break
		}
		if !acted {
			// Bots or the clock are due: every change reaches every player, so wait for seat 0's.
			players[0].expect("view")
		}
	}
	t.Fatalf("the game did not end within %d actions", maxActions)
	return sent
}

func TestEndToEnd(t *testing.T) {
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, dialect, inProcess())
			alice := e.register("Alice")
			bob := e.guest("Bob")
			carol := e.guest("Carol")

			var bad apiErr
			if st := alice.call("POST", "/api/rooms", map[string]any{"ruleset": matcherID, "options": map[string]any{"hand_size": 99, "nope": true}}, &bad); st != http.StatusBadRequest {
				t.Fatalf("invalid options: status %d, want 400", st)
			}
			var fields []string
			for _, f := range bad.Error.Fields {
				fields = append(fields, f.Field)
			}
			if diff := cmp.Diff([]string{"hand_size", "nope"}, fields); diff != "" {
				t.Fatalf("invalid options: fields (-want +got):\n%s\n%+v", diff, bad)
			}

			info := alice.createRoom(map[string]any{"ruleset": matcherID, "options": map[string]any{"hand_size": 4}, "seats": 3})
			if len(info.Code) != room.CodeLength || strings.ContainsAny(info.Code, "ILO") {
				t.Fatalf("room code %q: want %d letters without I, L, O", info.Code, room.CodeLength)
			}
			if info.Options["hand_size"] != float64(4) || info.Options["call_seconds"] != float64(5) {
				t.Fatalf("stored options %v: want hand_size 4 and the default call_seconds 5", info.Options)
			}
			bob.must("POST", "/api/rooms/"+strings.ToLower(info.Code)+"/join", nil, nil)
			carol.must("POST", "/api/rooms/"+info.Code+"/join", map[string]any{"spectate": true}, nil)
			info = alice.roomInfo(info.Code)
			roles := map[string]string{}
			for _, m := range info.Members {
				roles[m.Name] = fmt.Sprintf("%s/%d", m.Role, m.Seat)
			}
			if diff := cmp.Diff(map[string]string{"Alice": "player/0", "Bob": "player/1", "Carol": "spectator/-1"}, roles); diff != "" {
				t.Fatalf("members (-want +got):\n%s", diff)
			}

			ca, cb, cc := alice.connect(info.Code), bob.connect(info.Code), carol.connect(info.Code)
			ca.send(map[string]any{"type": "deal", "id": "d1"})
			ca.expect("accepted")

			// Chat is stored and sent as text, to everyone in the room.
			cc.send(map[string]any{"type": "chat", "text": "  <b>hi</b> & bye  "})
			for _, c := range []*conn{ca, cb, cc} {
				m := c.expect("chat")
				var line room.ChatLine
				_ = json.Unmarshal(m["chat"], &line)
				if line.Text != "<b>hi</b> & bye" || line.Name != "Carol" {
					t.Fatalf("%s got chat %+v", c.u.name, line)
				}
			}

			// A refusal reaches only its sender, and changes nothing.
			bView := cb.latestView()
			if bView == nil || bView.Turn != 0 {
				t.Fatalf("bob's view after the deal: %+v", bView)
			}
			aView := ca.latestView()
			cc.sync()
			cb.send(map[string]any{"type": "act", "id": "x", "action": map[string]any{"type": "draw"}})
			m := cb.expect("error")
			if str(m["code"]) != sdk.CodeNotYourTurn || str(m["id"]) != "x" {
				t.Fatalf("out of turn: got %s %s", m["code"], m["reason"])
			}
			for _, c := range []*conn{ca, cc} {
				if got := c.sync(); len(got) != 0 {
					t.Fatalf("%s heard of bob's refused action: %v", c.u.name, got)
				}
			}
			// Check (dry run): answered, nothing stored or told.
			cb.send(map[string]any{"type": "check", "id": "c1", "action": map[string]any{"type": "draw"}})
			if m := cb.expect("check"); string(m["ok"]) != "false" || str(m["code"]) != sdk.CodeNotYourTurn {
				t.Fatalf("check out of turn: %v", m)
			}
			ca.send(map[string]any{"type": "check", "id": "c2", "action": map[string]any{"type": "draw"}})
			if m := ca.expect("check"); string(m["ok"]) != "true" {
				t.Fatalf("check of a legal draw: %v", m)
			}
			if got := ca.sync(); len(got) != 0 {
				t.Fatalf("a check changed the table: %v", got)
			}

			// Spectators cannot act; bad messages get errors and the connection survives.
			for _, tc := range []struct {
				name, msg, code string
				c               *conn
			}{
				{"spectator acting", `{"type":"act","action":{"type":"draw"}}`, "spectator", cc},
				{"malformed JSON", `{"type":"act",`, "bad_json", cb},
				{"unknown type", `{"type":"teleport"}`, "unknown_type", cb},
				{"unknown field", `{"type":"ping","bogus":1}`, "bad_json", cb},
				{"act without action", `{"type":"act"}`, "bad_message", cb},
				{"clock action from a seat", `{"type":"act","action":{"type":"deadline","deadline":"x"}}`, "bad_action", ca},
				{"wrong version", `{"v":9,"type":"ping"}`, "bad_version", cb},
				{"oversized", `{"type":"chat","text":"` + strings.Repeat("x", 20000) + `"}`, "too_large", cb},
				{"too long chat", `{"type":"chat","text":"` + strings.Repeat("x", 501) + `"}`, "chat_too_long", cb},
			} {
				tc.c.sendRaw([]byte(tc.msg))
				m := tc.c.expect("error")
				if str(m["code"]) != tc.code {
					t.Errorf("%s: error %s (%s), want %s", tc.name, m["code"], m["reason"], tc.code)
				}
			}
			if got := ca.latestView(); !cmp.Equal(got, aView) {
				t.Fatalf("bad input changed alice's view:\n%s", cmp.Diff(aView, got))
			}

			// Dave joins mid-game: he watches, and takes a free seat at the next deal (P-4).
			dave := e.guest("Dave")
			var joined struct {
				Member room.MemberInfo `json:"member"`
			}
			dave.must("POST", "/api/rooms/"+info.Code+"/join", nil, &joined)
			if joined.Member.Role != "spectator" || !joined.Member.WantsSeat {
				t.Fatalf("dave joining mid-game: %+v", joined.Member)
			}
			cd := dave.connect(info.Code)

			n := playOut(t, map[int]*conn{0: ca, 1: cb}, []*conn{cc, cd}, 400)
			var rep room.Replay
			alice.must("GET", "/api/rooms/"+info.Code+"/games/1/replay", nil, &rep)
			if !rep.Matches || len(rep.Log) < n || rep.Final.Phase != sdk.PhaseGameOver {
				t.Fatalf("replay of game 1: matches %v, %d logged for %d sent (+clock), final %+v", rep.Matches, len(rep.Log), n, rep.Final)
			}

			cd.sync()
			cd.onView = func(seat int, v sdk.View) { ownHandOnly(t, 2, v) }
			alice.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)
			info = alice.roomInfo(info.Code)
			if m, _ := memberNamed(info, "Dave"); m.Role != "player" || m.Seat != 2 {
				t.Fatalf("dave at the second deal: %+v", m)
			}
			if m, _ := memberNamed(info, "Carol"); m.Role != "spectator" {
				t.Fatalf("carol, who chose to watch, at the second deal: %+v", m)
			}
			if v := cd.latestView(); v == nil || len(v.Players) != 3 || v.Viewer != 2 {
				t.Fatalf("dave's view of game 2: %+v", v)
			} else if z, _ := v.Zone("hand.2"); len(z.Cards) != 4 {
				t.Fatalf("dave's own hand in game 2: %+v", z)
			}
			if info.Game.Number != 2 {
				t.Fatalf("game number after the second deal: %+v", info.Game)
			}
		})
	}
}

func TestBadHTTPInput(t *testing.T) { eachDialect(t, testBadHTTPInput) }

func testBadHTTPInput(t *testing.T, dialect string) {
	e := newEnv(t, dialect, inProcess())
	alice := e.register("Alice")
	dave := e.guest("Dave")
	info := alice.createRoom(map[string]any{"ruleset": matcherID})

	tests := []struct {
		name   string
		u      *user
		method string
		path   string
		body   any
		status int
		code   string
	}{
		{"malformed JSON", alice, "POST", "/api/rooms", `{"ruleset":`, 400, "bad_json"},
		{"wrong type", alice, "POST", "/api/rooms", `{"ruleset": 5}`, 400, "bad_json"},
		{"unknown ruleset", alice, "POST", "/api/rooms", map[string]any{"ruleset": "poker"}, 400, "unknown_ruleset"},
		{"bad mode", alice, "POST", "/api/rooms", map[string]any{"ruleset": matcherID, "mode": "solo"}, 400, "bad_options"},
		{"too many seats", alice, "POST", "/api/rooms", map[string]any{"ruleset": matcherID, "seats": 9}, 400, "bad_options"},
		{"bad bot level", alice, "POST", "/api/rooms", map[string]any{"ruleset": matcherID, "mode": "computer", "bots": []int{7}}, 400, "bad_options"},
		{"non-member acting", dave, "POST", "/api/rooms/" + info.Code + "/act", map[string]any{"action": map[string]any{"type": "draw"}}, 403, "not_member"},
		{"non-member dealing", dave, "POST", "/api/rooms/" + info.Code + "/deal", nil, 403, "not_host"},
		{"non-member chatting", dave, "POST", "/api/rooms/" + info.Code + "/chat", map[string]any{"text": "hi"}, 403, "not_member"},
		{"no such room", dave, "POST", "/api/rooms/ZZZZZZ/join", nil, 404, "no_room"},
		{"bad username", e.browser("x"), "POST", "/api/register", map[string]any{"username": "a", "password": "short"}, 400, "invalid"},
		{"wrong password", e.browser("x"), "POST", "/api/login", map[string]any{"username": "alice", "password": "wrong password"}, 401, "bad_login"},
		{"anonymous create", e.browser("x"), "POST", "/api/rooms", map[string]any{"ruleset": matcherID}, 401, "login_required"},
		{"bad colour", alice, "PATCH", "/api/me", map[string]any{"colour": "red"}, 400, "invalid"},
	}
	// The cases share e's users, whose calls fail e's test (t): no subtests, each case named instead.
	for _, tc := range tests {
		var got apiErr
		if st := tc.u.call(tc.method, tc.path, tc.body, &got); st != tc.status || got.Error.Code != tc.code {
			t.Errorf("%s: status %d code %q (%s), want %d %q", tc.name, st, got.Error.Code, got.Error.Reason, tc.status, tc.code)
		}
	}

	// CSRF: a logged-in browser's post without the token is refused.
	csrf := alice.csrf
	alice.csrf = ""
	var got apiErr
	if st := alice.call("POST", "/api/rooms", map[string]any{"ruleset": matcherID}, &got); st != 403 || got.Error.Code != "csrf" {
		t.Fatalf("post without CSRF token: %d %+v", st, got)
	}
	alice.csrf = csrf

	// A non-member's WebSocket is refused before the upgrade.
	if _, resp, err := dave.dial(info.Code); err == nil || resp == nil || resp.StatusCode != 403 {
		t.Fatalf("non-member websocket: err %v resp %v", err, resp)
	}

	// Profile and look; logout ends the session.
	alice.must("PATCH", "/api/me", map[string]any{"display_name": "Alice A", "avatar": "fox", "colour": "#AABBCC"}, nil)
	var me struct {
		User map[string]any `json:"user"`
	}
	alice.must("GET", "/api/me", nil, &me)
	if me.User["display_name"] != "Alice A" || me.User["avatar"] != "fox" || me.User["colour"] != "#aabbcc" {
		t.Fatalf("profile: %v", me.User)
	}
	alice.must("POST", "/api/logout", nil, nil)
	if st := alice.call("GET", "/api/me", nil, nil); st != 401 {
		t.Fatalf("after logout /api/me: %d", st)
	}
	relog := e.browser("alice")
	var a accountResp
	relog.must("POST", "/api/login", map[string]any{"username": "ALICE", "password": "correct horse"}, &a)
	if a.User.DisplayName != "Alice A" {
		t.Fatalf("login: %+v", a)
	}
}

func TestBansAndRateLimit(t *testing.T) { eachDialect(t, testBansAndRateLimit) }

func testBansAndRateLimit(t *testing.T, dialect string) {
	e := newEnv(t, dialect, inProcess())
	e.register("Root") // for the login limit below
	mallory := e.register("Mallory")
	info := mallory.createRoom(map[string]any{"ruleset": matcherID})
	cm := mallory.connect(info.Code)
	// What the admin area's ban does (admin/ is mounted by the binary, not by this package).
	if err := e.st.SetBanned(t.Context(), mallory.id, true); err != nil {
		t.Fatal(err)
	}
	e.rooms.DisconnectUser(t.Context(), mallory.id, "banned", "this account is banned")
	if m := cm.expect("bye"); str(m["code"]) != "banned" {
		t.Fatalf("a banned user's connection: %v", m)
	}
	if st := mallory.call("GET", "/api/me", nil, nil); st != 401 {
		t.Fatalf("banned session still works: %d", st)
	}
	var got apiErr
	if st := e.browser("m").call("POST", "/api/login", map[string]any{"username": "mallory", "password": "correct horse"}, &got); st != 403 || got.Error.Code != "banned" {
		t.Fatalf("banned login: %d %+v", st, got)
	}

	// The login limit: after the allowed attempts from one address, 429.
	strict := httptest.NewServer(server.New(server.Config{Store: e.st, Rooms: e.rooms, Logger: quietLogger(), LoginAttempts: 3}).Handler())
	defer strict.Close()
	var statuses []int
	for range 5 {
		resp, err := http.Post(strict.URL+"/api/login", "application/json", strings.NewReader(`{"username":"root","password":"wrong password"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		statuses = append(statuses, resp.StatusCode)
	}
	if diff := cmp.Diff([]int{401, 401, 401, 429, 429}, statuses); diff != "" {
		t.Fatalf("login statuses (-want +got):\n%s", diff)
	}
}

func TestComputerRoomBotsPlay(t *testing.T) { eachDialect(t, testComputerRoomBotsPlay) }

func testComputerRoomBotsPlay(t *testing.T, dialect string) {
	e := newEnv(t, dialect, inProcess())
	alice := e.register("Alice")
	info := alice.createRoom(map[string]any{"ruleset": matcherID, "mode": "computer", "bots": []int{1, 2}, "options": map[string]any{"call_seconds": 0}})
	if info.Capacity != 3 || len(info.Members) != 3 {
		t.Fatalf("computer room: %+v", info)
	}
	ca := alice.connect(info.Code)
	ca.send(map[string]any{"type": "deal"})
	ca.expect("accepted")
	n := playOut(t, map[int]*conn{0: ca}, nil, 400)
	var rep room.Replay
	alice.must("GET", "/api/rooms/"+info.Code+"/games/1/replay", nil, &rep)
	bots := 0
	for _, l := range rep.Log {
		if l.Seat != 0 {
			bots++
		}
	}
	if !rep.Matches || bots == 0 || len(rep.Log) != n+bots {
		t.Fatalf("replay: matches %v, %d actions (%d by alice, %d by bots)", rep.Matches, len(rep.Log), n, bots)
	}
}

// twoSeats sets up a dealt two-seat Matcher game of Alice (seat 0) and Bob with options.
func twoSeats(e *env, options map[string]any) (alice, bob *user, code string, ca, cb *conn) {
	alice, bob = e.register("Alice"), e.guest("Bob")
	info := alice.createRoom(map[string]any{"ruleset": matcherID, "seats": 2, "options": options})
	bob.must("POST", "/api/rooms/"+info.Code+"/join", nil, nil)
	ca, cb = alice.connect(info.Code), bob.connect(info.Code)
	alice.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)
	return alice, bob, info.Code, ca, cb
}

// restartSeesTheSameViews restarts the server and reconnects Alice and Bob, whose views must be
// those before the restart (events aside). It returns the new connections and Alice's view.
func restartSeesTheSameViews(t *testing.T, e *env, alice, bob *user, code string, ca, cb *conn) (*conn, *conn, *sdk.View) {
	t.Helper()
	before, beforeB := ca.latestView(), cb.latestView()
	e.stop()
	e.start()
	ca, cb = alice.connect(code), bob.connect(code)
	after, afterB := ca.latestView(), cb.latestView()
	noEvents := cmpopts.IgnoreFields(sdk.View{}, "Events")
	if diff := cmp.Diff(before, after, noEvents); diff != "" {
		t.Fatalf("alice's view after a restart (-before +after):\n%s", diff)
	}
	if diff := cmp.Diff(beforeB, afterB, noEvents); diff != "" {
		t.Fatalf("bob's view after a restart (-before +after):\n%s", diff)
	}
	return ca, cb, after
}

// drawAlternately has the seat whose turn it is draw, n times.
func drawAlternately(ca, cb *conn, n int) {
	for range n {
		v := ca.latestView()
		c := []*conn{ca, cb}[v.Turn]
		c.send(map[string]any{"type": "act", "action": map[string]any{"type": sdk.ActDraw}})
		c.expect("accepted")
	}
}

func TestRestartResumes(t *testing.T) {
	for _, dialect := range storetest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, dialect, inProcess())
			alice, bob, code, ca, cb := twoSeats(e, map[string]any{"hand_size": 6})
			for _, c := range []*conn{ca, cb} {
				v := c.latestView()
				c.send(map[string]any{"type": "act", "action": choose(*v)})
				c.expect("accepted")
			}
			ca, _, after := restartSeesTheSameViews(t, e, alice, bob, code, ca, cb)
			// And the game goes on.
			ca.send(map[string]any{"type": "act", "action": choose(*after)})
			ca.expect("accepted")
		})
	}
}

// TestRestartReplaysTheLog plays past room.StateEvery actions, so that the store holds the state
// of action 32 and the actions after it alone, restarts the server and finds every seat's view
// as it was: the game was rebuilt from the stored state and the log. It goes on from there, and a
// replay of the whole log still reaches the stored state.
func TestRestartReplaysTheLog(t *testing.T) { eachDialect(t, testRestartReplaysTheLog) }

func testRestartReplaysTheLog(t *testing.T, dialect string) {
	e := newEnv(t, dialect, inProcess())
	alice, bob, code, ca, cb := twoSeats(e, map[string]any{"hand_size": 6, "call_seconds": 0})
	const actions = room.StateEvery + 4
	drawAlternately(ca, cb, actions) // 39 cards in the deck, so the game goes on
	ctx := context.Background()
	sr, err := e.st.RoomByCode(ctx, code)
	if err != nil {
		t.Fatal(err)
	}
	g, err := e.st.GameByID(ctx, *sr.GameID)
	if err != nil {
		t.Fatal(err)
	}
	if g.Seq != room.StateEvery || g.LastSeq != actions {
		t.Fatalf("stored: the state of action %d, the log to %d; want %d and %d", g.Seq, g.LastSeq, room.StateEvery, actions)
	}
	ca, cb, after := restartSeesTheSameViews(t, e, alice, bob, code, ca, cb)
	c := []*conn{ca, cb}[after.Turn]
	c.send(map[string]any{"type": "act", "action": map[string]any{"type": sdk.ActDraw}})
	if m := c.expect("accepted"); num(m["seq"]) != actions+1 {
		t.Fatalf("the first action after the restart was accepted as %s, want seq %d", m["seq"], actions+1)
	}
	rep, err := e.rooms.Replay(ctx, code, 1)
	if err != nil || !rep.Matches || len(rep.Log) != actions+1 {
		t.Fatalf("replay: %+v, %v; want a match over %d actions", rep, err, actions+1)
	}
}

// flakyEngine is an engine that can be taken down: every call fails while down is set.
type flakyEngine struct {
	engine.Engine
	down atomic.Bool
}

var errDown = errors.New("the ruleset is down")

func (f *flakyEngine) Act(ctx context.Context, req *engine.ActRequest) (*engine.Step, error) {
	if f.down.Load() {
		return nil, errDown
	}
	return f.Engine.Act(ctx, req)
}

func (f *flakyEngine) Inspect(ctx context.Context, req *engine.InspectRequest) (*engine.Inspection, error) {
	if f.down.Load() {
		return nil, errDown
	}
	return f.Engine.Inspect(ctx, req)
}

// A room loaded while its ruleset is down cannot replay the actions after its stored state: its
// players' actions are refused with engine_failure and nothing changes; once the ruleset is back,
// the next action replays them first and the game goes on from where it was.
func TestRestartWhileTheRulesetIsDown(t *testing.T) {
	eng := &flakyEngine{Engine: matcherEngine()}
	e := newEnv(t, "sqlite", map[string]engine.Engine{matcherID: eng})
	alice, bob, code, ca, cb := twoSeats(e, map[string]any{"hand_size": 6, "call_seconds": 0})
	const actions = 5
	drawAlternately(ca, cb, actions)
	before := ca.latestView()

	e.stop()
	eng.down.Store(true)
	e.start()
	ca, cb = alice.connect(code), bob.connect(code)
	c := []*conn{ca, cb}[before.Turn]
	c.send(map[string]any{"type": "act", "id": "a1", "action": map[string]any{"type": sdk.ActDraw}})
	if m := c.expect("error"); str(m["code"]) != "engine_failure" {
		t.Fatalf("an action while the ruleset is down: %s %s, want engine_failure", m["code"], m["reason"])
	}
	eng.down.Store(false)
	c.send(map[string]any{"type": "act", "id": "a2", "action": map[string]any{"type": sdk.ActDraw}})
	if m := c.expect("accepted"); num(m["seq"]) != actions+1 {
		t.Fatalf("the action after the ruleset came back was accepted as %s, want seq %d", m["seq"], actions+1)
	}
	after := ca.latestView()
	if ca.lastSeq != actions+1 || after.Turn == before.Turn {
		t.Fatalf("alice's view after the catch-up: seq %d, turn %d (before the restart: seq %d, turn %d)", ca.lastSeq, after.Turn, actions, before.Turn)
	}
	rep, err := e.rooms.Replay(context.Background(), code, 1)
	if err != nil || !rep.Matches || len(rep.Log) != actions+1 {
		t.Fatalf("replay: %+v, %v", rep, err)
	}
}

// TestRejoinAfterGameEnded: a guest drops, the bot covering the seat plays the game to its end,
// and joining again by name between games still gives the seat back (not a spectator's place
// next to a seat nobody can reclaim).
func TestRejoinAfterGameEnded(t *testing.T) { eachDialect(t, testRejoinAfterGameEnded) }

func testRejoinAfterGameEnded(t *testing.T, dialect string) {
	e := newEnv(t, dialect, inProcess())
	alice, bob := e.register("Alice"), e.guest("Bob")
	info := alice.createRoom(map[string]any{"ruleset": matcherID, "seats": 2, "options": map[string]any{"hand_size": 2, "call_seconds": 0}})
	bob.must("POST", "/api/rooms/"+info.Code+"/join", nil, nil)
	ca, cb := alice.connect(info.Code), bob.connect(info.Code)
	alice.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)
	cb.latestView()
	cb.ws.CloseNow()
	for {
		if m, ok := memberNamed(alice.roomInfo(info.Code), "Bob"); ok && !m.Connected {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	e.clock.Advance(20 * time.Second)

	// Alice and the covering bot play until the game is over.
	for step := 0; ; step++ {
		if step > 500 {
			t.Fatal("the game does not end")
		}
		v := ca.latestView()
		if v.Phase != sdk.PhasePlaying {
			break
		}
		if v.Turn != 0 {
			ca.expect("view")
			continue
		}
		ca.send(map[string]any{"type": "act", "action": choose(*v)})
		ca.expect("accepted")
	}
	if in := alice.roomInfo(info.Code); in.Game == nil || in.Game.Status != "over" {
		t.Fatalf("game after the last action: %+v", in.Game)
	}

	bob2 := e.guest("bob")
	var joined struct {
		Member room.MemberInfo `json:"member"`
	}
	bob2.must("POST", "/api/rooms/"+info.Code+"/join", nil, &joined)
	if joined.Member.Seat != 1 || joined.Member.Role != "player" {
		t.Fatalf("rejoining by name after the game ended gave %+v, want seat 1 as a player", joined.Member)
	}
	bob2.connect(info.Code)
	in := alice.roomInfo(info.Code)
	if m, _ := memberNamed(in, "Bob"); m.Covered || !m.Connected {
		t.Fatalf("bob after rejoining: %+v", m)
	}
	if len(in.Members) != 2 {
		t.Fatalf("members after rejoining: %+v, want Alice and bob only", in.Members)
	}
	// The next game deals him in.
	alice.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)
	if g := alice.roomInfo(info.Code).Game; g == nil || g.Status != "live" || g.Number != 2 {
		t.Fatalf("second game: %+v", g)
	}
}

// TestLateSpectator: while nobody watches, actions skip the spectators' view; someone who starts
// watching later gets the current one at once, and the next action's.
func TestLateSpectator(t *testing.T) { eachDialect(t, testLateSpectator) }

func testLateSpectator(t *testing.T, dialect string) {
	e := newEnv(t, dialect, inProcess())
	alice, bob, carol := e.register("Alice"), e.register("Bob"), e.register("Carol")
	info := alice.createRoom(map[string]any{"ruleset": matcherID, "seats": 2, "options": map[string]any{"hand_size": 7, "call_seconds": 0}})
	bob.must("POST", "/api/rooms/"+info.Code+"/join", nil, nil)
	ca, cb := alice.connect(info.Code), bob.connect(info.Code)
	alice.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)
	conns := []*conn{ca, cb}
	for range 4 {
		v := ca.latestView()
		c := conns[v.Turn]
		c.send(map[string]any{"type": "act", "action": choose(*c.latestView())})
		c.expect("accepted")
	}
	seq := ca.latestView()
	carol.must("POST", "/api/rooms/"+info.Code+"/join", map[string]any{"spectate": true}, nil)
	cc := carol.connect(info.Code)
	sv := cc.latestView()
	if sv == nil || sv.Viewer != sdk.Spectator || cc.lastSeq != ca.lastSeq || cc.lastSeq != 4 {
		t.Fatalf("late spectator's view: %+v at seq %d, players at seq %d", sv, cc.lastSeq, ca.lastSeq)
	}
	if sv.Turn != seq.Turn || len(sv.Players) != 2 || sv.Players[0].HandCount != seq.Players[0].HandCount {
		t.Fatalf("late spectator's view differs from the table: %+v vs %+v", sv.Players, seq.Players)
	}
	for _, z := range sv.Zones {
		if z.Kind == sdk.ZoneHand && len(z.Cards) > 0 {
			t.Fatalf("the spectator sees hand %s", z.ID)
		}
	}
	c := conns[sv.Turn]
	c.send(map[string]any{"type": "act", "action": choose(*c.latestView())})
	c.expect("accepted")
	if next := cc.latestView(); cc.lastSeq != 5 || next.Viewer != sdk.Spectator {
		t.Fatalf("spectator after the next action: seq %d, view %+v", cc.lastSeq, next)
	}
}
