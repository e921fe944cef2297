package houserules

import (
	"strings"

	"cardhouse/sdk"
	"cardhouse/sdk/houserules/internal/luapattern"

	lua "github.com/yuin/gopher-lua"
)

// stringLib is the string library scripts get: gopher-lua's simple functions as they are, and
// the ones a deadline cannot interrupt replaced: rep and format capped in size, the pattern
// functions on a matcher with a step budget. No string.dump.
func (v *vm) stringLib() *lua.LTable {
	L := v.L
	L.Push(L.NewFunction(lua.OpenString))
	L.Push(lua.LString(lua.StringLibName))
	L.Call(1, 1)
	orig := L.Get(-1).(*lua.LTable)
	L.Pop(1)
	lib := L.NewTable()
	strByte := orig.RawGetString("byte").(*lua.LFunction).GFunction
	lib.RawSetString("byte", L.NewFunction(func(L *lua.LState) int {
		s := L.CheckString(1)
		if i, j := startIndex(s, L.OptInt(2, 1)), startIndex(s, L.OptInt(3, L.OptInt(2, 1))); j-i >= maxResults {
			L.RaiseError("string.byte: %d values, over the cap of %d", j-i+1, maxResults)
		}
		return strByte(L)
	}))
	for _, name := range []string{"char", "len", "lower", "upper", "reverse", "sub"} {
		lib.RawSetString(name, orig.RawGetString(name))
	}
	format := orig.RawGetString("format").(*lua.LFunction)
	lib.RawSetString("format", L.NewFunction(func(L *lua.LState) int {
		checkFormat(L, L.CheckString(1))
		return format.GFunction(L)
	}))
	lib.RawSetString("rep", L.NewFunction(v.strRep))
	lib.RawSetString("find", L.NewFunction(v.strFind))
	lib.RawSetString("match", L.NewFunction(v.strMatch))
	lib.RawSetString("gmatch", L.NewFunction(v.strGmatch))
	lib.RawSetString("gsub", L.NewFunction(v.strGsub))
	return lib
}

// checkFormat refuses widths and precisions over two digits: Go's fmt would allocate them whole.
func checkFormat(L *lua.LState, f string) {
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		i++
		for i < len(f) && strings.IndexByte("-+ #0", f[i]) >= 0 {
			i++
		}
		digits := 0
		for i < len(f) && (f[i] >= '0' && f[i] <= '9' || f[i] == '.') {
			if f[i] == '.' {
				digits = 0
			} else if digits++; digits > 2 {
				L.RaiseError("string.format: widths and precisions are capped at 99")
			}
			i++
		}
	}
}

func (v *vm) strRep(L *lua.LState) int {
	s, n, sep := L.CheckString(1), L.CheckInt(2), L.OptString(3, "")
	if n <= 0 {
		L.Push(lua.LString(""))
		return 1
	}
	if size := int64(len(s))*int64(n) + int64(len(sep))*int64(n-1); size > int64(v.r.cfg.MaxString) {
		L.RaiseError("string.rep: a result of %d bytes is over the %d-byte cap", size, v.r.cfg.MaxString)
	}
	if sep == "" {
		L.Push(lua.LString(strings.Repeat(s, n)))
	} else {
		L.Push(lua.LString(strings.Repeat(s+sep, n-1) + s))
	}
	return 1
}

func (v *vm) find(L *lua.LState, pattern, s string, offset, limit int) []*luapattern.MatchData {
	if len(s) > v.r.cfg.MaxString {
		L.RaiseError("pattern matching on a string of %d bytes, over the %d-byte cap", len(s), v.r.cfg.MaxString)
	}
	mds, err := luapattern.Find(pattern, []byte(s), offset, limit, v.r.cfg.PatternSteps)
	if err != nil {
		L.RaiseError("%s", err.Error())
	}
	return mds
}

// startIndex converts a Lua string index (1-based, negative from the end) to a Go offset.
func startIndex(s string, i int) int {
	switch {
	case i > 0:
		i--
	case i < 0:
		i += len(s)
	}
	return max(0, min(i, len(s)))
}

// pushCaptures pushes a match's captures (or the whole match when it has none, if whole).
func pushCaptures(L *lua.LState, s string, md *luapattern.MatchData, whole bool) int {
	if md.CaptureLength() == 2 {
		if !whole {
			return 0
		}
		L.Push(lua.LString(s[md.Capture(0):md.Capture(1)]))
		return 1
	}
	n := 0
	for i := 2; i < md.CaptureLength(); i += 2 {
		if md.IsPosCapture(i) {
			L.Push(lua.LNumber(md.Capture(i)))
		} else {
			L.Push(lua.LString(s[md.Capture(i):md.Capture(i+1)]))
		}
		n++
	}
	return n
}

func (v *vm) strFind(L *lua.LState) int {
	s, pattern := L.CheckString(1), L.CheckString(2)
	init := startIndex(s, L.OptInt(3, 1))
	if L.GetTop() >= 4 && lua.LVAsBool(L.Get(4)) || pattern == "" {
		pos := strings.Index(s[init:], pattern)
		if pos < 0 {
			L.Push(lua.LNil)
			return 1
		}
		L.Push(lua.LNumber(init + pos + 1))
		L.Push(lua.LNumber(init + pos + len(pattern)))
		return 2
	}
	mds := v.find(L, pattern, s, init, 1)
	if len(mds) == 0 {
		L.Push(lua.LNil)
		return 1
	}
	L.Push(lua.LNumber(mds[0].Capture(0) + 1))
	L.Push(lua.LNumber(mds[0].Capture(1)))
	return 2 + pushCaptures(L, s, mds[0], false)
}

