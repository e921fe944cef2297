package server_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"cardhouse/platform/room"
	"cardhouse/platform/server"
	"cardhouse/platform/store"
	"cardhouse/platform/store/storetest"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/plugin"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/crypto/bcrypt"
)

// houseDryRun keeps upload checks short in tests: two bot games of at most 400 actions each.
var houseDryRun = room.DryRun{Games: 2, MaxActions: 400, Timeout: 60 * time.Second}

// newHouseEnv is newEnv with a shorter dry run for uploaded house rules.
func newHouseEnv(t *testing.T, dialect string, engines map[string]engine.Engine) *env {
	t.Helper()
	storetest.SkipUnlessAvailable(t, dialect)
	e := &env{t: t, dsn: storetest.DSN(t, dialect, t.TempDir()), engines: engines, clock: room.NewFakeClock(time.Unix(1_800_000_000, 0))}
	ctx := context.Background()
	st, err := store.Open(ctx, store.Config{DSN: e.dsn})
	if err != nil {
		t.Fatalf("opening the store: %v", err)
	}
	rooms, err := room.NewManager(ctx, room.Config{Store: st, Engines: engines, Clock: e.clock, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	e.st, e.rooms = st, rooms
	e.srv = server.New(server.Config{Store: st, Rooms: rooms, Logger: quietLogger(), BcryptCost: bcrypt.MinCost, LoginAttempts: 1000, HouseRuleDryRun: houseDryRun})
	e.http = httptest.NewServer(e.srv.Handler())
	t.Cleanup(e.stop)
	return e
}

// variantPlugin launches a built-in variant's plugin from the cardhouse binary (`cardhouse plugin
// serve ID`), skipping when the binary does not build; it returns the process and its description.
func variantPlugin(t *testing.T, id string) (*plugin.Process, *engine.Description) {
	t.Helper()
	if cardhouseBin == "" {
		t.Skipf("the cardhouse binary does not build, so its plugins cannot be launched: %s", cardhouseBuildErr)
	}
	p := plugin.NewProcess(plugin.Spec{Path: cardhouseBin, Args: []string{"plugin", "serve", id}}, plugin.Config{})
	t.Cleanup(func() { p.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	d, err := p.Describe(ctx)
	if err != nil {
		t.Fatalf("launching the %s plugin: %v", id, err)
	}
	return p, d
}

// lastcardPlugin launches the Last Card plugin of the cardhouse binary.
func lastcardPlugin(t *testing.T) *plugin.Process {
	t.Helper()
	p, d := variantPlugin(t, "lastcard")
	if !d.HouseRules {
		t.Fatal("the lastcard plugin runs no house rules")
	}
	return p
}

func exampleRule(t *testing.T, file string) string {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	b, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "..", "plugins", "houserules", file))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

type houseRuleResp struct {
	HouseRule struct {
		ID       int64    `json:"id"`
		Name     string   `json:"name"`
		OwnerID  int64    `json:"owner_id"`
		Rulesets []string `json:"rulesets"`
		Versions []struct {
			Number  int          `json:"number"`
			Status  string       `json:"status"`
			Options []sdk.Option `json:"options"`
			Hooks   []string     `json:"hooks"`
			Source  string       `json:"source"`
		} `json:"versions"`
	} `json:"house_rule"`
	DryRun []room.DryRunGame `json:"dry_run"`
}

type houseListResp struct {
	HouseRules []struct {
		Name     string `json:"name"`
		Versions []struct {
			Number int    `json:"number"`
			Status string `json:"status"`
		} `json:"versions"`
	} `json:"house_rules"`
}

func (u *user) refused(method, path string, body any, status int, code string, reasonHas ...string) apiErr {
	u.e.t.Helper()
	var ae apiErr
	if got := u.call(method, path, body, &ae); got != status || ae.Error.Code != code {
		u.e.t.Fatalf("%s %s as %s: status %d code %q (%s), want %d %q", method, path, u.name, got, ae.Error.Code, ae.Error.Reason, status, code)
	}
	for _, s := range reasonHas {
		if !strings.Contains(ae.Error.Reason, s) {
			u.e.t.Fatalf("%s %s: reason %q does not say %q", method, path, ae.Error.Reason, s)
		}
	}
	return ae
}

func (e *env) approve(name string, number int, admin int64) {
	e.t.Helper()
	ctx := context.Background()
	sc, err := e.st.HouseRuleByName(ctx, name)
	if err != nil {
		e.t.Fatal(err)
	}
	v, err := e.st.HouseRuleVersionByNumber(ctx, sc.ID, number)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.st.ApproveHouseRuleVersion(ctx, v.ID, admin, "reviewed in a test"); err != nil {
		e.t.Fatal(err)
	}
}

// TestHouseRuleEndToEnd uploads the winner-bonus example through the API (checked through the
// real Last Card plugin process, with a dry run), has an admin approve it through the store,
// enables it with an option in another user's room, plays a one-round game against a bot to the
// end over the WebSocket, and checks the bonus in what the players receive. Bad input on the way:
// a syntax error, a script that never ends, someone else's unapproved script, options of the wrong
// type: each a clear error that changes nothing.
func TestHouseRuleEndToEnd(t *testing.T) {
	p := lastcardPlugin(t)
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) { testHouseRuleEndToEnd(t, dialect, p) })
	}
}

