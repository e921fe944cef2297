package plugin_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/plugin"
	"cardhouse/sdk/rulesettest/toy"

	"github.com/google/go-cmp/cmp"
)

// pluginEnv, when set in the environment, makes the test binary serve the counter ruleset as a
// plugin instead of running tests: the tests launch their own binary as a real plugin process.
const pluginEnv = "CARDHOUSE_TEST_PLUGIN"

func TestMain(m *testing.M) {
	switch os.Getenv(pluginEnv) {
	case "legacy":
		plugin.ServeLegacy(testEngine())
	case "newer":
		plugin.ServeNewer(testEngine())
	case "counter":
		plugin.Serve(testEngine())
		return
	}
	os.Exit(m.Run())
}

// counterSpec launches this test binary as the counter plugin.
func counterSpec(t testing.TB) plugin.Spec {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return plugin.Spec{Path: exe, Args: []string{"-test.run=^$"}, Env: []string{pluginEnv + "=counter"}}
}

// newProcess returns a supervised counter plugin, closed when the test ends.
func newProcess(t testing.TB, cfg plugin.Config) *plugin.Process {
	t.Helper()
	p := plugin.NewProcess(counterSpec(t), cfg)
	t.Cleanup(func() { _ = p.Close() })
	return p
}

// equate compares engine results: nil and empty lists and maps are the same (the wire does not
// keep the difference), and byte strings (states, views) compare as bytes (element by element
// through reflection is far too slow for views).
var equate = cmp.Options{
	cmp.Comparer(bytes.Equal),
	cmp.FilterValues(func(x, y any) bool {
		vx, vy := reflect.ValueOf(x), reflect.ValueOf(y)
		if !vx.IsValid() || !vy.IsValid() || vx.Type() != vy.Type() || vx.Type() == reflect.TypeFor[[]byte]() {
			return false
		}
		k := vx.Kind()
		return (k == reflect.Slice || k == reflect.Map) && vx.Len() == 0 && vy.Len() == 0
	}, cmp.Comparer(func(_, _ any) bool { return true })),
}

func play(seat int, card string) sdk.Action {
	return sdk.Action{Seat: seat, Type: sdk.ActPlay, Cards: sdk.MustParseCards(card)}
}

// fixedDeal is a deal every test can name cards from.
func fixedDeal() *sdk.Deal {
	return &sdk.Deal{Hands: [][]sdk.Card{sdk.MustParseCards("AS 2S 3S"), sdk.MustParseCards("AH 2H 3H"), sdk.MustParseCards("AD 2D 3D")}}
}

