// Package cluster holds what lets several `cardhouse serve` nodes share one site (DESIGN.md,
// "Beyond one machine"): a Bus between the nodes (the real NATS broker in a cluster, an
// in-process bus behind the same interface on a single node) and a Keeper of the room leases a
// node holds in the database (store.AcquireLease), renewed in the background, whose fencing
// epochs every commit of a room checks. Metrics are a node's figures of the cluster (its leases,
// its requests over the bus, what it routes), served on its /metrics.
//
// A single node, the default, needs neither a broker nor leases: it runs on NewLocalBus and
// commits without a fence.
package cluster
