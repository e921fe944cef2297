package admin_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"cardhouse/admin"
	"cardhouse/platform/room"
	"cardhouse/platform/store"

	"github.com/coder/websocket"
	"github.com/google/go-cmp/cmp"
)

// auditActions returns the actions of the audit log, oldest first, as "actor action target".
func auditActions(t *testing.T, root *user) []string {
	t.Helper()
	var l admin.AuditList
	root.must("GET", "/admin/api/audit?limit=500", nil, &l)
	out := make([]string, len(l.Entries))
	for i, e := range l.Entries {
		out[len(l.Entries)-1-i] = e.Actor + " " + e.Action + " " + e.Target
	}
	return out
}

// playDraws has whoever's turn it is draw a card, n times (Hotspot: drawing is always legal,
// H-4), and returns the game's action count after.
func playDraws(t *testing.T, code string, bySeat map[int]*user, n int) int {
	t.Helper()
	var info room.Info
	for range n {
		var first *user
		for _, u := range bySeat {
			first = u
			break
		}
		info = first.roomInfo(code)
		if info.Game == nil || info.Game.Status != store.GameLive {
			t.Fatalf("room %s has no live game: %+v", code, info.Game)
		}
		u, ok := bySeat[info.Game.Turn]
		if !ok {
			t.Fatalf("nobody plays seat %d", info.Game.Turn)
		}
		u.must("POST", "/api/rooms/"+code+"/act", map[string]any{"action": map[string]any{"type": "draw"}}, nil)
	}
	for _, u := range bySeat {
		return u.roomInfo(code).Game.Seq
	}
	return 0
}

// seats maps the seats of a room to the users playing them.
func seats(info room.Info, us ...*user) map[int]*user {
	out := map[int]*user{}
	for _, m := range info.Members {
		for _, u := range us {
			if m.UserID == u.id && m.Role == store.MemberPlayer {
				out[m.Seat] = u
			}
		}
	}
	return out
}

func memberID(t *testing.T, info room.Info, u *user) int64 {
	t.Helper()
	for _, m := range info.Members {
		if m.UserID == u.id {
			return m.ID
		}
	}
	t.Fatalf("%s is not a member of %s", u.name, info.Code)
	return 0
}

func TestUserAdministration(t *testing.T) { eachDialect(t, testUserAdministration) }

