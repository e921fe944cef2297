package viewpatch

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
)

// Apply appends to dst the view that the patch (as Diff writes it) makes of view. Members a
// patch adds come after the view's own, so the result may order members differently from the
// view the server holds; it is the same JSON value.
func Apply(dst, view, patch []byte) ([]byte, error) {
	if !isObject(view) {
		return dst, fmt.Errorf("applying a patch: the view is not an object")
	}
	if !isObject(patch) {
		return dst, fmt.Errorf("applying a patch: the patch is not an object")
	}
	var vbuf, pbuf [16]member
	vm, err := members(vbuf[:0], view)
	if err != nil {
		return dst, fmt.Errorf("applying a patch: %w", err)
	}
	pm, err := members(pbuf[:0], patch)
	if err != nil {
		return dst, fmt.Errorf("applying a patch: %w", err)
	}
	var zbuf [16]entry
	pm, zones, err := expand(vm, pm, zbuf[:0])
	if err != nil {
		return dst, fmt.Errorf("applying a patch: %w", err)
	}
	return applyMembers(dst, vm, pm, true, zones)
}

func applyObject(dst, target, patch []byte, top bool) ([]byte, error) {
	var tbuf, pbuf [16]member
	tm, err := members(tbuf[:0], target)
	if err != nil {
		return nil, err
	}
	pm, err := members(pbuf[:0], patch)
	if err != nil {
		return nil, err
	}
	return applyMembers(dst, tm, pm, top, nil)
}

// applyMembers appends the object of members tm patched by the members pm; zones, when not nil,
// are the target's zones by key (read already, by expand).
func applyMembers(dst []byte, tm, pm []member, top bool, zones []entry) ([]byte, error) {
	var err error
	dst = append(dst, '{')
	n := 0
	put := func(key, val []byte) {
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
		dst = appendKey(dst, key)
		dst = append(dst, val...)
	}
	for _, m := range tm {
		p, found := find(pm, m.key)
		switch {
		case !found:
			put(m.key, m.val)
		case isNull(p):
		case top && isArray(m.val) && isObject(p) && Lists[string(m.key)] != "":
			if n > 0 {
				dst = append(dst, ',')
			}
			n++
			dst = appendKey(dst, m.key)
			var held []entry
			if string(m.key) == "zones" {
				held = zones
			}
			if dst, err = applyList(dst, m.val, p, Lists[string(m.key)], held); err != nil {
				return nil, fmt.Errorf("%s: %w", m.key, err)
			}
		case isArray(m.val) && isObject(p):
			if n > 0 {
				dst = append(dst, ',')
			}
			n++
			dst = appendKey(dst, m.key)
			if dst, err = applySplice(dst, m.val, p); err != nil {
				return nil, fmt.Errorf("%s: %w", m.key, err)
			}
		case isObject(m.val) && isObject(p):
			if n > 0 {
				dst = append(dst, ',')
			}
			n++
			dst = appendKey(dst, m.key)
			if dst, err = applyObject(dst, m.val, p, false); err != nil {
				return nil, fmt.Errorf("%s: %w", m.key, err)
			}
		default:
			put(m.key, p)
		}
	}
	for _, p := range pm {
		if _, found := find(tm, p.key); !found && !isNull(p.val) {
			if isObject(p.val) && (top && Lists[string(p.key)] != "" || bytes.HasPrefix(p.val, []byte(`{"`+SpliceKey+`"`))) {
				return nil, fmt.Errorf("%s: the patch edits a list the view does not hold", p.key)
			}
			put(p.key, p.val)
		}
	}
	return append(dst, '}'), nil
}