func TestRoundTripMatchesInProcess(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	local := testEngine()
	remote := newProcess(t, plugin.Config{})

	wantD, err := local.Describe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	gotD, err := remote.Describe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantD, gotD, equate); diff != "" {
		t.Errorf("Describe differs (-in-process +plugin):\n%s", diff)
	}

	opener := 1
	games := []struct {
		name string
		req  engine.NewGameRequest
	}{
		{"random deal with views", engine.NewGameRequest{Seats: 3, Seed: 42, Options: map[string]any{"hand_size": 2}, Now: 1000}},
		{"fixed deal no views", engine.NewGameRequest{Seats: 3, Seed: 7, Deal: fixedDeal(), NoViews: true}},
		{"opener and forced draws", engine.NewGameRequest{Seats: 2, Seed: 9, Opener: &opener, Options: map[string]any{"hand_size": 1},
			Forced: map[string][]string{sdk.DrawShuffle: {"0"}}}},
	}
	for _, g := range games {
		t.Run(g.name, func(t *testing.T) {
			want, err := local.NewGame(ctx, &g.req)
			if err != nil {
				t.Fatal(err)
			}
			got, err := remote.NewGame(ctx, &g.req)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got, equate); diff != "" {
				t.Fatalf("NewGame differs (-in-process +plugin):\n%s", diff)
			}
			state := want.State
			for i := 0; want.Status.Phase == sdk.PhasePlaying && i < 500; i++ {
				move, err := local.Bot(ctx, &engine.BotCall{State: state, Seat: want.Status.Turn, Level: 1, Seed: uint64(i)})
				if err != nil || move.Action == nil {
					t.Fatalf("the bot of seat %d: %+v, %v", want.Status.Turn, move, err)
				}
				req := &engine.ActRequest{State: state, Action: *move.Action, Now: int64(2000 + i), NoViews: g.req.NoViews, NoSpectator: i%2 == 1}
				if want, err = local.Act(ctx, req); err != nil {
					t.Fatal(err)
				}
				if got, err = remote.Act(ctx, req); err != nil {
					t.Fatal(err)
				}
				if !req.NoViews && (got.Spectator == nil) != req.NoSpectator {
					t.Fatalf("Act %d with NoSpectator %v: spectators' view %q", i, req.NoSpectator, got.Spectator)
				}
				if diff := cmp.Diff(want, got, equate); diff != "" {
					t.Fatalf("Act %d differs (-in-process +plugin):\n%s", i, diff)
				}
				if first := map[string]string{sdk.ActPlay: "played", sdk.ActDraw: "drew", sdk.ActCall: "last_card"}[move.Action.Type]; len(got.Events) == 0 || got.Events[0].Name != first {
					t.Fatalf("Act %d (%s): events %+v, want %s first", i, move.Action.Type, got.Events, first)
				}
				for _, views := range []bool{false, true} {
					wantIn, err := local.Inspect(ctx, &engine.InspectRequest{State: got.State, Views: views})
					if err != nil {
						t.Fatal(err)
					}
					gotIn, err := remote.Inspect(ctx, &engine.InspectRequest{State: got.State, Views: views})
					if err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(wantIn, gotIn, equate); diff != "" {
						t.Fatalf("Inspect(views=%v) after act %d differs (-in-process +plugin):\n%s", views, i, diff)
					}
				}
				for seat := range got.Status.Seats {
					call := &engine.BotCall{State: got.State, Seat: seat, Level: 1, Seed: uint64(i)}
					wantB, err := local.Bot(ctx, call)
					if err != nil {
						t.Fatal(err)
					}
					gotB, err := remote.Bot(ctx, call)
					if err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(wantB, gotB, equate); diff != "" {
						t.Fatalf("Bot(seat %d) after act %d differs (-in-process +plugin):\n%s", seat, i, diff)
					}
				}
				state = got.State
			}
			if want.Status.Phase != sdk.PhaseGameOver {
				t.Fatalf("the game did not end: %+v", want.Status)
			}
		})
	}
	// The observation kept its Go types across the wire (the scenario runner compares them).
	in, err := remote.Inspect(ctx, &engine.InspectRequest{State: mustNewGame(t, remote).State})
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{"turn": "int", "hand_count": "[]int", "hands": "[][]string", "top": "<nil>", "winner": "<nil>", "over": "bool", "last_card_open": "[]int", "pile": "[]string", "score": "map[string]interface {}"} {
		if got := fmt.Sprintf("%T", in.Observation[key]); got != want {
			t.Errorf("observation %q has type %s, want %s", key, got, want)
		}
	}
}

func mustNewGame(t testing.TB, e engine.Engine) *engine.Step {
	t.Helper()
	st, err := e.NewGame(context.Background(), &engine.NewGameRequest{Seats: 3, Seed: 1, Deal: fixedDeal()})
	if err != nil {
		t.Fatalf("new game: %v", err)
	}
	return st
}

