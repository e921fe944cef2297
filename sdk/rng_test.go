package sdk

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestRNGDeterministicAndSerialisable(t *testing.T) {
	t.Parallel()
	a, b := NewRNG(42), NewRNG(42)
	for range 100 {
		if a.Intn("x", 1000) != b.Intn("x", 1000) {
			t.Fatal("same seed gave different draws")
		}
	}
	// Serialise mid-stream: the copy continues exactly where the original is.
	blob, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	var c RNG
	if err := json.Unmarshal(blob, &c); err != nil {
		t.Fatal(err)
	}
	for range 100 {
		if a.Uint64() != c.Uint64() {
			t.Fatal("restored RNG diverged")
		}
	}
	d, e := NewRNG(43), NewRNG(42)
	if d.Uint64() == e.Uint64() {
		t.Error("different seeds gave the same first value")
	}
}

func TestRNGUniform(t *testing.T) {
	t.Parallel()
	r := NewRNG(7)
	counts := make([]int, 7)
	const n = 70000
	for range n {
		counts[r.Intn("effect", 7)]++
	}
	for i, c := range counts {
		// Expected 10000 each; 5 standard deviations is about 470.
		if c < 9500 || c > 10500 {
			t.Errorf("outcome %d drawn %d times of %d, want about %d", i, c, n, n/7)
		}
	}
}

func TestRNGForced(t *testing.T) {
	t.Parallel()
	effects := []string{"hand_swap", "skip", "gift"}
	r := NewRNG(1)
	r.Force("joker_effect", "gift", "skip")
	plain := NewRNG(1)
	if got := r.Choose("joker_effect", effects); effects[got] != "gift" {
		t.Errorf("first forced draw = %s, want gift", effects[got])
	}
	// Forced draws consume nothing from the stream: other labels are unaffected.
	if r.Intn("shuffle", 100) != plain.Intn("shuffle", 100) {
		t.Error("a forced draw moved the stream")
	}
	if got := r.Choose("joker_effect", effects); effects[got] != "skip" {
		t.Errorf("second forced draw = %s, want skip", effects[got])
	}
	if r.Forced != nil {
		t.Errorf("forced queue not emptied: %v", r.Forced)
	}
	// Cloning keeps queues independent.
	r.Force("x", "1")
	c := r.Clone()
	c.Intn("x", 3)
	if len(r.Forced["x"]) != 1 {
		t.Error("a clone's draw consumed the original's forced value")
	}
}

func TestRNGForcedBadValuePanicsTyped(t *testing.T) {
	t.Parallel()
	r := NewRNG(1)
	r.Force("joker_effect", "teleport")
	defer func() {
		p := recover()
		var fe *ForcedDrawError
		if err, ok := p.(error); !ok || !errors.As(err, &fe) || fe.Value != "teleport" {
			t.Errorf("panic = %v, want a *ForcedDrawError for teleport", p)
		}
	}()
	r.Choose("joker_effect", []string{"skip", "gift"})
}

func TestShuffleIsPermutation(t *testing.T) {
	t.Parallel()
	r := NewRNG(3)
	deck := LastCardDeck()
	shuffled := append([]Card(nil), deck...)
	r.ShuffleCards(DrawShuffle, shuffled)
	if !SameCards(deck, shuffled) {
		t.Fatal("shuffle changed the cards")
	}
	same := 0
	for i := range deck {
		if deck[i] == shuffled[i] {
			same++
		}
	}
	if same > 20 {
		t.Errorf("%d of 108 cards stayed in place: not shuffled", same)
	}
}
