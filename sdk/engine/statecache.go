package engine

import (
	"bytes"
	"hash/maphash"
	"sync"
)

// stateCacheSize bounds the decoded states an engine keeps: one per recently active game is enough
// for the common case (a plugin gets back the state it produced by the previous action), and at a
// few KiB per state the cache stays within a few tens of MiB. An accepted action drops the state
// it started from (drop), so the cache holds about one state per game: the live heap stays small,
// and so does the collector's work in a plugin serving hundreds of games.
const stateCacheSize = 2048

// stateCache maps stored state bytes to their decoded state; eviction is first in, first out.
// Entries are found by a hash of the bytes and then compared byte for byte, so a hit is always the
// state those bytes encode. An entry keeps the bytes it was put with: the engine's own encoded
// states as they are (Step.State, which callers must not modify: the engine gave them away), the
// states it decoded for a caller as a copy (the caller may reuse its buffer).
type stateCache[S any] struct {
	mu      sync.Mutex
	seed    maphash.Seed
	entries map[uint64][]cachedState[S] // by hash; more than one entry only when hashes collide
	order   [][]byte                    // each place's bytes, for eviction; nil once dropped
	next    int
}

type cachedState[S any] struct {
	blob  []byte
	state S
	env   envelope
	slot  int // the entry's place in order
}

func (c *stateCache[S]) hash(blob []byte) uint64 { return maphash.Bytes(c.seed, blob) }

// find returns the entry of blob under hash h and its index in entries[h], or -1.
func (c *stateCache[S]) find(h uint64, blob []byte) int {
	for i, e := range c.entries[h] {
		if bytes.Equal(e.blob, blob) {
			return i
		}
	}
	return -1
}

func (c *stateCache[S]) get(blob []byte) (S, envelope, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries != nil { // else the seed is not made yet either
		h := c.hash(blob)
		if i := c.find(h, blob); i >= 0 {
			e := c.entries[h][i]
			return e.state, e.env, true
		}
	}
	var zero S
	return zero, envelope{}, false
}

// put remembers a decoded state; own says the cache may keep blob itself (the engine made it and
// gave it away read-only), else it keeps a copy. Games with house rules are not cached: the house
// rules' memory is advanced in place by the runner, so it must be decoded afresh for every call.
func (c *stateCache[S]) put(blob []byte, own bool, s S, env envelope) {
	if len(env.HouseRules) > 0 || env.House != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.seed = maphash.MakeSeed()
		c.entries = make(map[uint64][]cachedState[S], stateCacheSize)
		c.order = make([][]byte, 0, stateCacheSize)
	}
	h := c.hash(blob)
	if c.find(h, blob) >= 0 {
		return
	}
	if !own {
		blob = bytes.Clone(blob)
	}
	slot := len(c.order)
	if slot < stateCacheSize {
		c.order = append(c.order, nil)
	} else {
		slot = c.next
		if old := c.order[slot]; old != nil {
			c.remove(c.hash(old), old)
		}
		c.next = (c.next + 1) % stateCacheSize
	}
	c.entries[h] = append(c.entries[h], cachedState[S]{blob: blob, state: s, env: env, slot: slot})
	c.order[slot] = blob
}

// remove deletes the entry of blob under hash h, if any, and returns its place in order (or -1).
func (c *stateCache[S]) remove(h uint64, blob []byte) int {
	i := c.find(h, blob)
	if i < 0 {
		return -1
	}
	list := c.entries[h]
	slot := list[i].slot
	if len(list) == 1 {
		delete(c.entries, h)
	} else {
		c.entries[h] = append(list[:i:i], list[i+1:]...)
	}
	return slot
}

// drop forgets the state of blob, if cached: an accepted action has replaced it. Its place in
// order is left empty (eviction skips it), so the bytes go too.
func (c *stateCache[S]) drop(blob []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		return
	}
	if slot := c.remove(c.hash(blob), blob); slot >= 0 {
		c.order[slot] = nil
	}
}
