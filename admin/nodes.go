package admin

// The nodes of a cluster (docs/operations.md): which nodes run, when each was last seen, and the
// rooms each runs. Each node writes its own row (cluster.Keeper, store.NodeSeen); the rooms are the
// live leases. On a single node the page says there is no cluster.

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// NodeInfo is a node of the cluster as the nodes page shows it.
type NodeInfo struct {
	Name string `json:"name"`
	// This is true for the node that answers this request.
	This bool `json:"this"`
	// Live is true while the node writes its row within its lease; a node that stopped writing it
	// (it died, or froze) is listed as gone until a day has passed.
	Live bool `json:"live"`
	// StartedAt and SeenAt are when the node started and last wrote its row (every third of its
	// lease), by the database's clock; SeenAgo is how long before this answer, in seconds. Both
	// are missing for a node that holds leases but writes no row (an older version).
	StartedAt *time.Time `json:"started_at,omitempty"`
	SeenAt    *time.Time `json:"seen_at,omitempty"`
	SeenAgo   float64    `json:"seen_ago_seconds"`
	// Lease is the node's --lease, in seconds.
	Lease float64 `json:"lease_seconds"`
	// Rooms are the codes of the rooms the node runs (it holds their live leases).
	Rooms []string `json:"rooms"`
}

// NodeList is the nodes page: Cluster is false on a single node (no nodes are listed).
type NodeList struct {
	Cluster bool       `json:"cluster"`
	This    string     `json:"this,omitempty"`
	Nodes   []NodeInfo `json:"nodes"`
}

// Nodes lists the nodes of the cluster by name.
func (a *Admin) Nodes(ctx context.Context) (*NodeList, error) {
	out := &NodeList{This: a.rooms.Node(), Cluster: a.rooms.Node() != "", Nodes: []NodeInfo{}}
	if !out.Cluster {
		return out, nil
	}
	nodes, nowMs, err := a.st.Nodes(ctx)
	if err != nil {
		return nil, err
	}
	for _, n := range nodes {
		ni := NodeInfo{Name: n.Name, This: n.Name == out.This, Live: n.Live(nowMs), Lease: float64(n.LeaseMs) / 1000, Rooms: n.Rooms}
		if ni.Rooms == nil {
			ni.Rooms = []string{}
		}
		if n.SeenMs > 0 {
			started, seen := time.UnixMilli(n.StartedMs).UTC(), time.UnixMilli(n.SeenMs).UTC()
			ni.StartedAt, ni.SeenAt, ni.SeenAgo = &started, &seen, float64(nowMs-n.SeenMs)/1000
		}
		out.Nodes = append(out.Nodes, ni)
	}
	return out, nil
}

func (a *Admin) nodesPage(c echo.Context) error {
	l, err := a.Nodes(c.Request().Context())
	if err != nil {
		return err
	}
	return a.render(c, http.StatusOK, "nodes", "Nodes", "nodes", l, nil)
}

func (a *Admin) apiNodes(c echo.Context) error {
	l, err := a.Nodes(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, l)
}