func testHouseRuleEndToEnd(t *testing.T, dialect string, p *plugin.Process) {
	e := newHouseEnv(t, dialect, map[string]engine.Engine{"lastcard": p})
	alice, bob, carol, admin := e.register("Alice"), e.register("Bob"), e.register("Carol"), e.register("Root")
	guest := e.guest("Gus")
	bonus := exampleRule(t, "winner-bonus.lua")

	// Bad uploads: each refused with the script's name and line; nothing stored.
	alice.refused("POST", "/api/house-rules", map[string]any{"source": "name = \"broken\"\ndescription = \"x\"\nfunction on_round_end(game)\n  if then\nend\n", "rulesets": []string{"lastcard"}},
		400, "bad_house_rule", `house rule "broken"`, "line 4", "syntax error")
	spin := "name = \"spin\"\ndescription = \"Never lets an action finish.\"\nfunction after_action(game, action)\n  while true do end\nend\n"
	alice.refused("POST", "/api/house-rules", map[string]any{"source": spin, "rulesets": []string{"lastcard"}},
		400, "bad_house_rule", `house rule "spin"`, "line 4", "time budget", "dry run game 1 of lastcard")
	alice.refused("POST", "/api/house-rules", map[string]any{"source": bonus, "rulesets": []string{"nosuch"}}, 400, "unknown_ruleset", `"nosuch"`)
	alice.refused("POST", "/api/house-rules", map[string]any{"source": bonus}, 400, "no_rulesets", "lastcard")
	guest.refused("POST", "/api/house-rules", map[string]any{"source": bonus, "rulesets": []string{"lastcard"}}, 403, "guest")
	var mine houseListResp
	alice.must("GET", "/api/house-rules?mine=true", nil, &mine)
	if len(mine.HouseRules) != 0 {
		t.Fatalf("refused uploads were stored: %+v", mine)
	}

	// The upload: checked through the plugin, a dry run of bot games, version 1 pending.
	var up houseRuleResp
	alice.must("POST", "/api/house-rules", map[string]any{"source": bonus, "rulesets": []string{"lastcard"}}, &up)
	if up.HouseRule.Name != "winner-bonus" || len(up.HouseRule.Versions) != 1 || up.HouseRule.Versions[0].Status != store.HouseRulePending {
		t.Fatalf("uploaded: %+v", up.HouseRule)
	}
	wantOpts := []sdk.Option{{Name: "points", Label: "Bonus points", Type: sdk.OptionInt, Default: float64(50), Min: 0, Max: 500}}
	if diff := cmp.Diff(wantOpts, up.HouseRule.Versions[0].Options); diff != "" {
		t.Errorf("declared options -want +got:\n%s", diff)
	}
	// Last Card seats 2 to 4: one game per seat count, more than houseDryRun.Games.
	var seats []int
	for _, g := range up.DryRun {
		seats = append(seats, g.Seats)
	}
	if diff := cmp.Diff([]int{2, 3, 4}, seats); diff != "" || up.DryRun[0].Actions == 0 {
		t.Errorf("dry run: %+v, want a game of each seat count (-want +got):\n%s", up.DryRun, diff)
	}
	if h := up.DryRun[0].Hooks; len(h) != 1 || h[0].Hook != "on_round_end" || h[0].Calls == 0 {
		t.Errorf("dry run game 1 hooks: %+v, want on_round_end called", h)
	}
	alice.refused("POST", "/api/house-rules", map[string]any{"source": bonus, "rulesets": []string{"lastcard"}}, 409, "name_taken", "new version")
	alice.refused("POST", "/api/house-rules/winner-bonus/versions", map[string]any{"source": bonus}, 409, "unchanged", "version 1")
	bob.refused("POST", "/api/house-rules/winner-bonus/versions", map[string]any{"source": bonus + "\n"}, 403, "not_owner")

	// Before approval only Alice sees it; Bob's room cannot enable it.
	var list houseListResp
	bob.must("GET", "/api/house-rules?ruleset=lastcard", nil, &list)
	if len(list.HouseRules) != 0 {
		t.Fatalf("Bob sees unapproved rules: %+v", list)
	}
	bob.refused("GET", "/api/house-rules/winner-bonus", nil, 404, "no_house_rule")
	var read houseRuleResp
	alice.must("GET", "/api/house-rules/winner-bonus", nil, &read)
	if read.HouseRule.Versions[0].Source != bonus {
		t.Fatal("the owner does not read the source back")
	}
	info := bob.createRoom(map[string]any{"ruleset": "lastcard", "mode": "computer", "bots": []int{1}, "options": map[string]any{"target": "single"}})
	path := "/api/rooms/" + info.Code + "/house-rules"
	bob.refused("POST", path, map[string]any{"name": "winner-bonus"}, 403, "not_approved", "winner-bonus", "review")
	if got := bob.roomInfo(info.Code); len(got.HouseRules) != 0 {
		t.Fatalf("a refused enable changed the room: %+v", got.HouseRules)
	}

	e.approve("winner-bonus", 1, admin.id)
	bob.must("GET", "/api/house-rules?ruleset=lastcard", nil, &list)
	if len(list.HouseRules) != 1 || list.HouseRules[0].Name != "winner-bonus" {
		t.Fatalf("approved rules for lastcard: %+v", list)
	}
	// Options of the wrong type and unknown ones are refused, each field named; a player who is not
	// the host cannot enable.
	ae := bob.refused("POST", path, map[string]any{"name": "winner-bonus", "options": map[string]any{"points": "lots", "colour": 1}}, 400, "bad_options")
	var fields []string
	for _, f := range ae.Error.Fields {
		fields = append(fields, f.Field)
	}
	if diff := cmp.Diff([]string{"house_rules.winner-bonus.options.points", "house_rules.winner-bonus.options.colour"}, fields); diff != "" {
		t.Errorf("bad option fields -want +got:\n%s", diff)
	}
	bob.refused("POST", path, map[string]any{"name": "winner-bonus", "options": map[string]any{"points": 501}}, 400, "bad_options", "500")
	carol.refused("POST", path, map[string]any{"name": "winner-bonus"}, 403, "not_host")
	if got := bob.roomInfo(info.Code); len(got.HouseRules) != 0 {
		t.Fatalf("refused enables changed the room: %+v", got.HouseRules)
	}
	var rr roomResp
	bob.must("POST", path, map[string]any{"name": "winner-bonus", "options": map[string]any{"points": 100}}, &rr)
	want := []room.HouseRuleInfo{{Name: "winner-bonus", Version: 1, Description: rr.Room.HouseRules[0].Description, OwnerID: alice.id,
		Status: store.HouseRuleApproved, Usable: true, Options: map[string]any{"points": float64(100)}, Schema: wantOpts}}
	if diff := cmp.Diff(want, rr.Room.HouseRules); diff != "" {
		t.Fatalf("the room's house rules -want +got:\n%s", diff)
	}

	// The room form: house rules chosen when the room is created, checked the same way; a refused
	// form creates no room.
	lobby := func() int {
		var l struct {
			Rooms []room.Info `json:"rooms"`
		}
		carol.must("GET", "/api/rooms", nil, &l)
		return len(l.Rooms)
	}
	before := lobby()
	form := func(rules ...map[string]any) map[string]any {
		return map[string]any{"ruleset": "lastcard", "seats": 2, "house_rules": rules}
	}
	ae = carol.refused("POST", "/api/rooms", form(map[string]any{"name": "winner-bonus", "options": map[string]any{"points": true}}), 400, "bad_options")
	if len(ae.Error.Fields) != 1 || ae.Error.Fields[0].Field != "house_rules.winner-bonus.options.points" {
		t.Errorf("form with a bad option: fields %+v", ae.Error.Fields)
	}
	ae = carol.refused("POST", "/api/rooms", form(map[string]any{"name": "nosuch"}, map[string]any{"name": "winner-bonus"}, map[string]any{"name": "winner-bonus"}), 400, "bad_options")
	if len(ae.Error.Fields) != 2 || ae.Error.Fields[0].Field != "house_rules[0]" || ae.Error.Fields[1].Field != "house_rules[2]" {
		t.Errorf("form with an unknown and a twice-chosen rule: fields %+v", ae.Error.Fields)
	}
	if n := lobby(); n != before {
		t.Fatalf("refused forms created rooms: %d in the lobby, was %d", n, before)
	}
	formed := carol.createRoom(form(map[string]any{"name": "winner-bonus", "options": map[string]any{"points": 7}}))
	if len(formed.HouseRules) != 1 || formed.HouseRules[0].Options["points"] != float64(7) || formed.HouseRules[0].Version != 1 {
		t.Fatalf("room created with a house rule: %+v", formed.HouseRules)
	}

	// Play the round to its end: Bob plays seat 0 over the WebSocket, the bot seat 1; Carol watches.
	carol.must("POST", "/api/rooms/"+info.Code+"/join", map[string]any{"spectate": true}, nil)
	cb, cc := bob.connect(info.Code), carol.connect(info.Code)
	bob.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)
	bob.refused("POST", path, map[string]any{"name": "winner-bonus", "options": map[string]any{"points": 5}}, 409, "game_running")
	bob.refused("DELETE", path+"/winner-bonus", nil, 409, "game_running")
	final := playToEnd(t, cb)
	checkBonus(t, "Bob", final, 100)
	var spectatorFinal *sdk.View
	for spectatorFinal == nil || spectatorFinal.Phase != sdk.PhaseGameOver {
		m := cc.expect("view")
		v := view(m)
		spectatorFinal = &v
	}
	checkBonus(t, "Carol (spectating)", *spectatorFinal, 100)

	got := bob.roomInfo(info.Code)
	if got.Game == nil || !slices.Equal(got.Game.HouseRules, []string{"winner-bonus v1"}) {
		t.Fatalf("the game's house rules: %+v", got.Game)
	}
	var rep room.Replay
	bob.must("GET", "/api/rooms/"+info.Code+"/games/1/replay", nil, &rep)
	if !rep.Matches {
		t.Fatal("the replay with the game's pinned house rule does not rebuild the stored state")
	}

	// A version 2; an admin disables version 1: the room's next deal is refused, naming the rule,
	// until the host takes the newest version; game 1 still replays with v1.
	v2 := strings.Replace(bonus, "default = 50", "default = 70", 1)
	var up2 houseRuleResp
	alice.must("POST", "/api/house-rules/winner-bonus/versions", map[string]any{"source": v2}, &up2)
	if n := len(up2.HouseRule.Versions); n != 2 || up2.HouseRule.Versions[1].Status != store.HouseRulePending {
		t.Fatalf("after version 2: %+v", up2.HouseRule.Versions)
	}
	sc, _ := e.st.HouseRuleByName(context.Background(), "winner-bonus")
	v1rec, _ := e.st.HouseRuleVersionByNumber(context.Background(), sc.ID, 1)
	if err := e.st.DisableHouseRuleVersion(context.Background(), v1rec.ID, admin.id, "superseded"); err != nil {
		t.Fatal(err)
	}
	bob.refused("POST", "/api/rooms/"+info.Code+"/deal", nil, 409, "house_rule_unusable", `"winner-bonus" v1`, "superseded")
	bob.refused("POST", path, map[string]any{"name": "winner-bonus"}, 403, "not_approved", "v2", "review")
	e.approve("winner-bonus", 2, admin.id)
	bob.must("POST", path, map[string]any{"name": "winner-bonus"}, &rr)
	if len(rr.Room.HouseRules) != 1 || rr.Room.HouseRules[0].Version != 2 || rr.Room.HouseRules[0].Options["points"] != float64(70) {
		t.Fatalf("after enabling the newest version: %+v", rr.Room.HouseRules)
	}
	bob.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)
	if g := bob.roomInfo(info.Code).Game; g == nil || g.Number != 2 || !slices.Equal(g.HouseRules, []string{"winner-bonus v2"}) {
		t.Fatalf("game 2: %+v", g)
	}
	bob.must("GET", "/api/rooms/"+info.Code+"/games/1/replay", nil, &rep)
	if !rep.Matches {
		t.Fatal("game 1 no longer replays after its version was disabled")
	}

	// A restart reloads the room with its enabled rule and game 2's pinned version.
	e.stop()
	e.start()
	after := bob.roomInfo(info.Code)
	if after.Game == nil || !slices.Equal(after.Game.HouseRules, []string{"winner-bonus v2"}) || len(after.HouseRules) != 1 || after.HouseRules[0].Version != 2 {
		t.Fatalf("after a restart: game %+v, rules %+v", after.Game, after.HouseRules)
	}
}

