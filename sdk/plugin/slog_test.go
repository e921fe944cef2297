package plugin_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"syscall"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/plugin"

	"github.com/hashicorp/go-hclog"
)

// logSink is a slog JSON handler's output: it signals when a line containing marker is written.
type logSink struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	marker string
	seen   chan struct{}
	once   sync.Once
}

func (s *logSink) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if bytes.Contains(b, []byte(s.marker)) {
		s.once.Do(func() { close(s.seen) })
	}
	return s.buf.Write(b)
}

func (s *logSink) lines() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Split(strings.TrimRight(s.buf.String(), "\n"), "\n")
}

// TestPluginLogsAreJSON (issue 23): through SlogLogger, go-plugin's own records and a plugin's
// raw stderr line (here the counter saying it hangs, then the process killed under the call)
// come out as one JSON record per line of the host's slog handler, with level, message and the
// logger's name: no hclog text line among them.
func TestPluginLogsAreJSON(t *testing.T) {
	t.Parallel()
	sink := &logSink{marker: "counter: hanging", seen: make(chan struct{})}
	h := slog.NewJSONHandler(sink, &slog.HandlerOptions{Level: slog.LevelDebug})
	p := newProcess(t, plugin.Config{Logger: plugin.SlogLogger(slog.New(h), hclog.Debug).Named("plugin")})
	st := mustNewGame(t, p)
	errc := make(chan error, 1)
	go func() {
		_, err := p.Act(context.Background(), &engine.ActRequest{State: st.State, Action: sdk.Action{Seat: 0, Type: "hang"}})
		errc <- err
	}()
	select {
	case <-sink.seen:
	case err := <-errc:
		t.Fatalf("the hanging call returned before its stderr line was logged: %v", err)
	}
	if err := syscall.Kill(p.Stats().PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-errc

	lines := sink.lines()
	if len(lines) < 2 {
		t.Fatalf("%d log lines, want go-plugin's and the plugin's: %q", len(lines), lines)
	}
	var relayed bool
	for _, l := range lines {
		var rec map[string]any
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Errorf("a log line is not JSON (%v): %s", err, l)
			continue
		}
		if rec["level"] == nil || rec["msg"] == nil || rec["time"] == nil {
			t.Errorf("a record lacks time, level or msg: %s", l)
		}
		if name, _ := rec["logger"].(string); !strings.HasPrefix(name, "plugin") {
			t.Errorf("a record does not name its logger: %s", l)
		}
		if strings.Contains(l, "counter: hanging") {
			relayed = true
		}
	}
	if !relayed {
		t.Errorf("the plugin's stderr line is not among the records: %q", lines)
	}
}