func TestRefusalsCrossTyped(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	local := testEngine()
	remote := newProcess(t, plugin.Config{})
	state := mustNewGame(t, local).State

	type call func(engine.Engine) error
	act := func(a sdk.Action) call {
		return func(e engine.Engine) error {
			_, err := e.Act(ctx, &engine.ActRequest{State: state, Action: a})
			return err
		}
	}
	cases := []struct {
		name string
		code string
		call call
	}{
		{"not your turn", sdk.CodeNotYourTurn, act(play(1, "AH"))},
		{"card not held", sdk.CodeNotHeld, act(play(0, "KC"))},
		{"unknown action", sdk.CodeBadAction, act(sdk.Action{Seat: 0, Type: "dance"})},
		{"invalid card number", sdk.CodeUnknownCard, act(sdk.Action{Seat: 0, Type: sdk.ActPlay, Cards: []sdk.Card{999}})},
		{"bad option", sdk.CodeBadOption, func(e engine.Engine) error {
			_, err := e.NewGame(ctx, &engine.NewGameRequest{Seats: 2, Options: map[string]any{"hand_size": 99, "colour": "blue"}})
			return err
		}},
		{"too many seats", sdk.CodeBadOption, func(e engine.Engine) error {
			_, err := e.NewGame(ctx, &engine.NewGameRequest{Seats: 9})
			return err
		}},
		{"bad deal", sdk.CodeBadDeal, func(e engine.Engine) error {
			_, err := e.NewGame(ctx, &engine.NewGameRequest{Seats: 2, Deal: &sdk.Deal{Hands: [][]sdk.Card{sdk.MustParseCards("AS AS")}}})
			return err
		}},
		{"bot of no such level", sdk.CodeNotAvailable, func(e engine.Engine) error {
			_, err := e.Bot(ctx, &engine.BotCall{State: state, Seat: 0, Level: 5})
			return err
		}},
	}
	// The host refuses these before sending; in-process the ruleset sees them and refuses otherwise.
	hostOnly := map[string]bool{"invalid card number": true}
	pid := 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantErr, gotErr := c.call(local), c.call(remote)
			if !errors.Is(gotErr, sdk.ErrIllegal) || errors.Is(gotErr, sdk.ErrRuleset) {
				t.Fatalf("got %v (%T), want a refusal", gotErr, gotErr)
			}
			got, _ := sdk.AsRefusal(gotErr)
			want, ok := sdk.AsRefusal(wantErr)
			if !ok {
				t.Fatalf("in-process: %v, want a refusal", wantErr)
			}
			if hostOnly[c.name] {
				want = got
			}
			if got.Code != c.code {
				t.Errorf("code %q, want %q (reason %q)", got.Code, c.code, got.Reason)
			}
			if c.code == sdk.CodeNotHeld && got.Ruling != "C-1" {
				t.Errorf("the refusal's ruling is %q, want the ruleset's C-1", got.Ruling)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("refusal differs (-in-process +plugin):\n%s", diff)
			}
			st := remote.Stats()
			if pid != 0 && st.PID != pid {
				t.Errorf("a refusal changed the process: pid %d, was %d", st.PID, pid)
			}
			pid = st.PID
		})
	}
	if st := remote.Stats(); st.Refusals != uint64(len(cases)) || st.Errors != 0 || st.Restarts != 0 {
		t.Errorf("stats after refusals: refusals %d errors %d restarts %d, want %d 0 0", st.Refusals, st.Errors, st.Restarts, len(cases))
	}
}

func TestRulesetFailuresKeepTheProcess(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	remote := newProcess(t, plugin.Config{})
	start := mustNewGame(t, remote)
	pid := remote.Stats().PID
	cases := []struct {
		action  string
		op      string
		message string
	}{
		{"panic", "act", "boom: the counter ruleset panicked on purpose"},
		{"server_panic", "act", "boom: the engine wrapper panicked outside the SDK's guard"},
		{"error", "act", "the counter ruleset failed on purpose"},
	}
	t.Run("house rules without a runner", func(t *testing.T) {
		// Refused or failed, depending on the SDK: either way the same on both sides.
		req := &engine.NewGameRequest{Seats: 2, HouseRules: []sdk.HouseRule{{Name: "seven-swap", Version: 3, Source: "-- nothing", Options: map[string]any{"x": 1}}}}
		_, want := testEngine().NewGame(ctx, req)
		_, got := remote.NewGame(ctx, req)
		if want == nil || got == nil {
			t.Fatalf("in-process %v, plugin %v: want both to fail", want, got)
		}
		if errors.Is(got, sdk.ErrIllegal) != errors.Is(want, sdk.ErrIllegal) || errors.Is(got, sdk.ErrRuleset) != errors.Is(want, sdk.ErrRuleset) || got.Error() != want.Error() {
			t.Errorf("plugin %q (%T), in-process %q (%T): want the same kind and text", got, got, want, want)
		}
	})
	for _, c := range cases {
		t.Run(c.action, func(t *testing.T) {
			_, err := remote.Act(ctx, &engine.ActRequest{State: start.State, Action: sdk.Action{Seat: 0, Type: c.action}})
			var fe *sdk.FailureError
			if !errors.As(err, &fe) || !errors.Is(err, sdk.ErrRuleset) {
				t.Fatalf("got %v (%T), want a *sdk.FailureError", err, err)
			}
			if errors.Is(err, plugin.ErrCrashed) || errors.Is(err, sdk.ErrIllegal) {
				t.Errorf("%v is a crash or a refusal; want a failure only", err)
			}
			if fe.Ruleset != toy.ID || fe.Op != c.op || !strings.Contains(fe.Err.Error(), c.message) {
				t.Errorf("failure %+v, want ruleset %s, op %s, message containing %q", fe, toy.ID, c.op, c.message)
			}
			// The process survived and still plays.
			if _, err := remote.Act(ctx, &engine.ActRequest{State: start.State, Action: play(0, "AS")}); err != nil {
				t.Fatalf("the next action failed: %v", err)
			}
			if st := remote.Stats(); st.PID != pid || st.Crashes != 0 || !st.Running {
				t.Errorf("after a failure: pid %d (was %d), crashes %d, running %v", st.PID, pid, st.Crashes, st.Running)
			}
		})
	}
}

