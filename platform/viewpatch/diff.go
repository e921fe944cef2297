package viewpatch

import (
	"bytes"
	"strconv"
)

// Lists are the view's lists (sdk.View) whose entries a patch matches by a key field: a changed
// list carries only its changed entries, each as a patch of that entry. Every other array (the
// cards of a zone, the events) is replaced whole when it changes.
var Lists = map[string]string{
	"players":    "seat",
	"teams":      "id",
	"zones":      "id",
	"indicators": "id",
	"actions":    "type",
	"deadlines":  "id",
}

// OrderKey is the member of a list's patch that gives the keys of the list's new entries in order,
// present only when the order is not the held entries' (less those the patch removes with null)
// followed by the entries it adds, in the patch's order.
const OrderKey = "$order"

// SpliceKey is the one member of an array's patch (an array other than Lists) that edits it as
// JavaScript's Array.splice does: [start, deleteCount, items...]; sent when shorter than the array.
const SpliceKey = "$splice"

// form is how a patch is written; Diff writes the chosen one (keyed lists whose entries are
// patched), the others are kept for the measurement that chose it (BenchmarkForms).
type form struct {
	// keyed matches the entries of Lists by key (false: RFC 7386, a changed array is replaced whole).
	keyed bool
	// whole replaces a changed entry of a keyed list whole instead of patching it.
	whole bool
	// splice edits other arrays with SpliceKey when that is shorter.
	splice bool
}

var chosen = form{keyed: true, splice: true}

// Diff appends to dst the patch that turns the view old into the view new, and reports whether
// it could write one; when it cannot (a view that is not an object, or holds a null, which a
// merge patch cannot set), the caller sends the full view. The patch is an RFC 7386 JSON Merge
// Patch of the view object, except that a list of Lists that changed is patched by key (see
// docs/protocol.md, "Patches"). Equal views give "{}".
func Diff(dst, old, new []byte) ([]byte, bool) { return diffForm(dst, old, new, chosen) }

func diffForm(dst, old, new []byte, f form) ([]byte, bool) {
	if bytes.Contains(new, []byte("null")) {
		// A merge patch cannot set a null (it means "remove"); views seldom hold one (a nil list).
		return dst, false
	}
	d := differ{f: f}
	out, err := d.object(dst, old, new, true, rule{})
	if err != nil {
		return dst, false
	}
	return out, true
}

type differ struct {
	f form
	// hands are the hand zones whose count the patch sets (derived.go), for the players' rules.
	hands []hand
	hbuf  [8]hand
}

