package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"cardhouse/rulesets/lastcard"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"
	"cardhouse/sdk/rulesettest"
)

// launch starts the real plugin process of this package.
func launch(tb testing.TB) engine.Engine { return rulesettest.LaunchPlugin(tb, ".") }

// midGame returns a four-seat state after 40 level-2 bot moves and the bot's next action on it.
func midGame(tb testing.TB, e engine.Engine) ([]byte, sdk.Action) {
	tb.Helper()
	ctx := context.Background()
	res, err := rulesettest.Playout(ctx, e, rulesettest.PlayoutConfig{Seats: 4, Seed: 1, Level: 2, MaxSteps: 40})
	if res == nil || res.Final == nil {
		tb.Fatalf("playout: %v", err)
	}
	ans, err := e.Bot(ctx, &engine.BotCall{State: res.Final.State, Seat: res.Final.Status.Turn, Level: 2, Seed: 1})
	if err != nil || ans.Action == nil {
		tb.Fatalf("bot: %v", err)
	}
	return res.Final.State, *ans.Action
}

// BenchmarkAct times one Last Card action (a mid-game bot move, four seats) in-process and across
// the real plugin process, without and with the five views the host sends to players.
func BenchmarkAct(b *testing.B) {
	engines := map[string]engine.Engine{
		"inprocess": engine.New(lastcard.New(), houserules.Enable()),
		"plugin":    launch(b),
	}
	for _, name := range []string{"inprocess", "plugin"} {
		e := engines[name]
		state, act := midGame(b, e)
		for _, views := range []bool{false, true} {
			sub := name
			if views {
				sub += "+views"
			}
			b.Run(sub, func(b *testing.B) {
				ctx := context.Background()
				b.ReportAllocs()
				for b.Loop() {
					if _, err := e.Act(ctx, &engine.ActRequest{State: state, Action: act, NoViews: !views}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkRandomGame plays whole Last Card games (four seats, one round) with level-1 bots through
// the engine, in-process and across the plugin; games/s is the figure.
func BenchmarkRandomGame(b *testing.B) {
	engines := map[string]engine.Engine{
		"inprocess": engine.New(lastcard.New(), houserules.Enable()),
		"plugin":    launch(b),
	}
	for _, name := range []string{"inprocess", "plugin"} {
		e := engines[name]
		b.Run(name, func(b *testing.B) {
			steps := 0
			for i := 0; b.Loop(); i++ {
				res, err := rulesettest.Playout(context.Background(), e, rulesettest.PlayoutConfig{
					Seats: 4, Seed: uint64(i), Level: 1, Options: map[string]any{"target": "single"},
				})
				if err != nil {
					b.Fatal(err)
				}
				steps += res.Steps
			}
			b.ReportMetric(float64(steps)/float64(b.N), "steps/game")
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
		})
	}
}

// TestActLatencyAcrossPlugin reports the median and p99 of 2000 sequential actions across the
// plugin process, with views (the figure the SDK's target is stated in). It asserts only that every
// call succeeds: timings are reported, never asserted.
func TestActLatencyAcrossPlugin(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and launches the plugin executable")
	}
	p := launch(t)
	state, act := midGame(t, p)
	ctx := context.Background()
	const n = 2000
	lat := make([]time.Duration, 0, n)
	for range n {
		start := time.Now()
		st, err := p.Act(ctx, &engine.ActRequest{State: state, Action: act})
		lat = append(lat, time.Since(start))
		if err != nil || len(st.Views) != 4 {
			t.Fatalf("act: %v", err)
		}
	}
	slices.Sort(lat)
	t.Logf("Last Card action across the plugin, with views, %d calls: median %v, p99 %v", n, lat[n/2], lat[n*99/100])
}

// BenchmarkActSticky is one mid-game Last Card action with views across the real plugin process
// as a room sends it: with the whole state in and out (an engine that is not sticky, as before)
// and by name from the plugin's sticky cache (no state in; none out, as for 31 actions in 32):
// "sticky" with the views only, "patches" with the views and their patches (what a room with v2
// connections asked for before lean steps), "lean" with the patches and the seats' open actions
// instead of the views (engine.ActRequest.PatchesOnly: a room whose connections all speak v2).
// The sticky calls are DryRuns so that every iteration is the same action on the same copy, whose
// views the plugin kept from the step that made it. It reports the state and view bytes crossing
// per call, all the reply's payload (reply-B/op), and the CPU per call of the plugin process and of
// the host (this process: the call's encoding, the socket, the reply's decoding).
func BenchmarkActSticky(b *testing.B) {
	p := rulesettest.LaunchPlugin(b, ".")
	state, act := midGame(b, p)
	ctx := context.Background()
	const key = "bench/1"
	ref := engine.GameRef{Game: key, Seq: 40}
	if _, err := p.Inspect(ctx, &engine.InspectRequest{GameRef: ref, State: state}); err != nil {
		b.Fatal(err)
	}
	// One step the plugin keeps its views of; the benchmark's action is the bot's next.
	if _, err := p.Act(ctx, &engine.ActRequest{GameRef: ref, Action: act, OmitState: true, Phase: sdk.PhasePlaying}); err != nil {
		b.Fatal(err)
	}
	ref.Seq++
	in, err := p.Inspect(ctx, &engine.InspectRequest{GameRef: ref})
	if err != nil {
		b.Fatal(err)
	}
	ans, err := p.Bot(ctx, &engine.BotCall{GameRef: ref, Seat: in.Status.Turn, Level: 2, Seed: 1})
	if err != nil || ans.Action == nil {
		b.Fatalf("bot: %v", err)
	}
	next := *ans.Action
	for _, mode := range []string{"bytes", "sticky", "patches", "lean"} {
		b.Run(mode, func(b *testing.B) {
			req := &engine.ActRequest{GameRef: ref, Action: next, OmitState: true, Phase: sdk.PhasePlaying, DryRun: true,
				Patches: mode == "patches" || mode == "lean", PatchesOnly: mode == "lean"}
			if mode == "bytes" {
				req = &engine.ActRequest{State: state, Action: act}
			}
			var in, out, views, reply int
			b.ReportAllocs()
			cpu0, host0 := procCPU(b, p.Stats().PID), selfCPU()
			for b.Loop() {
				st, err := p.Act(ctx, req)
				if err != nil {
					b.Fatal(err)
				}
				in, out = len(req.State), len(st.State)
				views = len(st.Spectator)
				for _, v := range st.Views {
					views += len(v)
				}
				reply = views + out + len(st.SpectatorPatch)
				for _, x := range slices.Concat(st.Patches, st.Actions) {
					reply += len(x)
				}
				if mode == "lean" && (st.Views != nil || st.Patches == nil) {
					b.Fatalf("a lean step with %d views and %d patches", len(st.Views), len(st.Patches))
				}
			}
			b.ReportMetric(float64(in), "state-B-in/op")
			b.ReportMetric(float64(out), "state-B-out/op")
			b.ReportMetric(float64(views), "view-B/op")
			b.ReportMetric(float64(reply), "reply-B/op")
			b.ReportMetric(float64(procCPU(b, p.Stats().PID)-cpu0)/float64(b.N)/1e3, "plugin-µs/op")
			b.ReportMetric(float64(selfCPU()-host0)/float64(b.N)/1e3, "host-µs/op")
		})
	}
}

// selfCPU is the user and system CPU this process has used, in nanoseconds.
func selfCPU() int64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// procCPU is the user and system CPU process pid has used, in nanoseconds (from /proc/PID/stat,
// in clock ticks of 10 ms: a benchmark's many calls make it a fair mean).
func procCPU(tb testing.TB, pid int) int64 {
	tb.Helper()
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		tb.Skipf("the plugin's CPU cannot be read: %v", err)
	}
	f := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+2:]))
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return (utime + stime) * int64(10*time.Millisecond)
}
