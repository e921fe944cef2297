package viewpatch

import (
	"bytes"
	"strconv"
)

// Derived members (docs/protocol.md, "Derived members"): two members of a view repeat others, and
// a patch leaves them out when they can be worked out from what it does say:
//
//   - a zone's "count", when the zone's entry patch (of a zone held) sets its "cards" to an array
//     or a splice: the count is then the new cards' length;
//   - a player's "hand_count", when the patch sets the count of the zone "hand.<seat>" (in that
//     zone's entry, explicitly or as above) and the players' patch is keyed and does not set it:
//     the hand count is then that zone's count.
//
// The patch writes the member whenever the view says otherwise (a count that is not the cards'
// length, a hand count that is not its hand's), so the rule holds for any view, whatever the
// ruleset; Apply (expand) writes the derived members back before applying.
const (
	countKey     = "count"
	cardsKey     = "cards"
	handCountKey = "hand_count"
	handPrefix   = "hand."
)

// rule adjusts one entry's patch: skip leaves a changed member out (it is derived), force writes a
// member even when unchanged (the derivation would give another value; null when the new entry
// lacks it).
type rule struct {
	skip, force string
}

// hand is the count a patch sets for the zone "hand.<seat>" (seat as the players' key).
type hand struct {
	seat, count []byte
}

// zoneRule is the rule of a held zone's entry patch from old to new: when its cards change (and
// stay), the count goes when it is their length and is written when it is not.
func zoneRule(old, new []byte) (rule, bool) {
	var obuf, nbuf [12]member
	om, err1 := members(obuf[:0], old)
	nm, err2 := members(nbuf[:0], new)
	if err1 != nil || err2 != nil {
		return rule{}, false
	}
	nc, hasCards := find(nm, []byte(cardsKey))
	if !hasCards || isNull(nc) {
		return rule{}, false
	}
	if oc, had := find(om, []byte(cardsKey)); had && bytes.Equal(oc, nc) {
		return rule{}, false
	}
	count, hasCount := find(nm, []byte(countKey))
	if hasCount && isArray(nc) && equalsLength(count, nc) {
		return rule{skip: countKey}, true
	}
	return rule{force: countKey}, true
}

// equalsLength reports whether the JSON number count is the length of the array list.
func equalsLength(count, list []byte) bool {
	var ebuf [64][]byte
	es, err := elements(ebuf[:0], list)
	return err == nil && string(count) == strconv.Itoa(len(es))
}

// handsSet returns the hand zones whose count a keyed zones patch from oe to ne sets (an entry
// added whole with a count, or a held entry whose count changes or whose cards change and stay).
func handsSet(into []hand, oe, ne []entry) []hand {
	var obuf, nbuf [12]member
	for _, e := range ne {
		if !bytes.HasPrefix(e.name, []byte(handPrefix)) {
			continue
		}
		var old []byte
		for _, o := range oe {
			if bytes.Equal(o.name, e.name) {
				old = o.val
				break
			}
		}
		if old != nil && bytes.Equal(old, e.val) {
			continue
		}
		nm, err := members(nbuf[:0], e.val)
		if err != nil {
			continue
		}
		count, ok := find(nm, []byte(countKey))
		if !ok || isNull(count) {
			continue
		}
		set := old == nil
		if !set {
			om, err := members(obuf[:0], old)
			if err != nil {
				continue
			}
			oc, _ := find(om, []byte(countKey))
			ocards, hadCards := find(om, []byte(cardsKey))
			ncards, hasCards := find(nm, []byte(cardsKey))
			set = !bytes.Equal(oc, count) || hasCards && (!hadCards || !bytes.Equal(ocards, ncards))
		}
		if set {
			into = append(into, hand{seat: e.name[len(handPrefix):], count: count})
		}
	}
	return into
}

// playerRule is the rule of player seat's entry (new: its value in the new view) when the patch
// sets its hand's count: the hand count goes when it is that count and is written when not.
func playerRule(hands []hand, seat, new []byte) (rule, bool) {
	for _, h := range hands {
		if !bytes.Equal(h.seat, seat) {
			continue
		}
		var mbuf [12]member
		nm, err := members(mbuf[:0], new)
		if err != nil {
			return rule{}, false
		}
		if hc, ok := find(nm, []byte(handCountKey)); ok && bytes.Equal(hc, h.count) {
			return rule{skip: handCountKey}, true
		}
		return rule{force: handCountKey}, true
	}
	return rule{}, false
}

