package admin_test

import (
	"html"
	"strings"
	"testing"
)

// TestRoomKickWords: the room page's confirmation of a kick says what the kick does to that
// member, in the web client's words: between games a seated player leaves and frees the seat, a
// spectator only leaves; in a game being played a bot takes a seated player's seat, and a
// spectator still only leaves.
func TestRoomKickWords(t *testing.T) { eachDialect(t, testRoomKickWords) }

func testRoomKickWords(t *testing.T, dialect string) {
	e := newEnv(t, dialect)
	root := e.admin("Root")
	alice, bob, carol := e.register("Alice"), e.register("Bob"), e.guest("Carol")
	code := alice.createRoom(map[string]any{"ruleset": "hotspot", "seats": 2}).Code
	bob.must("POST", "/api/rooms/"+code+"/join", nil, nil)
	carol.must("POST", "/api/rooms/"+code+"/join", map[string]any{"spectate": true}, nil)
	const (
		game = "A bot takes their seat in the game being played."
		seat = "They leave the room, and their seat is free for someone else."
		room = "They leave the room."
	)
	check := func(when string, want map[string]string) {
		t.Helper()
		page := html.UnescapeString(pageOf(t, root, "/admin/rooms/"+code))
		for name, words := range want {
			if got := confirmOf(page, name, code); got != words {
				t.Errorf("%s: removing %s is confirmed with %q, want %q", when, name, got, words)
			}
		}
	}
	check("between games", map[string]string{"Alice": seat, "Bob": seat, "Carol": room})
	alice.must("POST", "/api/rooms/"+code+"/deal", nil, nil)
	check("in a game being played", map[string]string{"Alice": game, "Bob": game, "Carol": room})
}

// confirmOf is what the room page's kick confirmation says after "Remove name from room code? ".
func confirmOf(page, name, code string) string {
	head := `data-confirm="Remove ` + name + ` from room ` + code + `? `
	i := strings.Index(page, head)
	if i < 0 {
		return "(no kick confirmation)"
	}
	rest := page[i+len(head):]
	return rest[:strings.IndexByte(rest, '"')]
}
