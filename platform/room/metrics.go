package room

import "github.com/prometheus/client_golang/prometheus"

// Metrics are the room layer's Prometheus collectors.
type Metrics struct {
	Rooms       prometheus.Gauge
	Connections prometheus.Gauge
	Actions     *prometheus.CounterVec
	EngineCalls *prometheus.HistogramVec
	// CommitWait is how long an action waits for its durable commit (P-7) before anyone hears
	// of it; ActTime is a player's act in the room, from the server handing it to the room (its
	// wait in the room's queue included) to its views queued for every connection.
	CommitWait prometheus.Histogram
	ActTime    prometheus.Histogram
	Errors     *prometheus.CounterVec
	// HouseRuleFailures counts the failures of house rules' hooks in live games, by rule and
	// version (faults.go).
	HouseRuleFailures *prometheus.CounterVec
}

// latencyBuckets are the upper bounds (seconds) of the latency histograms: fine below 20 ms,
// where an action's stages fall at a paced load, and in tenths of a second up to half a second,
// where they fall on a saturated server.
var latencyBuckets = []float64{.0001, .0002, .0005, .001, .002, .005, .01, .015, .02, .03, .05, .1, .2, .3, .5, 1, 5}

// NewMetrics creates the collectors and registers them with reg (nil: not registered).
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		Rooms:       prometheus.NewGauge(prometheus.GaugeOpts{Name: "cardhouse_rooms_live", Help: "Rooms with a running actor."}),
		Connections: prometheus.NewGauge(prometheus.GaugeOpts{Name: "cardhouse_connections", Help: "Open room connections."}),
		Actions: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "cardhouse_actions_total", Help: "Actions by ruleset and result (accepted, refused, failed)."},
			[]string{"ruleset", "result"}),
		EngineCalls: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "cardhouse_engine_call_seconds", Help: "Latency of calls into rulesets (plugins) by ruleset, operation and result.",
			Buckets: latencyBuckets}, []string{"ruleset", "op", "result"}),
		CommitWait: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "cardhouse_commit_wait_seconds",
			Help: "How long an action waits for its durable commit before it is broadcast.", Buckets: latencyBuckets}),
		ActTime: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "cardhouse_act_seconds",
			Help: "A player's act in its room, from reaching the room's queue to its views queued for every connection (queue, plugin call, commit, encoding).", Buckets: latencyBuckets}),
		Errors: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "cardhouse_errors_total", Help: "Errors by kind (engine, store, slow_client)."}, []string{"kind"}),
		HouseRuleFailures: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "cardhouse_house_rule_failures_total",
			Help: "Failures of house rules' hooks in live games, by rule and version."}, []string{"rule", "version"}),
	}
	if reg != nil {
		reg.MustRegister(m.Rooms, m.Connections, m.Actions, m.EngineCalls, m.CommitWait, m.ActTime, m.Errors, m.HouseRuleFailures)
	}
	return m
}
