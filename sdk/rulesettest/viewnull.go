package rulesettest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
)

// viewNull reports the first null in a view's JSON, naming its path ("sheet.rows",
// "teams[1].seats"), or "" when there is none.
//
// Every null in a view is a bug. sdk.View's optional members (the trick, the sheet, a player's
// score, a zone's cards, ...) are omitted when absent, never null (AppendJSON and encoding/json
// alike); the members written whether or not they are set (the view's players and zones, a
// trick's plays, a team's seats, a score sheet's columns, rows and totals, a row's cells) are
// lists, and a nil one is written null. A merge patch cannot set a null (it means "remove"), so a
// view holding one always goes whole to every client (docs/protocol.md, "Protocol v2"), and a
// client reading it as a list breaks. The fix is an empty list: []T{}, not nil.
func viewNull(raw []byte) (string, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return "", err
	}
	return firstNull(v, ""), nil
}

// firstNull returns the path of the first null in v, walking depth first with an object's members
// in sorted order (so that the report is deterministic).
func firstNull(v any, path string) string {
	switch x := v.(type) {
	case nil:
		if path == "" {
			return "(the whole view)"
		}
		return path
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			p := k
			if path != "" {
				p = path + "." + k
			}
			if n := firstNull(x[k], p); n != "" {
				return n
			}
		}
	case []any:
		for i, e := range x {
			if n := firstNull(e, path+"["+strconv.Itoa(i)+"]"); n != "" {
				return n
			}
		}
	}
	return ""
}

// nullMessage is the kit's failure for a null at path in viewer's view.
func nullMessage(viewer int, path string) string {
	return fmt.Sprintf("the view of %s holds null at %s, where the view model has a list: leave it empty ([]), not nil "+
		"(a null cannot be patched, so every client gets the whole view; docs/protocol.md, \"Protocol v2\")", viewerName(viewer), path)
}
