package sdk

import (
	"context"
	"fmt"
	"testing"
)

// TestStateCacheDropsReplacedStates checks the cache's bookkeeping: a dropped state misses and
// frees its place, eviction stays first in, first out over the places left empty, and a state put
// again after a drop is found again.
func TestStateCacheDropsReplacedStates(t *testing.T) {
	t.Parallel()
	var c stateCache[int]
	key := func(i int) []byte { return fmt.Appendf(nil, "state %d", i) }
	for i := range 3 {
		c.put(key(i), i, envelope{})
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
	if c.order[1] != "" {
		t.Errorf("the dropped state's place still holds its key %q", c.order[1])
	}
	c.put(key(1), 1, envelope{}) // put again after the drop: a new place
	if s, _, ok := c.get(key(1)); !ok || s != 1 {
		t.Errorf("state 1 put again: got %d, %v", s, ok)
	}
	// Fill the cache: the first places go first (0, then the empty one, then 2), state 1 stays.
	for i := 3; i < stateCacheSize+1; i++ {
		c.put(key(100+i), i, envelope{})
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
	a := &ActRequest{State: st.State, Action: Action{Seat: 0, Type: ActDraw}, NoViews: true}
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
