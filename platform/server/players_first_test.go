package server_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"cardhouse/platform/room"
	"cardhouse/platform/server"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
)

// waitRoom polls the room (no sleeping) until ok holds, failing after waitFor with what.
func waitRoom(t *testing.T, u *user, code, what string, ok func(room.Info) bool) room.Info {
	t.Helper()
	deadline := time.Now().Add(waitFor)
	for {
		in := u.roomInfo(code)
		if ok(in) {
			return in
		}
		if time.Now().After(deadline) {
			t.Fatalf("room %s: %s did not happen within %s: %+v", code, what, waitFor, in)
		}
	}
}

// dealDropAbandon has host, the room's only seated person, connect and deal, then drop; the game
// pauses, and once the clock has moved on by after, it is abandoned, as the room says.
func dealDropAbandon(t *testing.T, e *env, host *user, code string, after time.Duration) room.Info {
	t.Helper()
	c := host.connect(code)
	host.must("POST", "/api/rooms/"+code+"/deal", nil, nil)
	c.latestView()
	c.ws.CloseNow()
	waitRoom(t, host, code, "the pause", func(in room.Info) bool { return in.Paused })
	e.clock.Advance(after)
	return waitRoom(t, host, code, fmt.Sprintf("abandoning after %s", after), func(in room.Info) bool { return in.Game != nil && in.Game.Status == "abandoned" })
}

// TestDrugsPauseMinutes: a DRUGS room takes D-12's option pause_minutes (through the real DRUGS
// plugin process), refuses a value out of its range with the range, and its paused game is
// abandoned after that many minutes rather than after the server-wide limit (5 minutes here).
func TestDrugsPauseMinutes(t *testing.T) { eachDialect(t, testDrugsPauseMinutes) }

func testDrugsPauseMinutes(t *testing.T, dialect string) {
	p, _ := variantPlugin(t, "drugs")
	e := newEnv(t, dialect, map[string]engine.Engine{"drugs": p})
	alice := e.register("Alice")
	ae := alice.refused("POST", "/api/rooms", map[string]any{"ruleset": "drugs", "mode": "computer", "bots": []int{1}, "options": map[string]any{"pause_minutes": 0}}, 400, "bad_options")
	if len(ae.Error.Fields) != 1 || ae.Error.Fields[0].Field != "pause_minutes" || !strings.Contains(ae.Error.Fields[0].Reason, "60") {
		t.Fatalf("pause_minutes 0: fields %+v", ae.Error.Fields)
	}
	info := alice.createRoom(map[string]any{"ruleset": "drugs", "mode": "computer", "bots": []int{1}, "options": map[string]any{"pause_minutes": 2}})
	if got := info.Options["pause_minutes"]; got != float64(2) {
		t.Fatalf("the room's pause_minutes: %v", got)
	}
	if in := dealDropAbandon(t, e, alice, info.Code, 2*time.Minute); in.Paused {
		t.Fatal("an abandoned game is still paused")
	}
}

// TestRoomLimitPerHost: one account hosts at most MaxRoomsPerHost open rooms; the next is refused
// with a code and a reason naming the rooms, another account is not affected, and leaving one
// of the rooms (which closes it) makes room for a new one.
func TestRoomLimitPerHost(t *testing.T) { eachDialect(t, testRoomLimitPerHost) }

func testRoomLimitPerHost(t *testing.T, dialect string) {
	e := newEnvTuned(t, dialect, inProcess(), func(rc *room.Config, _ *server.Config) { rc.MaxRoomsPerHost = 2 })
	guest, other := e.guest("Spammer"), e.guest("Other")
	form := map[string]any{"ruleset": matcherID, "seats": 2}
	a, b := guest.createRoom(form), guest.createRoom(form)
	ae := guest.refused("POST", "/api/rooms", form, 409, "too_many_rooms", a.Code, b.Code, "leave one")
	if !strings.Contains(ae.Error.Reason, "2 open rooms") {
		t.Fatalf("reason %q does not say how many", ae.Error.Reason)
	}
	other.createRoom(form)
	var lobby struct {
		Rooms []room.LobbyRoom `json:"rooms"`
	}
	other.must("GET", "/api/rooms", nil, &lobby)
	if len(lobby.Rooms) != 3 {
		t.Fatalf("the lobby lists %d rooms, want the 3 created: %+v", len(lobby.Rooms), lobby.Rooms)
	}
	guest.must("POST", "/api/rooms/"+a.Code+"/leave", nil, nil)
	guest.createRoom(form)
}

