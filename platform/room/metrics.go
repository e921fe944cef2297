package room

import "github.com/prometheus/client_golang/prometheus"

// Metrics are the room layer's Prometheus collectors.
type Metrics struct {
	Rooms       prometheus.Gauge
	Connections prometheus.Gauge
	Actions     *prometheus.CounterVec
	EngineCalls *prometheus.HistogramVec
	Errors      *prometheus.CounterVec
}

// NewMetrics creates the collectors and registers them with reg (nil: not registered).
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		Rooms:       prometheus.NewGauge(prometheus.GaugeOpts{Name: "cardhouse_rooms_live", Help: "Rooms with a running actor."}),
		Connections: prometheus.NewGauge(prometheus.GaugeOpts{Name: "cardhouse_connections", Help: "Open room connections."}),
		Actions: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "cardhouse_actions_total", Help: "Actions by ruleset and result (accepted, refused, failed)."},
			[]string{"ruleset", "result"}),
		EngineCalls: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "cardhouse_engine_call_seconds", Help: "Latency of calls into rulesets (plugins) by ruleset, operation and result.",
			Buckets: []float64{.0001, .0002, .0005, .001, .002, .005, .01, .05, .1, .5, 1, 5}}, []string{"ruleset", "op", "result"}),
		Errors: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "cardhouse_errors_total", Help: "Errors by kind (engine, store, slow_client)."}, []string{"kind"}),
	}
	if reg != nil {
		reg.MustRegister(m.Rooms, m.Connections, m.Actions, m.EngineCalls, m.Errors)
	}
	return m
}
