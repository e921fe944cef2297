package server_test

import (
	"net/http"
	"strings"
	"testing"

	"cardhouse/platform/room"

	"github.com/google/go-cmp/cmp"
)

// TestKickChoice: the host's choice of how long a kick keeps the player out goes through the
// HTTP API, checked field by field (a refused kick changes nothing); a cooldown and a room ban
// keep the player out until the host lifts them (issue 23).
func TestKickChoice(t *testing.T) { eachDialect(t, testKickChoice) }

func testKickChoice(t *testing.T, dialect string) {
	e := newEnv(t, dialect, inProcess())
	alice, bob := e.register("Alice"), e.guest("Bob")
	info := alice.createRoom(map[string]any{"ruleset": matcherID, "seats": 3})
	base := "/api/rooms/" + info.Code
	bob.must("POST", base+"/join", nil, nil)
	bobID := func() int64 { m, _ := memberNamed(alice.roomInfo(info.Code), "Bob"); return m.ID }
	id := bobID()

	for _, tc := range []struct {
		name  string
		body  any
		field string
	}{
		{"no member", map[string]any{"minutes": 5}, "member_id"},
		{"zero minutes", map[string]any{"member_id": id, "minutes": 0}, "minutes"},
		{"over a day", map[string]any{"member_id": id, "minutes": 1441}, "minutes"},
		{"ban and minutes", map[string]any{"member_id": id, "minutes": 5, "ban": true}, "minutes"},
	} {
		var got apiErr
		if st := alice.call("POST", base+"/kick", tc.body, &got); st != http.StatusBadRequest || len(got.Error.Fields) != 1 || got.Error.Fields[0].Field != tc.field {
			t.Errorf("%s: %d %+v, want 400 naming %s", tc.name, st, got, tc.field)
		}
	}
	var got apiErr
	if st := alice.call("POST", base+"/kick", map[string]any{"member_id": id, "minutes": "five"}, &got); st != http.StatusBadRequest || got.Error.Code != "bad_json" {
		t.Errorf("minutes as text: %d %+v", st, got)
	}
	if bobID() != id {
		t.Fatal("a refused kick removed Bob")
	}
	if st := bob.call("GET", base+"/bans", nil, &got); st != http.StatusForbidden || got.Error.Code != "not_host" {
		t.Errorf("bob reading the bans: %d %+v", st, got)
	}

	// Thirty minutes: Bob is refused, the host's list says until when, the host lets him in.
	alice.must("POST", base+"/kick", map[string]any{"member_id": id, "minutes": 30}, nil)
	if st := bob.call("POST", base+"/join", nil, &got); st != http.StatusForbidden || got.Error.Code != "kicked" || !strings.Contains(got.Error.Reason, "30 minutes") {
		t.Fatalf("bob joining during the cooldown: %d %+v", st, got)
	}
	var bans struct {
		Bans []room.BanInfo `json:"bans"`
	}
	alice.must("GET", base+"/bans", nil, &bans)
	if len(bans.Bans) != 1 || bans.Bans[0].Until == nil {
		t.Fatalf("bans: %+v", bans)
	}
	if diff := cmp.Diff(room.BanInfo{UserID: bob.id, Name: "Bob"}, room.BanInfo{UserID: bans.Bans[0].UserID, Name: bans.Bans[0].Name, Ban: bans.Bans[0].Ban}); diff != "" {
		t.Errorf("the ban (-want +got):\n%s", diff)
	}
	if st := alice.call("DELETE", base+"/bans/x", nil, &got); st != http.StatusBadRequest || got.Error.Code != "bad_path" {
		t.Errorf("lifting the ban of x: %d %+v", st, got)
	}
	alice.must("DELETE", base+"/bans/"+itoa(bob.id), nil, nil)
	if st := alice.call("DELETE", base+"/bans/"+itoa(bob.id), nil, &got); st != http.StatusNotFound || got.Error.Code != "no_ban" {
		t.Errorf("lifting it twice: %d %+v", st, got)
	}
	bob.must("POST", base+"/join", nil, nil)

	// A ban from the room.
	cb := bob.connect(info.Code)
	alice.must("POST", base+"/kick", map[string]any{"member_id": bobID(), "ban": true}, nil)
	if m := cb.expect("bye"); str(m["code"]) != "kicked" || !strings.Contains(str(m["reason"]), "banned you") {
		t.Fatalf("banned bob was told %v", m)
	}
	if st := bob.call("POST", base+"/join", map[string]any{"spectate": true}, &got); st != http.StatusForbidden || got.Error.Code != "room_banned" {
		t.Fatalf("banned bob joining: %d %+v", st, got)
	}
	bans.Bans = nil
	alice.must("GET", base+"/bans", nil, &bans)
	if len(bans.Bans) != 1 || !bans.Bans[0].Ban || bans.Bans[0].Until != nil {
		t.Fatalf("bans: %+v", bans)
	}
}