// TestLobbyListsRoomsToSitIn: the lobby lists online rooms that wait for players or play with a
// seat free, each with its state, and hides full, locked, finished and abandoned rooms.
func TestLobbyListsRoomsToSitIn(t *testing.T) { eachDialect(t, testLobbyListsRoomsToSitIn) }

func testLobbyListsRoomsToSitIn(t *testing.T, dialect string) {
	e := newEnv(t, dialect, inProcess())
	alice, bob, carol := e.register("Alice"), e.guest("Bob"), e.guest("Carol")
	opts := map[string]any{"hand_size": 2, "call_seconds": 0}
	waiting := alice.createRoom(map[string]any{"ruleset": matcherID, "seats": 3, "options": opts})
	playing := alice.createRoom(map[string]any{"ruleset": matcherID, "seats": 3, "options": opts})
	bob.must("POST", "/api/rooms/"+playing.Code+"/join", nil, nil)
	cp := alice.connect(playing.Code)
	alice.must("POST", "/api/rooms/"+playing.Code+"/deal", nil, nil)
	full := alice.createRoom(map[string]any{"ruleset": matcherID, "seats": 2, "options": opts})
	bob.must("POST", "/api/rooms/"+full.Code+"/join", nil, nil)
	locked := alice.createRoom(map[string]any{"ruleset": matcherID, "seats": 3, "options": opts})
	alice.must("POST", "/api/rooms/"+locked.Code+"/lock", map[string]any{"locked": true}, nil)
	computer := carol.createRoom(map[string]any{"ruleset": matcherID, "mode": "computer", "bots": []int{1}})

	// Finished: a 3-seat room with two players plays its game to the end.
	finished := carol.createRoom(map[string]any{"ruleset": matcherID, "seats": 3, "options": opts})
	bob.must("POST", "/api/rooms/"+finished.Code+"/join", nil, nil)
	cc, cb := carol.connect(finished.Code), bob.connect(finished.Code)
	carol.must("POST", "/api/rooms/"+finished.Code+"/deal", nil, nil)
	playOut(t, map[int]*conn{0: cc, 1: cb}, nil, 400)

	// Abandoned: everyone dropped from a game that then waited out the pause limit.
	abandoned := bob.createRoom(map[string]any{"ruleset": matcherID, "seats": 3, "options": opts})
	carol.must("POST", "/api/rooms/"+abandoned.Code+"/join", nil, nil)
	dealDropAbandon(t, e, bob, abandoned.Code, 5*time.Minute)
	cp.latestView()

	var lobby struct {
		Rooms []map[string]json.RawMessage `json:"rooms"`
	}
	carol.must("GET", "/api/rooms", nil, &lobby)
	got := map[string]string{}
	for _, r := range lobby.Rooms {
		got[str(r["code"])] = str(r["state"])
	}
	want := map[string]string{waiting.Code: "waiting", playing.Code: "playing"}
	for code, state := range want {
		if got[code] != state {
			t.Errorf("room %s: lobby state %q, want %q", code, got[code], state)
		}
	}
	for what, code := range map[string]string{"full": full.Code, "locked": locked.Code, "computer": computer.Code, "finished": finished.Code, "abandoned": abandoned.Code} {
		if _, ok := got[code]; ok {
			t.Errorf("the lobby lists the %s room %s", what, code)
		}
	}
	if len(got) != len(want) {
		t.Errorf("the lobby lists %v, want only %v", got, want)
	}
}

// TestBotsLeaveAPersonTimeToReact: while a window is open in which someone besides the player in
// turn may act (here Matcher's call window, in its real plugin process), a bot waits the
// reaction time from the window's opening, not only its thinking delay, so that a person can
// call or catch first; then it plays.
func TestBotsLeaveAPersonTimeToReact(t *testing.T) { eachDialect(t, testBotsLeaveAPersonTimeToReact) }

