package room

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"cardhouse/platform/cluster"
	"cardhouse/platform/store/storetest"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// An event of a kind this node does not know is counted under kind "unknown", whatever its
// subject says: the kind label of cardhouse_cluster_events_total takes only the known kinds and
// "unknown", however many kinds the bus carries. Known kinds keep their own label.
func TestUnknownEventKindsShareOneLabel(t *testing.T) {
	t.Parallel()
	m, err := NewManager(context.Background(), Config{Store: storetest.Open(t, "sqlite"),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	events := m.cfg.ClusterMetrics.Events
	for _, kind := range []string{"bogus", "x1", "x2", "plugin_restart2", "a.b"} {
		m.onEvent(cluster.Msg{Subject: eventPrefix + kind, Data: []byte(`{"from":"another node"}`)})
	}
	m.onEvent(cluster.Msg{Subject: eventPrefix + eventRuleset, Data: []byte(`{"from":"another node","ruleset":"toy","disabled":true,"reason":"r"}`)})
	if got := testutil.ToFloat64(events.WithLabelValues(eventUnknown, "received")); got != 5 {
		t.Errorf("events of unknown kinds received: %v, want 5", got)
	}
	if got := testutil.ToFloat64(events.WithLabelValues(eventRuleset, "received")); got != 1 {
		t.Errorf("ruleset events received: %v, want 1", got)
	}
	if n := testutil.CollectAndCount(events); n != 2 {
		t.Errorf("%d series of cardhouse_cluster_events_total, want 2 (unknown and ruleset)", n)
	}
}