// playToEnd plays seat 0 with the first open action of each view until the game is over, and
// returns the last view. Bots act at once, so a view with nothing to do is followed by another.
func playToEnd(t *testing.T, c *conn) sdk.View {
	t.Helper()
	return playUntil(t, c, nil)
}

// playUntil is playToEnd that also stops once stop (when not nil) says so of the latest view.
func playUntil(t *testing.T, c *conn, stop func(sdk.View) bool) sdk.View {
	t.Helper()
	refusals := 0
	for range 5000 {
		v := c.latestView()
		if v == nil {
			c.expect("view")
			continue
		}
		if v.Phase == sdk.PhaseGameOver || (stop != nil && stop(*v)) {
			return *v
		}
		a := chooseWithColour(*v)
		if a == nil {
			c.expect("view")
			continue
		}
		c.send(map[string]any{"type": "act", "action": a})
		for {
			m := c.next()
			if typ := str(m["type"]); typ == "accepted" {
				break
			} else if typ == "error" {
				if refusals++; refusals > 20 {
					t.Fatalf("seat 0's actions keep being refused: %s (last: %+v)", m["reason"], a)
				}
				break
			}
		}
	}
	t.Fatal("the game did not end within 5000 steps")
	return sdk.View{}
}

// chooseWithColour picks seat 0's action: call, else the first playable card (naming a colour
// or suit when the card needs one), else the first action open (draw, pass); nil when none is.
func chooseWithColour(v sdk.View) *sdk.Action {
	if v.Has(sdk.ActCall) {
		return &sdk.Action{Type: sdk.ActCall}
	}
	if p, ok := v.Action(sdk.ActPlay); ok {
		a := &sdk.Action{Type: sdk.ActPlay, Cards: p.Cards[:1]}
		if slices.Contains(p.ChoiceFor, p.Cards[0]) && len(p.Choices) > 0 {
			*a = a.WithChoice(p.Choices[0])
		}
		return a
	}
	for _, a := range v.Actions {
		if a.Type != sdk.ActCatch {
			return &sdk.Action{Type: a.Type}
		}
	}
	return nil
}

