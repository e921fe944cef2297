package bench_test

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"

	"cardhouse/platform/bench"
)

// TestRunIdleHoldsConnections holds a few idle rooms (five sockets each: four players and a
// spectator; one game dealt in each) on a server the bench starts, and checks the figures: every
// socket held, none lost, the server's memory before and with them, its processes gone after.
func TestRunIdleHoldsConnections(t *testing.T) {
	needBinary(t)
	res, err := bench.RunIdle(context.Background(), bench.IdleConfig{Rooms: 6, Sockets: 5, Hold: time.Second, Deal: true,
		Variant: "lastcard", Exe: cardhouseBin})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := res.Print(&out); err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", out.String())
	if res.Sockets != 30 || res.Rooms != 6 || !res.Dealt {
		t.Errorf("%d sockets in %d rooms, dealt %v: want 30 in 6, dealt", res.Sockets, res.Rooms, res.Dealt)
	}
	if res.Lost != 0 || len(res.FirstErrors) != 0 {
		t.Errorf("%d connections lost: %v", res.Lost, res.FirstErrors)
	}
	if res.BaseRSS <= 0 || res.HeldRSS < res.BaseRSS/2 || res.PeakRSS < res.HeldRSS {
		t.Errorf("server RSS: base %d, held %d, peak %d bytes", res.BaseRSS, res.HeldRSS, res.PeakRSS)
	}
	if res.ServerCPU < 0 || res.FileLimit < uint64(res.Sockets) {
		t.Errorf("server CPU %.3f s, open-file limit %d", res.ServerCPU, res.FileLimit)
	}
	plugins := 0
	for _, p := range res.ServerProcs {
		if p.RSS <= 0 || p.HWM < p.RSS {
			t.Errorf("process %d (%s): RSS %d, peak %d", p.PID, p.Command, p.RSS, p.HWM)
		}
		if strings.Contains(p.Command, "plugin serve lastcard") {
			plugins++
		}
		if err := syscall.Kill(p.PID, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("process %d (%s) still runs after the bench: %v", p.PID, p.Command, err)
		}
	}
	if plugins != 1 || len(res.ServerProcs) < 2 {
		t.Errorf("server processes %+v: want the server and its plugins, Last Card's among them", res.ServerProcs)
	}
	if _, err := bench.RunIdle(context.Background(), bench.IdleConfig{Rooms: 1, Sockets: 3, Exe: cardhouseBin}); err == nil || !strings.Contains(err.Error(), "at least 4") {
		t.Errorf("three sockets per room: %v, want a refusal", err)
	}
}

// TestRunIdleRefusesBadConfig checks that an idle run refuses, before it starts anything, a
// setting it cannot honour, saying what is wrong.
func TestRunIdleRefusesBadConfig(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		cfg  bench.IdleConfig
		want string
	}{
		{"three sockets a room", bench.IdleConfig{Rooms: 1, Sockets: 3, Exe: "cardhouse"}, "at least 4"},
		{"negative hold", bench.IdleConfig{Rooms: 1, Sockets: 4, Hold: -time.Second, Exe: "cardhouse"}, "cannot be negative"},
		{"server not a URL", bench.IdleConfig{Rooms: 1, Sockets: 4, Server: "127.0.0.1:8080"}, `server "127.0.0.1:8080": want a base URL`},
		{"several servers", bench.IdleConfig{Rooms: 1, Sockets: 4, Server: "http://a:1,http://b:2"}, "held on one server, got 2"},
		{"target and database", bench.IdleConfig{Rooms: 1, Sockets: 4, Server: "http://a:1", DB: "host=x"}, "exclude each other"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := bench.RunIdle(context.Background(), tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}