// object appends the patch of the object old into new; top is the view itself (whose Lists are
// keyed); r leaves a derived member out or writes one that must be (derived.go).
func (d *differ) object(dst, old, new []byte, top bool, r rule) ([]byte, error) {
	var obuf, nbuf [16]member
	om, err := members(obuf[:0], old)
	if err != nil {
		return nil, err
	}
	nm, err := members(nbuf[:0], new)
	if err != nil {
		return nil, err
	}
	dst = append(dst, '{')
	n := 0
	sep := func() {
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
	}
	if top && d.f.keyed {
		d.hands = d.hbuf[:0]
		oz, _ := find(om, []byte("zones"))
		nz, _ := find(nm, []byte("zones"))
		if isArray(oz) && isArray(nz) && !bytes.Equal(oz, nz) {
			var obuf, nbuf [16]entry
			oe, ok1, err1 := keyed(obuf[:0], oz, Lists["zones"])
			ne, ok2, err2 := keyed(nbuf[:0], nz, Lists["zones"])
			if err1 == nil && err2 == nil && ok1 && ok2 {
				d.hands = handsSet(d.hands, oe, ne)
			}
		}
	}
	forcedSeen := false
	for _, m := range nm {
		if r.skip != "" && string(m.key) == r.skip {
			continue // derived: the receiver works it out
		}
		forced := r.force != "" && string(m.key) == r.force
		forcedSeen = forcedSeen || forced
		ov, found := find(om, m.key)
		// The players' hand counts may need writing when their hands' counts change.
		players := top && len(d.hands) > 0 && string(m.key) == "players"
		if found && bytes.Equal(ov, m.val) && !forced && !players {
			continue
		}
		memberMark := len(dst)
		sep()
		dst = appendKey(dst, m.key)
		switch {
		case !found || forced && bytes.Equal(ov, m.val):
			dst = append(dst, m.val...)
		case top && d.f.keyed && isArray(ov) && isArray(m.val) && Lists[string(m.key)] != "":
			mark := len(dst)
			var ok bool
			dst, ok, err = d.list(dst, ov, m.val, string(m.key))
			if err != nil {
				return nil, err
			}
			if !ok { // keys missing or repeated: the list goes whole
				dst = append(dst[:mark], m.val...)
			} else if string(dst[mark:]) == "{}" { // only derived members changed
				dst = dst[:memberMark]
				n--
			}
		case isObject(ov) && isObject(m.val):
			if dst, err = d.object(dst, ov, m.val, false, rule{}); err != nil {
				return nil, err
			}
		case d.f.splice && isArray(ov) && isArray(m.val):
			if dst, err = splice(dst, ov, m.val); err != nil {
				return nil, err
			}
		default:
			dst = append(dst, m.val...)
		}
	}
	for _, m := range om {
		if _, found := find(nm, m.key); !found {
			forcedSeen = forcedSeen || string(m.key) == r.force
			sep()
			dst = appendKey(dst, m.key)
			dst = append(dst, "null"...)
		}
	}
	if r.force != "" && !forcedSeen { // held by neither: say so, or the receiver would derive it
		sep()
		dst = appendKey(dst, []byte(r.force))
		dst = append(dst, "null"...)
	}
	return append(dst, '}'), nil
}

// entry is one entry of a keyed list: its key as a patch's member name, its key's raw value (for
// the order) and the entry.
type entry struct {
	name, key, val []byte
}

// keyed splits a list into its entries by the field key; ok is false when an entry is not an
// object, lacks the key, or repeats one, or a key could be mistaken for OrderKey or needs
// unescaping (then the list is replaced whole).
func keyed(into []entry, list []byte, key string) ([]entry, bool, error) {
	var ebuf [16][]byte
	es, err := elements(ebuf[:0], list)
	if err != nil {
		return nil, false, err
	}
	var mbuf [16]member
	head := `{"` + key + `":`
	for _, e := range es {
		v, found := firstMember(e, head)
		if !found { // the key is not the entry's first member: read the whole entry
			ms, err := members(mbuf[:0], e)
			if err != nil {
				return into, false, nil
			}
			v, found = find(ms, []byte(key))
		}
		if !found || len(v) == 0 || bytes.IndexByte(v, '\\') >= 0 {
			return into, false, nil
		}
		name := v
		if v[0] == '"' {
			name = v[1 : len(v)-1]
		} else if v[0] != '-' && (v[0] < '0' || v[0] > '9') {
			return into, false, nil
		}
		if len(name) > 0 && name[0] == '$' {
			return into, false, nil
		}
		for _, o := range into {
			if bytes.Equal(o.name, name) {
				return into, false, nil
			}
		}
		into = append(into, entry{name: name, key: v, val: e})
	}
	return into, true, nil
}

