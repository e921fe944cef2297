package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"cardhouse/platform/room"
	"cardhouse/sdk"
)

type boardResp struct {
	Ruleset string `json:"ruleset"`
	Rows    []struct {
		Rank        int     `json:"rank"`
		UserID      int64   `json:"user_id"`
		DisplayName string  `json:"display_name"`
		Rating      float64 `json:"rating"`
		Games       int     `json:"games"`
		Wins        int     `json:"wins"`
	} `json:"rows"`
}

type profileResp struct {
	ID          int64  `json:"id"`
	DisplayName string `json:"display_name"`
	Stats       []struct {
		Ruleset string `json:"ruleset"`
		Games   int    `json:"games"`
		Wins    int    `json:"wins"`
	} `json:"stats"`
	Ratings []struct {
		Ruleset string  `json:"ruleset"`
		Rating  float64 `json:"rating"`
		Games   int     `json:"games"`
	} `json:"ratings"`
	History []struct {
		Room       string   `json:"room"`
		Game       int      `json:"game"`
		Place      int      `json:"place"`
		Left       bool     `json:"left"`
		RatingFrom *float64 `json:"rating_from"`
		RatingTo   *float64 `json:"rating_to"`
	} `json:"history"`
}

// TestRatedGame plays a game of two registered players to its end: each has it in their
// history, the winner's rating rises and the loser's falls, once, and the leaderboard lists the
// winner first. A game against bots moves no rating; bad input changes nothing.
func TestRatedGame(t *testing.T) { eachDialect(t, testRatedGame) }

func testRatedGame(t *testing.T, dialect string) {
	e := newEnv(t, dialect, inProcess())
	alice, bob := e.register("Alice"), e.register("Bob")
	info := alice.createRoom(map[string]any{"ruleset": matcherID, "seats": 2, "options": map[string]any{"call_seconds": 0}})
	bob.must("POST", "/api/rooms/"+info.Code+"/join", nil, nil)
	ca, cb := alice.connect(info.Code), bob.connect(info.Code)
	alice.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)
	if code := bob.call("GET", "/api/games/"+info.Code+"/1?seat=0", nil, nil); code != http.StatusConflict {
		t.Fatalf("the replay of a live game: %d, want 409", code)
	}
	playOut(t, map[int]*conn{0: ca, 1: cb}, nil, 400)
	winner := ca.latestView().Winner

	// The replay viewer's frames, by anyone signed in: each seat's frames show its own hand only
	// until the game shows them all; the spectators' none.
	carol := e.guest("Carol")
	for _, seat := range []string{"0", "1", ""} {
		var rep room.Replay
		carol.must("GET", "/api/games/"+strings.ToLower(info.Code)+"/1?seat="+seat, nil, &rep)
		if len(rep.Frames) != len(rep.Log)+1 || len(rep.Log) == 0 {
			t.Fatalf("replay as seat %q: %d frames for %d actions", seat, len(rep.Frames), len(rep.Log))
		}
		own := 0
		for _, f := range rep.Frames {
			var v sdk.View
			if err := json.Unmarshal(f.View, &v); err != nil {
				t.Fatal(err)
			}
			if seat == "" {
				noHandCards(t, "the replay's spectator", v)
				continue
			}
			s := num(json.RawMessage(seat))
			if v.Viewer != s {
				t.Fatalf("replay as seat %d: a frame of viewer %d", s, v.Viewer)
			}
			ownHandOnly(t, s, v)
			for _, z := range v.Zones {
				if z.Kind == sdk.ZoneHand && z.Owner == s && len(z.Cards) > 0 {
					own++
				}
			}
		}
		if seat != "" && own == 0 {
			t.Errorf("replay as seat %s never shows its own hand", seat)
		}
	}
	for path, want := range map[string]int{"/api/games/" + info.Code + "/1?seat=2": 400, "/api/games/" + info.Code + "/1?seat=x": 400, "/api/games/" + info.Code + "/9": 404, "/api/games/" + info.Code + "/0": 400} {
		if got := carol.call("GET", path, nil, nil); got != want {
			t.Errorf("GET %s: %d, want %d", path, got, want)
		}
	}
	if winner != 0 && winner != 1 {
		t.Fatalf("winner %d", winner)
	}
	var mine struct {
		Rooms []struct {
			Code string `json:"code"`
		} `json:"rooms"`
	}
	bob.must("GET", "/api/me/rooms", nil, &mine)
	if len(mine.Rooms) != 1 || mine.Rooms[0].Code != info.Code {
		t.Errorf("bob's games: %+v", mine)
	}
	users := []*user{alice, bob}
	var board boardResp
	alice.must("GET", "/api/leaderboard/"+matcherID, nil, &board)
	if len(board.Rows) != 2 || board.Rows[0].UserID != users[winner].id || board.Rows[0].Wins != 1 || board.Rows[1].Games != 1 || board.Rows[0].Rank != 1 {
		t.Fatalf("leaderboard after one game won by seat %d: %+v", winner, board)
	}
	for seat, u := range users {
		var p profileResp
		u.must("GET", "/api/players/"+strconvI(u.id), nil, &p)
		if len(p.History) != 1 || p.History[0].Room != info.Code || p.History[0].Game != 1 || p.History[0].RatingFrom == nil || p.History[0].RatingTo == nil {
			t.Fatalf("%s's history: %+v", u.name, p.History)
		}
		moved := *p.History[0].RatingTo - *p.History[0].RatingFrom
		if seat == winner && !(moved > 0) || seat != winner && !(moved < 0) {
			t.Errorf("%s (seat %d, winner %d): rating moved %g", u.name, seat, winner, moved)
		}
		if len(p.Stats) != 1 || p.Stats[0].Games != 1 || len(p.Ratings) != 1 || p.Ratings[0].Games != 1 {
			t.Errorf("%s's profile: %+v", u.name, p)
		}
	}

	// Against bots only: the game is in the history, no rating moves.
	comp := alice.createRoom(map[string]any{"ruleset": matcherID, "mode": "computer", "bots": []int{1}, "options": map[string]any{"call_seconds": 0}})
	cc := alice.connect(comp.Code)
	cc.send(map[string]any{"type": "deal"})
	cc.expect("accepted")
	playOut(t, map[int]*conn{0: cc}, nil, 400)
	var again boardResp
	alice.must("GET", "/api/leaderboard/"+matcherID, nil, &again)
	if again.Rows[0].Games != 1 || again.Rows[1].Games != 1 {
		t.Errorf("a game against bots moved a rating: %+v", again)
	}

	var rs struct {
		Ratings map[string]float64 `json:"ratings"`
	}
	alice.must("GET", "/api/ratings/"+matcherID+"?users="+strconvI(alice.id)+","+strconvI(bob.id)+",99999", nil, &rs)
	if len(rs.Ratings) != 2 || rs.Ratings[strconvI(users[winner].id)] <= rs.Ratings[strconvI(users[1-winner].id)] {
		t.Errorf("the table's ratings: %+v", rs)
	}
	for _, bad := range []struct {
		path string
		code int
	}{
		{"/api/ratings/" + matcherID + "?users=1,x", http.StatusBadRequest},
		{"/api/leaderboard/nosuchgame", http.StatusNotFound},
		{"/api/leaderboard/" + matcherID + "?limit=0", http.StatusBadRequest},
		{"/api/leaderboard/" + matcherID + "?offset=x", http.StatusBadRequest},
		{"/api/players/0", http.StatusBadRequest},
		{"/api/players/99999", http.StatusNotFound},
	} {
		if got := alice.call("GET", bad.path, nil, nil); got != bad.code {
			t.Errorf("GET %s: %d, want %d", bad.path, got, bad.code)
		}
	}
}

