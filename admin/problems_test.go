package admin_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"cardhouse/admin"
	"cardhouse/platform/room"
	"cardhouse/platform/store"

	"github.com/google/go-cmp/cmp"
)

// TestProblemsReplayAndBulkClose: the problems API lists a live game nobody moved in and the
// stored house-rule failures (counted on the dashboard); the replay API rebuilds a game with one
// spectator's view per step; the room list's activity filters and the bulk close, with bad input
// refused and changing nothing.
func TestProblemsReplayAndBulkClose(t *testing.T) { eachDialect(t, testProblemsReplayAndBulkClose) }

func testProblemsReplayAndBulkClose(t *testing.T, dialect string) {
	e := newEnv(t, dialect)
	root := e.admin("Root")
	alice, bob, erin := e.register("Alice"), e.register("Bob"), e.register("Erin")
	ctx := context.Background()

	live := alice.createRoom(map[string]any{"ruleset": "hotspot", "seats": 2})
	bob.must("POST", "/api/rooms/"+live.Code+"/join", nil, nil)
	alice.must("POST", "/api/rooms/"+live.Code+"/deal", nil, nil)
	n := playDraws(t, live.Code, seats(alice.roomInfo(live.Code), alice, bob), 3)
	empty := erin.createRoom(map[string]any{"ruleset": "hotspot", "seats": 2})
	g, err := e.st.GameByNumber(ctx, mustRoom(t, e, live.Code).ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.st.AddHouseRuleFailure(ctx, &store.HouseRuleFailure{RoomID: g.RoomID, RoomCode: live.Code, GameID: g.ID, GameNumber: 1, Seq: 2,
		Rule: "spin", Version: 2, Hook: "after_action", Line: 7, Seat: 1, Action: "draw", Message: `house rule "spin" v2: line 7: boom`}); err != nil {
		t.Fatal(err)
	}

	// Now: nothing is stuck yet. An hour later: the game is, and the empty room is stale.
	var p admin.Problems
	root.must("GET", "/admin/api/problems", nil, &p)
	if p.Minutes != admin.DefaultStuckMinutes || len(p.Stuck) != 0 || p.Counts.HouseRuleFailures != 1 {
		t.Fatalf("problems now: %+v", p)
	}
	e.skew.Store(int64(time.Hour))
	root.must("GET", "/admin/api/problems?minutes=30", nil, &p)
	if len(p.Stuck) != 1 || p.Stuck[0].Code != live.Code || p.Stuck[0].Seq != n || p.Stuck[0].IdleMinutes < 59 || !p.Stuck[0].Running {
		t.Errorf("stuck an hour later: %+v", p.Stuck)
	}
	wantStat := []store.HouseRuleFailureStat{{Rule: "spin", Version: 2, Failures: 1, Games: 1}}
	for i := range p.HouseRules {
		p.HouseRules[i].Last, p.HouseRules[i].LastID = time.Time{}, 0
	}
	if diff := cmp.Diff(wantStat, p.HouseRules); diff != "" {
		t.Errorf("house-rule failures (-want +got):\n%s", diff)
	}
	if len(p.Failures) != 1 || p.Failures[0].RoomCode != live.Code || p.Failures[0].Line != 7 {
		t.Errorf("failures: %+v", p.Failures)
	}
	var d admin.Dashboard
	root.must("GET", "/admin/api/dashboard", nil, &d)
	if d.Problems.StuckGames != 1 || d.Problems.HouseRuleFailures != 1 {
		t.Errorf("dashboard problems: %+v", d.Problems)
	}
	root.refused("GET", "/admin/api/problems?minutes=soon", nil, 400, "bad_query")

	// The replay: one spectator's view after the deal and after each action, no hand in any.
	var rep room.Replay
	root.must("GET", "/admin/api/rooms/"+strings.ToLower(live.Code)+"/games/1/replay", nil, &rep)
	if !rep.Matches || len(rep.Log) != n || len(rep.Frames) != n+1 {
		t.Fatalf("replay: matches %v, %d actions, %d frames", rep.Matches, len(rep.Log), len(rep.Frames))
	}
	for i, f := range rep.Frames {
		var v struct {
			Viewer int `json:"viewer"`
			Zones  []struct {
				ID    string `json:"id"`
				Cards []any  `json:"cards"`
			} `json:"zones"`
		}
		if err := json.Unmarshal(f.View, &v); err != nil || f.Seq != i {
			t.Fatalf("frame %d (seq %d): %v", i, f.Seq, err)
		}
		for _, z := range v.Zones {
			if strings.HasPrefix(z.ID, "hand") && len(z.Cards) > 0 {
				t.Errorf("frame %d shows the cards of %s", i, z.ID)
			}
		}
	}
	root.refused("GET", "/admin/api/rooms/"+live.Code+"/games/9/replay", nil, 404, "no_game")
	root.refused("GET", "/admin/api/rooms/"+live.Code+"/games/0/replay", nil, 400, "bad_path")
	alice.refused("GET", "/admin/api/rooms/"+live.Code+"/games/1/replay", nil, 403, "admin_only")

	// The room list's activities.
	codes := func(query string) []string {
		var l admin.RoomList
		root.must("GET", "/admin/api/rooms?"+query, nil, &l)
		var out []string
		for _, r := range l.Rooms {
			out = append(out, r.Code)
		}
		slices.Sort(out)
		return out
	}
	both := []string{live.Code, empty.Code}
	slices.Sort(both)
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"activity=idle", both},
		{"activity=stuck", []string{live.Code}},
		{"activity=stale", both},
		{"activity=stale&minutes=120", []string{}},
	} {
		if got := codes(c.query); !slices.Equal(got, c.want) {
			t.Errorf("rooms %s: %v, want %v", c.query, got, c.want)
		}
	}
	root.refused("GET", "/admin/api/rooms?activity=sleepy", nil, 400, "bad_query")

	// Bulk close: bad input changes nothing; an unknown room is reported, the others closed.
	root.refused("POST", "/admin/api/rooms/close", map[string]any{"codes": []string{}, "reason": "stale"}, 400, "no_rooms")
	root.refused("POST", "/admin/api/rooms/close", map[string]any{"codes": []string{empty.Code}, "reason": " "}, 400, "reason_required")
	alice.refused("POST", "/admin/api/rooms/close", map[string]any{"codes": []string{empty.Code}, "reason": "mine"}, 403, "admin_only")
	if sr := mustRoom(t, e, empty.Code); sr.Status != store.RoomOpen {
		t.Fatalf("a refused bulk close closed %s", empty.Code)
	}
	var res admin.ClosedRooms
	root.must("POST", "/admin/api/rooms/close", map[string]any{"codes": []string{strings.ToLower(empty.Code), "NOPE99", empty.Code}, "reason": "stale"}, &res)
	if !slices.Equal(res.Closed, []string{empty.Code}) || len(res.Failed) != 1 || res.Failed[0].Code != "NOPE99" || !strings.Contains(res.Failed[0].Reason, "no room") {
		t.Errorf("bulk close: %+v", res)
	}
	if sr := mustRoom(t, e, empty.Code); sr.Status != store.RoomClosed {
		t.Errorf("%s is %s after the bulk close", empty.Code, sr.Status)
	}
	if got := auditActions(t, root); !slices.Contains(got, "root room.close "+empty.Code+" (hotspot)") {
		t.Errorf("audit: %v", got)
	}

	// A plugin killed while idle is a death at once, with its last error, before any call.
	if err := syscall.Kill(e.plugin.Stats().PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(waitFor); ; time.Sleep(10 * time.Millisecond) {
		root.must("GET", "/admin/api/problems", nil, &p)
		if len(p.Plugins) == 1 {
			if pl := p.Plugins[0]; pl.ID != "hotspot" || pl.Crashes != 1 || pl.Running || !strings.Contains(pl.LastError, "died between calls") || p.Counts.PluginDeaths != 1 {
				t.Errorf("plugin deaths: %+v (counted %d)", p.Plugins, p.Counts.PluginDeaths)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the killed plugin is not among the problems: %+v", p.Plugins)
		}
	}
	root.must("GET", "/admin/api/dashboard", nil, &d)
	if d.Problems.PluginDeaths != 1 {
		t.Errorf("dashboard plugin deaths: %d, want 1", d.Problems.PluginDeaths)
	}
}

func mustRoom(t *testing.T, e *env, code string) *store.Room {
	t.Helper()
	sr, err := e.st.RoomByCode(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	return sr
}
