package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"cardhouse/platform/room"
	"cardhouse/platform/server"
)

type quickResp struct {
	Code   string `json:"code"`
	Join   bool   `json:"join"`
	Opened bool   `json:"opened"`
}

// lobbyStream reads the lobby's server-sent events of e into a channel of lists.
func lobbyStream(t *testing.T, e *env) <-chan []room.LobbyRoom {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", e.http.URL+"/api/lobby/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "text/event-stream" {
		t.Fatalf("lobby events: %d %s", resp.StatusCode, ct)
	}
	out := make(chan []room.LobbyRoom, 16)
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var l struct {
				Rooms []room.LobbyRoom `json:"rooms"`
			}
			if json.Unmarshal([]byte(line), &l) == nil {
				out <- l.Rooms
			}
		}
		close(out)
	}()
	return out
}

// waitLobby waits for a lobby list that has want, at most 2 s (the promise).
func waitLobby(t *testing.T, ch <-chan []room.LobbyRoom, what string, want func([]room.LobbyRoom) bool) {
	t.Helper()
	limit := time.After(2 * time.Second)
	for {
		select {
		case l, ok := <-ch:
			if !ok {
				t.Fatalf("the lobby stream ended waiting for %s", what)
			}
			if want(l) {
				return
			}
		case <-limit:
			t.Fatalf("the lobby did not show %s within 2 s", what)
		}
	}
}

func hasRoom(code string, seated int) func([]room.LobbyRoom) bool {
	return func(l []room.LobbyRoom) bool {
		for _, r := range l {
			if r.Code == code {
				n := 0
				for _, m := range r.Members {
					if m.Role == "player" && m.Seat >= 0 {
						n++
					}
				}
				return seated < 0 || n == seated
			}
		}
		return false
	}
}

// TestQuickPlay: two players pressing quick play for one variant sit at one table, which the
// live lobby shows as it fills; a third alone waits, is told when the table starts, and bots take
// the empty seats then. Private rooms are never listed; bad input is refused.
func TestQuickPlay(t *testing.T) { eachDialect(t, testQuickPlay) }

