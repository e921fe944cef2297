package room

import (
	"context"
	"slices"
	"sync"
	"time"

	"cardhouse/sdk/engine"
)

// readyFor is how long CheckRulesets reuses its answer: a load balancer probing every node every
// few seconds costs each plugin at most one trial start a second.
const readyFor = time.Second

// readiness is the last answer of CheckRulesets.
type readiness struct {
	mu     sync.Mutex
	at     time.Time
	failed map[string]string
}

// CheckRulesets asks every ruleset this node offers (the disabled ones aside) for a trial start of
// a game, through its plugin process (a crashed one is launched again by the call), each within
// timeout, and returns the ones that failed with why: none when the node can serve every variant
// (GET /readyz). The answer is reused for a second.
func (m *Manager) CheckRulesets(ctx context.Context, timeout time.Duration) map[string]string {
	r := &m.ready
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.at.IsZero() && time.Since(r.at) < readyFor {
		return r.failed
	}
	set := m.set.Load()
	disabled := m.DisabledRulesets()
	ids := make([]string, 0, len(set.descs))
	for id := range set.descs {
		if _, off := disabled[id]; !off {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	failed := map[string]string{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, id := range ids {
		d := set.descs[id]
		wg.Go(func() {
			cctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			if _, err := set.engines[id].NewGame(cctx, &engine.NewGameRequest{Seats: d.MinSeats, Seed: 1, NoViews: true}); err != nil {
				mu.Lock()
				failed[id] = err.Error()
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	r.at, r.failed = time.Now(), failed
	return failed
}
