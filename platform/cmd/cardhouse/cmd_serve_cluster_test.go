package main

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"cardhouse/platform/server"
)

// TestServeClusterSettings: a cluster needs PostgreSQL and a node name fit for the bus; each
// wrong setting is refused with a sentence naming the flag, before anything starts (no database
// is opened: the data folder stays empty).
func TestServeClusterSettings(t *testing.T) {
	pg := "host=127.0.0.1 dbname=x"
	for _, c := range []struct {
		name string
		o    serveOptions
		want string
	}{
		{"sqlite by default", serveOptions{cluster: "nats://127.0.0.1:4222", lease: time.Second}, "--cluster needs PostgreSQL"},
		{"sqlite named", serveOptions{cluster: "nats://127.0.0.1:4222", db: "sqlite:/tmp/x.db", lease: time.Second}, "--cluster needs PostgreSQL"},
		{"a node of no cluster", serveOptions{node: "a"}, "--node names a node of a cluster"},
		{"a bad node name", serveOptions{cluster: "nats://127.0.0.1:4222", db: pg, node: "a.b", lease: time.Second}, `--node "a.b"`},
		{"a short lease", serveOptions{cluster: "nats://127.0.0.1:4222", db: pg, lease: time.Millisecond}, "--lease 1ms"},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.o.data, c.o.logLevel, c.o.addr = t.TempDir(), "error", "127.0.0.1:0"
			err := runServe(context.Background(), c.o)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("runServe: %v, want an error saying %q", err, c.want)
			}
			if files, _ := os.ReadDir(c.o.data); len(files) != 0 {
				t.Errorf("the refused start left %d files in the data folder (%s): it opened the database", len(files), files[0].Name())
			}
		})
	}
	a, b := nodeName(""), nodeName("")
	if a == b || !server.NodeName.MatchString(a) {
		t.Errorf("generated node names %q and %q: want two different names fit for the bus", a, b)
	}
	if got := nodeName("web-1"); got != "web-1" {
		t.Errorf("nodeName(web-1) = %q", got)
	}
}
