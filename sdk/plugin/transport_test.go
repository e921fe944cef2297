package plugin_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"cardhouse/sdk"
	"cardhouse/sdk/plugin"

	"github.com/google/go-cmp/cmp"
)

// legacySpec launches this test binary as an older plugin: "legacy-unary" answers only the unary
// methods, "legacy-stream" the Calls stream too but no direct channel.
func legacySpec(t testing.TB, kind string) plugin.Spec {
	s := counterSpec(t)
	s.Env = []string{pluginEnv + "=" + kind}
	return s
}

func TestFallsBackToWhatAnOlderPluginOffers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	local := testEngine()
	cases := []struct {
		name   string
		spec   func(testing.TB) plugin.Spec
		prefer string
		want   string
	}{
		{"current plugin, default", counterSpec, "", plugin.TransportSocket},
		{"current plugin, stream asked", counterSpec, plugin.TransportStream, plugin.TransportStream},
		{"current plugin, unary asked", counterSpec, plugin.TransportUnary, plugin.TransportUnary},
		{"plugin with the stream only", func(t testing.TB) plugin.Spec { return legacySpec(t, "legacy-stream") }, "", plugin.TransportStream},
		{"plugin with unary calls only", func(t testing.TB) plugin.Spec { return legacySpec(t, "legacy-unary") }, "", plugin.TransportUnary},
		{"plugin with unary calls only, stream asked", func(t testing.TB) plugin.Spec { return legacySpec(t, "legacy-unary") }, plugin.TransportStream, plugin.TransportUnary},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := plugin.NewProcess(c.spec(t), plugin.Config{Transport: c.prefer})
			defer p.Close()
			st := mustNewGame(t, p)
			if got := p.Stats().Transport; got != c.want {
				t.Fatalf("transport %q, want %q", got, c.want)
			}
			req := &sdk.ActRequest{State: st.State, Action: play(0, "AS"), Now: 5}
			want, err := local.Act(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.Act(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got, equate); diff != "" {
				t.Errorf("Act differs (-in-process +plugin):\n%s", diff)
			}
			if _, err := p.Act(ctx, &sdk.ActRequest{State: st.State, Action: play(1, "AH")}); !errors.Is(err, sdk.ErrIllegal) {
				t.Errorf("an action out of turn: %v, want a refusal", err)
			}
			if s := p.Stats(); s.Launches != 1 || s.Errors != 0 {
				t.Errorf("stats: launches %d errors %d, want 1 and 0", s.Launches, s.Errors)
			}
		})
	}
	t.Run("unknown transport", func(t *testing.T) {
		t.Parallel()
		p := plugin.NewProcess(counterSpec(t), plugin.Config{Transport: "pigeon"})
		defer p.Close()
		_, err := p.Describe(ctx)
		var le *plugin.LaunchError
		if !errors.As(err, &le) || !strings.Contains(err.Error(), `"pigeon"`) {
			t.Fatalf("got %v, want a launch error naming the transport", err)
		}
	})
}

// A caller that gives up (its context is cancelled) gets context.Canceled at once; the call it
// abandoned is cancelled in the plugin, the process is not killed, and the other calls on the same
// channel go on.
func TestCancelledCallLeavesTheProcessServing(t *testing.T) { forEachTransport(t, testCancelled) }

func testCancelled(t *testing.T, transport string) {
	w := newStderrWatch("counter: hanging")
	p := newProcess(t, plugin.Config{Stderr: w, Transport: transport})
	st := mustNewGame(t, p)
	pid := p.Stats().PID
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := p.Act(ctx, &sdk.ActRequest{State: st.State, Action: sdk.Action{Seat: 0, Type: "hang"}})
		errc <- err
	}()
	<-w.seen // the call is running in the plugin
	// Another call is answered while the first hangs: calls do not wait for each other.
	if _, err := p.Act(context.Background(), &sdk.ActRequest{State: st.State, Action: play(0, "AS")}); err != nil {
		t.Fatalf("a call beside the hanging one: %v", err)
	}
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) || errors.Is(err, plugin.ErrCrashed) {
		t.Fatalf("the cancelled call returned %v, want context.Canceled", err)
	}
	if _, err := p.Act(context.Background(), &sdk.ActRequest{State: st.State, Action: play(0, "AS")}); err != nil {
		t.Fatalf("a call after the cancelled one: %v", err)
	}
	if s := p.Stats(); s.PID != pid || s.Restarts != 0 || s.Crashes != 0 || s.Timeouts != 0 || !s.Running {
		t.Errorf("after a cancelled call: pid %d (was %d), restarts %d, crashes %d, timeouts %d, running %v",
			s.PID, pid, s.Restarts, s.Crashes, s.Timeouts, s.Running)
	}
}

// A call whose context has already expired is not sent.
func TestExpiredContextIsNotSent(t *testing.T) { forEachTransport(t, testExpired) }

func testExpired(t *testing.T, transport string) {
	p := newProcess(t, plugin.Config{Transport: transport})
	st := mustNewGame(t, p)
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	_, err := p.Act(ctx, &sdk.ActRequest{State: st.State, Action: play(0, "AS")})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want context.DeadlineExceeded", err)
	}
	if s := p.Stats(); s.Restarts != 0 || s.Timeouts != 0 || !s.Running {
		t.Errorf("an unsent call changed the process: restarts %d timeouts %d running %v", s.Restarts, s.Timeouts, s.Running)
	}
}

// BenchmarkTransport times one counter action with its views and one refusal on each transport.
func BenchmarkTransport(b *testing.B) {
	ctx := context.Background()
	for _, tr := range transports {
		p := newProcess(b, plugin.Config{Transport: tr})
		st := mustNewGame(b, p)
		for _, bc := range []struct {
			name   string
			action sdk.Action
		}{{"act", play(0, "AS")}, {"refusal", play(1, "AH")}} {
			b.Run(tr+"/"+bc.name, func(b *testing.B) {
				b.ReportAllocs()
				req := &sdk.ActRequest{State: st.State, Action: bc.action}
				for b.Loop() {
					if _, err := p.Act(ctx, req); err != nil && !errors.Is(err, sdk.ErrIllegal) {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