func testUserAdministration(t *testing.T, dialect string) {
	e := newEnv(t, dialect)
	ctx := context.Background()
	root := e.admin("Root")
	alice, bob, gus := e.register("Alice"), e.register("Bob"), e.guest("Gus")

	// Search and paging.
	var l admin.UserList
	root.must("GET", "/admin/api/users?q=LIC", nil, &l)
	if len(l.Users) != 1 || l.Users[0].Username != "alice" || l.Total != 1 {
		t.Fatalf("search LIC: %+v", l)
	}
	root.must("GET", "/admin/api/users", nil, &l)
	if l.Total != 3 {
		t.Errorf("registered accounts: total %d, want 3 (guests are listed only when asked)", l.Total)
	}
	root.must("GET", "/admin/api/users?guests=true&limit=2&offset=2", nil, &l)
	var names []string
	for _, u := range l.Users {
		names = append(names, u.DisplayName)
	}
	if diff := cmp.Diff([]string{"Alice", "Root"}, names); diff != "" || l.Total != 4 {
		t.Errorf("second page of 2, newest first (total %d): -want +got\n%s", l.Total, diff)
	}
	root.must("GET", "/admin/api/users?q=%25", nil, &l) // a literal %, not a wildcard
	if l.Total != 0 {
		t.Errorf("search %%: %d accounts, want 0", l.Total)
	}
	root.refused("GET", "/admin/api/users?role=king", nil, http.StatusBadRequest, "bad_query")

	// Ban: refused without a reason (nothing changes), then banned with one, and alice's live
	// socket is closed at once.
	info := alice.createRoom(map[string]any{"ruleset": "hotspot", "seats": 2})
	bob.must("POST", "/api/rooms/"+info.Code+"/join", nil, nil)
	ca := alice.connect(info.Code)
	uid := itoa(alice.id)
	root.refused("POST", "/admin/api/users/"+uid+"/ban", map[string]any{}, http.StatusBadRequest, "reason_required")
	root.refused("POST", "/admin/api/users/"+uid+"/ban", map[string]any{"reason": "x", "extra": 1}, http.StatusBadRequest, "bad_json")
	root.refused("POST", "/admin/api/users/"+itoa(root.id)+"/ban", map[string]any{"reason": "oops"}, http.StatusBadRequest, "ban_self")
	root.refused("POST", "/admin/api/users/999999/ban", map[string]any{"reason": "who"}, http.StatusNotFound, "no_user")
	if u, _ := e.st.UserByID(ctx, alice.id); u.Banned {
		t.Fatal("a refused ban banned alice")
	}
	var d admin.UserDetail
	root.must("POST", "/admin/api/users/"+uid+"/ban", map[string]any{"reason": "spamming the chat"}, &d)
	if !d.User.Banned || d.BanReason != "spamming the chat" {
		t.Errorf("after the ban: banned %v, reason %q", d.User.Banned, d.BanReason)
	}
	bye := ca.expect("bye")
	if str(bye["code"]) != "banned" || !strings.Contains(str(bye["reason"]), "spamming the chat") {
		t.Errorf("bye: %s %s", bye["code"], bye["reason"])
	}
	if code, reason := ca.closed(); code != websocket.StatusPolicyViolation {
		t.Errorf("alice's socket closed with %d %q, want 1008", code, reason)
	}
	alice.refused("GET", "/api/me", nil, http.StatusUnauthorized, "login_required")
	if st := alice.login("alice", password); st != http.StatusForbidden {
		t.Errorf("a banned account logs in: %d", st)
	}
	root.refused("POST", "/admin/api/users/"+uid+"/ban", map[string]any{"reason": "again"}, http.StatusConflict, "already_banned")
	root.must("POST", "/admin/api/users/"+uid+"/unban", map[string]any{"reason": "appealed"}, &d)
	if d.User.Banned {
		t.Error("still banned after unban")
	}
	if st := alice.login("alice", password); st != http.StatusOK {
		t.Errorf("unbanned alice cannot log in: %d", st)
	}

	// Promote and demote: the role takes effect on the next request.
	bid := itoa(bob.id)
	bob.refused("GET", "/admin/api/dashboard", nil, http.StatusForbidden, "admin_only")
	root.must("POST", "/admin/api/users/"+bid+"/role", map[string]any{"role": "admin"}, &d)
	bob.must("GET", "/admin/api/dashboard", nil, nil)
	root.refused("POST", "/admin/api/users/"+bid+"/role", map[string]any{"role": "admin"}, http.StatusConflict, "same_role")
	root.refused("POST", "/admin/api/users/"+bid+"/role", map[string]any{"role": "owner"}, http.StatusBadRequest, "bad_role")
	root.refused("POST", "/admin/api/users/"+itoa(root.id)+"/role", map[string]any{"role": "player"}, http.StatusBadRequest, "own_role")
	root.refused("POST", "/admin/api/users/"+itoa(gus.id)+"/role", map[string]any{"role": "admin"}, http.StatusBadRequest, "guest_admin")
	root.refused("POST", "/admin/api/users/"+bid+"/ban", map[string]any{"reason": "admins are demoted first"}, http.StatusConflict, "ban_admin")
	root.must("POST", "/admin/api/users/"+bid+"/role", map[string]any{"role": "player"}, &d)
	bob.refused("GET", "/admin/api/dashboard", nil, http.StatusForbidden, "admin_only")

	// Reset a password: the old one and the old sessions stop working, the new one works.
	var pw struct {
		Password string `json:"password"`
	}
	root.refused("POST", "/admin/api/users/"+itoa(gus.id)+"/password", nil, http.StatusBadRequest, "guest_password")
	root.must("POST", "/admin/api/users/"+uid+"/password", nil, &pw)
	if len(pw.Password) != 16 {
		t.Fatalf("new password %q", pw.Password)
	}
	alice.refused("GET", "/api/me", nil, http.StatusUnauthorized, "login_required")
	if st := alice.login("alice", password); st != http.StatusUnauthorized {
		t.Errorf("the old password still works: %d", st)
	}
	if st := alice.login("alice", pw.Password); st != http.StatusOK {
		t.Errorf("the new password does not work: %d", st)
	}

	// Delete: a wrong confirmation changes nothing; then alice is deleted mid-game, her seat
	// goes to a bot, the host role to bob, and the game goes on.
	alice.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)
	by := seats(alice.roomInfo(info.Code), alice, bob)
	playDraws(t, info.Code, by, 2)
	root.refused("POST", "/admin/api/users/"+uid+"/delete", map[string]any{"confirm": "bob"}, http.StatusBadRequest, "confirm")
	if u, _ := e.st.UserByID(ctx, alice.id); u.Username == nil {
		t.Fatal("a refused delete deleted alice")
	}
	d = admin.UserDetail{}
	root.must("POST", "/admin/api/users/"+uid+"/delete", map[string]any{"confirm": "alice"}, &d)
	if d.User.DeletedAt == nil || d.User.Username != "" || !strings.Contains(d.DeletionPolicy, "games it played stay") {
		t.Errorf("deleted account: %+v", d.User)
	}
	if st := alice.login("alice", pw.Password); st != http.StatusUnauthorized {
		t.Errorf("a deleted account logs in: %d", st)
	}
	after := bob.roomInfo(info.Code)
	if after.HostID != bob.id || after.Game == nil || after.Game.Status != store.GameLive {
		t.Fatalf("room after deleting its host: host %d (bob %d), game %+v", after.HostID, bob.id, after.Game)
	}
	for _, m := range after.Members {
		if m.UserID == alice.id {
			t.Errorf("alice is still a member: %+v", m)
		}
	}
	var botSeat bool
	for _, m := range after.Members {
		botSeat = botSeat || (m.BotLevel > 0 && strings.HasPrefix(m.Name, "Bot for Alice"))
	}
	if !botSeat {
		t.Errorf("alice's seat did not pass to a bot: %+v", after.Members)
	}
	newAlice := e.register("Alice") // the username is free again
	if newAlice.id == alice.id {
		t.Error("the new alice got the deleted account's id")
	}
	root.refused("POST", "/admin/api/users/"+uid+"/delete", map[string]any{"confirm": "alice"}, http.StatusGone, "user_deleted")

	var rd admin.RoomDetail
	root.must("GET", "/admin/api/rooms/"+info.Code, nil, &rd)
	if len(rd.Games) != 1 || rd.Log == nil || len(rd.Log.Log) < 2 {
		t.Errorf("the game alice played is gone: %+v", rd.Games)
	}

	want := []string{
		"root user.ban alice", "root user.unban alice", "root user.promote bob", "root user.demote bob",
		"root user.password_reset alice", "root user.delete alice",
	}
	if diff := cmp.Diff(want, auditActions(t, root)); diff != "" {
		t.Errorf("audit log: -want +got\n%s", diff)
	}
}