// checkBonus finds the round's scoring in a final view: the winner scored the round's points plus
// the house rule's bonus, and the bonus event is there.
func checkBonus(t *testing.T, who string, v sdk.View, points int) {
	t.Helper()
	var scored, bonus *sdk.Event
	for i, ev := range v.Events {
		switch ev.Name {
		case "round_scored":
			scored = &v.Events[i]
		case "bonus":
			bonus = &v.Events[i]
		}
	}
	if scored == nil || bonus == nil {
		raw, _ := json.Marshal(v.Events)
		t.Fatalf("%s: the final view's events %s lack round_scored or bonus", who, raw)
	}
	if bonus.Count != points || bonus.Seat != v.Winner || scored.Seat != v.Winner {
		t.Fatalf("%s: bonus event %+v, round_scored %+v, winner %d: want a bonus of %d to the winner", who, *bonus, *scored, v.Winner, points)
	}
	for _, p := range v.Players {
		if p.Seat == v.Winner {
			if p.Score == nil || *p.Score != scored.Count+points {
				t.Fatalf("%s: winner's score %v, want the round's %d + bonus %d", who, p.Score, scored.Count, points)
			}
			return
		}
	}
	t.Fatalf("%s: no player is the winner %d", who, v.Winner)
}

// TestHouseRuleHostileUploads uploads hostile scripts through the API: each is refused with a
// message naming the script (and the line where there is one), the plugin survives, and nothing
// is stored. Hooks run on the first action of the dry run, or at the start for on_start.
func TestHouseRuleHostileUploads(t *testing.T) {
	p := lastcardPlugin(t)
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) { testHouseRuleHostileUploads(t, dialect, p) })
	}
}