// applyList appends the keyed list that the list patch makes of list; es, when not nil, are its
// entries by key, read already.
func applyList(dst, list, patch []byte, key string, es []entry) ([]byte, error) {
	if es == nil {
		var ebuf [16]entry
		var ok bool
		var err error
		if es, ok, err = keyed(ebuf[:0], list, key); err != nil {
			return nil, err
		} else if !ok {
			return nil, fmt.Errorf("the list is not keyed by %q", key)
		}
	}
	var err error
	var pbuf [16]member
	pm, err := members(pbuf[:0], patch)
	if err != nil {
		return nil, err
	}
	var order [][]byte // the names of the new entries, in order
	if o, found := find(pm, []byte(OrderKey)); found {
		var kbuf [16][]byte
		keys, err := elements(kbuf[:0], o)
		if err != nil {
			return nil, err
		}
		for _, k := range keys {
			if len(k) > 1 && k[0] == '"' {
				k = k[1 : len(k)-1]
			}
			order = append(order, k)
		}
	} else {
		for _, e := range es {
			if p, found := find(pm, e.name); !found || !isNull(p) {
				order = append(order, e.name)
			}
		}
		for _, p := range pm {
			if string(p.key) != OrderKey && !isNull(p.val) && !holds(es, p.key) {
				order = append(order, p.key)
			}
		}
	}
	for _, p := range pm {
		if string(p.key) == OrderKey {
			continue
		}
		listed := false
		for _, k := range order {
			listed = listed || bytes.Equal(k, p.key)
		}
		if !listed && !(isNull(p.val) && holds(es, p.key)) {
			return nil, fmt.Errorf("the patch changes entry %q, which the list does not hold", p.key)
		}
	}
	dst = append(dst, '[')
	for i, k := range order {
		if i > 0 {
			dst = append(dst, ',')
		}
		var old []byte
		for _, e := range es {
			if bytes.Equal(e.name, k) {
				old = e.val
				break
			}
		}
		p, changed := find(pm, k)
		switch {
		case !changed && old == nil:
			return nil, fmt.Errorf("entry %q is neither held nor sent", k)
		case !changed:
			dst = append(dst, old...)
		case isNull(p):
			return nil, fmt.Errorf("entry %q is both removed and listed", k)
		case old != nil && isObject(p):
			if dst, err = applyObject(dst, old, p, false); err != nil {
				return nil, fmt.Errorf("entry %q: %w", k, err)
			}
		default:
			if !names(p, key, k) {
				return nil, fmt.Errorf("entry %q is not an object keyed %q by %q", k, k, key)
			}
			dst = append(dst, p...)
		}
	}
	return append(dst, ']'), nil
}

// applySplice appends the array that a SpliceKey patch makes of list.
func applySplice(dst, list, patch []byte) ([]byte, error) {
	var pbuf [2]member
	pm, err := members(pbuf[:0], patch)
	if err != nil {
		return nil, err
	}
	if len(pm) != 1 || string(pm[0].key) != SpliceKey || !isArray(pm[0].val) {
		return nil, fmt.Errorf("an array's patch must be {%q: [start, deleteCount, items...]}", SpliceKey)
	}
	var abuf [16][]byte
	args, err := elements(abuf[:0], pm[0].val)
	if err != nil {
		return nil, err
	}
	var ebuf [16][]byte
	es, err := elements(ebuf[:0], list)
	if err != nil {
		return nil, err
	}
	if len(args) < 2 {
		return nil, fmt.Errorf("%s needs a start and a count", SpliceKey)
	}
	start, err1 := strconv.Atoi(string(args[0]))
	count, err2 := strconv.Atoi(string(args[1]))
	if err1 != nil || err2 != nil || start < 0 || count < 0 || start+count > len(es) {
		return nil, fmt.Errorf("%s [%s, %s] does not fit an array of %d", SpliceKey, args[0], args[1], len(es))
	}
	dst = append(dst, '[')
	n := 0
	for _, e := range slices.Concat(es[:start], args[2:], es[start+count:]) {
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
		dst = append(dst, e...)
	}
	return append(dst, ']'), nil
}

// names reports whether the entry e's key field (key) is name, as keyed reads it.
func names(e []byte, key string, name []byte) bool {
	var mbuf [16]member
	ms, err := members(mbuf[:0], e)
	if err != nil {
		return false
	}
	v, found := find(ms, []byte(key))
	if found && len(v) > 1 && v[0] == '"' {
		v = v[1 : len(v)-1]
	}
	return found && bytes.Equal(v, name)
}
