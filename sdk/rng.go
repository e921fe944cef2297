package sdk

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
)

// Labels of the random draws the SDK and the built-in rulesets make. A label names a kind of draw so
// a scenario can force its outcome (docs/scenarios.md, "random:") and a replay reproduces it.
const (
	DrawShuffle     = "shuffle"
	DrawFirstPlayer = "first_player"
)

// RNG is the game's only source of randomness: seeded, serialisable (it lives inside the game state)
// and labelled. Every draw names its label; values forced for that label are used first, in order,
// and consume nothing from the stream, so forcing one draw does not change the others.
//
// The stream is SplitMix64 over (Seed, N): a counter-based generator whose whole state is two
// numbers, so copying the struct copies the generator. Not for cryptography.
type RNG struct {
	Seed uint64 `json:"seed"`
	N    uint64 `json:"n"`
	// Forced holds the outcomes still to be forced, per label: a name for Choose, a number for Intn.
	Forced map[string][]string `json:"forced,omitempty"`
}

// NewRNG returns a generator seeded with seed.
func NewRNG(seed uint64) RNG { return RNG{Seed: seed} }

// ForcedDrawError is the panic value of a draw whose forced outcome cannot be used: a name that is
// not among the choices or a number out of range. The engine reports it as an error of the caller's
// input (a scenario's "random:"), not as a ruleset bug.
type ForcedDrawError struct {
	Label, Value, Want string
}

func (e *ForcedDrawError) Error() string {
	return fmt.Sprintf("forced %s draw %q: want %s", e.Label, e.Value, e.Want)
}

// Clone returns an independent copy (the forced queue is not shared).
func (r RNG) Clone() RNG {
	if r.Forced != nil {
		f := make(map[string][]string, len(r.Forced))
		for k, v := range r.Forced {
			f[k] = slices.Clone(v)
		}
		r.Forced = f
	}
	return r
}

// Force queues outcomes for a label's next draws.
func (r *RNG) Force(label string, values ...string) {
	if len(values) == 0 {
		return
	}
	if r.Forced == nil {
		r.Forced = map[string][]string{}
	} else {
		r.Forced = maps.Clone(r.Forced)
	}
	r.Forced[label] = append(slices.Clone(r.Forced[label]), values...)
}

func (r *RNG) forced(label string) (string, bool) {
	q := r.Forced[label]
	if len(q) == 0 {
		return "", false
	}
	f := maps.Clone(r.Forced)
	if len(q) == 1 {
		delete(f, label)
	} else {
		f[label] = q[1:]
	}
	if len(f) == 0 {
		f = nil
	}
	r.Forced = f
	return q[0], true
}

// Uint64 returns the next raw value of the stream (never forced).
func (r *RNG) Uint64() uint64 {
	r.N++
	z := r.Seed + r.N*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (r *RNG) bounded(n int) int {
	if n <= 0 {
		panic("sdk.RNG: bound must be positive")
	}
	// Rejection sampling keeps every outcome equally likely.
	limit := ^uint64(0) - ^uint64(0)%uint64(n)
	for {
		if v := r.Uint64(); v < limit {
			return int(v % uint64(n))
		}
	}
}

// Intn draws a number in [0, n) under label; a forced value must be a number in that range.
func (r *RNG) Intn(label string, n int) int {
	if v, ok := r.forced(label); ok {
		i, err := strconv.Atoi(v)
		if err != nil || i < 0 || i >= n {
			panic(&ForcedDrawError{Label: label, Value: v, Want: fmt.Sprintf("a number from 0 to %d", n-1)})
		}
		return i
	}
	return r.bounded(n)
}

// Choose draws one of names under label and returns its index; a forced value must be one of names
// (or its index).
func (r *RNG) Choose(label string, names []string) int {
	if v, ok := r.forced(label); ok {
		if i := slices.Index(names, v); i >= 0 {
			return i
		}
		if i, err := strconv.Atoi(v); err == nil && i >= 0 && i < len(names) {
			return i
		}
		panic(&ForcedDrawError{Label: label, Value: v, Want: fmt.Sprintf("one of %v", names)})
	}
	return r.bounded(len(names))
}

// Shuffle shuffles n elements with swap (Fisher-Yates) under label. Shuffles cannot be forced; a
// scenario fixes cards with its deal instead.
func (r *RNG) Shuffle(label string, n int, swap func(i, j int)) {
	_ = label
	for i := n - 1; i > 0; i-- {
		swap(i, r.bounded(i+1))
	}
}

// ShuffleCards shuffles cards in place under label.
func (r *RNG) ShuffleCards(label string, cards []Card) {
	r.Shuffle(label, len(cards), func(i, j int) { cards[i], cards[j] = cards[j], cards[i] })
}
