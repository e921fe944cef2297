package store_test

import (
	"context"
	"testing"

	"cardhouse/platform/store/storetest"
)

// TestClusterID: the nodes sharing a database read one cluster id, made by the first to ask and
// kept; another database has another.
func TestClusterID(t *testing.T) {
	for _, dialect := range storetest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			nodes := storetest.OpenNodes(t, dialect, 2)
			first, err := nodes[0].ClusterID(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(first) != 16 {
				t.Fatalf("cluster id %q, want 16 hex digits", first)
			}
			for i, st := range []int{1, 0, 1} {
				got, err := nodes[st].ClusterID(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if got != first {
					t.Fatalf("ask %d (node %d): cluster id %q, want the first one's %q", i, st, got, first)
				}
			}
			other, err := storetest.Open(t, dialect).ClusterID(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if other == first {
				t.Fatalf("another database has the same cluster id %q", other)
			}
		})
	}
}
