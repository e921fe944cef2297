package lastcard

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"cardhouse/sdk"
)

// The round's log is kept in the state as one short line per event: the state is decoded and
// encoded on every call across the plugin boundary, and events as JSON objects (with their data
// maps) made up nine tenths of the blob and most of the time spent decoding it. A line reads
//
//	name|seat|count|p|cards|k=v,k=v
//
// with "p" for a private event (empty otherwise), cards as space-separated codes and the data in
// key order. Names, codes and data values never hold '|', ',' or '='.

// encodeEvent writes e as a log line.
func encodeEvent(e sdk.Event) string {
	var b strings.Builder
	b.WriteString(e.Name)
	b.WriteByte('|')
	b.WriteString(strconv.Itoa(e.Seat))
	b.WriteByte('|')
	b.WriteString(strconv.Itoa(e.Count))
	b.WriteByte('|')
	if e.Private {
		b.WriteByte('p')
	}
	b.WriteByte('|')
	for i, c := range e.Cards {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c.String())
	}
	b.WriteByte('|')
	for i, k := range slices.Sorted(maps.Keys(e.Data)) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k + "=" + e.Data[k])
	}
	return b.String()
}

// decodeEvent reads a log line written by encodeEvent.
func decodeEvent(line string) (sdk.Event, error) {
	f := strings.Split(line, "|")
	if len(f) != 6 {
		return sdk.Event{}, fmt.Errorf("log line %q: want 6 fields, got %d", line, len(f))
	}
	e := sdk.Event{Name: f[0], Private: f[3] == "p"}
	var err error
	if e.Seat, err = strconv.Atoi(f[1]); err != nil {
		return e, fmt.Errorf("log line %q: seat: %w", line, err)
	}
	if e.Count, err = strconv.Atoi(f[2]); err != nil {
		return e, fmt.Errorf("log line %q: count: %w", line, err)
	}
	if f[4] != "" {
		if e.Cards, err = sdk.ParseCards(strings.Fields(f[4])); err != nil {
			return e, fmt.Errorf("log line %q: %w", line, err)
		}
	}
	if f[5] != "" {
		e.Data = map[string]string{}
		for _, kv := range strings.Split(f[5], ",") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				return e, fmt.Errorf("log line %q: data %q is not key=value", line, kv)
			}
			e.Data[k] = v
		}
	}
	return e, nil
}

// logged reports whether an event goes into the round's log: "turn" events are left out, as the
// turn follows from the others.
func logged(e sdk.Event) bool { return e.Name != "turn" }
