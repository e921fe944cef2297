package rulesettest

import (
	"context"
	"testing"

	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest/toy"
)

// BenchmarkPlayout measures whole bot games of the toy ruleset in-process (steps/op is reported).
func BenchmarkPlayout(b *testing.B) {
	e := engine.New[toy.State](toy.Ruleset{})
	ctx := context.Background()
	steps := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		res, err := Playout(ctx, e, PlayoutConfig{Seats: 3, Seed: uint64(i)})
		if err != nil {
			b.Fatal(err)
		}
		steps += res.Steps
	}
	b.ReportMetric(float64(steps)/float64(b.N), "steps/op")
}
