package admin_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"cardhouse/admin"
)

// TestModeration (issue 23): an account's page shows when it was last seen, its sessions and its
// chat in every room; an admin's kick keeps the user out as chosen (a ban from the room here),
// checked like the host's; /metrics is for admins on the site's listener; a server without a
// plugin folder says so when asked to rescan it. Both dialects.
func TestModeration(t *testing.T) {
	eachDialect(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		root := e.admin("Root")
		alice, bob := e.register("Alice"), e.register("Bob")
		r1 := alice.createRoom(map[string]any{"ruleset": "hotspot", "seats": 2})
		r2 := bob.createRoom(map[string]any{"ruleset": "hotspot", "seats": 2})
		alice.must("POST", "/api/rooms/"+r1.Code+"/chat", map[string]any{"text": "hello there"}, nil)
		alice.must("POST", "/api/rooms/"+r2.Code+"/join", nil, nil)
		alice.must("POST", "/api/rooms/"+r2.Code+"/chat", map[string]any{"text": "and here <b>too</b>"}, nil)
		bob.must("POST", "/api/rooms/"+r2.Code+"/chat", map[string]any{"text": "not alice's"}, nil)

		var d admin.UserDetail
		root.must("GET", "/admin/api/users/"+itoa(alice.id), nil, &d)
		if d.User.LastSeenAt == nil || time.Since(*d.User.LastSeenAt) > time.Hour {
			t.Errorf("alice last seen %v, want just now", d.User.LastSeenAt)
		}
		if len(d.Sessions) != 1 || d.Sessions[0].LastSeenAt == nil || !d.Sessions[0].ExpiresAt.After(time.Now()) {
			t.Errorf("alice's sessions: %+v, want her one session, used", d.Sessions)
		}
		if len(d.Chat) != 2 || d.Chat[0].Room != r2.Code || d.Chat[0].Text != "and here <b>too</b>" || d.Chat[1].Room != r1.Code {
			t.Errorf("alice's chat: %+v, want her two lines, newest first, with their rooms", d.Chat)
		}
		page := pageOf(t, root, "/admin/users/"+itoa(alice.id))
		for _, want := range []string{"and here &lt;b&gt;too&lt;/b&gt;", `href="/admin/rooms/` + r1.Code + `"`, `id="sessions"`, `id="last-seen"`} {
			if !strings.Contains(page, want) {
				t.Errorf("alice's page lacks %s", want)
			}
		}
		if strings.Contains(page, "not alice") {
			t.Error("alice's page shows bob's chat")
		}

		// An admin's kick: a bad choice changes nothing; a ban from the room keeps her out.
		in := alice.roomInfo(r2.Code)
		var mid int64
		for _, m := range in.Members {
			if m.UserID == alice.id {
				mid = m.ID
			}
		}
		root.refused("POST", "/admin/api/rooms/"+r2.Code+"/kick", map[string]any{"member": mid, "reason": "spam", "ban": true, "minutes": 5}, http.StatusBadRequest, "bad_kick")
		root.refused("POST", "/admin/api/rooms/"+r2.Code+"/kick", map[string]any{"member": mid, "reason": "spam", "minutes": 0}, http.StatusBadRequest, "bad_kick")
		if got := alice.roomInfo(r2.Code); len(got.Members) != len(in.Members) {
			t.Fatalf("a refused kick removed someone: %+v", got.Members)
		}
		root.must("POST", "/admin/api/rooms/"+r2.Code+"/kick", map[string]any{"member": mid, "reason": "spam", "ban": true}, nil)
		alice.refused("POST", "/api/rooms/"+r2.Code+"/join", nil, http.StatusForbidden, "room_banned")
		var rd admin.RoomDetail
		root.must("GET", "/admin/api/rooms/"+r2.Code, nil, &rd)
		if len(rd.Bans) != 1 || rd.Bans[0].UserID != alice.id || !rd.Bans[0].Ban || rd.Bans[0].Reason != "spam" {
			t.Fatalf("the room's bans: %+v", rd.Bans)
		}
		if page := pageOf(t, root, "/admin/rooms/"+r2.Code); !strings.Contains(page, `id="bans"`) || !strings.Contains(page, "Let back in") {
			t.Error("the room page does not list who is kept out")
		}
		root.must("POST", "/admin/api/rooms/"+r2.Code+"/bans/"+itoa(alice.id)+"/lift", nil, nil)
		root.refused("POST", "/admin/api/rooms/"+r2.Code+"/bans/"+itoa(alice.id)+"/lift", nil, http.StatusNotFound, "no_ban")
		alice.must("POST", "/api/rooms/"+r2.Code+"/join", nil, nil)

		// /metrics: admins only here.
		if st, body := root.raw("GET", "/metrics", nil); st != http.StatusOK || !strings.Contains(string(body), "go_goroutines") {
			t.Errorf("/metrics as an admin: %d", st)
		}
		bob.refused("GET", "/metrics", nil, http.StatusForbidden, "admin_only")
		e.anonymous().refused("GET", "/metrics", nil, http.StatusUnauthorized, "login_required")

		// No plugin folder: a rescan says so; the plugin list has no refusals.
		root.refused("POST", "/admin/api/plugins/rescan", nil, http.StatusConflict, "no_plugin_folder")
		if page := pageOf(t, root, "/admin/plugins"); strings.Contains(page, `id="rescan"`) || !strings.Contains(page, "no plugin folder") {
			t.Error("the plugin page offers a rescan on a server without a plugin folder")
		}
		var pl struct {
			Refused []any `json:"refused"`
		}
		root.must("GET", "/admin/api/plugins", nil, &pl)
		if pl.Refused == nil || len(pl.Refused) != 0 {
			t.Errorf("refused plugins %v, want an empty list", pl.Refused)
		}
	})
}

// pageOf reads a page of the admin area as HTML.
func pageOf(t *testing.T, u *user, path string) string {
	t.Helper()
	st, body := u.raw("GET", path, nil)
	if st != http.StatusOK {
		t.Fatalf("GET %s: %d", path, st)
	}
	return string(body)
}
