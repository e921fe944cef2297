package room

import (
	"errors"

	"cardhouse/sdk/plugin"
)

// PluginStats is what the server knows of the process serving one ruleset: the admin area reads
// it here, so that it needs nothing of sdk/plugin (DESIGN.md: admin imports platform only).
type PluginStats struct {
	// Command is how the process is started; Running is true while one is in service, with PID
	// and the wire Protocol it speaks.
	Command  string
	Running  bool
	PID      int
	Protocol int
	// Launches, Restarts, Calls, Refusals, Errors, Crashes and Timeouts count as plugin.Stats does.
	Launches, Restarts, Calls, Refusals, Errors, Crashes, Timeouts uint64
	// MeanLatency, P50 and P99 are over every call, in microseconds; P50 and P99 are the upper
	// bounds of the histogram buckets they fall in.
	MeanLatency, P50, P99 float64
	// LastError is the text of the last failed call or launch ("" if none).
	LastError string
	// Name, Version and SDKVersion are the ruleset's, as the process described it at its last
	// launch ("" before the first).
	Name, Version, SDKVersion string
}

// ErrInProcess is returned for a ruleset that runs inside the server: it has no process.
var ErrInProcess = errors.New("the ruleset runs inside the server, not as a plugin process")

// supervised is an engine served by a plugin process (*plugin.Process).
type supervised interface {
	Stats() plugin.Stats
	Restart() error
}

// PluginStats reads the process serving ruleset id; ok is false when the ruleset runs inside the
// server (or there is no such ruleset).
func (m *Manager) PluginStats(id string) (PluginStats, bool) {
	p, ok := m.engine(id).(supervised)
	if !ok {
		return PluginStats{}, false
	}
	return pluginStats(p.Stats()), true
}

// RestartPlugin kills the process serving ruleset id and launches a fresh one (the rooms' games
// go on: the host keeps every state), on this node and, in a cluster, on every other (each node
// runs its own plugin processes; events.go). It returns this node's new process's stats, and
// ErrInProcess for a ruleset that has no process.
func (m *Manager) RestartPlugin(id string) (PluginStats, error) {
	st, err := m.restartPluginHere(id)
	if !errors.Is(err, ErrInProcess) {
		m.publish(eventPluginRestart, event{Ruleset: id})
	}
	return st, err
}

func (m *Manager) restartPluginHere(id string) (PluginStats, error) {
	p, ok := m.engine(id).(supervised)
	if !ok {
		return PluginStats{}, ErrInProcess
	}
	err := p.Restart()
	return pluginStats(p.Stats()), err
}

func pluginStats(s plugin.Stats) PluginStats {
	out := PluginStats{Command: s.Spec.String(), Running: s.Running, PID: s.PID, Protocol: s.Protocol,
		Launches: s.Launches, Restarts: s.Restarts, Calls: s.Calls, Refusals: s.Refusals, Errors: s.Errors,
		Crashes: s.Crashes, Timeouts: s.Timeouts, LastError: s.LastError,
		P50: quantile(s.Latency, 0.5), P99: quantile(s.Latency, 0.99)}
	if s.Latency.Count > 0 {
		out.MeanLatency = float64(s.Latency.Sum.Microseconds()) / float64(s.Latency.Count)
	}
	if d := s.Description; d != nil {
		out.Name, out.Version, out.SDKVersion = d.Name, d.Version, d.SDKVersion
	}
	return out
}

// quantile returns the upper bound (µs) of the bucket holding quantile q of l.
func quantile(l plugin.Latency, q float64) float64 {
	if l.Count == 0 {
		return 0
	}
	want := uint64(q * float64(l.Count))
	for i, c := range l.Counts {
		if c >= want && c > 0 {
			return float64(l.Bounds[i].Microseconds())
		}
	}
	if len(l.Bounds) > 0 {
		return float64(l.Bounds[len(l.Bounds)-1].Microseconds())
	}
	return 0
}
