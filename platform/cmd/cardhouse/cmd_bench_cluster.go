package main

import (
	"cardhouse/platform/bench"

	"github.com/spf13/pflag"
)

// addBenchClusterFlags adds the flags of `cardhouse bench` that spread its players over the nodes
// of a cluster (docs/performance.md, "Several nodes"): nodes it starts on PostgreSQL and NATS, the
// processes of targeted nodes, the broker's, and a node to stop mid-window.
func addBenchClusterFlags(f *pflag.FlagSet, cfg *bench.Config) {
	f.IntVar(&cfg.Nodes, "nodes", 1, "nodes to start, with --db and --cluster when more than one: the rooms' sockets are spread over them")
	f.StringVar(&cfg.Cluster, "cluster", "", "NATS URL the started nodes reach each other over (serve --cluster); with one node, a cluster of one")
	f.IntSliceVar(&cfg.ServerPIDs, "server-pids", nil, "process ids of the --server nodes, in their order, for their CPU and memory figures")
	f.IntVar(&cfg.BrokerPID, "broker-pid", 0, "process id of the NATS broker, for its CPU in the window (a broker serving this run alone)")
	f.DurationVar(&cfg.StopNodeAfter, "stop-node", 0, "stop the last started node (SIGTERM) this long into the window; its players reconnect to the others")
}
