package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"sync"
	"syscall"
	"testing"
	"time"

	"cardhouse/platform/room"
	"cardhouse/platform/store"
	"cardhouse/plugins/builtin"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestStickyPluginKillsAndRestarts plays a game through a real plugin process that keeps the
// game in its sticky cache, past room.StateEvery actions, while the plugin is SIGKILLed at
// random moments (between actions, and just as an action is sent, so often mid-call) and the
// server is restarted twice (once with the stored state at the deal and a tail of actions after
// it, once with the state stored at action StateEvery and a tail after that). No accepted action
// is lost (each is accepted as the next seq, and the log holds them all), every restart shows
// the same views, and the views the players hold are those an in-process replay of the log
// gives; a replay through the plugin reaches the stored state byte for byte.
func TestStickyPluginKillsAndRestarts(t *testing.T) { eachDialect(t, testStickyPluginKillsAndRestarts) }

func testStickyPluginKillsAndRestarts(t *testing.T, dialect string) {
	p := matcherPlugin(t)
	e := newEnv(t, dialect, map[string]engine.Engine{matcherID: p})
	alice, bob, code, ca, cb := twoSeats(e, map[string]any{"hand_size": 6, "call_seconds": 0})
	if d, err := p.Describe(context.Background()); err != nil || !d.Sticky {
		t.Fatalf("the plugin is not sticky: %+v %v", d, err)
	}
	rng := rand.New(rand.NewPCG(21, uint64(len(dialect))))
	kill := func() {
		if pid := p.Stats().PID; pid != 0 {
			if err := syscall.Kill(pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
				t.Fatal(err)
			}
		}
	}
	const draws = room.StateEvery + 6 // 39 cards in the deck: drawing never ends the game
	kills := 0
	for i := range draws {
		switch i {
		case 10, room.StateEvery + 3:
			ca, cb, _ = restartSeesTheSameViews(t, e, alice, bob, code, ca, cb)
		}
		if rng.IntN(4) == 0 {
			kill() // between two actions
			kills++
		}
		v := ca.latestView()
		c := []*conn{ca, cb}[v.Turn]
		c.send(map[string]any{"type": "act", "action": map[string]any{"type": sdk.ActDraw}})
		if rng.IntN(4) == 0 {
			kill() // while the room calls the plugin, or just before or after
			kills++
		}
		if m := c.expect("accepted"); num(m["seq"]) != i+1 {
			t.Fatalf("draw %d accepted as seq %s", i+1, m["seq"])
		}
	}
	sameAsReplay(t, e, code, ca, cb, draws)
	played := draws + playOut(t, map[int]*conn{0: ca, 1: cb}, nil, 600)
	sameAsReplay(t, e, code, ca, cb, played)
	var rep room.Replay
	alice.must("GET", "/api/rooms/"+code+"/games/1/replay", nil, &rep)
	if !rep.Matches || len(rep.Log) != played || rep.Final.Phase != sdk.PhaseGameOver {
		t.Fatalf("replay through the plugin: matches %v, %d actions (want %d), final phase %q", rep.Matches, len(rep.Log), played, rep.Final.Phase)
	}
	s := p.Stats()
	if s.NeedState == 0 || s.Crashes == 0 {
		t.Errorf("plugin stats %+v: want crashes and calls answered ErrNeedState", s)
	}
	t.Logf("%d actions, %d kills: %d launches, %d crashes, %d calls, %d answered ErrNeedState", played, kills, s.Launches, s.Crashes, s.Calls, s.NeedState)
}

