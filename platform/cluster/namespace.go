package cluster

import (
	"context"
	"fmt"
	"strings"
)

// Namespaced is b with every subject under the token ns: what a node publishes, subscribes to and
// requests goes to "ns.subject", and the messages it receives carry their subjects without it. The
// nodes of one cluster share a namespace (cardhouse serve uses the cluster's id from its database,
// store.ClusterID), so clusters, and tests, sharing one broker never hear each other's routing or
// events. ns is one token of letters, digits, - or _.
func Namespaced(b Bus, ns string) (Bus, error) {
	if ns == "" || strings.ContainsAny(ns, ".*> \t\r\n") {
		return nil, fmt.Errorf("namespace %q: want one token of letters, digits, - or _", ns)
	}
	return &namespaced{b: b, prefix: ns + "."}, nil
}

type namespaced struct {
	b      Bus
	prefix string
}

func (n *namespaced) Publish(subject string, data []byte) error {
	return n.b.Publish(n.prefix+subject, data)
}

func (n *namespaced) Subscribe(pattern string, fn func(Msg)) (Subscription, error) {
	return n.b.Subscribe(n.prefix+pattern, func(m Msg) {
		m.Subject = strings.TrimPrefix(m.Subject, n.prefix)
		fn(m)
	})
}

func (n *namespaced) Request(ctx context.Context, subject string, data []byte) ([]byte, error) {
	return n.b.Request(ctx, n.prefix+subject, data)
}

func (n *namespaced) Close() error { return n.b.Close() }

// Connected is the bus's own (Connected reports whether a bus reaches its broker).
func (n *namespaced) Connected() bool { return Connected(n.b) }

// Reconnects is the bus's own (cluster.Reconnects).
func (n *namespaced) Reconnects() uint64 { return Reconnects(n.b) }
