// Package clustertest gives tests a node's connection to the test broker (CARDHOUSE_TEST_NATS_URL,
// which .ci/run sets), under a namespace of the test's own: the broker is shared with other tests,
// other packages' test binaries and other developers' runs, and the nodes of a cluster act on
// what they hear (a ban's disconnect names a user id that exists in every test's database).
package clustertest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"net"
	"net/url"
	"os"
	"regexp"
	"sync"
	"testing"

	"cardhouse/platform/cluster"
)

// NATSEnv names the variable holding the URL of the test broker.
const NATSEnv = "CARDHOUSE_TEST_NATS_URL"

var (
	saltOnce sync.Once
	salt     string
	unsafe   = regexp.MustCompile(`[^A-Za-z0-9_-]+`)
)

// RequireNATS returns the test broker's URL, or skips t, saying why, when none is set. Call it
// first in a test (or subtest) of the broker, so that it skips before it sets anything up.
func RequireNATS(t testing.TB) string {
	t.Helper()
	url := os.Getenv(NATSEnv)
	if url == "" {
		t.Skipf("%s is not set: skipping a test of nodes talking over NATS (.ci/run starts a broker)", NATSEnv)
	}
	return url
}

// Namespace is the namespace of t's cluster: the same for every node t (or its cleanup) dials, and
// another for every other test, subtest and test process.
func Namespace(t testing.TB) string {
	saltOnce.Do(func() {
		var b [6]byte
		_, _ = rand.Read(b[:])
		salt = hex.EncodeToString(b[:])
	})
	return "test-" + salt + "-" + unsafe.ReplaceAllString(t.Name(), "_")
}

// NATS connects to the test broker as node, under t's namespace, and closes the connection when
// t ends; without a broker the test is skipped, saying so.
//
// t must be the test whose goroutine calls NATS: a skip or a failure ends the calling goroutine,
// which must be t's own (a subtest's helper that calls it with its parent's t panics).
func NATS(t testing.TB, node string) cluster.Bus {
	t.Helper()
	return dial(t, RequireNATS(t), node)
}

// dial connects node to the broker at url under t's namespace, closed when t ends.
func dial(t testing.TB, url, node string) cluster.Bus {
	t.Helper()
	nb, err := cluster.DialNATS(context.Background(), url, node, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nb.Close() })
	bus, err := cluster.Namespaced(nb, Namespace(t))
	if err != nil {
		t.Fatal(err)
	}
	return bus
}

// Link is a node's cuttable connection to the test broker: a TCP proxy on 127.0.0.1 between the
// node's NATS client and the broker. Cut closes every connection through it and refuses new ones
// until Restore, as a network partition between the node and the broker would; the node's client
// reconnects by itself once restored.
type Link struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	cut    bool
	conns  map[net.Conn]struct{}
}

// NATSLinked is NATS through a Link the test can cut.
func NATSLinked(t testing.TB, node string) (cluster.Bus, *Link) {
	t.Helper()
	raw := RequireNATS(t)
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatalf("%s=%q: %v", NATSEnv, raw, err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := &Link{ln: ln, target: u.Host, conns: map[net.Conn]struct{}{}}
	go l.serve()
	t.Cleanup(func() { ln.Close(); l.Cut() })
	via := *u
	via.Host = ln.Addr().String()
	return dial(t, via.String(), node), l
}

func (l *Link) serve() {
	for {
		c, err := l.ln.Accept()
		if err != nil {
			return
		}
		l.mu.Lock()
		if l.cut {
			l.mu.Unlock()
			c.Close()
			continue
		}
		b, err := net.Dial("tcp", l.target)
		if err != nil {
			l.mu.Unlock()
			c.Close()
			continue
		}
		l.conns[c], l.conns[b] = struct{}{}, struct{}{}
		l.mu.Unlock()
		go func() { _, _ = io.Copy(b, c); b.Close() }()
		go func() { _, _ = io.Copy(c, b); c.Close() }()
	}
}

// Cut drops the node's connection to the broker and keeps it from connecting again.
func (l *Link) Cut() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.cut = true
	for c := range l.conns {
		c.Close()
	}
	clear(l.conns)
}

// Restore lets the node connect to the broker again.
func (l *Link) Restore() {
	l.mu.Lock()
	l.cut = false
	l.mu.Unlock()
}
