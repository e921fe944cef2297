package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"cardhouse/platform/cluster"
	"cardhouse/platform/server"
	"cardhouse/platform/store"
)

// A node of a cluster (`serve --cluster nats://...`): several nodes share one PostgreSQL database
// and reach each other over the NATS broker; each runs the rooms whose leases it holds and routes
// the requests and WebSockets of the others' rooms to them (docs/operations.md). Without
// --cluster the server is a single node: no broker, no leases.

// checkCluster refuses a cluster setting that cannot work, before anything starts.
func checkCluster(o serveOptions) error {
	if o.cluster == "" {
		if o.node != "" {
			return errors.New("--node names a node of a cluster: set --cluster too (or drop --node for a single server)")
		}
		return nil
	}
	if db := strings.TrimSpace(o.db); db == "" || strings.HasPrefix(db, "sqlite:") {
		return errors.New("--cluster needs PostgreSQL: set --db to a PostgreSQL DSN (SQLite is one process's database, and every node must share one)")
	}
	if o.node != "" && !server.NodeName.MatchString(o.node) {
		return fmt.Errorf("--node %q: a node's name has 1 to 64 letters, digits, - or _", o.node)
	}
	if o.lease < time.Second {
		return fmt.Errorf("--lease %s: a room's lease lasts at least 1s", o.lease)
	}
	return nil
}

// clusterDSN is a node's PostgreSQL DSN: the one given, with idle_in_transaction_session_timeout
// set to the lease (unless the DSN sets it). A node frozen in the middle of a transaction (SIGSTOP,
// a long pause, a machine that stops without closing its connections) holds that transaction's
// locks for as long as it is frozen; a room's commit holds its lease row FOR SHARE (the fencing,
// store.checkFences), and the next node's taking of the lease (an UPDATE of the row) waits for
// it, so the room could not move at all. The database ends such a session after a lease of
// idleness, releasing its locks: by then the frozen node's lease has run out anyway, so what it
// was committing would be fenced off. (TestRunFreezesANodeMidWindow, platform/bench: the rooms of
// a node frozen mid-commit did not move until it was killed.)
func clusterDSN(o serveOptions) string {
	const param = "idle_in_transaction_session_timeout"
	dsn := strings.TrimSpace(o.db)
	if o.cluster == "" || strings.Contains(dsn, param) {
		return o.db
	}
	ms := strconv.FormatInt(o.lease.Milliseconds(), 10)
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		sep := "?"
		if strings.Contains(dsn, "?") {
			sep = "&"
		}
		return dsn + sep + param + "=" + ms
	}
	return dsn + " " + param + "=" + ms
}

// nodeName is the name given, or this machine's host name and a random suffix: two nodes must
// never share a name (each takes the other's leases as its own).
func nodeName(given string) string {
	if given != "" {
		return given
	}
	host, _ := os.Hostname()
	host = regexp.MustCompile(`[^A-Za-z0-9_-]+`).ReplaceAllString(host, "-")
	host = strings.Trim(host, "-")
	if len(host) > 40 {
		host = host[:40]
	}
	if host == "" {
		host = "node"
	}
	var b [4]byte
	_, _ = rand.Read(b[:])
	return host + "-" + hex.EncodeToString(b[:])
}

// dialCluster connects a node to the broker, under the namespace of its cluster: the id the nodes
// sharing st's database share (store.ClusterID), so clusters sharing a broker never hear each other.
func dialCluster(ctx context.Context, st *store.Store, url, node string, log *slog.Logger) (cluster.Bus, error) {
	id, err := st.ClusterID(ctx)
	if err != nil {
		return nil, fmt.Errorf("--cluster: %w", err)
	}
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	nb, err := cluster.DialNATS(dctx, url, node, log)
	if err != nil {
		return nil, fmt.Errorf("--cluster: %w", err)
	}
	bus, err := cluster.Namespaced(nb, "cardhouse-"+id)
	if err != nil {
		nb.Close()
		return nil, fmt.Errorf("--cluster: %w", err)
	}
	log.Info("joined the cluster", "cluster", id, "broker", url)
	return bus, nil
}