func testHouseRuleHostileUploads(t *testing.T, dialect string, p *plugin.Process) {
	e := newHouseEnv(t, dialect, map[string]engine.Engine{"lastcard": p})
	alice := e.register("Alice")
	hook := func(name, body string) string {
		return "name = \"" + name + "\"\ndescription = \"Hostile.\"\nfunction after_action(game, action)\n" + body + "\nend\n"
	}
	for _, tc := range []struct {
		name   string
		source string
		want   []string
		// anyOf: the reason says one of these (which limit a bomb hits first depends on the machine).
		anyOf []string
	}{
		{"runtime error", hook("boom", "  local x = nil\n  return x.y"), []string{`house rule "boom"`, "line 5", "after_action"}, nil},
		{"os.execute", hook("os-exec", `  os.execute("touch /tmp/cardhouse-pwned")`), []string{`house rule "os-exec"`, "line 4"}, nil},
		{"io.open", hook("io-open", `  io.open("/etc/passwd")`), []string{`house rule "io-open"`, "line 4"}, nil},
		{"require", hook("req", `  require("os")`), []string{`house rule "req"`, "line 4"}, nil},
		{"load", hook("loader", `  load("return 1")()`), []string{`house rule "loader"`, "line 4"}, nil},
		{"memory bomb", hook("bomb", "  local t = {}\n  for i = 1, 1e9 do t[i] = {i, i, i} end"), []string{`house rule "bomb"`}, []string{"memory cap", "time budget"}},
		{"huge string", hook("rep", `  local s = string.rep("x", 1e9)`), []string{`house rule "rep"`, "string.rep"}, nil},
		{"a duplicated card", hook("dup", `  local p = game.zones["pile"]; p[#p + 1] = p[#p]`), []string{`house rule "dup"`, "exactly once"}, nil},
		{"too many events", hook("chatty", `  for i = 1, 100 do game.emit("spam") end`), []string{`house rule "chatty"`, "more than 32 events"}, nil},
		{"spinning top level", "name = \"top\"\ndescription = \"x\"\nwhile true do end\nfunction on_start(game) end\n", []string{`house rule "top"`, "time budget"}, nil},
		{"misspelt hook", "name = \"typo\"\ndescription = \"x\"\nfunction before_acton(game, a) end\n", []string{`house rule "typo"`, "before_acton"}, nil},
		{"no name", "description = \"x\"\nfunction on_start(game) end\n", []string{"name"}, nil},
	} {
		ae := alice.refused("POST", "/api/house-rules", map[string]any{"source": tc.source, "rulesets": []string{"lastcard"}}, 400, "bad_house_rule", tc.want...)
		if len(tc.anyOf) > 0 && !slices.ContainsFunc(tc.anyOf, func(w string) bool { return strings.Contains(ae.Error.Reason, w) }) {
			t.Errorf("%s: reason %q says none of %q", tc.name, ae.Error.Reason, tc.anyOf)
		}
		t.Logf("%s: %s", tc.name, ae.Error.Reason)
	}
	var mine houseListResp
	alice.must("GET", "/api/house-rules?mine=true", nil, &mine)
	if len(mine.HouseRules) != 0 {
		t.Fatalf("hostile uploads were stored: %+v", mine)
	}
	if _, err := os.Stat("/tmp/cardhouse-pwned"); err == nil {
		t.Fatal("a script ran os.execute")
	}
	// The plugin survived them all: a good rule still uploads.
	var up houseRuleResp
	alice.must("POST", "/api/house-rules", map[string]any{"source": exampleRule(t, "winner-bonus.lua"), "rulesets": []string{"lastcard"}}, &up)
}

