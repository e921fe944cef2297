package sdk

import "sync"

// stateCacheSize bounds the decoded states an engine keeps: one per recently active game is enough
// for the common case (a plugin gets back the state it produced by the previous action), and at a
// few KiB per state the cache stays within a few tens of MiB.
const stateCacheSize = 2048

// stateCache maps stored state bytes to their decoded state. Keys are the exact bytes, so a hit is
// always the state those bytes encode; eviction is first in, first out.
type stateCache[S any] struct {
	mu      sync.Mutex
	entries map[string]cachedState[S]
	order   []string
	next    int
}

type cachedState[S any] struct {
	state S
	env   envelope
}

func (c *stateCache[S]) get(blob []byte) (S, envelope, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[string(blob)]
	return e.state, e.env, ok
}

// put remembers a decoded state. Games with house rules are not cached: the house rules' memory is
// advanced in place by the runner, so it must be decoded afresh for every call.
func (c *stateCache[S]) put(blob []byte, s S, env envelope) {
	if len(env.HouseRules) > 0 || env.House != nil {
		return
	}
	key := string(blob)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = make(map[string]cachedState[S], stateCacheSize)
		c.order = make([]string, 0, stateCacheSize)
	}
	if _, ok := c.entries[key]; ok {
		return
	}
	if len(c.order) < stateCacheSize {
		c.order = append(c.order, key)
	} else {
		delete(c.entries, c.order[c.next])
		c.order[c.next] = key
		c.next = (c.next + 1) % stateCacheSize
	}
	c.entries[key] = cachedState[S]{state: s, env: env}
}
