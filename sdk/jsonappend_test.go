package sdk

import (
	"encoding/json"
	"testing"
)

// TestAppendJSONHelpersMatchMarshal checks the exported writers a StateAppender is built from
// against json.Marshal of the same values, nil and empty slices and forced outcomes included.
func TestAppendJSONHelpersMatchMarshal(t *testing.T) {
	t.Parallel()
	forced := NewRNG(9)
	forced.N = 4
	forced.Forced = map[string][]string{"shuffle": {"3"}, "coin": {"heads", "tails"}, "empty": nil}
	for _, tc := range []struct {
		name string
		v    any
		got  []byte
	}{
		{"string", "a \"quoted\" <line>\n\u2028 & \xff", AppendJSONString(nil, "a \"quoted\" <line>\n\u2028 & \xff")},
		{"cards", MustParseCards("R5 W+4 B+2 QH"), AppendCardsJSON(nil, MustParseCards("R5 W+4 B+2 QH"))},
		{"no cards (nil)", []Card(nil), AppendCardsJSON(nil, nil)},
		{"no cards (empty)", []Card{}, AppendCardsJSON(nil, []Card{})},
		{"a gap", []Card{0, MustParseCards("Y7")[0]}, AppendCardsJSON(nil, []Card{0, MustParseCards("Y7")[0]})},
		{"ints", []int{0, -3, 500}, AppendIntsJSON(nil, []int{0, -3, 500})},
		{"ints (nil)", []int(nil), AppendIntsJSON(nil, nil)},
		{"bools", []bool{true, false}, AppendBoolsJSON(nil, []bool{true, false})},
		{"bools (nil)", []bool(nil), AppendBoolsJSON(nil, nil)},
		{"bools (empty)", []bool{}, AppendBoolsJSON(nil, []bool{})},
		{"rng", RNG{Seed: 1 << 63, N: 17}, RNG{Seed: 1 << 63, N: 17}.AppendJSON(nil)},
		{"rng with forced outcomes", forced, forced.AppendJSON(nil)},
	} {
		want, err := json.Marshal(tc.v)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if string(tc.got) != string(want) {
			t.Errorf("%s: wrote %s, json.Marshal writes %s", tc.name, tc.got, want)
		}
	}
	if got := string(AppendIntsJSON([]byte("x:"), []int{1})); got != "x:[1]" {
		t.Errorf("appending to a buffer wrote %q, want %q", got, "x:[1]")
	}
}
