package sdk

import (
	"fmt"
	"slices"
	"strings"
)

// OptionTrials lists the sets of option values a check plays with, so that a bug behind one value
// of an option shows: base first (as ValidateOptions returns it, defaults filled in), then for
// each option of schema in order, base with that option alone at each of its extremes that differs
// from its base value: an int's Min and Max (when it declares a range: both zero means none), each
// of a choice's Choices, and both booleans. An option with no base value (no default, none given)
// is left out. Every set is a fresh map.
func OptionTrials(schema []Option, base Options) []Options {
	out := []Options{cloneOptions(base)}
	for _, o := range schema {
		cur, ok := base[o.Name]
		if !ok {
			continue
		}
		var extremes []any
		switch o.Type {
		case OptionInt:
			if o.Min != 0 || o.Max != 0 {
				extremes = []any{o.Min, o.Max}
			}
		case OptionBool:
			extremes = []any{false, true}
		case OptionChoice:
			for _, c := range o.Choices {
				extremes = append(extremes, c)
			}
		}
		// Compared as written: a default read back from JSON is a float64, an extreme an int.
		tried := []string{fmt.Sprint(cur)}
		for _, v := range extremes {
			if slices.Contains(tried, fmt.Sprint(v)) {
				continue
			}
			tried = append(tried, fmt.Sprint(v))
			set := cloneOptions(base)
			set[o.Name] = v
			out = append(out, set)
		}
	}
	return out
}

func cloneOptions(o Options) Options {
	out := make(Options, len(o))
	for k, v := range o {
		out[k] = v
	}
	return out
}

// DescribeOptions writes values as "name=value, name=value" in the order of schema (then any
// name schema lacks, sorted), for messages: "steps=2, loud=true". Empty values give "".
func DescribeOptions(schema []Option, values map[string]any) string {
	var parts []string
	seen := map[string]bool{}
	for _, o := range schema {
		if v, ok := values[o.Name]; ok {
			parts = append(parts, fmt.Sprintf("%s=%v", o.Name, v))
			seen[o.Name] = true
		}
	}
	var rest []string
	for k := range values {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	for _, k := range rest {
		parts = append(parts, fmt.Sprintf("%s=%v", k, values[k]))
	}
	return strings.Join(parts, ", ")
}
