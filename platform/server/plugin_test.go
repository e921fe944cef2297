package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"cardhouse/platform/room"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/plugin"

	"github.com/google/go-cmp/cmp"
)

// pluginEnv makes this test binary serve a test engine as a plugin process.
const pluginEnv = "CARDHOUSE_SERVER_TEST_PLUGIN"

// pluginFailEnv names a file: while it exists, the test plugin process exits at its launch.
const pluginFailEnv = "CARDHOUSE_SERVER_TEST_PLUGIN_FAIL_IF"

// cardhouseBin is the cardhouse binary built once by TestMain ("" when it does not build yet).
var cardhouseBin, cardhouseBuildErr = "", ""

func TestMain(m *testing.M) {
	if os.Getenv(pluginEnv) == matcherID {
		if flag := os.Getenv(pluginFailEnv); flag != "" {
			if _, err := os.Stat(flag); err == nil {
				fmt.Fprintln(os.Stderr, "this plugin is broken on purpose:", flag, "exists")
				os.Exit(3)
			}
		}
		plugin.Serve(matcherEngine())
		return
	}
	dir, err := os.MkdirTemp("", "cardhouse-server-test-")
	if err != nil {
		panic(err)
	}
	bin := filepath.Join(dir, "cardhouse")
	out, err := exec.Command("go", "build", "-o", bin, "cardhouse/platform/cmd/cardhouse").CombinedOutput()
	if err != nil {
		cardhouseBuildErr = fmt.Sprintf("%v: %s", err, out)
	} else {
		cardhouseBin = bin
	}
	code := m.Run()
	plugin.CleanupClients(5 * time.Second)
	os.RemoveAll(dir)
	os.Exit(code)
}

// matcherPlugin runs the test game in a real plugin process: this test binary, re-executed.
func matcherPlugin(t *testing.T) *plugin.Process {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := plugin.NewProcess(plugin.Spec{Path: exe, Env: []string{pluginEnv + "=" + matcherID}}, plugin.Config{})
	t.Cleanup(func() { p.Close() })
	return p
}

func killPlugin(t *testing.T, p *plugin.Process) {
	t.Helper()
	pid := p.Stats().PID
	if pid == 0 {
		t.Fatal("the plugin process has not started")
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatalf("killing plugin process %d: %v", pid, err)
	}
	// Wait (polling, bounded) until the process is dead: gone, or a zombie for go-plugin to reap.
	deadline := time.Now().Add(waitFor)
	for time.Now().Before(deadline) {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil || strings.Contains(string(stat), ") Z ") {
			return
		}
	}
	t.Fatalf("plugin process %d did not die", pid)
}

// TestPluginProcessKilledMidGame plays the test game through a real plugin process, kills the
// process with SIGKILL mid-game, and checks the game goes on from its stored state.
func TestPluginProcessKilledMidGame(t *testing.T) { eachDialect(t, testPluginProcessKilledMidGame) }

func testPluginProcessKilledMidGame(t *testing.T, dialect string) {
	p := matcherPlugin(t)
	e := newEnv(t, dialect, map[string]engine.Engine{matcherID: p})
	alice, bob, carol := e.register("Alice"), e.guest("Bob"), e.guest("Carol")
	info := alice.createRoom(map[string]any{"ruleset": matcherID, "seats": 2, "options": map[string]any{"call_seconds": 0}})
	bob.must("POST", "/api/rooms/"+info.Code+"/join", nil, nil)
	carol.must("POST", "/api/rooms/"+info.Code+"/join", map[string]any{"spectate": true}, nil)
	ca, cb, cc := alice.connect(info.Code), bob.connect(info.Code), carol.connect(info.Code)
	alice.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)
	firstPID := p.Stats().PID

	v := ca.latestView()
	ca.send(map[string]any{"type": "act", "action": choose(*v)})
	ca.expect("accepted")
	killPlugin(t, p)
	v = cb.latestView()
	cb.send(map[string]any{"type": "act", "action": choose(*v)})
	cb.expect("accepted")
	if pid := p.Stats().PID; pid == firstPID || pid == 0 {
		t.Fatalf("plugin pid %d after the kill, was %d: want a fresh process", pid, firstPID)
	}
	playOut(t, map[int]*conn{0: ca, 1: cb}, []*conn{cc}, 600)
	var rep room.Replay
	alice.must("GET", "/api/rooms/"+info.Code+"/games/1/replay", nil, &rep)
	if !rep.Matches {
		t.Fatal("the replay through the plugin does not rebuild the stored state")
	}
}