// stderrWatch receives the plugin's raw stderr and reports when a line contains a marker.
type stderrWatch struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	marker string
	seen   chan struct{}
	once   sync.Once
}

func newStderrWatch(marker string) *stderrWatch {
	return &stderrWatch{marker: marker, seen: make(chan struct{})}
}

func (w *stderrWatch) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(b)
	if strings.Contains(w.buf.String(), w.marker) {
		w.once.Do(func() { close(w.seen) })
	}
	return len(b), nil
}

func TestCrashThenSameStateOnAFreshProcess(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	local := testEngine()

	kill := func(t *testing.T, p *plugin.Process, w *stderrWatch, state []byte) error {
		// kill -9 while a call is in flight: wait for the plugin to say it is hanging, then kill.
		errc := make(chan error, 1)
		go func() {
			_, err := p.Act(ctx, &engine.ActRequest{State: state, Action: sdk.Action{Seat: 0, Type: "hang"}})
			errc <- err
		}()
		select {
		case <-w.seen:
		case err := <-errc:
			t.Fatalf("the hanging call returned before the kill: %v", err)
		}
		if err := syscall.Kill(p.Stats().PID, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		return <-errc
	}
	cases := []struct {
		name  string
		crash func(*testing.T, *plugin.Process, *stderrWatch, []byte) error
	}{
		{"os.Exit in a call", func(_ *testing.T, p *plugin.Process, _ *stderrWatch, state []byte) error {
			_, err := p.Act(ctx, &engine.ActRequest{State: state, Action: sdk.Action{Seat: 0, Type: "exit"}})
			return err
		}},
		{"kill -9 during a call", kill},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := newStderrWatch("counter: hanging")
			p := newProcess(t, plugin.Config{Stderr: w})
			// A game two actions in: the host keeps its state.
			st := mustNewGame(t, p)
			st, err := p.Act(ctx, &engine.ActRequest{State: st.State, Action: play(0, "AS")})
			if err != nil {
				t.Fatal(err)
			}
			kept := st.State
			before := p.Stats()

			err = c.crash(t, p, w, kept)
			var ce *plugin.CrashError
			if !errors.As(err, &ce) || !errors.Is(err, plugin.ErrCrashed) || !errors.Is(err, sdk.ErrRuleset) {
				t.Fatalf("got %v (%T), want a *plugin.CrashError matching ErrCrashed and sdk.ErrRuleset", err, err)
			}
			if ce.PID != before.PID || ce.Op != "Act" {
				t.Errorf("crash error names pid %d op %s, want pid %d op Act", ce.PID, ce.Op, before.PID)
			}
			if !p.Exited() {
				t.Error("Exited() is false after the crash")
			}

			// The next call runs on a fresh process with the same state bytes, as in-process.
			req := &engine.ActRequest{State: kept, Action: play(1, "AH")}
			want, err := local.Act(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.Act(ctx, req)
			if err != nil {
				t.Fatalf("the call after the crash failed: %v", err)
			}
			if diff := cmp.Diff(want, got, equate); diff != "" {
				t.Errorf("after the crash, Act differs (-in-process +plugin):\n%s", diff)
			}
			after := p.Stats()
			if after.PID == before.PID || after.PID == 0 || !after.Running || p.Exited() {
				t.Errorf("after the crash: pid %d (was %d), running %v, exited %v", after.PID, before.PID, after.Running, p.Exited())
			}
			if after.Crashes != 1 || after.Restarts != 1 || after.Launches != 2 {
				t.Errorf("stats: crashes %d restarts %d launches %d, want 1 1 2", after.Crashes, after.Restarts, after.Launches)
			}
		})
	}
}