func TestRoomAdministration(t *testing.T) { eachDialect(t, testRoomAdministration) }

func testRoomAdministration(t *testing.T, dialect string) {
	e := newEnv(t, dialect)
	root := e.admin("Root")
	alice, bob, carol := e.register("Alice"), e.register("Bob"), e.guest("Carol")
	info := alice.createRoom(map[string]any{"ruleset": "hotspot", "seats": 2})
	code := info.Code
	bob.must("POST", "/api/rooms/"+code+"/join", nil, nil)
	carol.must("POST", "/api/rooms/"+code+"/join", map[string]any{"spectate": true}, nil)
	alice.must("POST", "/api/rooms/"+code+"/chat", map[string]any{"text": "hello <b>there</b>"}, nil)
	alice.must("POST", "/api/rooms/"+code+"/deal", nil, nil)
	by := seats(alice.roomInfo(code), alice, bob)
	if n := playDraws(t, code, by, 3); n != 3 {
		t.Fatalf("%d actions, want 3", n)
	}
	other := bob.createRoom(map[string]any{"ruleset": "hotspot", "seats": 3})

	// Lists and filters.
	var rl admin.RoomList
	codes := func() []string {
		var out []string
		for _, r := range rl.Rooms {
			out = append(out, r.Code)
		}
		return out
	}
	root.must("GET", "/admin/api/rooms?status=open", nil, &rl)
	if diff := cmp.Diff([]string{other.Code, code}, codes()); diff != "" {
		t.Errorf("open rooms, newest first: -want +got\n%s", diff)
	}
	root.must("GET", "/admin/api/rooms?code="+strings.ToLower(code[:4]), nil, &rl)
	if len(rl.Rooms) < 1 || rl.Rooms[len(rl.Rooms)-1].Code != code {
		t.Errorf("code prefix %s: %v", code[:4], codes())
	}
	root.must("GET", "/admin/api/rooms?user="+itoa(carol.id), nil, &rl)
	if diff := cmp.Diff([]string{code}, codes()); diff != "" {
		t.Errorf("carol's rooms: -want +got\n%s", diff)
	}
	root.must("GET", "/admin/api/rooms?status=closed", nil, &rl)
	if len(rl.Rooms) != 0 {
		t.Errorf("closed rooms: %v", codes())
	}
	root.refused("GET", "/admin/api/rooms?status=gone", nil, http.StatusBadRequest, "bad_query")

	// A room's members, seats, spectators, chat and game log.
	var rd admin.RoomDetail
	root.must("GET", "/admin/api/rooms/"+code, nil, &rd)
	type mem struct {
		Name, Role string
		Seat       int
		Host       bool
	}
	var ms []mem
	for _, m := range rd.Members {
		ms = append(ms, mem{m.Name, m.Role, m.Seat, m.Host})
	}
	if diff := cmp.Diff([]mem{{"Alice", "player", 0, true}, {"Bob", "player", 1, false}, {"Carol", "spectator", -1, false}}, ms); diff != "" {
		t.Errorf("members: -want +got\n%s", diff)
	}
	if len(rd.Chat) != 1 || rd.Chat[0].Text != "hello <b>there</b>" || rd.Chat[0].Name != "Alice" {
		t.Errorf("chat: %+v", rd.Chat)
	}
	if rd.Log == nil || len(rd.Log.Log) != 3 || !strings.Contains(string(rd.Log.Log[0].Action), `"draw"`) {
		t.Fatalf("game log: %+v", rd.Log)
	}
	var gl admin.GameLog
	root.must("GET", "/admin/api/rooms/"+code+"/games/1", nil, &gl)
	if len(gl.Log) != 3 || gl.Game.Actions != 3 {
		t.Errorf("game 1 log: %+v", gl)
	}
	if len(rd.Games) != 1 || rd.Games[0].Actions != 3 { // the game's state is stored at its start only
		t.Errorf("the room's games: %+v", rd.Games)
	}
	root.refused("GET", "/admin/api/rooms/"+code+"/games/7", nil, http.StatusNotFound, "no_game")
	root.refused("GET", "/admin/api/rooms/ZZZZZZ", nil, http.StatusNotFound, "no_room")
	// The page escapes what players wrote.
	st, page := root.raw("GET", "/admin/rooms/"+code, nil)
	if st != http.StatusOK || strings.Contains(string(page), "<b>there</b>") || !strings.Contains(string(page), "hello &lt;b&gt;there&lt;/b&gt;") {
		t.Errorf("room page: %d, chat not escaped", st)
	}

	// Kick the spectator: her socket is told and closed.
	cc := carol.connect(code)
	carolMember := memberID(t, alice.roomInfo(code), carol)
	root.refused("POST", "/admin/api/rooms/"+code+"/kick", map[string]any{"member": carolMember}, http.StatusBadRequest, "reason_required")
	root.refused("POST", "/admin/api/rooms/"+code+"/kick", map[string]any{"member": 999999, "reason": "x"}, http.StatusNotFound, "no_member")
	root.must("POST", "/admin/api/rooms/"+code+"/kick", map[string]any{"member": carolMember, "reason": "rude in chat"}, &rd)
	bye := cc.expect("bye")
	if str(bye["code"]) != "kicked" || !strings.Contains(str(bye["reason"]), "rude in chat") {
		t.Errorf("carol's bye: %s %s", bye["code"], bye["reason"])
	}
	if len(rd.Members) != 2 {
		t.Errorf("members after the kick: %+v", rd.Members)
	}

	// Move the host role to bob.
	root.refused("POST", "/admin/api/rooms/"+code+"/host", map[string]any{"member": 0}, http.StatusBadRequest, "bad_member")
	root.must("POST", "/admin/api/rooms/"+code+"/host", map[string]any{"member": memberID(t, alice.roomInfo(code), bob)}, &rd)
	if got := alice.roomInfo(code).HostID; got != bob.id {
		t.Errorf("host %d, want bob %d", got, bob.id)
	}

	// Close it: the game is abandoned and everyone is told why.
	ca := alice.connect(code)
	root.refused("POST", "/admin/api/rooms/"+code+"/close", map[string]any{"reason": "  "}, http.StatusBadRequest, "reason_required")
	root.must("POST", "/admin/api/rooms/"+code+"/close", map[string]any{"reason": "maintenance"}, &rd)
	bye = ca.expect("bye")
	if str(bye["code"]) != "closed" || !strings.Contains(str(bye["reason"]), "maintenance") {
		t.Errorf("alice's bye: %s %s", bye["code"], bye["reason"])
	}
	if rd.Room.Status != store.RoomClosed || rd.Room.Running || len(rd.Games) != 1 || rd.Games[0].Status != store.GameAbandoned {
		t.Errorf("closed room: %+v games %+v", rd.Room, rd.Games)
	}
	alice.refused("GET", "/api/rooms/"+code, nil, http.StatusNotFound, "no_room")
	root.refused("POST", "/admin/api/rooms/"+code+"/close", map[string]any{"reason": "again"}, http.StatusConflict, "room_closed")
	root.must("GET", "/admin/api/rooms?status=closed", nil, &rl)
	if diff := cmp.Diff([]string{code}, codes()); diff != "" {
		t.Errorf("closed rooms: -want +got\n%s", diff)
	}
	want := []string{"root room.kick " + code, "root room.host " + code, "root room.close " + code + " (hotspot)"}
	if diff := cmp.Diff(want, auditActions(t, root)); diff != "" {
		t.Errorf("audit log: -want +got\n%s", diff)
	}
}

