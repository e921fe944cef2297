package plugin_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/plugin"
)

// A plugin built before the calls channel (protocol 1 with only unary calls) passes go-plugin's
// handshake but cannot open the channel: its launch fails at once, saying so, and the host does
// not wait for it.
func TestOlderPluginIsRefusedClearly(t *testing.T) {
	t.Parallel()
	spec := counterSpec(t)
	spec.Env = []string{pluginEnv + "=legacy"}
	p := plugin.NewProcess(spec, plugin.Config{})
	defer p.Close()
	_, err := p.Describe(context.Background())
	var le *plugin.LaunchError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "older Cardhouse SDK") {
		t.Fatalf("got %v, want a launch error saying the plugin is older than the host", err)
	}
	if s := p.Stats(); s.Running || s.Launches != 0 {
		t.Errorf("after a refused launch: running %v, launches %d", s.Running, s.Launches)
	}
}

// A plugin of a later wire protocol than the host's (built against a newer SDK) is refused at its
// launch with a message that names both protocols and what to do, never served half.
func TestNewerProtocolPluginIsRefusedClearly(t *testing.T) {
	t.Parallel()
	spec := counterSpec(t)
	spec.Env = []string{pluginEnv + "=newer"}
	p := plugin.NewProcess(spec, plugin.Config{})
	defer p.Close()
	_, err := p.Describe(context.Background())
	var le *plugin.LaunchError
	want := fmt.Sprintf("speaks Cardhouse plugin protocol %d; this server speaks protocol %d", plugin.ProtocolVersion+1, plugin.ProtocolVersion)
	if !errors.As(err, &le) || !strings.Contains(err.Error(), want) || !errors.Is(err, plugin.ErrProtocol) {
		t.Fatalf("got %v, want a launch error (ErrProtocol) saying %q", err, want)
	}
	if s := p.Stats(); s.Running || s.Launches != 0 {
		t.Errorf("after a refused launch: running %v, launches %d", s.Running, s.Launches)
	}
}

// A caller that gives up (its context is cancelled) gets context.Canceled at once; the call it
// abandoned is cancelled in the plugin, the process is not killed, and the other calls on the same
// channel go on.
func TestCancelledCallLeavesTheProcessServing(t *testing.T) {
	t.Parallel()
	w := newStderrWatch("counter: hanging")
	p := newProcess(t, plugin.Config{Stderr: w})
	st := mustNewGame(t, p)
	pid := p.Stats().PID
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := p.Act(ctx, &engine.ActRequest{State: st.State, Action: sdk.Action{Seat: 0, Type: "hang"}})
		errc <- err
	}()
	<-w.seen // the call is running in the plugin
	// Another call is answered while the first hangs: calls do not wait for each other.
	if _, err := p.Act(context.Background(), &engine.ActRequest{State: st.State, Action: play(0, "AS")}); err != nil {
		t.Fatalf("a call beside the hanging one: %v", err)
	}
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) || errors.Is(err, plugin.ErrCrashed) {
		t.Fatalf("the cancelled call returned %v, want context.Canceled", err)
	}
	if _, err := p.Act(context.Background(), &engine.ActRequest{State: st.State, Action: play(0, "AS")}); err != nil {
		t.Fatalf("a call after the cancelled one: %v", err)
	}
	if s := p.Stats(); s.PID != pid || s.Restarts != 0 || s.Crashes != 0 || s.Timeouts != 0 || !s.Running {
		t.Errorf("after a cancelled call: pid %d (was %d), restarts %d, crashes %d, timeouts %d, running %v",
			s.PID, pid, s.Restarts, s.Crashes, s.Timeouts, s.Running)
	}
}

// A call whose context has already expired is not sent.
func TestExpiredContextIsNotSent(t *testing.T) {
	t.Parallel()
	p := newProcess(t, plugin.Config{})
	st := mustNewGame(t, p)
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	_, err := p.Act(ctx, &engine.ActRequest{State: st.State, Action: play(0, "AS")})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want context.DeadlineExceeded", err)
	}
	if s := p.Stats(); s.Restarts != 0 || s.Timeouts != 0 || !s.Running {
		t.Errorf("an unsent call changed the process: restarts %d timeouts %d running %v", s.Restarts, s.Timeouts, s.Running)
	}
}

// BenchmarkTransport times one counter action with its views and one refusal across the boundary.
func BenchmarkTransport(b *testing.B) {
	ctx := context.Background()
	p := newProcess(b, plugin.Config{})
	st := mustNewGame(b, p)
	for _, bc := range []struct {
		name   string
		action sdk.Action
	}{{"act", play(0, "AS")}, {"refusal", play(1, "AH")}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			req := &engine.ActRequest{State: st.State, Action: bc.action}
			for b.Loop() {
				if _, err := p.Act(ctx, req); err != nil && !errors.Is(err, sdk.ErrIllegal) {
					b.Fatal(err)
				}
			}
		})
	}
}