func (v *vm) strMatch(L *lua.LState) int {
	s, pattern := L.CheckString(1), L.CheckString(2)
	mds := v.find(L, pattern, s, startIndex(s, L.OptInt(3, 1)), 1)
	if len(mds) == 0 {
		L.Push(lua.LNil)
		return 1
	}
	return pushCaptures(L, s, mds[0], true)
}

func (v *vm) strGmatch(L *lua.LState) int {
	s, pattern := L.CheckString(1), L.CheckString(2)
	mds := v.find(L, pattern, s, 0, -1)
	i := 0
	L.Push(L.NewFunction(func(L *lua.LState) int {
		if i >= len(mds) {
			return 0
		}
		i++
		return pushCaptures(L, s, mds[i-1], true)
	}))
	return 1
}

func (v *vm) strGsub(L *lua.LState) int {
	s, pattern := L.CheckString(1), L.CheckString(2)
	L.CheckTypes(3, lua.LTString, lua.LTNumber, lua.LTTable, lua.LTFunction)
	repl := L.Get(3)
	mds := v.find(L, pattern, s, 0, L.OptInt(4, -1))
	var b strings.Builder
	last := 0
	capture := func(md *luapattern.MatchData, idx int) lua.LValue {
		if md.CaptureLength() == 2 && idx <= 1 || idx == 0 {
			return lua.LString(s[md.Capture(0):md.Capture(1)])
		}
		if 2*idx >= md.CaptureLength() {
			L.RaiseError("string.gsub: invalid capture index %%%d", idx)
		}
		if md.IsPosCapture(2 * idx) {
			return lua.LNumber(md.Capture(2 * idx))
		}
		return lua.LString(s[md.Capture(2*idx):md.Capture(2*idx+1)])
	}
	for _, md := range mds {
		start, end := md.Capture(0), md.Capture(1)
		b.WriteString(s[last:start])
		var out lua.LValue
		switch r := repl.(type) {
		case lua.LString, lua.LNumber:
			rs := r.String()
			var o strings.Builder
			for i := 0; i < len(rs); i++ {
				if rs[i] != '%' || i+1 == len(rs) {
					o.WriteByte(rs[i])
					continue
				}
				i++
				if c := rs[i]; c >= '0' && c <= '9' {
					o.WriteString(capture(md, int(c-'0')).String())
				} else {
					o.WriteByte(c)
				}
			}
			out = lua.LString(o.String())
		case *lua.LTable:
			out = L.GetTable(r, capture(md, 1))
		case *lua.LFunction:
			L.Push(r)
			n := pushCaptures(L, s, md, true)
			L.Call(n, 1)
			out = L.Get(-1)
			L.Pop(1)
		}
		if lua.LVIsFalse(out) {
			out = lua.LString(s[start:end])
		}
		b.WriteString(out.String())
		if b.Len() > v.r.cfg.MaxString {
			L.RaiseError("string.gsub: the result is over the %d-byte cap", v.r.cfg.MaxString)
		}
		last = end
	}
	b.WriteString(s[last:])
	L.Push(lua.LString(b.String()))
	L.Push(lua.LNumber(len(mds)))
	return 2
}

// cardsLib is the global `cards`: what a card code means, without knowing the ruleset.
func (v *vm) cardsLib() *lua.LTable {
	L := v.L
	lib := L.NewTable()
	card := func(L *lua.LState) sdk.Card {
		c, err := parseCard(L.Get(1))
		if err != nil {
			L.ArgError(1, err.Error())
		}
		return c
	}
	fns := map[string]lua.LGFunction{
		// rank: French rank 1 (Ace) to 13 (King), 0 for Jokers and Last Card cards.
		"rank": func(L *lua.LState) int { L.Push(lua.LNumber(card(L).Rank())); return 1 },
		// suit: "S", "H", "D", "C", or nil.
		"suit": func(L *lua.LState) int {
			if s := card(L).Suit(); s != 0 {
				L.Push(lua.LString(string(rune(s))))
			} else {
				L.Push(lua.LNil)
			}
			return 1
		},
		// color: Last Card colour "R", "Y", "G", "B", or nil (Jokers, French cards).
		"color": func(L *lua.LState) int {
			if c := card(L).Color(); c != 0 {
				L.Push(lua.LString(string(rune(c))))
			} else {
				L.Push(lua.LNil)
			}
			return 1
		},
		// value: Last Card value 0-9, 10 Skip, 11 Reverse, 12 Draw Two; -1 otherwise.
		"value": func(L *lua.LState) int { L.Push(lua.LNumber(card(L).Value())); return 1 },
		// face: the rank part of the code ("Q", "10", "7", "S", "+2", "W", "JK").
		"face": func(L *lua.LState) int { L.Push(lua.LString(card(L).RankCode())); return 1 },
		// valid: whether the string is a card code.
		"valid": func(L *lua.LState) int {
			c, err := parseCard(L.Get(1))
			L.Push(lua.LBool(err == nil && c != 0))
			return 1
		},
	}
	for name, fn := range fns {
		lib.RawSetString(name, L.NewFunction(fn))
	}
	return lib
}