// chooseAny picks an action for a real variant from a view's open actions, preferring ones that
// need no card (draw, pickup, pass); nil when nothing is open.
func chooseAny(v sdk.View) *sdk.Action {
	for _, t := range []string{sdk.ActDraw, sdk.ActPickup} {
		if v.Has(t) {
			return &sdk.Action{Type: t}
		}
	}
	for _, spec := range v.Actions {
		a := &sdk.Action{Type: spec.Type, From: spec.From}
		if len(spec.Cards) > 0 {
			a.Cards = spec.Cards[:1]
			if len(spec.Choices) > 0 {
				if spec.Cards[0].IsFrench() {
					a.Suit = spec.Choices[0]
				} else {
					a.Color = spec.Choices[0]
				}
			}
		}
		if len(spec.Targets) > 0 {
			a.Target = &spec.Targets[0]
		}
		if len(spec.Indexes) > 0 {
			a.Index = &spec.Indexes[0]
		}
		return a
	}
	return nil
}

// TestVariantsThroughRealPlugins plays a full game of each built-in variant of the cardhouse
// binary, each in its own plugin process (`cardhouse plugin serve ID`): two players and a
// spectator, a refusal heard only by its sender, a plugin killed mid-game, then bots finish the
// game while the spectator watches and never sees a hand.
func TestVariantsThroughRealPlugins(t *testing.T) {
	if cardhouseBin == "" {
		t.Skipf("the cardhouse binary does not build yet, so its variants cannot be launched: %s", cardhouseBuildErr)
	}
	for _, id := range []string{"lastcard", "hotspot", "drugs"} {
		t.Run(id, func(t *testing.T) {
			p := plugin.NewProcess(plugin.Spec{Path: cardhouseBin, Args: []string{"plugin", "serve", id}}, plugin.Config{})
			t.Cleanup(func() { p.Close() })
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			d, err := p.Describe(ctx)
			cancel()
			if err != nil {
				t.Skipf("variant %s is not served by the cardhouse binary yet: %v", id, err)
			}
			for _, dialect := range []string{"sqlite", "postgres"} {
				t.Run(dialect, func(t *testing.T) { playVariant(t, dialect, d, p) })
			}
		})
	}
}

func playVariant(t *testing.T, dialect string, d *engine.Description, p *plugin.Process) {
	e := newEnv(t, dialect, map[string]engine.Engine{d.ID: p})
	alice, bob, carol := e.register("Alice"), e.guest("Bob"), e.guest("Carol")
	info := alice.createRoom(map[string]any{"ruleset": d.ID, "seats": 2})
	if d.ID == "lastcard" && info.Options["last_card_mode"] != "auto" {
		t.Errorf("online Last Card room options %v: want last_card_mode auto (L-8)", info.Options)
	}
	bob.must("POST", "/api/rooms/"+info.Code+"/join", nil, nil)
	carol.must("POST", "/api/rooms/"+info.Code+"/join", map[string]any{"spectate": true}, nil)
	ca, cb, cc := alice.connect(info.Code), bob.connect(info.Code), carol.connect(info.Code)
	for i, c := range []*conn{ca, cb} {
		seat := i
		c.onView = func(got int, v sdk.View) {
			if got != seat {
				t.Errorf("seat %d received the view of seat %d", seat, got)
			}
			ownHandOnly(t, seat, v)
		}
	}
	cc.onView = func(_ int, v sdk.View) { noHandCards(t, "the spectator", v) }
	alice.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)

	av, bv := ca.latestView(), cb.latestView()
	if av == nil || bv == nil {
		t.Fatal("no views after the deal")
	}
	// The seat not in turn tries to draw: refused, and only it hears why.
	idle, busy, other := cb, bv, ca
	if av.Turn == 1 {
		idle, busy, other = ca, av, cb
	}
	_ = busy
	cc.sync()
	idle.send(map[string]any{"type": "act", "id": "oops", "action": map[string]any{"type": "draw"}})
	if m := idle.expect("error"); str(m["id"]) != "oops" || str(m["code"]) == "" || str(m["code"]) == "engine_failure" {
		t.Fatalf("out-of-turn draw: %v", m)
	}
	for _, c := range []*conn{other, cc} {
		if got := c.sync(); len(got) != 0 {
			t.Fatalf("%s heard of a refused action: %v", c.u.name, got)
		}
	}

	// Kill the plugin; the seat in turn acts and the game goes on.
	killPlugin(t, p)
	turn := other
	tv := turn.latestView()
	a := chooseAny(*tv)
	if a == nil {
		t.Fatalf("the seat in turn has no action: %+v", tv)
	}
	turn.send(map[string]any{"type": "act", "id": "after-kill", "action": a})
	for {
		m := turn.next()
		if str(m["type"]) == "accepted" {
			break
		}
		if str(m["type"]) == "error" {
			if str(m["code"]) == "engine_failure" {
				t.Fatalf("after the plugin was killed: %s", m["reason"])
			}
			break // a refusal: the engine answered, the game goes on
		}
	}

	// Both players leave: bots take their seats and finish the game; Carol (now host) watches.
	bob.must("POST", "/api/rooms/"+info.Code+"/leave", nil, nil)
	alice.must("POST", "/api/rooms/"+info.Code+"/leave", nil, nil)
	rounds := 0
	for range 10000 {
		cc.sync()
		in := carol.roomInfo(info.Code)
		if in.Game != nil && in.Game.Status != "live" {
			if in.Game.Status != "over" {
				t.Fatalf("game ended as %s", in.Game.Status)
			}
			var rep room.Replay
			carol.must("GET", "/api/rooms/"+info.Code+"/games/1/replay", nil, &rep)
			if !rep.Matches {
				t.Fatal("the replay does not rebuild the stored state")
			}
			t.Logf("%s: game over after %d actions and %d deals between rounds, winner seat %d", d.ID, len(rep.Log), rounds, rep.Final.Winner)
			return
		}
		if in.Game != nil && in.Game.Phase == sdk.PhaseRoundOver {
			// Between rounds (Last Card) the host deals the next one (P-5, L-10).
			carol.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)
			rounds++
			continue
		}
		// Ruleset deadlines (LAST CARD windows) fall due as the fake clock moves.
		e.clock.Advance(6 * time.Second)
		if in.Game != nil && in.Game.Seq == carol.roomInfo(info.Code).Game.Seq {
			cc.expect("view")
		}
	}
	raw, _ := json.Marshal(carol.roomInfo(info.Code))
	t.Fatalf("the bots did not finish the game: %s", raw)
}