func testBotsLeaveAPersonTimeToReact(t *testing.T, dialect string) {
	const think, react = time.Second, 2500 * time.Millisecond
	e := newEnvTuned(t, dialect, map[string]engine.Engine{matcherID: matcherPlugin(t)}, func(rc *room.Config, _ *server.Config) {
		rc.BotDelay, rc.ReactionTime = think, react
	})
	alice := e.register("Alice")
	info := alice.createRoom(map[string]any{"ruleset": matcherID, "mode": "computer", "bots": []int{1}, "options": map[string]any{"hand_size": 2, "call_seconds": 30}})
	ca := alice.connect(info.Code)
	alice.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)
	for step := 0; ; step++ {
		if step > 300 {
			t.Fatal("no call window opened with the bot to move")
		}
		v := ca.latestView()
		if v == nil || v.Phase != sdk.PhasePlaying {
			alice.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)
			ca.expect("view")
			continue
		}
		// The window is open when Alice may call; the bot is to move when the turn is its own.
		window := v.Has(sdk.ActCall)
		if window && v.Turn == 1 {
			break
		}
		if v.Turn == 1 {
			e.clock.Advance(think)
			ca.expect("view")
			continue
		}
		// Alice's turn: play, else draw; never call (so that her window stays open).
		a := sdk.Action{Type: sdk.ActDraw}
		if p, ok := v.Action(sdk.ActPlay); ok {
			a = sdk.Action{Type: sdk.ActPlay, Cards: p.Cards[:1]}
		}
		if !v.Has(a.Type) {
			t.Fatalf("alice can neither play nor draw: %+v", v.Actions)
		}
		ca.send(map[string]any{"type": "act", "id": "a", "action": a})
		ca.expect("accepted")
	}
	// The bot's timer is armed for the reaction time: its thinking delay passing fires nothing.
	before := e.clock.Pending()
	e.clock.Advance(think)
	if after := e.clock.Pending(); after != before {
		t.Fatalf("a timer fired %s after the window opened (pending %d, then %d): the bot did not wait %s", think, before, after, react)
	}
	if v := ca.latestView(); v.Turn != 1 || !v.Has(sdk.ActCall) {
		t.Fatalf("the window closed before the reaction time: turn %d, actions %+v", v.Turn, v.Actions)
	}
	// Once the reaction time has passed since the window opened, the bot plays.
	e.clock.Advance(react - think)
	deadline := time.Now().Add(waitFor)
	for v := ca.latestView(); v.Turn == 1 && v.Phase == sdk.PhasePlaying; v = ca.latestView() {
		if time.Now().After(deadline) {
			t.Fatal("the bot did not move after the reaction time")
		}
	}
	if slices.ContainsFunc(alice.roomInfo(info.Code).Members, func(m room.MemberInfo) bool { return m.Covered }) {
		t.Fatal("a seat is covered")
	}
}

// TestAccountErrorsInPlayerWords: a refused registration says what to do in words a player
// knows: characters, not bytes or patterns.
func TestAccountErrorsInPlayerWords(t *testing.T) {
	e := newEnv(t, "sqlite", inProcess())
	u := e.browser("Zoe")
	for _, c := range []struct {
		body        map[string]string
		field, want string
	}{
		{map[string]string{"username": "zoe", "password": "short", "display_name": "Zoe"}, "password", "at least 8 characters"},
		{map[string]string{"username": "zoe", "password": strings.Repeat("é", 40), "display_name": "Zoe"}, "password", "at most 72 characters"},
		{map[string]string{"username": "Z!", "password": "long enough", "display_name": "Zoe"}, "username", "small letters"},
		{map[string]string{"username": "zoe", "password": "long enough", "display_name": strings.Repeat("z", 33)}, "display_name", "1 to 32 characters"},
	} {
		ae := u.refused("POST", "/api/register", c.body, 400, "invalid")
		found := false
		for _, f := range ae.Error.Fields {
			if f.Field == c.field {
				found = true
				if !strings.Contains(f.Reason, c.want) || strings.Contains(f.Reason, "bytes") || strings.Contains(f.Reason, "want ") {
					t.Errorf("%s: reason %q, want one saying %q in player words", c.field, f.Reason, c.want)
				}
			}
		}
		if !found {
			t.Errorf("%v: no reason for %s in %+v", c.body, c.field, ae.Error.Fields)
		}
	}
}

// TestDeviceSeatLooks (item 12): the host of a pass-the-device room names its seats and gives
// each a look; the room shows them, keeps them across a restart, and refuses bad input (nothing
// changes), other rooms' members and other people.
func TestDeviceSeatLooks(t *testing.T) { eachDialect(t, testDeviceSeatLooks) }

