package sdk

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// OptionType is the type of an option's value.
type OptionType string

// Option types. A choice's value is one of its Choices (a string, even when it looks like a number:
// Last Card's target is "500", "200" or "single").
const (
	OptionInt    OptionType = "int"
	OptionBool   OptionType = "bool"
	OptionChoice OptionType = "choice"
)

// Option describes one option of a ruleset (or of a house rule): the room form is generated from it
// and values are validated against it.
type Option struct {
	Name        string     `json:"name"`
	Label       string     `json:"label"`
	Description string     `json:"description"`
	Type        OptionType `json:"type"`
	// Default is the value when none is given: an int, a bool or a choice string. Nil means the
	// ruleset derives it (for example from the number of seats); DefaultText then says how.
	Default     any      `json:"default"`
	DefaultText string   `json:"default_text,omitempty"`
	Min         int      `json:"min,omitempty"`
	Max         int      `json:"max,omitempty"`
	Choices     []string `json:"choices,omitempty"`
	// ChoiceLabels are the words a player reads for each choice ("Any time" for "any_time");
	// a choice without one is shown as it is.
	ChoiceLabels map[string]string `json:"choice_labels,omitempty"`
}

// Preset is a named set of option values a host picks with one tap ("Classic", "Chaos"); options
// it does not name keep their defaults.
type Preset struct {
	Name        string         `json:"name"`
	Description string         `json:"description,omitempty"`
	Options     map[string]any `json:"options"`
}

// Options are validated option values: int, bool or string (choices) by name. An option whose
// Default is nil and that was not given is absent.
type Options map[string]any

// Int returns an int option, or 0 when absent.
func (o Options) Int(name string) int { v, _ := o[name].(int); return v }

// Bool returns a bool option, or false when absent.
func (o Options) Bool(name string) bool { v, _ := o[name].(bool); return v }

// String returns a choice option, or "" when absent.
func (o Options) String(name string) string { v, _ := o[name].(string); return v }

// Has reports whether the option has a value.
func (o Options) Has(name string) bool { _, ok := o[name]; return ok }

// ValidateOptions checks raw values (as decoded from JSON or YAML) against the schema and returns
// them normalised, with defaults filled in. Every bad field is reported (OptionErrors), as are
// unknown names.
func ValidateOptions(schema []Option, raw map[string]any) (Options, error) {
	out := Options{}
	var errs OptionErrors
	known := map[string]bool{}
	for _, opt := range schema {
		known[opt.Name] = true
		v, given := raw[opt.Name]
		if !given || v == nil {
			if opt.Default != nil {
				out[opt.Name] = opt.Default
			}
			continue
		}
		nv, err := opt.normalise(v)
		if err != nil {
			errs = append(errs, OptionError{Field: opt.Name, Reason: err.Error()})
			continue
		}
		out[opt.Name] = nv
	}
	var unknown []string
	for name := range raw {
		if !known[name] {
			unknown = append(unknown, name)
		}
	}
	sort.Strings(unknown)
	for _, name := range unknown {
		names := make([]string, len(schema))
		for i, o := range schema {
			names[i] = o.Name
		}
		errs = append(errs, OptionError{Field: name, Reason: fmt.Sprintf("no such option (this ruleset has: %s)", strings.Join(names, ", "))})
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}

func (opt Option) normalise(v any) (any, error) {
	switch opt.Type {
	case OptionInt:
		n, ok := toInt(v)
		if !ok {
			return nil, fmt.Errorf("want a whole number, got %v", v)
		}
		if (opt.Min != 0 || opt.Max != 0) && (n < opt.Min || n > opt.Max) {
			return nil, fmt.Errorf("want a number from %d to %d, got %d", opt.Min, opt.Max, n)
		}
		return n, nil
	case OptionBool:
		switch b := v.(type) {
		case bool:
			return b, nil
		case string:
			if p, err := strconv.ParseBool(b); err == nil {
				return p, nil
			}
		}
		return nil, fmt.Errorf("want true or false, got %v", v)
	case OptionChoice:
		s := fmt.Sprint(v)
		if f, ok := v.(float64); ok && f == math.Trunc(f) {
			s = strconv.FormatInt(int64(f), 10)
		}
		if !slices.Contains(opt.Choices, s) {
			return nil, fmt.Errorf("want one of %s, got %q", strings.Join(opt.Choices, ", "), s)
		}
		return s, nil
	}
	return nil, fmt.Errorf("option has unknown type %q", opt.Type)
}

func toInt(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case int64:
		return int(n), true
	case int32:
		return int(n), true
	case uint64:
		return int(n), true
	case float64:
		if n == math.Trunc(n) && math.Abs(n) < 1<<31 {
			return int(n), true
		}
	case string:
		i, err := strconv.Atoi(n)
		return i, err == nil
	}
	return 0, false
}

// CheckOptions validates raw options for a game of seats seats against the ruleset's schema and its
// OptionChecker, if any.
func CheckOptions(info Info, checker any, seats int, raw map[string]any) (Options, error) {
	if seats < info.MinSeats || seats > info.MaxSeats {
		return nil, OptionErrors{{Field: "seats", Reason: fmt.Sprintf("%s is for %d to %d seats, got %d", info.Name, info.MinSeats, info.MaxSeats, seats)}}
	}
	opts, err := ValidateOptions(info.Options, raw)
	if err != nil {
		return nil, err
	}
	if oc, ok := checker.(OptionChecker); ok {
		return oc.CheckOptions(seats, opts)
	}
	return opts, nil
}