// TestFailedCommitKeepsTheViews plays through a real plugin process, whose views the room
// receives into buffers it reuses, and makes one action's commit fail (the actions table is
// renamed away for a moment): the action is refused with store_failure, and a player who then
// connects again gets the view of the stored game, not of the action that was never stored.
// With v1 connections the room takes every step's views whole; with v2 connections only, it
// keeps them as the patches of the steps (platform/room/lazy.go) and makes them whole for the
// connection.
func TestFailedCommitKeepsTheViews(t *testing.T) {
	eachDialect(t, func(t *testing.T, dialect string) {
		for _, v2 := range []bool{false, true} {
			t.Run(fmt.Sprintf("v2=%v", v2), func(t *testing.T) { testFailedCommitKeepsTheViews(t, dialect, v2) })
		}
	})
}

func testFailedCommitKeepsTheViews(t *testing.T, dialect string, v2 bool) {
	p := matcherPlugin(t)
	lc := &leanCounter{Engine: p}
	e := newEnv(t, dialect, map[string]engine.Engine{matcherID: lc})
	alice, bob := e.register("Alice"), e.guest("Bob")
	info := alice.createRoom(map[string]any{"ruleset": matcherID, "seats": 2, "options": map[string]any{"call_seconds": 0}})
	bob.must("POST", "/api/rooms/"+info.Code+"/join", nil, nil)
	connect := (*user).connect
	if v2 {
		connect = (*user).connectV2
	}
	conns := map[int]*conn{0: connect(alice, info.Code), 1: connect(bob, info.Code)}
	alice.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)

	// A few accepted actions, so that the room's two view buffers have both been used.
	for i := range 4 {
		c := conns[conns[0].latestView().Turn]
		c.send(map[string]any{"type": "act", "id": fmt.Sprint("ok-", i), "action": choose(*c.latestView())})
		c.expect("accepted")
	}
	before := map[int]*sdk.View{0: conns[0].latestView(), 1: conns[1].latestView()}
	turn := before[0].Turn

	db := openRaw(t, dialect, e.dsn)
	alter := func(q string) {
		t.Helper()
		if err := db.Exec(q).Error; err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	alter("ALTER TABLE actions RENAME TO actions_away")
	c := conns[turn]
	c.send(map[string]any{"type": "act", "id": "lost", "action": choose(*before[turn])})
	if m := c.expect("error"); str(m["id"]) != "lost" || str(m["code"]) != "store_failure" {
		t.Fatalf("the act whose commit failed: %v, want the error store_failure", m)
	}
	alter("ALTER TABLE actions_away RENAME TO actions")

	lc.mu.Lock()
	lean := lc.lean
	lc.mu.Unlock()
	if (lean > 0) != v2 {
		t.Fatalf("%d steps came without their views before the failed commit (v2 %v)", lean, v2)
	}
	for seat, u := range map[int]*user{0: alice, 1: bob} {
		again := connect(u, info.Code)
		got := again.latestView()
		if got == nil {
			t.Fatalf("seat %d connected again and got no view", seat)
		}
		if diff := cmp.Diff(before[seat], got); diff != "" {
			t.Fatalf("seat %d connecting again after the failed commit sees (-before +after):\n%s", seat, diff)
		}
		conns[seat] = again
	}
	// The game goes on from where it was stored.
	c = conns[turn]
	c.send(map[string]any{"type": "act", "id": "retry", "action": choose(*before[turn])})
	c.expect("accepted")
}