func TestKilledWhileIdle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := newProcess(t, plugin.Config{})
	st := mustNewGame(t, p)
	pid := p.Stats().PID
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// Before any call, the stats already show the death: a crash, not running, the last error.
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		s := p.Stats()
		if !s.Running {
			if s.Crashes != 1 || !strings.Contains(s.LastError, "died between calls") {
				t.Errorf("killed while idle: crashes %d, last error %q; want 1 and the death", s.Crashes, s.LastError)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the stats still show the killed process running")
		}
	}
	// Whether the host has noticed the death yet or not, at most one call fails (as a crash),
	// and the game goes on with the same state.
	req := &engine.ActRequest{State: st.State, Action: play(0, "AS")}
	_, err := p.Act(ctx, req)
	if err != nil {
		if !errors.Is(err, plugin.ErrCrashed) {
			t.Fatalf("first call after kill -9: %v, want success or a crash", err)
		}
		if _, err = p.Act(ctx, req); err != nil {
			t.Fatalf("second call after kill -9: %v", err)
		}
	}
	if s := p.Stats(); s.PID == pid || s.Crashes != 1 || s.Restarts != 1 {
		t.Errorf("after kill -9: pid %d (was %d), crashes %d, restarts %d; want a new pid, 1, 1", s.PID, pid, s.Crashes, s.Restarts)
	}
}

// gone reports whether pid no longer exists (it was killed and reaped).
func gone(pid int) bool { return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) }

func TestHangingCallTimesOutAndIsReplaced(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cases := []struct {
		name string
		cfg  plugin.Config
		ctx  func() (context.Context, context.CancelFunc)
	}{
		{"default deadline from Config", plugin.Config{CallTimeout: 300 * time.Millisecond}, func() (context.Context, context.CancelFunc) {
			return context.WithCancel(ctx)
		}},
		{"caller's deadline", plugin.Config{}, func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(ctx, 300*time.Millisecond)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := newProcess(t, c.cfg)
			st := mustNewGame(t, p)
			old := p.Stats().PID

			cctx, cancel := c.ctx()
			defer cancel()
			began := time.Now()
			_, err := p.Act(cctx, &engine.ActRequest{State: st.State, Action: sdk.Action{Seat: 0, Type: "hang"}})
			t.Logf("the hanging call returned after %v: %v", time.Since(began), err)
			if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, plugin.ErrCrashed) {
				t.Fatalf("got %v (%T), want context.DeadlineExceeded", err, err)
			}
			if !p.Exited() {
				t.Error("Exited() is false: the stuck process was not killed")
			}
			// The next call gets a fresh process.
			if _, err := p.Act(ctx, &engine.ActRequest{State: st.State, Action: play(0, "AS")}); err != nil {
				t.Fatalf("the call after the timeout failed: %v", err)
			}
			s := p.Stats()
			if s.PID == old || s.Timeouts != 1 || s.Restarts != 1 || s.Crashes != 0 {
				t.Errorf("after the timeout: pid %d (was %d), timeouts %d, restarts %d, crashes %d; want new, 1, 1, 0", s.PID, old, s.Timeouts, s.Restarts, s.Crashes)
			}
			if err := p.Close(); err != nil {
				t.Fatal(err)
			}
			if !gone(old) {
				t.Errorf("the stuck process %d still exists after Close", old)
			}
		})
	}
}

