package sdk

import "sync"

// stateCacheSize bounds the decoded states an engine keeps: one per recently active game is enough
// for the common case (a plugin gets back the state it produced by the previous action), and at a
// few KiB per state the cache stays within a few tens of MiB. An accepted action drops the state
// it started from (drop), so the cache holds about one state per game: the live heap stays small,
// and so does the collector's work in a plugin serving hundreds of games.
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
	slot  int // the entry's place in order
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
	slot := len(c.order)
	if slot < stateCacheSize {
		c.order = append(c.order, key)
	} else {
		slot = c.next
		if old := c.order[slot]; old != "" {
			delete(c.entries, old)
		}
		c.order[slot] = key
		c.next = (c.next + 1) % stateCacheSize
	}
	c.entries[key] = cachedState[S]{state: s, env: env, slot: slot}
}

// drop forgets the state of blob, if cached: an accepted action has replaced it. Its place in
// order is left empty (eviction skips it), so the key's bytes go too.
func (c *stateCache[S]) drop(blob []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[string(blob)]
	if !ok {
		return
	}
	delete(c.entries, string(blob))
	c.order[e.slot] = ""
}