// expand returns the patch's members (pm) with the derived members its receiver works out
// written in: the count of each held zone whose entry sets its cards but not its count, and the
// hand count of each held player whose hand's count the patch sets and whose entry does not set
// it. vm are the view's members; zones, when not nil, are the view's zones by key, read once for
// expand and the zones' patch (into zbuf). A patch with nothing to derive keeps its members.
func expand(vm, pm []member, zbuf []entry) (_ []member, zones []entry, err error) {
	zp, ok := find(pm, []byte("zones"))
	if !ok || !isObject(zp) {
		return pm, nil, nil
	}
	zl, ok := find(vm, []byte("zones"))
	if !ok || !isArray(zl) {
		return pm, nil, nil
	}
	held, ok, err := keyed(zbuf, zl, Lists["zones"])
	if err != nil || !ok {
		return pm, nil, err
	}
	var zmbuf [16]member
	zm, err := members(zmbuf[:0], zp)
	if err != nil {
		return nil, nil, err
	}
	var hbuf [8]hand
	hands := hbuf[:0]
	var newZones []byte // the zones' patch with the counts written in, when one is derived
	for i, m := range zm {
		val := m.val
		if string(m.key) != OrderKey && isObject(m.val) {
			var old []byte
			for _, e := range held {
				if bytes.Equal(e.name, m.key) {
					old = e.val
					break
				}
			}
			var ebuf [12]member
			em, err := members(ebuf[:0], m.val)
			if err != nil {
				return nil, nil, err
			}
			count, hasCount := find(em, []byte(countKey))
			cards, hasCards := find(em, []byte(cardsKey))
			if !hasCount && old != nil && hasCards && !isNull(cards) {
				n, err := newLength(old, cards)
				if err != nil {
					return nil, nil, err
				}
				count, hasCount = strconv.AppendInt(nil, int64(n), 10), true
				val = withMember(m.val, countKey, count)
				if newZones == nil {
					newZones = append(make([]byte, 0, len(zp)+32), '{')
					for j, o := range zm[:i] {
						newZones = appendMember(newZones, j, o.key, o.val)
					}
				}
			}
			if hasCount && !isNull(count) && bytes.HasPrefix(m.key, []byte(handPrefix)) {
				hands = append(hands, hand{seat: m.key[len(handPrefix):], count: count})
			}
		}
		if newZones != nil {
			newZones = appendMember(newZones, i, m.key, val)
		}
	}
	var newPlayers []byte
	if len(hands) > 0 {
		if newPlayers, err = expandPlayers(vm, pm, hands); err != nil {
			return nil, nil, err
		}
	}
	if newZones == nil && newPlayers == nil {
		return pm, held, nil
	}
	out := make([]member, 0, len(pm)+1)
	playersDone := false
	for _, m := range pm {
		switch {
		case string(m.key) == "zones" && newZones != nil:
			m.val = append(newZones, '}')
		case string(m.key) == "players" && newPlayers != nil:
			m.val, playersDone = newPlayers, true
		}
		out = append(out, m)
	}
	if newPlayers != nil && !playersDone {
		out = append(out, member{key: []byte("players"), val: newPlayers})
	}
	return out, held, nil
}

// expandPlayers returns the players' patch with the hand counts of hands written in, or nil when
// nothing is derived (the view holds no players list, or the patch sends it whole).
func expandPlayers(vm, pm []member, hands []hand) ([]byte, error) {
	players, ok := find(vm, []byte("players"))
	if !ok || !isArray(players) {
		return nil, nil
	}
	pp, sent := find(pm, []byte("players"))
	if sent && !isObject(pp) {
		return nil, nil
	}
	var ebuf [16]entry
	held, ok, err := keyed(ebuf[:0], players, Lists["players"])
	if err != nil || !ok {
		return nil, err
	}
	var ppm []member
	if sent {
		if ppm, err = members(nil, pp); err != nil {
			return nil, err
		}
	}
	out := []byte{'{'}
	n, derived := 0, false
	for _, m := range ppm {
		val := m.val
		if h, ok := handOf(hands, m.key); ok && holds(held, m.key) && isObject(val) {
			var mbuf [12]member
			em, err := members(mbuf[:0], val)
			if err != nil {
				return nil, err
			}
			if _, set := find(em, []byte(handCountKey)); !set {
				val, derived = withMember(val, handCountKey, h.count), true
			}
		}
		out = appendMember(out, n, m.key, val)
		n++
	}
	for _, h := range hands {
		if _, inPatch := find(ppm, h.seat); !inPatch && holds(held, h.seat) {
			out = appendMember(out, n, h.seat, withMember([]byte("{}"), handCountKey, h.count))
			n++
			derived = true
		}
	}
	if !derived {
		return nil, nil
	}
	return append(out, '}'), nil
}

func handOf(hands []hand, seat []byte) (hand, bool) {
	for _, h := range hands {
		if bytes.Equal(h.seat, seat) {
			return h, true
		}
	}
	return hand{}, false
}

// newLength is the length of a held zone's cards once its entry patch's cards (an array or a
// splice) apply.
func newLength(zone, cards []byte) (int, error) {
	var ebuf [64][]byte
	if isArray(cards) {
		es, err := elements(ebuf[:0], cards)
		return len(es), err
	}
	var zbuf [12]member
	zm, err := members(zbuf[:0], zone)
	if err != nil {
		return 0, err
	}
	held := 0
	if c, ok := find(zm, []byte(cardsKey)); ok && isArray(c) {
		es, err := elements(ebuf[:0], c)
		if err != nil {
			return 0, err
		}
		held = len(es)
	}
	var sbuf [2]member
	sm, err := members(sbuf[:0], cards)
	if err != nil {
		return 0, err
	}
	args, ok := find(sm, []byte(SpliceKey))
	if !ok {
		return 0, errSyntax
	}
	as, err := elements(ebuf[:0], args)
	if err != nil || len(as) < 2 {
		return 0, errSyntax
	}
	del, err := strconv.Atoi(string(as[1]))
	if err != nil {
		return 0, errSyntax
	}
	return held - del + len(as) - 2, nil
}

// withMember returns the object obj with the member key: val added at its end (obj lacks it).
func withMember(obj []byte, key string, val []byte) []byte {
	obj = bytes.TrimRight(obj, " \t\r\n")
	out := make([]byte, 0, len(obj)+len(key)+len(val)+4)
	out = append(out, obj[:len(obj)-1]...)
	if len(bytes.TrimSpace(obj[1:len(obj)-1])) > 0 {
		out = append(out, ',')
	}
	out = appendKey(out, []byte(key))
	out = append(out, val...)
	return append(out, '}')
}

// appendMember appends "key":val, after a comma unless it is the object's first (i == 0).
func appendMember(dst []byte, i int, key, val []byte) []byte {
	if i > 0 {
		dst = append(dst, ',')
	}
	dst = appendKey(dst, key)
	return append(dst, val...)
}