func testDeviceSeatLooks(t *testing.T, dialect string) {
	e := newEnv(t, dialect, inProcess())
	alice, bob := e.register("Alice"), e.guest("Bob")
	dev := alice.createRoom(map[string]any{"ruleset": matcherID, "mode": "device", "seats": 3})
	seat := func(info room.Info, n int) room.MemberInfo {
		for _, m := range info.Members {
			if m.Role == "player" && m.Seat == n {
				return m
			}
		}
		t.Fatalf("no seat %d in %+v", n, info.Members)
		return room.MemberInfo{}
	}
	second := seat(dev, 1)
	path := "/api/rooms/" + dev.Code + "/members/" + strconvI(second.ID)
	var got struct {
		Member room.MemberInfo `json:"member"`
	}
	alice.must("PATCH", path, map[string]any{"display_name": "  Mia ", "avatar": "moon", "colour": "#2F6FD6"}, &got)
	if got.Member.Name != "Mia" || got.Member.Avatar != "moon" || got.Member.Colour != "#2f6fd6" {
		t.Fatalf("the seat after naming: %+v", got.Member)
	}
	ae := alice.refused("PATCH", path, map[string]any{"display_name": "", "colour": "blue"}, 400, "invalid")
	if len(ae.Error.Fields) != 2 {
		t.Errorf("bad name and colour: fields %+v", ae.Error.Fields)
	}
	bob.refused("PATCH", path, map[string]any{"display_name": "Bob's now"}, 403, "not_host")
	online := alice.createRoom(map[string]any{"ruleset": matcherID, "seats": 2})
	bob.must("POST", "/api/rooms/"+online.Code+"/join", nil, nil)
	bobSeat := seat(alice.roomInfo(online.Code), 1)
	alice.refused("PATCH", "/api/rooms/"+online.Code+"/members/"+strconvI(bobSeat.ID), map[string]any{"display_name": "Renamed"}, 400, "not_device_seat")

	e.stop()
	e.start()
	info := alice.roomInfo(dev.Code)
	if m := seat(info, 1); m.Name != "Mia" || m.Avatar != "moon" || m.Colour != "#2f6fd6" {
		t.Errorf("seat 2 after a restart: %+v", m)
	}
	if m := seat(info, 2); m.Name != "Player 3" || m.Avatar != "" {
		t.Errorf("seat 3 changed: %+v", m)
	}
	if m, _ := memberNamed(alice.roomInfo(online.Code), "Bob"); m.Name != "Bob" {
		t.Errorf("Bob's seat in the online room: %+v", m)
	}
}

// TestLookChangeShowsAtOnce (item 12): a player who changes their look while sitting in a room
// is shown with the new look there at once (a room message to everyone), not from their next
// connection.
func TestLookChangeShowsAtOnce(t *testing.T) {
	e := newEnv(t, "sqlite", inProcess())
	ada, bruno := e.guest("Ada"), e.guest("Bruno")
	info := ada.createRoom(map[string]any{"ruleset": matcherID, "seats": 2})
	bruno.must("POST", "/api/rooms/"+info.Code+"/join", nil, nil)
	cb := bruno.connect(info.Code)
	cb.sync()
	ada.must("PATCH", "/api/me", map[string]any{"avatar": "star", "colour": "#C2185B"}, nil)
	for {
		m := cb.expect("room")
		var in room.Info
		_ = json.Unmarshal(m["room"], &in)
		if a, _ := memberNamed(in, "Ada"); a.Avatar == "star" && a.Colour == "#c2185b" {
			break
		}
	}
	if a, _ := memberNamed(bruno.roomInfo(info.Code), "Ada"); a.Avatar != "star" {
		t.Fatalf("Ada in the room after changing her look: %+v", a)
	}
}

// TestBotsHaveNamesAndLevels (issue 18, item 10): the host picks each bot's level, and bots take
// distinct names that are not their level ("Bot (level 1)" three times told nobody apart).
func TestBotsHaveNamesAndLevels(t *testing.T) {
	e := newEnv(t, "sqlite", inProcess())
	host := e.register("Hana")
	info := host.createRoom(map[string]any{"ruleset": matcherID, "seats": 4})
	levels := []int{2, 1, 2}
	for _, l := range levels {
		host.must("POST", "/api/rooms/"+info.Code+"/bots", map[string]any{"level": l}, nil)
	}
	names := map[string]bool{}
	var got []int
	for _, m := range host.roomInfo(info.Code).Members {
		if m.BotLevel == 0 {
			continue
		}
		got = append(got, m.BotLevel)
		if names[strings.ToLower(m.Name)] || strings.Contains(strings.ToLower(m.Name), "level") || m.Name == "Hana" {
			t.Errorf("bot %q: names must be distinct, not the level, not a player's", m.Name)
		}
		names[strings.ToLower(m.Name)] = true
	}
	if !slices.Equal(got, levels) {
		t.Errorf("bot levels %v, want %v as the host chose", got, levels)
	}
	comp := e.register("Cleo").createRoom(map[string]any{"ruleset": matcherID, "mode": "computer", "bots": []int{1, 2}})
	seen := map[string]bool{}
	for _, m := range comp.Members {
		if m.BotLevel > 0 && (seen[m.Name] || strings.Contains(m.Name, "level")) {
			t.Errorf("computer room bot %q: names must be distinct and not the level", m.Name)
		}
		seen[m.Name] = true
	}
}
