package store

import (
	"context"
	"fmt"
	"sort"
	"time"
)

// Node is a node of a cluster as the database knows it: its row of cluster_nodes (written by the
// node itself: cluster.Keeper) and the live leases it holds. A node that holds leases but has no
// row (it stopped writing it: an older version) is listed with its leases and zero times.
type Node struct {
	Name string
	// StartedMs is when the node started, SeenMs when it last wrote its row (every third of its
	// lease while it runs), in Unix milliseconds of the database's clock; LeaseMs is its --lease.
	StartedMs, SeenMs, LeaseMs int64
	// Rooms are the codes of the rooms whose live lease it holds, in code order.
	Rooms []string
}

// Live reports whether the node wrote its row within its lease before nowMs: it is running.
func (n Node) Live(nowMs int64) bool { return n.SeenMs > 0 && nowMs-n.SeenMs <= n.LeaseMs }

// nodeForget is how long the row of a node that stopped writing it (it died) stays listed.
const nodeForget = 24 * time.Hour

// NodeSeen writes node's row: started now (starting true: the node has just started) or still
// running, with its lease duration ttl. Rows of nodes not seen for a day are deleted on the way.
func (s *Store) NodeSeen(ctx context.Context, node string, ttl time.Duration, starting bool) error {
	now := s.nowMs()
	started := "cluster_nodes.started_ms"
	if starting {
		started = "excluded.started_ms"
	}
	q := s.params(`INSERT INTO cluster_nodes (node, started_ms, seen_ms, lease_ms) VALUES ($1, ` + now + `, ` + now + `, $2)
ON CONFLICT (node) DO UPDATE SET started_ms = ` + started + `, seen_ms = excluded.seen_ms, lease_ms = excluded.lease_ms`)
	if _, err := s.sqlDB.ExecContext(ctx, q, node, ttl.Milliseconds()); err != nil {
		return fmt.Errorf("writing node %s's row: %w", node, err)
	}
	q = s.params(`DELETE FROM cluster_nodes WHERE seen_ms < ` + now + ` - $1`)
	if _, err := s.sqlDB.ExecContext(ctx, q, nodeForget.Milliseconds()); err != nil {
		return fmt.Errorf("forgetting the nodes not seen for %s: %w", nodeForget, err)
	}
	return nil
}

// NodeLeft deletes node's row (a graceful stop).
func (s *Store) NodeLeft(ctx context.Context, node string) error {
	if _, err := s.sqlDB.ExecContext(ctx, s.params(`DELETE FROM cluster_nodes WHERE node = $1`), node); err != nil {
		return fmt.Errorf("deleting node %s's row: %w", node, err)
	}
	return nil
}

// Nodes returns the nodes of the cluster by name, each with the live leases it holds, and the
// database's clock at the time of reading (Unix ms).
func (s *Store) Nodes(ctx context.Context) ([]Node, int64, error) {
	var nowMs int64
	if err := s.sqlDB.QueryRowContext(ctx, "SELECT "+s.nowMs()).Scan(&nowMs); err != nil {
		return nil, 0, err
	}
	rows, err := s.sqlDB.QueryContext(ctx, `SELECT node, started_ms, seen_ms, lease_ms FROM cluster_nodes`)
	if err != nil {
		return nil, 0, fmt.Errorf("listing the nodes: %w", err)
	}
	defer rows.Close()
	byName := map[string]*Node{}
	for rows.Next() {
		n := &Node{}
		if err := rows.Scan(&n.Name, &n.StartedMs, &n.SeenMs, &n.LeaseMs); err != nil {
			return nil, 0, err
		}
		byName[n.Name] = n
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	rows.Close()
	lrows, err := s.sqlDB.QueryContext(ctx, s.params(`SELECT l.node, r.code FROM room_leases l JOIN rooms r ON r.id = l.room_id
WHERE l.expires_ms > $1 ORDER BY r.code`), nowMs)
	if err != nil {
		return nil, 0, fmt.Errorf("listing the rooms of the nodes: %w", err)
	}
	defer lrows.Close()
	for lrows.Next() {
		var node, code string
		if err := lrows.Scan(&node, &code); err != nil {
			return nil, 0, err
		}
		n := byName[node]
		if n == nil {
			n = &Node{Name: node}
			byName[node] = n
		}
		n.Rooms = append(n.Rooms, code)
	}
	if err := lrows.Err(); err != nil {
		return nil, 0, err
	}
	out := make([]Node, 0, len(byName))
	for _, n := range byName {
		out = append(out, *n)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nowMs, nil
}

// RoomOwners returns the node holding the live lease of each room of ids that has one, by room id
// (the admin area's room lists name the owner).
func (s *Store) RoomOwners(ctx context.Context, ids []int64) (map[int64]string, error) {
	out := map[int64]string{}
	for len(ids) > 0 {
		chunk := ids[:min(len(ids), 500)]
		ids = ids[len(chunk):]
		b := &sqlArgs{pg: s.dialect == "postgres"}
		b.q.WriteString("SELECT room_id, node FROM room_leases WHERE expires_ms > " + s.nowMs() + " AND room_id IN (")
		for i, id := range chunk {
			if i > 0 {
				b.q.WriteString(", ")
			}
			b.arg(id, "::bigint")
		}
		b.q.WriteByte(')')
		rows, err := s.sqlDB.QueryContext(ctx, b.q.String(), b.args...)
		if err != nil {
			return nil, fmt.Errorf("reading the owners of %d rooms: %w", len(chunk), err)
		}
		for rows.Next() {
			var id int64
			var node string
			if err := rows.Scan(&id, &node); err != nil {
				rows.Close()
				return nil, err
			}
			out[id] = node
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
