package sdk

import "slices"

// ViewPatcher writes the patches of several viewers' views of one step, each exactly as
// AppendViewPatch writes it, writing once what the views share. Views made together by a
// ViewsMaker share their public parts (the players, the pile, the indicators, the trick, the
// teams, the score sheet): when a view's part before and its part after are the very ones (the
// same slice or pointer) of the first pair patched, that pair's patch of the part is copied
// instead of compared and written again, so a step costs one diff of the public parts and one of
// each viewer's own (its hand, its actions, its events). Views that share nothing cost what
// AppendViewPatch does. A ViewPatcher serves one step: the views it was given must not change
// while it is used; the zero value is ready.
type ViewPatcher struct {
	// refOld and refNew are the first pair patched (nil before it is), recording while it is.
	refOld, refNew *View
	recording      bool
	hands          []handSet
	parts          [memoParts]partMemo
	zones          []zoneMemo
	buf            []byte
}

// Append appends to b the patch from old to new: AppendViewPatch(b, old, new), byte for byte.
func (vp *ViewPatcher) Append(b []byte, old, new *View) (_ []byte, ok bool) {
	vp.recording = vp.refOld == nil
	return appendViewPatch(b, old, new, vp)
}

// memoPart names a member whose patch a ViewPatcher can copy.
type memoPart int

const (
	memoPlayers memoPart = iota
	memoIndicators
	memoDeadlines
	memoTrick
	memoLastTrick
	memoTeams
	memoSheet
	memoParts
)

// partMemo is the first pair's patch of one member: written or not, and its bytes in buf (the key
// and value, no leading comma).
type partMemo struct {
	set, written bool
	start, end   int
}

// zoneMemo is the first pair's comparison of one zone entry with many cards, and its patch when
// it changed (an entry's members, in buf, count of them).
type zoneMemo struct {
	old, new   Zone
	equal      bool
	patched    bool
	start, end int
	count      int
}

// mark is where a member's writing began.
type mark struct{ len, n int }

// sameSlice reports whether a and b are the same slice: the same length and, when not empty, the
// same first element; an empty one the same only when both are nil or neither is (a nil list and
// an empty one are patched differently in places).
func sameSlice[T any](a, b []T) bool {
	if len(a) != len(b) || (a == nil) != (b == nil) {
		return false
	}
	return len(a) == 0 || &a[0] == &b[0]
}

// same reports whether old's and new's part are the first pair's, recorded.
func (vp *ViewPatcher) same(old, new *View, part memoPart) bool {
	if vp == nil || vp.recording || vp.refOld == nil || !vp.parts[part].set {
		return false
	}
	o, n := vp.refOld, vp.refNew
	switch part {
	case memoPlayers:
		return sameSlice(old.Players, o.Players) && sameSlice(new.Players, n.Players)
	case memoIndicators:
		return sameSlice(old.Indicators, o.Indicators) && sameSlice(new.Indicators, n.Indicators)
	case memoDeadlines:
		return sameSlice(old.Deadlines, o.Deadlines) && sameSlice(new.Deadlines, n.Deadlines)
	case memoTrick:
		return old.Trick == o.Trick && new.Trick == n.Trick
	case memoLastTrick:
		return old.LastTrick == o.LastTrick && new.LastTrick == n.LastTrick
	case memoTeams:
		return sameSlice(old.Teams, o.Teams) && sameSlice(new.Teams, n.Teams)
	case memoSheet:
		return old.Sheet == o.Sheet && new.Sheet == n.Sheet
	}
	return false
}

// sameHands reports whether the zones' patch sets the hand counts it set for the first pair (the
// players' patch leaves those out).
func (vp *ViewPatcher) sameHands(hands []handSet) bool {
	return vp != nil && slices.Equal(vp.hands, hands)
}

// reuse writes the first pair's patch of part when same, and reports whether it did.
func (vp *ViewPatcher) reuse(p *patchWriter, part memoPart, same bool) bool {
	if !same {
		return false
	}
	if m := vp.parts[part]; m.written {
		if p.n > 0 {
			p.b = append(p.b, ',')
		}
		p.n++
		p.b = append(p.b, vp.buf[m.start:m.end]...)
	}
	return true
}

func (vp *ViewPatcher) begin(p *patchWriter) mark { return mark{len(p.b), p.n} }

// end records, on the first pair, what was written of part since m.
func (vp *ViewPatcher) end(p *patchWriter, part memoPart, m mark) {
	if vp == nil || !vp.recording {
		return
	}
	pm := partMemo{set: true, written: p.n > m.n}
	if pm.written {
		from := m.len
		if m.n > 0 {
			from++ // the comma
		}
		pm.start = len(vp.buf)
		vp.buf = append(vp.buf, p.b[from:]...)
		pm.end = len(vp.buf)
	}
	vp.parts[part] = pm
}

// recorded ends the first pair's recording.
func (vp *ViewPatcher) recorded(old, new *View, hands []handSet) {
	if vp == nil || !vp.recording {
		return
	}
	vp.refOld, vp.refNew, vp.recording = old, new, false
	vp.hands = append(vp.hands[:0], hands...)
}

// manyCards says whether a zone entry's comparison is worth remembering: its cards dominate it.
func manyCards(a, b *Zone) bool { return len(a.Cards)+len(b.Cards) >= 8 }

// sameZone reports whether x and y are the same entry: equal members, the same card and slot
// slices, the same meld pointer.
func sameZone(x, y *Zone) bool {
	return x.ID == y.ID && x.Kind == y.Kind && x.Owner == y.Owner && x.Label == y.Label && x.Count == y.Count &&
		x.Hidden == y.Hidden && x.Meld == y.Meld && sameSlice(x.Cards, y.Cards) && sameSlice(x.Slots, y.Slots)
}

func (vp *ViewPatcher) findZone(a, b *Zone) *zoneMemo {
	for i := range vp.zones {
		if m := &vp.zones[i]; sameZone(&m.old, a) && sameZone(&m.new, b) {
			return m
		}
	}
	return nil
}

// zoneEqual is zoneEqual, remembered for the first pair's entries with many cards.
func (vp *ViewPatcher) zoneEqual(a, b *Zone) bool {
	if !manyCards(a, b) {
		return zoneEqual(a, b)
	}
	if vp.recording {
		eq := zoneEqual(a, b)
		vp.zones = append(vp.zones, zoneMemo{old: *a, new: *b, equal: eq})
		return eq
	}
	if m := vp.findZone(a, b); m != nil {
		return m.equal
	}
	return zoneEqual(a, b)
}

// patchZone is patchZone, remembered for the first pair's entries with many cards.
func (vp *ViewPatcher) patchZone(p *patchWriter, old, new *Zone) {
	if !manyCards(old, new) {
		patchZone(p, old, new)
		return
	}
	m := vp.findZone(old, new)
	if !vp.recording && m != nil && m.patched {
		if p.n > 0 && m.count > 0 {
			p.b = append(p.b, ',')
		}
		p.b = append(p.b, vp.buf[m.start:m.end]...)
		p.n += m.count
		return
	}
	at := vp.begin(p)
	patchZone(p, old, new)
	if vp.recording && m != nil {
		from := at.len
		if at.n > 0 && p.n > at.n {
			from++
		}
		m.start = len(vp.buf)
		vp.buf = append(vp.buf, p.b[from:]...)
		m.end, m.count, m.patched = len(vp.buf), p.n-at.n, true
	}
}
