package bench

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// commitCounts are the server's group commit counters (from /metrics).
type commitCounts struct {
	batches, actions float64
}

// fetchCommitCounts reads the group commit counters from the server's /metrics.
func (a *api) fetchCommitCounts(ctx context.Context) (commitCounts, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.base+"/metrics", nil)
	if err != nil {
		return commitCounts{}, err
	}
	resp, err := a.client.Do(req)
	if err != nil {
		return commitCounts{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return commitCounts{}, fmt.Errorf("GET /metrics: %s", resp.Status)
	}
	return parseCommitCounts(resp.Body)
}

// parseCommitCounts reads cardhouse_commit_batches_total and cardhouse_commit_actions_total from
// metrics in Prometheus' text format.
func parseCommitCounts(r io.Reader) (commitCounts, error) {
	var c commitCounts
	found := 0
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		var into *float64
		switch {
		case !ok:
			continue
		case name == "cardhouse_commit_batches_total":
			into = &c.batches
		case name == "cardhouse_commit_actions_total":
			into = &c.actions
		default:
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil {
			return c, fmt.Errorf("/metrics: %s: %w", name, err)
		}
		*into = v
		found++
	}
	if err := sc.Err(); err != nil {
		return c, err
	}
	if found != 2 {
		return c, fmt.Errorf("/metrics has no group commit counters (a server older than the bench?)")
	}
	return c, nil
}