func testQuickPlay(t *testing.T, dialect string) {
	e := newEnvTuned(t, dialect, inProcess(), func(rc *room.Config, _ *server.Config) { rc.QuickWait = 10 * time.Second })
	feed := lobbyStream(t, e)
	waitLobby(t, feed, "the empty lobby", func(l []room.LobbyRoom) bool { return len(l) == 0 })

	alice, bob := e.register("Alice"), e.guest("Bob")
	var qa, qb quickResp
	if code := alice.call("POST", "/api/quickplay", map[string]any{"ruleset": matcherID}, &qa); code != http.StatusCreated || !qa.Opened {
		t.Fatalf("alice's quick play: %d %+v", code, qa)
	}
	waitLobby(t, feed, "alice's table", hasRoom(qa.Code, 1))
	info := alice.roomInfo(qa.Code)
	if !info.Quick || info.Capacity != room.QuickSeats || info.StartsAt == nil || !info.StartsAt.Equal(e.clock.Now().Add(10*time.Second)) || info.Game != nil {
		t.Fatalf("a quick table: %+v", info)
	}
	bob.must("POST", "/api/quickplay", map[string]any{"ruleset": matcherID}, &qb)
	if qb.Code != qa.Code || qb.Opened || qb.Join {
		t.Fatalf("bob's quick play: %+v, alice's table %s", qb, qa.Code)
	}
	waitLobby(t, feed, "bob at alice's table", hasRoom(qa.Code, 2))
	// Pressing again keeps the seat.
	var again quickResp
	bob.must("POST", "/api/quickplay", map[string]any{"ruleset": matcherID}, &again)
	if again.Code != qa.Code {
		t.Fatalf("bob pressed again: %+v", again)
	}

	// The wait ends: bots take the two empty seats and the game starts.
	cb := bob.connect(qa.Code)
	e.clock.Advance(10 * time.Second)
	cb.expectSeen("view", nil)
	info = alice.roomInfo(qa.Code)
	bots := 0
	for _, m := range info.Members {
		if m.BotLevel > 0 && m.Seat >= 0 {
			bots++
		}
	}
	if info.Game == nil || info.Game.Seats != room.QuickSeats || bots != 2 || info.StartsAt != nil {
		t.Fatalf("after the wait: %+v (bots %d)", info, bots)
	}
	waitLobby(t, feed, "the started table leaving the list of tables to join", func(l []room.LobbyRoom) bool { return !hasRoom(qa.Code, -1)(l) })

	// A full table starts at once: four players.
	var codes []string
	for _, n := range []string{"P1", "P2", "P3", "P4"} {
		var q quickResp
		e.guest(n).must("POST", "/api/quickplay", map[string]any{"ruleset": matcherID}, &q)
		codes = append(codes, q.Code)
	}
	if codes[0] != codes[3] || codes[0] == qa.Code {
		t.Fatalf("four players: tables %v", codes)
	}
	if info := alice.roomInfo(codes[0]); info.Game == nil {
		t.Fatalf("a full quick table did not start: %+v", info)
	}

	// A private room is not listed; a quick table cannot be asked for by the create form.
	priv := alice.createRoom(map[string]any{"ruleset": matcherID, "seats": 2, "private": true})
	if code := alice.call("POST", "/api/rooms", map[string]any{"ruleset": matcherID, "seats": 2, "quick": true}, nil); code != http.StatusBadRequest {
		t.Errorf("the create form asked for a quick table: %d, want 400", code)
	}
	pub := alice.createRoom(map[string]any{"ruleset": matcherID, "seats": 2})
	waitLobby(t, feed, "the public room", hasRoom(pub.Code, 1))
	var l struct {
		Rooms []room.LobbyRoom `json:"rooms"`
	}
	alice.must("GET", "/api/rooms", nil, &l)
	for _, r := range l.Rooms {
		if r.Code == priv.Code {
			t.Errorf("the private room %s is listed", priv.Code)
		}
	}
	for _, bad := range []map[string]any{{}, {"ruleset": "nosuch"}} {
		if code := alice.call("POST", "/api/quickplay", bad, nil); code != http.StatusBadRequest {
			t.Errorf("quick play %v: %d, want 400", bad, code)
		}
	}
	if code := e.browser("anon").call("POST", "/api/quickplay", map[string]any{"ruleset": matcherID}, nil); code != http.StatusUnauthorized && code != http.StatusForbidden {
		t.Errorf("quick play signed out: %d", code)
	}
}

// TestQuickPlayAcrossNodes: three nodes of a cluster over NATS. A player on node A opens a quick
// table; a stranger on node B pressing quick play for the same variant is sent to it (it runs on
// A) and joins it through B; the live lobby watched on node C shows the table and then its second
// player within 2 s each.
func TestQuickPlayAcrossNodes(t *testing.T) { eachDialect(t, testQuickPlayAcrossNodes) }

func testQuickPlayAcrossNodes(t *testing.T, dialect string) {
	nameA, nameB, nameC := nodeName("node-a"), nodeName("node-b"), nodeName("node-c")
	busA, busB, busC := natsBus(t, nameA), natsBus(t, nameB), natsBus(t, nameC)
	a := newEnvTuned(t, dialect, inProcess(), func(rc *room.Config, sc *server.Config) {
		onBus(nameA, busA)(rc, sc)
		rc.QuickWait = time.Hour
	})
	b, c := a.nodeOn(nameB, busB), a.nodeOn(nameC, busC)
	feed := lobbyStream(t, c)
	waitLobby(t, feed, "the empty lobby on node C", func(l []room.LobbyRoom) bool { return len(l) == 0 })

	alice, bob := a.register("Alice"), b.guest("Bob")
	var qa, qb quickResp
	alice.must("POST", "/api/quickplay", map[string]any{"ruleset": matcherID}, &qa)
	waitLobby(t, feed, "alice's table (node A) on node C", hasRoom(qa.Code, 1))
	bob.must("POST", "/api/quickplay", map[string]any{"ruleset": matcherID}, &qb)
	if qb.Code != qa.Code || !qb.Join {
		t.Fatalf("bob on node B: %+v; want alice's table %s, to join", qb, qa.Code)
	}
	bob.must("POST", "/api/rooms/"+qb.Code+"/join", nil, nil)
	waitLobby(t, feed, "bob at alice's table on node C", hasRoom(qa.Code, 2))
}
