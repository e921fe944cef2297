package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
)

// ClusterID is the identity of the cluster whose nodes share this database: a random id made by
// the first node that asks, the same for every node after it (table cluster_identity). A node
// puts it in front of the subjects it uses on the broker (cluster.Namespaced), so two clusters, or
// two tests, that share a broker never hear each other.
func (s *Store) ClusterID(ctx context.Context) (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("making the cluster's id: %w", err)
	}
	ins := s.params(`INSERT INTO cluster_identity (one, id) VALUES (1, $1) ON CONFLICT (one) DO NOTHING`)
	if _, err := s.sqlDB.ExecContext(ctx, ins, hex.EncodeToString(b[:])); err != nil {
		return "", fmt.Errorf("writing the cluster's id: %w", err)
	}
	var id string
	if err := s.sqlDB.QueryRowContext(ctx, `SELECT id FROM cluster_identity WHERE one = 1`).Scan(&id); err != nil {
		return "", fmt.Errorf("reading the cluster's id: %w", err)
	}
	return id, nil
}
