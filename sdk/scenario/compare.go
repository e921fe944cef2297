package scenario

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"cardhouse/sdk"
)

// Mode is how an expected value is compared with the observed one.
type Mode int

// The comparison modes; see the package doc for which key uses which.
const (
	// Exact compares deeply, lists in order.
	Exact Mode = iota
	// Multiset compares a list ignoring order, counting repeats.
	Multiset
	// Set compares a list ignoring order and repeats.
	Set
	// Rows compares a list of per-seat lists in seat order, each row as a multiset.
	Rows
)

// modes maps the observation keys that do not compare exactly to their mode. Keys of the form
// PREFIX.N take the mode of "PREFIX.N" below: hand.N and face_up.N are multisets. Everything
// else (pile, deck, hand_count, scores, face_down_count, ...) compares exactly, lists in order.
var modes = map[string]Mode{
	"hands":          Rows,
	"face_up":        Rows,
	"hand.N":         Multiset,
	"face_up.N":      Multiset,
	"last_card_open": Set,
	"called":         Set,
}

func modeOf(key string) Mode {
	if m, ok := modes[key]; ok {
		return m
	}
	if prefix, _, ok := seatKey(key); ok {
		return modes[prefix+".N"]
	}
	return Exact
}

// seatKey splits "hand.2" into ("hand", 2).
func seatKey(key string) (string, int, bool) {
	i := strings.LastIndexByte(key, '.')
	if i <= 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(key[i+1:])
	if err != nil || n < 0 {
		return "", 0, false
	}
	return key[:i], n, true
}

// rowSources names the per-seat observation a PREFIX.N key is derived from when the ruleset does
// not observe it itself: hand.N is row N of hands.
var rowSources = map[string]string{"hand": "hands", "face_up": "face_up", "face_down": "face_down"}

// lookup finds key in the observation, deriving hand.N from hands. When it is missing, why says so
// and lists what the ruleset does observe.
func lookup(obs map[string]any, key string) (any, bool, string) {
	if v, ok := obs[key]; ok {
		return v, true, ""
	}
	if prefix, n, ok := seatKey(key); ok {
		if src, ok := rowSources[prefix]; ok {
			if rows, ok := obs[src].([]any); ok {
				if n < len(rows) {
					return rows[n], true, ""
				}
				return nil, false, fmt.Sprintf("no seat %d (%s has %d rows)", n, src, len(rows))
			}
		}
	}
	keys := make([]string, 0, len(obs))
	for k := range obs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return nil, false, fmt.Sprintf("no such observation (the ruleset observes %s)", strings.Join(keys, ", "))
}

// plain turns any value (the ruleset's observation with its cards and typed slices, or YAML's
// values) into nil, bool, float64, string, []any and map[string]any, as JSON would carry it.
func plain(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case bool, string:
		return x
	case float64:
		return x
	case int:
		return float64(x)
	case int64:
		return float64(x)
	case uint64:
		return float64(x)
	case sdk.Card:
		return x.String()
	case sdk.Observation:
		return plain(map[string]any(x))
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plain(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = plain(e)
		}
		return out
	}
	// Anything else ([]sdk.Card, []int, [][]string, a struct): its JSON form.
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("<%T: %v>", v, err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return fmt.Sprintf("<%T: %v>", v, err)
	}
	return out
}

func stringsToAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// same compares two plain scalars (or deep values, lists in order): numbers numerically, card
// codes in any letter case.
func same(want, got any) bool {
	switch w := want.(type) {
	case string:
		g, ok := got.(string)
		if !ok {
			return false
		}
		if w == g {
			return true
		}
		cw, e1 := sdk.ParseCard(w)
		cg, e2 := sdk.ParseCard(g)
		return e1 == nil && e2 == nil && cw == cg
	case float64:
		g, ok := got.(float64)
		return ok && (w == g || math.Abs(w-g) < 1e-9)
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !same(w[i], g[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for k, v := range w {
			gv, ok := g[k]
			if !ok || !same(v, gv) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(want, got)
}

func match(m Mode, want, got any) bool {
	switch m {
	case Multiset, Set:
		w, ok1 := want.([]any)
		g, ok2 := got.([]any)
		if !ok1 || !ok2 {
			return same(want, got)
		}
		if m == Set {
			return subset(w, g) && subset(g, w)
		}
		return multisetEqual(w, g)
	case Rows:
		w, ok1 := want.([]any)
		g, ok2 := got.([]any)
		if !ok1 || !ok2 || len(w) != len(g) {
			return same(want, got)
		}
		for i := range w {
			if !match(Multiset, w[i], g[i]) {
				return false
			}
		}
		return true
	}
	return same(want, got)
}

func multisetEqual(w, g []any) bool {
	if len(w) != len(g) {
		return false
	}
	used := make([]bool, len(g))
outer:
	for _, x := range w {
		for j, y := range g {
			if !used[j] && same(x, y) {
				used[j] = true
				continue outer
			}
		}
		return false
	}
	return true
}

func subset(a, b []any) bool {
outer:
	for _, x := range a {
		for _, y := range b {
			if same(x, y) {
				continue outer
			}
		}
		return false
	}
	return true
}

// subsequence reports whether want appears in got in order, not necessarily adjacent.
func subsequence(want []any, got []string) bool {
	i := 0
	for _, g := range got {
		if i < len(want) && same(want[i], g) {
			i++
		}
	}
	return i == len(want)
}

// format writes a plain value as the scenario file would: [9S, 6D], null, 3, {a: 1}.
func format(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		if x == "" {
			return `""`
		}
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = format(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + ": " + format(x[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprint(v)
}
