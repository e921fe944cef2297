package searchtest

import (
	"context"
	"math"
	"strings"
	"testing"
)

func TestMeanCI(t *testing.T) {
	// Deals won both ways, split and lost: the mean and the sample variance worked out by hand.
	xs := []float64{1, 1, 0.5, 0.5, 0, 1, 0.5, 0.5}
	mean, half := MeanCI(xs)
	v := 0.0
	for _, x := range xs {
		v += (x - 0.625) * (x - 0.625)
	}
	want := 1.96 * math.Sqrt(v/7/8)
	if math.Abs(mean-0.625) > 1e-12 || math.Abs(half-want) > 1e-12 {
		t.Errorf("MeanCI = %v ± %v, want 0.625 ± %v", mean, half, want)
	}
	if m, h := MeanCI([]float64{1, 1, 1}); m != 1 || h != 0 {
		t.Errorf("MeanCI of all wins = %v ± %v", m, h)
	}
	g := Rung{Upper: 3, Lower: 2, Deals: 8, Games: 16, Rate: mean, Low: mean - half, High: mean + half}
	if g.Separated() != (mean-half > 0.5) || !strings.Contains(g.String(), "level 3 vs 2: 16 games (8 deals): 62.5%") {
		t.Errorf("rung %q, separated %v", g, g.Separated())
	}
}

func TestParsePairs(t *testing.T) {
	p, err := ParsePairs("2:1, 5:4")
	if err != nil || len(p) != 2 || p[0] != [2]int{2, 1} || p[1] != [2]int{5, 4} {
		t.Errorf("ParsePairs = %v, %v", p, err)
	}
	for _, bad := range []string{"", "2-1", "2:", "0:1", "x:y"} {
		if _, err := ParsePairs(bad); err == nil || !strings.Contains(err.Error(), "UPPER:LOWER") {
			t.Errorf("ParsePairs(%q) = %v, want an error naming the form", bad, err)
		}
	}
}

func TestLadderRefusesBadInput(t *testing.T) {
	for _, tc := range []struct {
		l    Ladder
		pair [2]int
		want string
	}{
		{Ladder{Seats: 2}, [2]int{2, 1}, "0 deals"},
		{Ladder{Seats: 2, Deals: 1}, [2]int{3, 3}, "two different levels"},
		{Ladder{Seats: 2, Deals: 1}, [2]int{0, 1}, "two different levels"},
	} {
		if _, err := tc.l.Play(context.Background(), nil, tc.pair, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v %v: %v, want %q", tc.l, tc.pair, err, tc.want)
		}
	}
}
