package server_test

import (
	"encoding/json"
	"testing"

	"cardhouse/platform/room"

	"github.com/google/go-cmp/cmp"
)

// TestMemberLookAndViewClock: members carry the avatar and colour their users chose (so a client
// can draw other players as they look), and every view message says what the game clock reads,
// the clock of the view's deadlines.
func TestMemberLookAndViewClock(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite", inProcess())
	ada := e.guest("Ada")
	ada.must("PATCH", "/api/me", map[string]any{"avatar": "moon", "colour": "#2f6fd6"}, nil)
	bruno := e.guest("Bruno")
	info := ada.createRoom(map[string]any{"ruleset": matcherID, "options": map[string]any{"hand_size": 2}, "seats": 2})
	bruno.must("POST", "/api/rooms/"+info.Code+"/join", nil, nil)
	ca := ada.connect(info.Code)

	type look struct{ Name, Avatar, Colour string }
	looks := func(in room.Info) []look {
		var out []look
		for _, m := range in.Members {
			out = append(out, look{m.Name, m.Avatar, m.Colour})
		}
		return out
	}
	want := []look{{"Ada", "moon", "#2f6fd6"}, {"Bruno", "", ""}}
	if diff := cmp.Diff(want, looks(ada.roomInfo(info.Code))); diff != "" {
		t.Fatalf("members' looks (-want +got):\n%s", diff)
	}

	ca.send(map[string]any{"type": "deal", "id": "d"})
	var now int64
	m := ca.expectSeen("view", nil)
	if err := json.Unmarshal(m["now"], &now); err != nil {
		t.Fatalf("view message without a game clock: %v (%s)", err, m["now"])
	}
	if want := e.clock.Now().UnixMilli(); now != want {
		t.Fatalf("view message now = %d, want the room clock %d", now, want)
	}
}