// TestLeaverLoses: a player who leaves a game between two accounts loses it, whatever the bot
// that takes the seat does after.
func TestLeaverLoses(t *testing.T) { eachDialect(t, testLeaverLoses) }

func testLeaverLoses(t *testing.T, dialect string) {
	e := newEnv(t, dialect, inProcess())
	alice, bob := e.register("Alice"), e.register("Bob")
	info := alice.createRoom(map[string]any{"ruleset": matcherID, "seats": 2, "options": map[string]any{"call_seconds": 0}})
	bob.must("POST", "/api/rooms/"+info.Code+"/join", nil, nil)
	ca := alice.connect(info.Code)
	alice.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)
	bob.must("POST", "/api/rooms/"+info.Code+"/leave", nil, nil)
	playOut(t, map[int]*conn{0: ca}, nil, 400)
	var p profileResp
	bob.must("GET", "/api/players/"+strconvI(bob.id), nil, &p)
	if len(p.History) != 1 || !p.History[0].Left || p.History[0].RatingTo == nil || !(*p.History[0].RatingTo < *p.History[0].RatingFrom) {
		t.Fatalf("the leaver's history: %+v", p.History)
	}
	var pa profileResp
	alice.must("GET", "/api/players/"+strconvI(alice.id), nil, &pa)
	if len(pa.History) != 1 || pa.History[0].Left || !(*pa.History[0].RatingTo > *pa.History[0].RatingFrom) {
		t.Fatalf("the stayer's history: %+v", pa.History)
	}
}

// TestGuestRegistersMidGame: a guest who registers during a game keeps the account, the seat and
// the game, and the finished game is in their history with a rating, as for any account; a taken
// username is refused and changes nothing.
func TestGuestRegistersMidGame(t *testing.T) { eachDialect(t, testGuestRegistersMidGame) }

func testGuestRegistersMidGame(t *testing.T, dialect string) {
	e := newEnv(t, dialect, inProcess())
	alice, bob := e.register("Alice"), e.guest("Bob")
	info := alice.createRoom(map[string]any{"ruleset": matcherID, "seats": 2, "options": map[string]any{"call_seconds": 0}})
	bob.must("POST", "/api/rooms/"+info.Code+"/join", nil, nil)
	ca, cb := alice.connect(info.Code), bob.connect(info.Code)
	alice.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)
	guestID := bob.id
	if code := bob.call("POST", "/api/register", map[string]string{"username": "alice", "password": "correct horse"}, nil); code != http.StatusConflict {
		t.Fatalf("registering a taken name: %d", code)
	}
	var a accountResp
	bob.must("POST", "/api/register", map[string]string{"username": "bobby", "password": "correct horse", "display_name": "Bob"}, &a)
	bob.signedIn(a)
	if bob.id != guestID {
		t.Fatalf("the guest %d registered as %+v", guestID, a.User)
	}
	playOut(t, map[int]*conn{0: ca, 1: cb}, nil, 400)
	var p profileResp
	bob.must("GET", "/api/players/"+strconvI(bob.id), nil, &p)
	if len(p.History) != 1 || p.History[0].Room != info.Code || p.History[0].RatingTo == nil {
		t.Fatalf("the registered guest's history: %+v", p.History)
	}
	// And the account signs in by name and password.
	other := e.browser("Bob elsewhere")
	var b accountResp
	other.must("POST", "/api/login", map[string]string{"username": "bobby", "password": "correct horse"}, &b)
	if b.User.ID != guestID {
		t.Fatalf("signing in as bobby: user %d, want %d", b.User.ID, guestID)
	}
}
