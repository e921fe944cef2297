package cluster

import (
	"context"
	"errors"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are a node's figures of the cluster (docs/operations.md, "Metrics"): its leases (kept
// by the Keeper), its requests over the bus, the HTTP requests and WebSockets it routes
// (platform/server) and the cluster-wide events it sends and hears (platform/room). On a single
// node they stay at zero.
type Metrics struct {
	// RoomsOwned is how many room leases the node holds.
	RoomsOwned prometheus.Gauge
	// LeasesTaken counts leases the node took; LeasesLost those it lost, by reason ("taken":
	// another node holds it now, "expired": not renewed in time); RenewalFailures the renewal
	// rounds (one statement for every lease held) that failed.
	LeasesTaken     prometheus.Counter
	LeasesLost      *prometheus.CounterVec
	RenewalFailures prometheus.Counter
	// BusRequests is the latency of the node's requests over the bus, by kind (the subject's last
	// fixed token: http, attach, lobby) and result (ok, no_responders, timeout, error).
	BusRequests *prometheus.HistogramVec
	// Forwarded counts HTTP requests routed between nodes, by direction ("sent": this node sent
	// it to the room's owner; "served": this node ran it for another node) and result (the
	// status class answered, 2xx to 5xx, or "unanswered" when the owner did not answer).
	Forwarded *prometheus.CounterVec
	// Relayed is how many WebSockets are relayed now, by side ("edge": the browser's socket is
	// here and the room elsewhere; "owner": the room is here and the socket elsewhere).
	Relayed *prometheus.GaugeVec
	// RelaysEnded counts the relayed WebSockets this node ended because of the other node, by
	// side (as Relayed) and reason ("silent": no heartbeat from it for a while; "forgotten": it no
	// longer lists the socket; "moved": another node took the room under a later lease).
	RelaysEnded *prometheus.CounterVec
	// Events counts the cluster-wide events (bans' disconnects, look changes, plugin changes,
	// deleted accounts' removals), by kind and direction (sent, received).
	Events *prometheus.CounterVec
}

// busBuckets are the upper bounds (seconds) of the bus latency histogram: a request between
// nodes on one network takes a millisecond or two; a forwarded request runs the owner's handler
// too (up to the 10 s bound).
var busBuckets = []float64{.0002, .0005, .001, .002, .005, .01, .02, .05, .1, .2, .5, 1, 2, 5, 10}

// NewMetrics creates the collectors and registers them with reg (nil: not registered).
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		RoomsOwned:  prometheus.NewGauge(prometheus.GaugeOpts{Name: "cardhouse_cluster_rooms_owned", Help: "Room leases this node holds."}),
		LeasesTaken: prometheus.NewCounter(prometheus.CounterOpts{Name: "cardhouse_cluster_leases_taken_total", Help: "Room leases this node took."}),
		LeasesLost: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "cardhouse_cluster_leases_lost_total",
			Help: "Room leases this node lost, by reason (taken: another node holds it; expired: not renewed in time)."}, []string{"reason"}),
		RenewalFailures: prometheus.NewCounter(prometheus.CounterOpts{Name: "cardhouse_cluster_lease_renewal_failures_total",
			Help: "Lease renewal rounds (one statement for every lease held) that failed."}),
		BusRequests: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "cardhouse_cluster_bus_request_seconds",
			Help: "Latency of this node's requests to other nodes over the bus, by kind (http, attach, lobby) and result.", Buckets: busBuckets},
			[]string{"kind", "result"}),
		Forwarded: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "cardhouse_cluster_forwarded_requests_total",
			Help: "HTTP requests routed between nodes, by direction (sent to the owner, served for another node) and result (status class or unanswered)."},
			[]string{"direction", "result"}),
		Relayed: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "cardhouse_cluster_relayed_sockets",
			Help: "WebSockets relayed now, by side (edge: the socket is here, the room elsewhere; owner: the room is here, the socket elsewhere)."},
			[]string{"side"}),
		RelaysEnded: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "cardhouse_cluster_relays_ended_total",
			Help: "Relayed WebSockets this node ended because of the other node, by side and reason (silent: its heartbeats stopped; forgotten: it no longer knew the socket)."},
			[]string{"side", "reason"}),
		Events: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "cardhouse_cluster_events_total",
			Help: "Cluster-wide events (disconnect, look, ruleset, plugin_restart, remove; unknown: a received kind this node does not know), by kind and direction (sent, received)."},
			[]string{"kind", "direction"}),
	}
	if reg != nil {
		reg.MustRegister(m.RoomsOwned, m.LeasesTaken, m.LeasesLost, m.RenewalFailures, m.BusRequests, m.Forwarded, m.Relayed, m.RelaysEnded, m.Events)
	}
	return m
}

// RequestResult names the result of a bus request for the BusRequests histogram.
func RequestResult(err error) string {
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, ErrNoResponders):
		return "no_responders"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	}
	return "error"
}

// Connected reports whether bus is connected to its broker: a bus that does not say (LocalBus,
// in-process) is connected while it is open.
func Connected(bus Bus) bool {
	c, ok := bus.(interface{ Connected() bool })
	return !ok || c.Connected()
}

// Reconnects counts the times bus has connected to its broker again after losing it: a change
// means an outage, however short, during which published messages were lost. A bus that does
// not say (LocalBus) never reconnects.
func Reconnects(bus Bus) uint64 {
	c, ok := bus.(interface{ Reconnects() uint64 })
	if !ok {
		return 0
	}
	return c.Reconnects()
}