// TestUploadDryRunCoversEverySeatCount: the upload's dry run plays every seat count the ruleset
// allows, however few games it is set to, so a rule that breaks only at 5 seats is refused.
func TestUploadDryRunCoversEverySeatCount(t *testing.T) {
	p, d := variantPlugin(t, "hotspot")
	if d.MaxSeats < 5 {
		t.Fatalf("hotspot seats at most %d", d.MaxSeats)
	}
	five := "name = \"five-breaks\"\ndescription = \"Breaks at five seats.\"\nfunction after_action(game, action)\n" +
		"  if game.seats >= 5 then error(\"too many seats\") end\nend\n"
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			e := newHouseEnv(t, dialect, map[string]engine.Engine{"hotspot": p})
			alice := e.register("Alice")
			alice.refused("POST", "/api/house-rules", map[string]any{"source": five, "rulesets": []string{"hotspot"}},
				400, "bad_house_rule", "(5 seats,", `house rule "five-breaks"`, "line 4", "too many seats")
		})
	}
}

// TestHouseRuleLogReachesItsOwner: what a house rule prints in a room's game goes to the
// connections of the rule's owner and of admins, never to the other players and spectators.
func TestHouseRuleLogReachesItsOwner(t *testing.T) {
	p := lastcardPlugin(t)
	chatty := "name = \"chatty\"\ndescription = \"Says what happens.\"\nfunction on_start(game)\n  print(\"dealt\", game.seats)\nend\n" +
		"function after_action(game, action)\n  game.log(\"after\", action.type)\nend\n"
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			e := newHouseEnv(t, dialect, map[string]engine.Engine{"lastcard": p})
			alice, bob, root := e.register("Alice"), e.register("Bob"), e.register("Root")
			if err := e.st.SetRole(context.Background(), root.id, store.RoleAdmin); err != nil {
				t.Fatal(err)
			}
			alice.must("POST", "/api/house-rules", map[string]any{"source": chatty, "rulesets": []string{"lastcard"}}, nil)
			info := alice.createRoom(map[string]any{"ruleset": "lastcard", "mode": "computer", "bots": []int{1}, "options": map[string]any{"target": "single"}})
			alice.must("POST", "/api/rooms/"+info.Code+"/house-rules", map[string]any{"name": "chatty"}, nil)
			for _, u := range []*user{bob, root} {
				u.must("POST", "/api/rooms/"+info.Code+"/join", map[string]any{"spectate": true}, nil)
			}
			ca, cb, cr := alice.connect(info.Code), bob.connect(info.Code), root.connect(info.Code)
			alice.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)
			logsOf := func(msgs []map[string]json.RawMessage) []engine.HouseLine {
				var out []engine.HouseLine
				for _, m := range msgs {
					if str(m["type"]) == "house_log" {
						var lines []engine.HouseLine
						if err := json.Unmarshal(m["house_log"], &lines); err != nil {
							t.Fatal(err)
						}
						out = append(out, lines...)
					}
				}
				return out
			}
			logs := func(c *conn) []engine.HouseLine { return logsOf(c.sync()) }
			want := []engine.HouseLine{{Rule: "chatty", Hook: "on_start", Text: "dealt\t2"}}
			if diff := cmp.Diff(want, logs(ca)); diff != "" {
				t.Errorf("the owner's log after the deal (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(want, logs(cr)); diff != "" {
				t.Errorf("the admin's log after the deal (-want +got):\n%s", diff)
			}
			if got := logs(cb); len(got) != 0 {
				t.Errorf("a spectator who owns nothing got the rule's log: %+v", got)
			}
			v := ca.latestView()
			if v == nil {
				t.Fatal("no view after the deal")
			}
			a := chooseWithColour(*v)
			if a == nil {
				t.Fatalf("nothing for seat 0 to do: %+v", v.Actions)
			}
			// The log comes after the action's views, before or after its accepted: read up to
			// the accepted, then everything queued.
			ca.send(map[string]any{"type": "act", "action": a})
			var msgs []map[string]json.RawMessage
			for {
				m := ca.next()
				msgs = append(msgs, m)
				if str(m["type"]) == "accepted" {
					break
				}
			}
			got := logsOf(append(msgs, ca.sync()...))
			if !slices.Contains(got, engine.HouseLine{Rule: "chatty", Hook: "after_action", Text: "after\t" + a.Type}) {
				t.Errorf("the owner's log after an action of type %s: %+v", a.Type, got)
			}
			if got := logs(cb); len(got) != 0 {
				t.Errorf("a spectator got the rule's log: %+v", got)
			}
		})
	}
}
