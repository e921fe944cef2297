package bench

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// serverMetrics is what the bench reads off the server's /metrics before and after the window:
// the group commit counters and the latency histograms of an action's stages in the server.
type serverMetrics struct {
	batches, actions float64
	// hists are the stage histograms by stage name (see stageMetrics), summed over their labels.
	hists map[string]histogram
	// cluster are the series of a cluster's routing, leases and bus (isClusterMetric), each summed
	// over its labels, by metric name.
	// gauges names those of them whose # TYPE line says gauge (a level, not a count).
	cluster map[string]float64
	gauges  map[string]bool
}

// isClusterMetric reports whether name is one of the cluster's series (platform/cluster's
// Metrics, all named cardhouse_cluster_*), not a histogram's _bucket (histograms count by _count
// and _sum). New series under that prefix show up in the report as they come.
func isClusterMetric(name string) bool {
	return strings.HasPrefix(name, "cardhouse_cluster_") && !strings.HasSuffix(name, "_bucket")
}

// add sums o into m: the figures of several nodes.
func (m *serverMetrics) add(o serverMetrics) {
	m.batches += o.batches
	m.actions += o.actions
	if m.hists == nil {
		m.hists = map[string]histogram{}
	}
	for name, h := range o.hists {
		if m.hists[name] == nil {
			m.hists[name] = histogram{}
		}
		for le, n := range h {
			m.hists[name][le] += n
		}
	}
	if m.cluster == nil {
		m.cluster = map[string]float64{}
	}
	for name, v := range o.cluster {
		m.cluster[name] += v
	}
	if m.gauges == nil {
		m.gauges = map[string]bool{}
	}
	for name := range o.gauges {
		m.gauges[name] = true
	}
}

// stageMetrics names the server's histograms the bench reports: the stage, the metric and the
// labels a series must carry to count (all of them when empty).
var stageMetrics = []struct {
	stage, metric, labels string
}{
	{"act in the room", "cardhouse_act_seconds", ""},
	{"plugin act call", "cardhouse_engine_call_seconds", `op="act"`},
	{"commit wait", "cardhouse_commit_wait_seconds", ""},
}

// histogram is a Prometheus histogram's cumulative bucket counts by upper bound (seconds).
type histogram map[float64]float64

// fetchMetrics reads the server's /metrics.
func (a *api) fetchMetrics(ctx context.Context) (serverMetrics, error) {
	url := a.metricsURL
	if url == "" {
		url = a.base + "/metrics"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return serverMetrics{}, err
	}
	resp, err := a.client.Do(req)
	if err != nil {
		return serverMetrics{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return serverMetrics{}, fmt.Errorf("GET %s: %s (a targeted server serves /metrics to anyone only with serve --public-metrics; or give bench --metrics the URL of its --metrics-addr listener)", url, resp.Status)
	}
	return parseMetrics(resp.Body)
}

// parseMetrics reads cardhouse_commit_batches_total, cardhouse_commit_actions_total and the
// stage histograms (their _bucket series) from metrics in Prometheus' text format. The counters
// must be there; a histogram the server does not have is left out.
func parseMetrics(r io.Reader) (serverMetrics, error) {
	m := serverMetrics{hists: map[string]histogram{}, cluster: map[string]float64{}, gauges: map[string]bool{}}
	found := 0
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			if f := strings.Fields(line); len(f) == 4 && f[1] == "TYPE" && f[3] == "gauge" && isClusterMetric(f[2]) {
				m.gauges[f[2]] = true
			}
			continue
		}
		series, value, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		name, labels, _ := strings.Cut(series, "{")
		switch name {
		case "cardhouse_commit_batches_total", "cardhouse_commit_actions_total":
			v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
			if err != nil {
				return m, fmt.Errorf("/metrics: %s: %w", name, err)
			}
			if name == "cardhouse_commit_batches_total" {
				m.batches = v
			} else {
				m.actions = v
			}
			found++
			continue
		}
		if isClusterMetric(name) {
			if v, err := strconv.ParseFloat(strings.TrimSpace(value), 64); err == nil {
				m.cluster[name] += v
			}
			continue
		}
		base, isBucket := strings.CutSuffix(name, "_bucket")
		if !isBucket {
			continue
		}
		for _, s := range stageMetrics {
			if s.metric != base || !strings.Contains(labels, s.labels) {
				continue
			}
			le, err := labelValue(labels, "le")
			if err != nil {
				return m, fmt.Errorf("/metrics: %s: %w", series, err)
			}
			v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
			if err != nil {
				return m, fmt.Errorf("/metrics: %s: %w", series, err)
			}
			h := m.hists[s.stage]
			if h == nil {
				h = histogram{}
				m.hists[s.stage] = h
			}
			h[le] += v
		}
	}
	if err := sc.Err(); err != nil {
		return m, err
	}
	if found != 2 {
		return m, fmt.Errorf("/metrics has no group commit counters (a server older than the bench?)")
	}
	return m, nil
}

// labelValue returns the value of label key in a series' labels (`a="x",le="0.5"}`) as a number.
func labelValue(labels, key string) (float64, error) {
	_, rest, ok := strings.Cut(labels, key+`="`)
	if !ok {
		return 0, fmt.Errorf("no %s label", key)
	}
	v, _, ok := strings.Cut(rest, `"`)
	if !ok {
		return 0, fmt.Errorf("unterminated %s label", key)
	}
	return strconv.ParseFloat(v, 64) // "+Inf" parses as infinity
}

// since is the histogram of the observations made after earlier.
func (h histogram) since(earlier histogram) histogram {
	d := histogram{}
	for le, n := range h {
		d[le] = n - earlier[le]
	}
	return d
}

// Stage is one stage's latency in the server over the window, from its histogram: the count and
// quantiles interpolated linearly within buckets (as Prometheus' histogram_quantile), in ms.
type Stage struct {
	Name     string  `json:"name"`
	Count    int64   `json:"count"`
	P50      float64 `json:"p50_ms"`
	P99      float64 `json:"p99_ms"`
	Over10ms float64 `json:"over_10ms_share"`
}

// stage summarises h.
func (h histogram) stage(name string) Stage {
	bounds := slices.Sorted(func(yield func(float64) bool) {
		for le := range h {
			if !yield(le) {
				return
			}
		}
	})
	if len(bounds) == 0 {
		return Stage{Name: name}
	}
	total := h[bounds[len(bounds)-1]]
	s := Stage{Name: name, Count: int64(total)}
	if total <= 0 {
		return s
	}
	if over, ok := h[0.01]; ok {
		s.Over10ms = (total - over) / total
	}
	quantile := func(q float64) float64 {
		rank := q * total
		lower, below := 0.0, 0.0
		for _, le := range bounds {
			n := h[le]
			if n >= rank {
				if math.IsInf(le, 1) {
					return lower * 1000 // past the last finite bound: report that bound
				}
				return (lower + (le-lower)*(rank-below)/(n-below)) * 1000
			}
			lower, below = le, n
		}
		return lower * 1000
	}
	s.P50, s.P99 = quantile(0.5), quantile(0.99)
	return s
}