func TestPluginAdministration(t *testing.T) { eachDialect(t, testPluginAdministration) }

func testPluginAdministration(t *testing.T, dialect string) {
	e := newEnv(t, dialect)
	ctx := context.Background()
	root := e.admin("Root")
	alice, bob := e.register("Alice"), e.register("Bob")
	info := alice.createRoom(map[string]any{"ruleset": "hotspot", "seats": 2})
	code := info.Code
	bob.must("POST", "/api/rooms/"+code+"/join", nil, nil)
	// Both players are online (the dashboard counts them).
	alice.connect(code)
	bob.connect(code)
	alice.must("POST", "/api/rooms/"+code+"/deal", nil, nil)
	by := seats(alice.roomInfo(code), alice, bob)
	playDraws(t, code, by, 3)

	// The dashboard sees two players online, one live game, three actions this minute.
	var dash admin.Dashboard
	root.must("GET", "/admin/api/dashboard", nil, &dash)
	if dash.PlayersOnline != 2 || dash.LiveRooms != 1 || dash.LiveGames != 1 || dash.ActionsLastMinute != 3 {
		t.Errorf("dashboard: online %d, rooms %d, games %d, actions %d; want 2, 1, 1, 3", dash.PlayersOnline, dash.LiveRooms, dash.LiveGames, dash.ActionsLastMinute)
	}

	plugins := func() admin.PluginInfo {
		var out struct {
			Plugins []admin.PluginInfo `json:"plugins"`
		}
		root.must("GET", "/admin/api/plugins", nil, &out)
		if len(out.Plugins) != 1 || out.Plugins[0].ID != "hotspot" {
			t.Fatalf("plugins: %+v", out.Plugins)
		}
		return out.Plugins[0]
	}
	p := plugins()
	if !p.Process || !p.Running || p.PID == 0 || p.Protocol == 0 || p.Calls == 0 || p.Version == "" || p.Rooms != 1 || p.Games != 1 || p.P99 == 0 {
		t.Fatalf("hotspot plugin: %+v", p)
	}

	// Restart: a fresh process, and the game goes on where it was.
	var rp struct {
		Plugin admin.PluginInfo `json:"plugin"`
	}
	root.must("POST", "/admin/api/plugins/hotspot/restart", nil, &rp)
	if rp.Plugin.PID == p.PID || !rp.Plugin.Running || rp.Plugin.Restarts != p.Restarts+1 {
		t.Fatalf("after the restart: pid %d (was %d), running %v, restarts %d", rp.Plugin.PID, p.PID, rp.Plugin.Running, rp.Plugin.Restarts)
	}
	if n := playDraws(t, code, by, 3); n != 6 {
		t.Fatalf("after the restart the game is at %d actions, want 6", n)
	}
	rep, err := e.rooms.Replay(ctx, code, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Matches || len(rep.Log) != 6 {
		t.Errorf("replay after the restart: matches %v, %d actions", rep.Matches, len(rep.Log))
	}
	root.refused("POST", "/admin/api/plugins/nope/restart", nil, http.StatusNotFound, "no_ruleset")

	// Disable for new rooms: new rooms are refused, the running game goes on.
	root.refused("POST", "/admin/api/plugins/hotspot/disable", nil, http.StatusBadRequest, "reason_required")
	root.must("POST", "/admin/api/plugins/hotspot/disable", map[string]any{"reason": "a bug in 1.2"}, &rp)
	if !rp.Plugin.Disabled || rp.Plugin.DisabledReason != "a bug in 1.2" {
		t.Errorf("disabled plugin: %+v", rp.Plugin)
	}
	reason := bob.refused("POST", "/api/rooms", map[string]any{"ruleset": "hotspot", "seats": 2}, http.StatusConflict, "ruleset_disabled")
	if !strings.Contains(reason, "a bug in 1.2") {
		t.Errorf("refusal %q does not give the reason", reason)
	}
	if n := playDraws(t, code, by, 1); n != 7 {
		t.Errorf("the running game stopped when its ruleset was disabled: %d actions", n)
	}
	root.refused("POST", "/admin/api/plugins/hotspot/disable", map[string]any{"reason": "again"}, http.StatusConflict, "already_disabled")

	// The switch is stored: a server starting again keeps it.
	e.rooms.SetRulesetDisabled("hotspot", false, "")
	if _, err := admin.New(ctx, admin.Config{Store: e.st, Rooms: e.rooms, Logger: quietLogger()}); err != nil {
		t.Fatal(err)
	}
	if got := e.rooms.DisabledRulesets(); got["hotspot"] != "a bug in 1.2" {
		t.Errorf("after a restart the disabled rulesets are %v", got)
	}

	root.must("POST", "/admin/api/plugins/hotspot/enable", nil, &rp)
	if rp.Plugin.Disabled {
		t.Error("still disabled")
	}
	bob.createRoom(map[string]any{"ruleset": "hotspot", "seats": 2})
	root.refused("POST", "/admin/api/plugins/hotspot/enable", nil, http.StatusConflict, "not_disabled")

	want := []string{"root plugin.restart hotspot", "root plugin.disable hotspot", "root plugin.enable hotspot"}
	if diff := cmp.Diff(want, auditActions(t, root)); diff != "" {
		t.Errorf("audit log: -want +got\n%s", diff)
	}
}
