package engine

import (
	"context"
	"fmt"
	"testing"

	"cardhouse/sdk"
)

// TestStateCacheDropsReplacedStates checks the cache's bookkeeping: a dropped state misses and
// frees its place, eviction stays first in, first out over the places left empty, and a state put
// again after a drop is found again.
func TestStateCacheDropsReplacedStates(t *testing.T) {
	t.Parallel()
	var c stateCache[int]
	key := func(i int) []byte { return fmt.Appendf(nil, "state %d", i) }
	for i := range 3 {
		c.put(key(i), false, i, envelope{})
	}
	c.drop(key(1))
	c.drop(key(7)) // not cached: nothing happens
	if _, _, ok := c.get(key(1)); ok {
		t.Error("a dropped state is still cached")
	}
	for _, i := range []int{0, 2} {
		if s, _, ok := c.get(key(i)); !ok || s != i {
			t.Errorf("state %d: got %d, %v", i, s, ok)
		}
	}
	if c.order[1] != nil {
		t.Errorf("the dropped state's place still holds its key %q", c.order[1])
	}
	c.put(key(1), false, 1, envelope{}) // put again after the drop: a new place
	if s, _, ok := c.get(key(1)); !ok || s != 1 {
		t.Errorf("state 1 put again: got %d, %v", s, ok)
	}
	// Fill the cache: the first places go first (0, then the empty one, then 2), state 1 stays.
	for i := 3; i < stateCacheSize+1; i++ {
		c.put(key(100+i), true, i, envelope{})
	}
	if len(c.entries) > stateCacheSize {
		t.Errorf("%d entries, more than the bound %d", len(c.entries), stateCacheSize)
	}
	if _, _, ok := c.get(key(0)); ok {
		t.Error("the oldest state survived a full cache")
	}
	if _, _, ok := c.get(key(2)); !ok {
		t.Error("state 2 was evicted before its turn")
	}
	if _, _, ok := c.get(key(1)); !ok {
		t.Error("state 1, put last of the first four, was evicted")
	}
}

// TestEngineActDropsTheStateItReplaces: after an accepted action the engine no longer caches the
// state it started from, yet acting on that state again (a host retrying after a failed commit)
// decodes it and gives the same step.
func TestEngineActDropsTheStateItReplaces(t *testing.T) {
	t.Parallel()
	e, st := newTiny(t)
	eng := e.(*engine[*tinyState])
	ctx := context.Background()
	a := &ActRequest{State: st.State, Action: sdk.Action{Seat: 0, Type: sdk.ActDraw}, NoViews: true}
	if _, err := eng.Inspect(ctx, &InspectRequest{State: st.State}); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := eng.cache.get(st.State); !ok {
		t.Fatal("the dealt state is not cached")
	}
	first, err := eng.Act(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok := eng.cache.get(st.State); ok {
		t.Error("the state the action replaced is still cached")
	}
	if _, _, ok := eng.cache.get(first.State); !ok {
		t.Error("the new state is not cached")
	}
	again, err := eng.Act(ctx, a)
	if err != nil || string(again.State) != string(first.State) {
		t.Errorf("acting on the replaced state again: %v, state %s, want %s", err, again.State, first.State)
	}
}

// A state decoded from a caller's bytes is kept under a copy (the caller may reuse its buffer); a
// state the engine encoded is kept under its own bytes.
func TestStateCacheKeepsCallersBytesAsACopy(t *testing.T) {
	t.Parallel()
	var c stateCache[int]
	buf := []byte("state A")
	c.put(buf, false, 1, envelope{})
	copy(buf, "state B") // the caller reuses its buffer
	if s, _, ok := c.get([]byte("state A")); !ok || s != 1 {
		t.Errorf("state A after the caller reused its buffer: %d, %v", s, ok)
	}
	if _, _, ok := c.get([]byte("state B")); ok {
		t.Error("the caller's new bytes found a state they do not encode")
	}
	own := []byte("state C")
	c.put(own, true, 3, envelope{})
	if e := c.entries[c.hash(own)][0]; &e.blob[0] != &own[0] {
		t.Error("an engine's own state was copied")
	}
}

// Entries whose hashes collide are told apart by their bytes, and removing one keeps the other.
func TestStateCacheCollidingHashes(t *testing.T) {
	t.Parallel()
	var c stateCache[int]
	c.put([]byte("x"), false, 0, envelope{}) // makes the maps
	const h = 42
	a, b := []byte("state A"), []byte("state B")
	c.entries[h] = []cachedState[int]{{blob: a, state: 1, slot: len(c.order)}, {blob: b, state: 2, slot: len(c.order) + 1}}
	c.order = append(c.order, a, b)
	if i := c.find(h, b); i != 1 {
		t.Fatalf("find state B under a shared hash: %d", i)
	}
	if slot := c.remove(h, a); slot != 1 {
		t.Fatalf("removing state A gave place %d, want 1", slot)
	}
	if i := c.find(h, b); i != 0 || c.entries[h][0].state != 2 {
		t.Fatalf("state B after removing A: index %d, entries %+v", i, c.entries[h])
	}
	if c.find(h, a) >= 0 {
		t.Fatal("state A is still found after its removal")
	}
}