// list appends the patch of a keyed list: its changed and new entries by key, and OrderKey when
// the keys changed.
func (d *differ) list(dst, old, new []byte, name string) ([]byte, bool, error) {
	key := Lists[name]
	var obuf, nbuf [16]entry
	oe, ok, err := keyed(obuf[:0], old, key)
	if err != nil || !ok {
		return dst, false, err
	}
	ne, ok, err := keyed(nbuf[:0], new, key)
	if err != nil || !ok {
		return dst, false, err
	}
	dst = append(dst, '{')
	n := 0
	if !defaultOrder(oe, ne) {
		dst = append(dst, `"`+OrderKey+`":[`...)
		for i, e := range ne {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, e.key...)
		}
		dst = append(dst, ']')
		n++
	}
	for _, o := range oe {
		if !holds(ne, o.name) {
			if n > 0 {
				dst = append(dst, ',')
			}
			n++
			dst = appendKey(dst, o.name)
			dst = append(dst, "null"...)
		}
	}
	for _, e := range ne {
		var ov []byte
		for _, o := range oe {
			if bytes.Equal(o.name, e.name) {
				ov = o.val
				break
			}
		}
		var r rule
		if ov != nil {
			switch {
			case name == "zones" && !bytes.Equal(ov, e.val):
				r, _ = zoneRule(ov, e.val)
			case name == "players":
				r, _ = playerRule(d.hands, e.name, e.val)
			}
		}
		if ov != nil && bytes.Equal(ov, e.val) && r.force == "" {
			continue
		}
		entryMark := len(dst)
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
		dst = appendKey(dst, e.name)
		if ov == nil || d.f.whole {
			dst = append(dst, e.val...)
			continue
		}
		mark := len(dst)
		if dst, err = d.object(dst, ov, e.val, false, r); err != nil {
			return nil, false, err
		}
		if string(dst[mark:]) == "{}" { // only derived members changed
			dst = dst[:entryMark]
			n--
		}
	}
	return append(dst, '}'), true, nil
}

// firstMember returns the value of an entry's first member when the entry starts with head
// ({"key":), as the views' entries do (a zone starts with its id, a player with its seat): the
// key is read without scanning the rest of the entry.
func firstMember(e []byte, head string) ([]byte, bool) {
	if len(e) <= len(head) || string(e[:len(head)]) != head {
		return nil, false
	}
	end, err := skipValue(e, len(head))
	if err != nil || end > len(e) {
		return nil, false
	}
	return e[len(head):end], true
}

func holds(es []entry, name []byte) bool {
	for _, e := range es {
		if bytes.Equal(e.name, name) {
			return true
		}
	}
	return false
}

// defaultOrder reports whether the new entries are in the order a patch without OrderKey gives:
// the old entries still there, in their order, then the added ones.
func defaultOrder(oe, ne []entry) bool {
	i := 0
	for _, o := range oe {
		if !holds(ne, o.name) {
			continue
		}
		if i >= len(ne) || !bytes.Equal(ne[i].name, o.name) {
			return false
		}
		i++
	}
	for ; i < len(ne); i++ {
		if holds(oe, ne[i].name) {
			return false
		}
	}
	return true
}

// splice appends the patch of the array old into new: {"$splice":[start, deleteCount, items...]}
// for the one run of elements between their common start and end, or new whole when shorter.
func splice(dst, old, new []byte) ([]byte, error) {
	var obuf, nbuf [16][]byte
	oe, err := elements(obuf[:0], old)
	if err != nil {
		return nil, err
	}
	ne, err := elements(nbuf[:0], new)
	if err != nil {
		return nil, err
	}
	p := 0
	for p < len(oe) && p < len(ne) && bytes.Equal(oe[p], ne[p]) {
		p++
	}
	q := 0
	for q < len(oe)-p && q < len(ne)-p && bytes.Equal(oe[len(oe)-1-q], ne[len(ne)-1-q]) {
		q++
	}
	size := len(`{"$splice":[,]}`) + 4
	for _, e := range ne[p : len(ne)-q] {
		size += len(e) + 1
	}
	if size >= len(new) {
		return append(dst, new...), nil
	}
	dst = append(dst, `{"`+SpliceKey+`":[`...)
	dst = strconv.AppendInt(dst, int64(p), 10)
	dst = append(dst, ',')
	dst = strconv.AppendInt(dst, int64(len(oe)-p-q), 10)
	for _, e := range ne[p : len(ne)-q] {
		dst = append(dst, ',')
		dst = append(dst, e...)
	}
	return append(dst, ']', '}'), nil
}

func appendKey(dst, key []byte) []byte {
	dst = append(dst, '"')
	dst = append(dst, key...)
	return append(dst, '"', ':')
}