// firstGame reads room code's game 1 from the store and the request that deals it again as it
// was dealt (its seats, options, seed, opener and start).
func firstGame(t *testing.T, e *env, code string) (*store.Game, *engine.NewGameRequest) {
	t.Helper()
	ctx := context.Background()
	sr, err := e.st.RoomByCode(ctx, code)
	if err != nil {
		t.Fatal(err)
	}
	g, err := e.st.GameByNumber(ctx, sr.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	var opts map[string]any
	if err := json.Unmarshal([]byte(g.Options), &opts); err != nil {
		t.Fatal(err)
	}
	var opener *int
	if g.Opener >= 0 {
		opener = &g.Opener
	}
	return g, &engine.NewGameRequest{Seats: g.Seats, Options: opts, Seed: uint64(g.Seed), Opener: opener, Now: g.StartNow}
}

// sameAsReplay replays room code's game 1 from its stored log in-process (the matcher's engine,
// from the bytes, no cache involved) and checks the players' views are those of the state it
// reaches, events aside, after n actions.
func sameAsReplay(t *testing.T, e *env, code string, ca, cb *conn, n int) {
	t.Helper()
	ctx := context.Background()
	g, req := firstGame(t, e, code)
	recs, err := e.st.Actions(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != n {
		t.Fatalf("the log holds %d actions, want %d", len(recs), n)
	}
	eng := matcherEngine()
	req.NoViews = true
	st, err := eng.NewGame(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	for i, rec := range recs {
		if rec.Seq != i+1 {
			t.Fatalf("the log's action %d has seq %d", i+1, rec.Seq)
		}
		var a sdk.Action
		if err := json.Unmarshal([]byte(rec.Action), &a); err != nil {
			t.Fatal(err)
		}
		if st, err = eng.Act(ctx, &engine.ActRequest{State: st.State, Action: a, Now: rec.Now, NoViews: true}); err != nil {
			t.Fatalf("replaying action %d: %v", rec.Seq, err)
		}
	}
	in, err := eng.Inspect(ctx, &engine.InspectRequest{State: st.State, Views: true})
	if err != nil {
		t.Fatal(err)
	}
	for seat, c := range []*conn{ca, cb} {
		var want sdk.View
		if err := json.Unmarshal(in.Views[seat], &want); err != nil {
			t.Fatal(err)
		}
		got := c.latestView()
		if c.lastSeq != n {
			t.Fatalf("seat %d's last view is of seq %d, want %d", seat, c.lastSeq, n)
		}
		if diff := cmp.Diff(&want, got, cmpopts.IgnoreFields(sdk.View{}, "Events")); diff != "" {
			t.Fatalf("seat %d's view after %d actions is not the replay's (-replay +room):\n%s", seat, n, diff)
		}
	}
}

// TestStickyPluginKillKeepsPatchesRight plays through a real sticky plugin process, which writes
// the protocol v2 patches itself from the views it keeps, with v2 connections (two players and a
// spectator) beside v1 ones, while the plugin is SIGKILLed at random moments (between actions,
// and as an action is sent). After every action each v2 connection's rebuilt view equals the
// full view its v1 twin received; no patch ever arrives that does not follow the view held (the
// restarted plugin keeps no views, so the room sends what it computes itself); the spectators'
// patches hold no hand card; and at the end a fresh full view equals every rebuilt one.
func TestStickyPluginKillKeepsPatchesRight(t *testing.T) {
	eachDialect(t, testStickyPluginKillKeepsPatchesRight)
}

func testStickyPluginKillKeepsPatchesRight(t *testing.T, dialect string) {
	p := matcherPlugin(t)
	e := newEnv(t, dialect, map[string]engine.Engine{matcherID: p})
	alice, bob, carol := e.register("Alice"), e.guest("Bob"), e.guest("Carol")
	info := alice.createRoom(map[string]any{"ruleset": matcherID, "seats": 2, "options": map[string]any{"hand_size": 6, "call_seconds": 0}})
	code := info.Code
	bob.must("POST", "/api/rooms/"+code+"/join", nil, nil)
	carol.must("POST", "/api/rooms/"+code+"/join", map[string]any{"spectate": true}, nil)
	a2, b2, c2 := alice.connectV2(code), bob.connectV2(code), carol.connectV2(code)
	a1, b1, c1 := alice.connect(code), bob.connect(code), carol.connect(code)
	c2.onView = func(_ int, v sdk.View) { noHandCards(t, "carol (v2)", v) }
	alice.must("POST", "/api/rooms/"+code+"/deal", nil, nil)
	all := []*conn{a2, b2, c2, a1, b1, c1}
	syncAll := func() {
		for _, c := range all {
			c.sync()
		}
	}
	syncAll()
	rng := rand.New(rand.NewPCG(33, uint64(len(dialect))))
	kill := func() {
		if pid := p.Stats().PID; pid != 0 {
			if err := syscall.Kill(pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
				t.Fatal(err)
			}
		}
	}
	const draws = 30 // 39 cards in the deck: drawing never ends the game
	kills := 0
	for i := range draws {
		if rng.IntN(4) == 0 {
			kill()
			kills++
		}
		c := []*conn{a2, b2}[a1.last.Turn]
		c.send(map[string]any{"type": "act", "id": "d", "action": map[string]any{"type": sdk.ActDraw}})
		if rng.IntN(4) == 0 {
			kill()
			kills++
		}
		for {
			m := c.next()
			if typ := str(m["type"]); typ == "accepted" {
				if num(m["seq"]) != i+1 {
					t.Fatalf("draw %d accepted as seq %s", i+1, m["seq"])
				}
				break
			} else if typ == "error" {
				t.Fatalf("draw %d refused: %s", i+1, m["reason"])
			}
		}
		syncAll()
		for _, pair := range [][2]*conn{{a2, a1}, {b2, b1}, {c2, c1}} {
			v2, v1 := pair[0], pair[1]
			if v2.lastSeq != v1.lastSeq || !cmp.Equal(v2.last, v1.last) {
				t.Fatalf("after %d draws (%d kills): %s's rebuilt view (seq %d) differs from the full one (seq %d):\n%s",
					i+1, kills, v2.u.name, v2.lastSeq, v1.lastSeq, cmp.Diff(v1.last, v2.last))
			}
		}
	}
	for _, c := range []*conn{a2, b2, c2} {
		if c.gaps != 0 {
			t.Errorf("%s's v2 connection saw %d patches that did not follow its view", c.u.name, c.gaps)
		}
		if c.patches < draws/2 {
			t.Errorf("%s's v2 connection received %d patches for %d draws", c.u.name, c.patches, draws)
		}
		seat := 0
		for s := range c.held {
			seat = s
		}
		rebuilt := c.held[seat]
		c.send(map[string]any{"type": "resync"})
		m := c.expect("view")
		if got, want := canonicalJSON(t, rebuilt), canonicalJSON(t, m["view"]); got != want {
			t.Fatalf("%s: the rebuilt view differs from a fresh full view\n got %s\nwant %s", c.u.name, got, want)
		}
	}
	if s := p.Stats(); s.Crashes == 0 || s.NeedState == 0 {
		t.Errorf("plugin stats %+v: want crashes and calls answered ErrNeedState", s)
	}
	t.Logf("%d draws, %d kills; patches: alice %d, bob %d, carol %d", draws, kills, a2.patches, b2.patches, c2.patches)
}

// leanCounter is a sticky engine as the room sees it, counting the steps asked for and answered
// without their views (engine.ActRequest.PatchesOnly): the lean path the room keeps its views on
// as patches.
type leanCounter struct {
	engine.Engine
	mu          sync.Mutex
	asked, lean int
}

func (l *leanCounter) Act(ctx context.Context, req *engine.ActRequest) (*engine.Step, error) {
	st, err := l.Engine.Act(ctx, req)
	if req.PatchesOnly {
		l.mu.Lock()
		l.asked++
		if err == nil && st.Views == nil {
			l.lean++
		}
		l.mu.Unlock()
	}
	return st, err
}

// fullPath replays room code's game 1 from its stored log on an in-process engine of the variant,
// from the bytes, each action with its views: the views the full path gives at each seq, events
// included.
type fullPath struct {
	t      *testing.T
	e      *env
	code   string
	eng    engine.Engine
	gameID int64
	state  []byte
	seq    int
	views  [][]byte
	spec   []byte
}

func newFullPath(t *testing.T, e *env, code string, eng engine.Engine) *fullPath {
	t.Helper()
	g, req := firstGame(t, e, code)
	st, err := eng.NewGame(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return &fullPath{t: t, e: e, code: code, eng: eng, gameID: g.ID, state: st.State, views: st.Views, spec: st.Spectator}
}

// at returns the full path's view for seat (sdk.Spectator: the spectators') after n actions.
func (f *fullPath) at(n, seat int) []byte {
	f.t.Helper()
	if n < f.seq {
		f.t.Fatalf("the full path is at seq %d, asked for %d", f.seq, n)
	}
	if n > f.seq {
		ctx := context.Background()
		recs, err := f.e.st.Actions(ctx, f.gameID)
		if err != nil {
			f.t.Fatal(err)
		}
		if len(recs) < n {
			f.t.Fatalf("the log holds %d actions, a view is of seq %d", len(recs), n)
		}
		for _, rec := range recs[f.seq:n] {
			var a sdk.Action
			if err := json.Unmarshal([]byte(rec.Action), &a); err != nil {
				f.t.Fatal(err)
			}
			st, err := f.eng.Act(ctx, &engine.ActRequest{State: f.state, Action: a, Now: rec.Now})
			if err != nil {
				f.t.Fatalf("replaying action %d: %v", rec.Seq, err)
			}
			f.state, f.views, f.spec, f.seq = st.State, st.Views, st.Spectator, rec.Seq
		}
	}
	if seat == sdk.Spectator {
		return f.spec
	}
	return f.views[seat]
}

// TestLeanViewsAreTheFullPaths plays random games of every variant through its real plugin
// process with connections that all speak protocol v2, so that the room asks for patches only and
// keeps its views as patches (platform/room/lazy.go), while the plugin is SIGKILLed at random
// moments, connections resync, new ones join mid-game (a player's second v2 connection, and a
// v1 connection now and then, which turns the lean path off while it stays), and plays carry
// cards (checked against the open actions the lean steps carry). After every action every view a
// connection holds, rebuilt from patches or received whole, equals the view the full path gives
// (an in-process replay of the stored log from the bytes, with its events), the spectators'
// patches hold no hand card, and no act is refused for its shape.
func TestLeanViewsAreTheFullPaths(t *testing.T) {
	if cardhouseBin == "" {
		t.Skipf("the cardhouse binary does not build: %s", cardhouseBuildErr)
	}
	for i, id := range []string{"lastcard", "hotspot", "drugs"} {
		t.Run(id, func(t *testing.T) {
			eachDialect(t, func(t *testing.T, dialect string) { testLeanViews(t, dialect, id, uint64(i)) })
		})
	}
}

func testLeanViews(t *testing.T, dialect, id string, seed uint64) {
	p, d := variantPlugin(t, id)
	lc := &leanCounter{Engine: p}
	e := newEnv(t, dialect, map[string]engine.Engine{d.ID: lc})
	alice, bob, carol := e.register("Alice"), e.guest("Bob"), e.guest("Carol")
	info := alice.createRoom(map[string]any{"ruleset": d.ID, "seats": 2})
	code := info.Code
	bob.must("POST", "/api/rooms/"+code+"/join", nil, nil)
	carol.must("POST", "/api/rooms/"+code+"/join", map[string]any{"spectate": true}, nil)
	users := []*user{alice, bob, carol}
	conns := []*conn{alice.connectV2(code), bob.connectV2(code), carol.connectV2(code)}
	watch := func(c *conn) {
		if c.u == carol {
			c.onView = func(_ int, v sdk.View) { noHandCards(t, "carol", v) }
		}
	}
	for _, c := range conns {
		watch(c)
	}
	alice.must("POST", "/api/rooms/"+code+"/deal", nil, nil)
	ref := newFullPath(t, e, code, builtinEngine(t, id))
	var v1 *conn // a v1 connection of alice's while it lasts
	v1Left := 0
	syncAll := func() {
		for _, c := range conns {
			c.sync()
		}
		for _, c := range conns {
			c.sync() // the answers to resyncs sent while reading
		}
		if v1 != nil {
			v1.sync()
		}
	}
	rng := rand.New(rand.NewPCG(seed, uint64(len(dialect))))
	kills, joins, resyncs, v1s, acted, seq := 0, 0, 0, 0, 0, 0
	check := func() {
		t.Helper()
		syncAll()
		for _, c := range conns {
			for seat, held := range c.held {
				if c.heldSeq[seat] != seq {
					t.Fatalf("after %d actions, %s holds seat %d's view of seq %d", seq, c.u.name, seat, c.heldSeq[seat])
				}
				if got, want := canonicalJSON(t, held), canonicalJSON(t, ref.at(seq, seat)); got != want {
					t.Fatalf("after %d actions (%d kills, %d joins, %d resyncs): %s's view of seat %d is not the full path's\n got %s\nwant %s",
						seq, kills, joins, resyncs, c.u.name, seat, got, want)
				}
			}
			if len(c.held) == 0 {
				t.Fatalf("%s holds no view", c.u.name)
			}
		}
		if v1 != nil && v1.last != nil {
			var want sdk.View
			if err := json.Unmarshal(ref.at(seq, 0), &want); err != nil {
				t.Fatal(err)
			}
			if v1.lastSeq != seq || !cmp.Equal(&want, v1.last) {
				t.Fatalf("after %d actions: alice's v1 view (seq %d) is not the full path's:\n%s", seq, v1.lastSeq, cmp.Diff(&want, v1.last))
			}
		}
	}
	check()
	for step := 0; step < 150; step++ {
		switch r := rng.IntN(20); {
		case r < 1:
			killPlugin(t, p)
			kills++
		case r < 4:
			c := conns[rng.IntN(len(conns))]
			c.send(map[string]any{"type": "resync"})
			resyncs++
		case r < 6:
			i := rng.IntN(len(conns))
			conns[i].ws.CloseNow()
			conns[i] = users[i].connectV2(code)
			watch(conns[i])
			joins++
		case r < 7 && v1 == nil:
			v1, v1Left = alice.connect(code), 1+rng.IntN(4)
			v1s++
		}
		check()
		if v1 != nil {
			if v1Left--; v1Left < 0 {
				v1.ws.CloseNow()
				v1 = nil
			}
		}
		var c *conn
		var a *sdk.Action
		for _, i := range rng.Perm(2) {
			held := conns[i].held[i]
			var v sdk.View
			if err := json.Unmarshal(held, &v); err != nil {
				t.Fatal(err)
			}
			if v.Phase == sdk.PhaseGameOver {
				break
			}
			if rng.IntN(2) == 0 {
				a = playFirst(v)
			} else {
				a = chooseAny(v)
			}
			if a != nil {
				c = conns[i]
				break
			}
		}
		in := alice.roomInfo(code)
		if in.Game == nil || in.Game.Status != "live" {
			break
		}
		if in.Game.Phase == sdk.PhaseRoundOver {
			alice.must("POST", "/api/rooms/"+code+"/deal", nil, nil)
			seq++
			check()
			continue
		}
		if c == nil {
			e.clock.Advance(6 * time.Second) // a deadline falls due
			syncAll()
			seq = alice.roomInfo(code).Game.Seq
			check()
			continue
		}
		c.send(map[string]any{"type": "act", "id": "a", "action": a})
		for {
			m := c.next()
			if typ := str(m["type"]); typ == "accepted" {
				acted++
				break
			} else if typ == "error" {
				if code := str(m["code"]); code == "bad_action" || code == "engine_failure" || code == "store_failure" {
					t.Fatalf("%s: %+v refused: %s %s", c.u.name, a, code, m["reason"])
				}
				break
			}
		}
		seq = alice.roomInfo(code).Game.Seq
		check()
	}
	lc.mu.Lock()
	asked, lean := lc.asked, lc.lean
	lc.mu.Unlock()
	if acted < 20 || lean < acted/3 || kills == 0 || joins == 0 || resyncs == 0 {
		t.Errorf("%d actions, %d steps asked lean, %d lean, %d kills, %d joins, %d resyncs, %d v1 connections: want the lean path and every disturbance exercised",
			acted, asked, lean, kills, joins, resyncs, v1s)
	}
	t.Logf("%s: %d actions to seq %d, %d asked lean, %d lean; %d kills, %d joins, %d resyncs, %d v1 connections", id, acted, seq, asked, lean, kills, joins, resyncs, v1s)
}

// builtinEngine is the in-process engine of a built-in variant.
func builtinEngine(t *testing.T, id string) engine.Engine {
	t.Helper()
	mk, ok := builtin.Engines()[id]
	if !ok {
		t.Fatalf("no built-in variant %q", id)
	}
	return mk()
}