func TestConcurrentCallsFromManyRooms(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	local := testEngine()
	p := newProcess(t, plugin.Config{})
	const rooms = 16
	var wg sync.WaitGroup
	var moves atomic.Uint64 // each a bot call and an act
	errs := make(chan error, rooms)
	for room := range rooms {
		wg.Go(func() {
			req := &engine.NewGameRequest{Seats: 2 + room%3, Seed: uint64(room), Options: map[string]any{"hand_size": 3}}
			want, err := local.NewGame(ctx, req)
			if err != nil {
				errs <- err
				return
			}
			got, err := p.NewGame(ctx, req)
			if err != nil {
				errs <- fmt.Errorf("room %d: new game: %w", room, err)
				return
			}
			// As a platform room does, each step's views go into one of two buffers in turn
			// (engine.ActRequest.ViewBuf) while the last step's, in the other, are kept: the
			// host's transit buffers, shared by the rooms, must leave both alone.
			var bufs [2][]byte // bufs[0] is passed; the kept views lie in bufs[1]
			var kept, keptCopy [][]byte
			for i := 0; want.Status.Phase == sdk.PhasePlaying; i++ {
				ans, err := p.Bot(ctx, &engine.BotCall{State: got.State, Seat: got.Status.Turn, Level: 1, Seed: uint64(i)})
				if err != nil || ans.Action == nil {
					errs <- fmt.Errorf("room %d: bot: %v %+v", room, err, ans)
					return
				}
				moves.Add(1)
				act := &engine.ActRequest{State: got.State, Action: *ans.Action, Now: int64(i)}
				if want, err = local.Act(ctx, act); err != nil {
					errs <- err
					return
				}
				act.ViewBuf = bufs[0]
				if got, err = p.Act(ctx, act); err != nil {
					errs <- fmt.Errorf("room %d: act %d: %w", room, i, err)
					return
				}
				if diff := cmp.Diff(want, got, equate); diff != "" {
					errs <- fmt.Errorf("room %d: act %d differs (-in-process +plugin):\n%s", room, i, diff)
					return
				}
				for v := range kept {
					if !bytes.Equal(kept[v], keptCopy[v]) {
						errs <- fmt.Errorf("room %d: act %d overwrote the last step's view %d (the last is the spectators')", room, i, v)
						return
					}
				}
				size := len(got.Spectator)
				for _, v := range got.Views {
					size += len(v)
				}
				if size <= cap(bufs[0]) {
					if &got.Views[0][:1][0] != &bufs[0][:1][0] {
						errs <- fmt.Errorf("room %d: act %d: views of %d bytes not in the ViewBuf of %d", room, i, size, cap(bufs[0]))
						return
					}
					bufs[0], bufs[1] = bufs[1], bufs[0]
				} else {
					bufs[1] = nil
				}
				if cap(bufs[0]) < size {
					bufs[0] = make([]byte, 0, size+size/4)
				}
				kept = append(append([][]byte(nil), got.Views...), got.Spectator)
				keptCopy = make([][]byte, len(kept))
				for v := range kept {
					keptCopy[v] = bytes.Clone(kept[v])
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	s := p.Stats()
	if s.Launches != 1 || s.Errors != 0 {
		t.Errorf("stats: launches %d errors %d, want 1 launch and no errors", s.Launches, s.Errors)
	}
	// Every room: a NewGame, then a bot call and an act per move.
	if want := rooms + 2*moves.Load(); s.Calls != want || s.Latency.Count != want {
		t.Errorf("stats count %d calls (%d latencies), want %d", s.Calls, s.Latency.Count, want)
	}
	if last := s.Latency.Counts[len(s.Latency.Counts)-1]; last != s.Latency.Count {
		t.Errorf("latency histogram holds %d calls under its last bound, want all %d", last, s.Latency.Count)
	}
}

func TestLaunchErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	notPlugin := filepath.Join(dir, "not-a-plugin")
	if err := os.WriteFile(notPlugin, []byte("#!/bin/sh\necho hello\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		spec plugin.Spec
		want string
	}{
		{"missing file", plugin.Spec{Path: filepath.Join(dir, "missing")}, "no such file"},
		{"no path", plugin.Spec{}, "no executable path"},
		{"not a plugin", plugin.Spec{Path: notPlugin}, "handshake"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := plugin.NewProcess(c.spec, plugin.Config{StartTimeout: 5 * time.Second})
			defer p.Close()
			_, err := p.Describe(context.Background())
			var le *plugin.LaunchError
			if !errors.As(err, &le) || !errors.Is(err, sdk.ErrRuleset) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v (%T), want a *plugin.LaunchError mentioning %q", err, err, c.want)
			}
			if s := p.Stats(); s.Running || s.LastError == "" {
				t.Errorf("stats after a failed launch: running %v, last error %q", s.Running, s.LastError)
			}
		})
	}
}

func TestRestartCloseAndStats(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := newProcess(t, plugin.Config{})
	if p.Exited() || p.Stats().PID != 0 {
		t.Fatal("a process was launched before the first call")
	}
	d, err := p.Describe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	d.Name = "changed by the caller"
	s := p.Stats()
	if s.Description == nil || s.Description.Name != "Toy" || s.Protocol != plugin.ProtocolVersion || s.PID == 0 || !s.Running {
		t.Fatalf("stats after the first Describe: %+v", s)
	}
	if err := p.Restart(); err != nil {
		t.Fatal(err)
	}
	if s2 := p.Stats(); s2.PID == s.PID || s2.Restarts != 1 || !s2.Running {
		t.Errorf("after Restart: pid %d (was %d), restarts %d, running %v", s2.PID, s.PID, s2.Restarts, s2.Running)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if !p.Exited() || p.Stats().Running {
		t.Error("the process runs after Close")
	}
	if _, err := p.Act(ctx, &engine.ActRequest{}); !errors.Is(err, plugin.ErrClosed) {
		t.Errorf("a call after Close: %v, want ErrClosed", err)
	}
	if err := p.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
}

func TestDiscover(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name string, mode os.FileMode) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	write("lastcard", 0o755)
	write("hotspot", 0o700)
	write("README.md", 0o644)
	write(".hidden", 0o755)
	write("_disabled", 0o755)
	if err := os.Mkdir(filepath.Join(dir, "houserules"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "lastcard"), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "dangling")); err != nil {
		t.Fatal(err)
	}
	got, err := plugin.Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	var want []plugin.Spec
	for _, name := range []string{"hotspot", "lastcard", "link"} {
		want = append(want, plugin.Spec{Path: filepath.Join(dir, name)})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Discover (-want +got):\n%s", diff)
	}
	if _, err := plugin.Discover(filepath.Join(dir, "missing")); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("Discover of a missing folder: %v, want an error naming it", err)
	}
}

// TestActLatency prints the median and p99 of N sequential Act calls across the boundary (the
// target for a real ruleset is a median under 200 µs). It asserts nothing about time.
func TestActLatency(t *testing.T) {
	if testing.Short() {
		t.Skip("measures 2000 calls")
	}
	ctx := context.Background()
	p := newProcess(t, plugin.Config{})
	st := mustNewGame(t, p)
	req := &engine.ActRequest{State: st.State, Action: play(0, "AS")}
	for range 100 { // warm up
		if _, err := p.Act(ctx, req); err != nil {
			t.Fatal(err)
		}
	}
	const n = 2000
	d := make([]time.Duration, n)
	for i := range d {
		began := time.Now()
		if _, err := p.Act(ctx, req); err != nil {
			t.Fatal(err)
		}
		d[i] = time.Since(began)
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	t.Logf("%d sequential plugin Act calls (3 seats, all views): median %v, p90 %v, p99 %v, max %v", n, d[n/2], d[n*90/100], d[n*99/100], d[n-1])
}

func BenchmarkAct(b *testing.B) {
	ctx := context.Background()
	local := testEngine()
	p := newProcess(b, plugin.Config{})
	st := mustNewGame(b, local)
	for _, bc := range []struct {
		name   string
		engine engine.Engine
		action sdk.Action
	}{
		{"inprocess", local, play(0, "AS")},
		{"plugin", p, play(0, "AS")},
		{"inprocess-refusal", local, play(1, "AH")},
		{"plugin-refusal", p, play(1, "AH")},
	} {
		b.Run(bc.name, func(b *testing.B) {
			req := &engine.ActRequest{State: st.State, Action: bc.action}
			for b.Loop() {
				_, err := bc.engine.Act(ctx, req)
				if err != nil && !errors.Is(err, sdk.ErrIllegal) {
					b.Fatal(err)
				}
			}
		})
	}
}

// CPUProfileEnv makes a plugin write its CPU profile, named after its ruleset and process, which
// pprof reads once the host has stopped the plugin.
func TestPluginCPUProfile(t *testing.T) {
	dir := t.TempDir()
	spec := counterSpec(t)
	spec.Env = append(spec.Env, plugin.CPUProfileEnv+"="+dir)
	p := plugin.NewProcess(spec, plugin.Config{})
	st := mustNewGame(t, p)
	for range 50 {
		if _, err := p.Act(context.Background(), &engine.ActRequest{State: st.State, Action: play(0, "AS")}); err != nil {
			t.Fatal(err)
		}
	}
	pid := p.Stats().PID
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, fmt.Sprintf("%s-%d.pprof", toy.ID, pid))
	f, err := os.Open(path)
	if err != nil {
		entries, _ := os.ReadDir(dir)
		t.Fatalf("the plugin's profile: %v (the folder holds %v)", err, entries)
	}
	defer f.Close()
	// A profile is a gzipped protocol buffer naming its sample types ("samples", "cpu").
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s is not a pprof profile: %v", path, err)
	}
	raw, err := io.ReadAll(z)
	if err != nil || !bytes.Contains(raw, []byte("samples")) || !bytes.Contains(raw, []byte("cpu")) {
		t.Fatalf("%s is not a CPU profile (%d bytes, %v)", path, len(raw), err)
	}
}
