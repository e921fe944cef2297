package houserules

import (
	"cmp"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"

	lua "github.com/yuin/gopher-lua"
)

// Caps on what one hook call may hand back: a script that goes past one fails with a message
// saying which, instead of flooding the players, the log or the stored state.
const (
	maxEvents      = engine.HouseMaxEvents
	maxEventData   = 16
	maxTextBytes   = 500
	maxMemoryKeys  = 64
	maxMemoryBytes = 1024
	maxLogLines    = 50
	maxLogBytes    = 8 << 10
	maxZoneCards   = 4096
)

var eventName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,39}$`)

// self returns the index of the first real argument: 2 when called as game:fn(...), else 1.
func (v *vm) self(L *lua.LState) int {
	if t, ok := L.Get(1).(*lua.LTable); ok && v.cur != nil && t == v.cur.game {
		return 2
	}
	return 1
}

func (v *vm) print(L *lua.LState) int {
	cs := v.cur
	parts := make([]string, 0, L.GetTop())
	for i := 1; i <= L.GetTop(); i++ {
		parts = append(parts, L.ToStringMeta(L.Get(i)).String())
	}
	line := strings.Join(parts, "\t")
	if len(line) > maxTextBytes {
		line = line[:maxTextBytes] + "…"
	}
	switch {
	case cs == nil:
	case len(cs.log) < maxLogLines && cs.logLen+len(line) <= maxLogBytes:
		cs.log = append(cs.log, line)
		cs.logLen += len(line)
	case len(cs.log) == maxLogLines || cs.logLen+len(line) > maxLogBytes:
		if len(cs.log) == 0 || cs.log[len(cs.log)-1] != "(log cut: too much printed)" {
			cs.log = append(cs.log, "(log cut: too much printed)")
		}
	}
	return 0
}

// draw runs f, turning an unusable forced value into a Lua error.
func draw(L *lua.LState, f func()) {
	defer func() {
		if p := recover(); p != nil {
			if fe, ok := p.(*sdk.ForcedDrawError); ok {
				L.RaiseError("%v", fe)
			}
			panic(p)
		}
	}()
	f()
}

func (v *vm) label() string {
	if v.cur != nil && v.cur.call.Rule.Name != "" {
		return v.cur.call.Rule.Name
	}
	return "house_rule"
}

// mathRandom is math.random drawing from the game's RNG under the rule's name as label.
func (v *vm) mathRandom(L *lua.LState) int {
	rng := v.cur.rng
	switch L.GetTop() {
	case 0:
		var n int
		draw(L, func() { n = rng.Intn(v.label(), 1<<30) })
		L.Push(lua.LNumber(float64(n) / (1 << 30)))
	case 1:
		m := L.CheckInt(1)
		if m < 1 {
			L.ArgError(1, "interval is empty")
		}
		var n int
		draw(L, func() { n = rng.Intn(v.label(), m) })
		L.Push(lua.LNumber(n + 1))
	default:
		lo, hi := L.CheckInt(1), L.CheckInt(2)
		if hi < lo {
			L.ArgError(2, "interval is empty")
		}
		var n int
		draw(L, func() { n = rng.Intn(v.label(), hi-lo+1) })
		L.Push(lua.LNumber(lo + n))
	}
	return 1
}

// random(label, n) draws 1..n under label.
func (v *vm) random(L *lua.LState) int {
	i := v.self(L)
	label, n := L.CheckString(i), L.CheckInt(i+1)
	if label == "" {
		L.ArgError(i, "a draw needs a label")
	}
	if n < 1 || n > 1<<30 {
		L.ArgError(i+1, "n must be from 1 to 2^30")
	}
	var r int
	draw(L, func() { r = v.cur.rng.Intn(label, n) })
	L.Push(lua.LNumber(r + 1))
	return 1
}

// choose(label, {names}) draws one of the names under label.
func (v *vm) choose(L *lua.LState) int {
	i := v.self(L)
	label, t := L.CheckString(i), L.CheckTable(i+1)
	var names []string
	for j := 1; j <= t.Len(); j++ {
		names = append(names, t.RawGetInt(j).String())
	}
	if label == "" || len(names) == 0 {
		L.ArgError(i+1, "choose needs a label and a non-empty list")
	}
	var r int
	draw(L, func() { r = v.cur.rng.Choose(label, names) })
	L.Push(lua.LString(names[r]))
	return 1
}

// zones returns the game's zones table, which a script may have replaced.
func (v *vm) zones(L *lua.LState) *lua.LTable {
	z, ok := L.GetField(v.cur.game, "zones").(*lua.LTable)
	if !ok {
		L.RaiseError("game.zones is no longer a table")
	}
	return v.seeThrough(z)
}

func (v *vm) zone(L *lua.LState, name string) []lua.LValue {
	t, ok := v.zones(L).RawGetString(name).(*lua.LTable)
	if !ok {
		var names []string
		v.zones(L).ForEach(func(k, _ lua.LValue) { names = append(names, k.String()) })
		slices.Sort(names)
		L.RaiseError("no zone %q (this game has %s)", name, strings.Join(names, ", "))
	}
	out := make([]lua.LValue, t.Len())
	for i := range out {
		out[i] = t.RawGetInt(i + 1)
	}
	return out
}

func (v *vm) setZone(name string, cards []lua.LValue) {
	t := v.L.CreateTable(len(cards), 0)
	for i, c := range cards {
		t.RawSetInt(i+1, c)
	}
	t.Metatable = v.listMeta
	v.zones(v.L).RawSetString(name, t)
}

// topFirst reports whether a zone lists its top card first (the deck) rather than last.
func topFirst(zone string) bool { return zone == "deck" }

// move(from, to, what) moves cards one at a time from the top of zone from onto the top of zone to
// and returns them: what is a number (that many, or as many as there are), a card code, or a list
// of codes (each must be in from).
func (v *vm) move(L *lua.LState) int {
	i := v.self(L)
	from, to := L.CheckString(i), L.CheckString(i+1)
	if readOnlyHook(v.cur.call.Hook) {
		L.RaiseError("%s cannot change the game (game.move): only %s can", hookName(v.cur.call), changingHooks)
	}
	v.noteEdit(L)
	src, dst := v.zone(L, from), v.zone(L, to)
	var moved []lua.LValue
	take := func(k int) {
		moved = append(moved, src[k])
		src = slices.Delete(src, k, k+1)
	}
	switch what := L.Get(i + 2).(type) {
	case lua.LNumber:
		for n := int(what); n > 0 && len(src) > 0; n-- {
			if topFirst(from) {
				take(0)
			} else {
				take(len(src) - 1)
			}
		}
	case lua.LString, *lua.LTable:
		var codes []lua.LValue
		if t, ok := what.(*lua.LTable); ok {
			for j := 1; j <= t.Len(); j++ {
				codes = append(codes, t.RawGetInt(j))
			}
		} else {
			codes = []lua.LValue{what}
		}
		for _, code := range codes {
			c, err := parseCard(code)
			if err != nil {
				L.RaiseError("move: %v", err)
			}
			k := slices.IndexFunc(src, func(x lua.LValue) bool { y, err := parseCard(x); return err == nil && y == c })
			if k < 0 {
				L.RaiseError("move: %s is not in %s", c, from)
			}
			take(k)
		}
	default:
		L.ArgError(i+2, "a number of cards, a card code or a list of codes")
	}
	if from == to {
		dst = src
	}
	for _, c := range moved {
		if topFirst(to) {
			dst = slices.Insert(dst, 0, c)
		} else {
			dst = append(dst, c)
		}
	}
	if from != to {
		v.setZone(from, src)
	}
	v.setZone(to, dst)
	out := L.CreateTable(len(moved), 0)
	for j, c := range moved {
		out.RawSetInt(j+1, c)
	}
	L.Push(out)
	return 1
}

// emit(name, {seat=, cards=, count=, data=, private=}) adds an event the players see.
func (v *vm) emit(L *lua.LState) int {
	i := v.self(L)
	name := L.CheckString(i)
	if !eventName.MatchString(name) {
		L.ArgError(i, "event names are lower-case letters, digits and _ (up to 40)")
	}
	if len(v.cur.events) >= maxEvents {
		L.RaiseError("emit: more than %d events in one call", maxEvents)
	}
	ev := sdk.Event{Name: name, Seat: v.cur.seat}
	if opts, ok := L.Get(i + 1).(*lua.LTable); ok {
		if s, ok := opts.RawGetString("seat").(lua.LNumber); ok {
			ev.Seat = int(s)
		}
		if n, ok := opts.RawGetString("count").(lua.LNumber); ok {
			ev.Count = int(n)
		}
		ev.Private = lua.LVAsBool(opts.RawGetString("private"))
		if cs, ok := opts.RawGetString("cards").(*lua.LTable); ok {
			for j := 1; j <= cs.Len() && j <= maxZoneCards; j++ {
				c, err := parseCard(cs.RawGetInt(j))
				if err != nil {
					L.RaiseError("emit: %v", err)
				}
				ev.Cards = append(ev.Cards, c)
			}
		}
		if d, ok := opts.RawGetString("data").(*lua.LTable); ok {
			ev.Data = map[string]string{}
			d.ForEach(func(k, val lua.LValue) {
				if len(ev.Data) >= maxEventData {
					L.RaiseError("emit: more than %d data fields", maxEventData)
				}
				s := val.String()
				if len(s) > maxTextBytes {
					L.RaiseError("emit: data %s is over %d bytes", k, maxTextBytes)
				}
				ev.Data[k.String()] = s
			})
		}
	} else if L.Get(i+1) != lua.LNil {
		L.ArgError(i+1, "options must be a table")
	}
	v.cur.events = append(v.cur.events, ev)
	return 0
}

// next_seat(seat, steps) is the seat steps places on in the direction of play (steps 1 if absent).
func (v *vm) nextSeat(L *lua.LState) int {
	i := v.self(L)
	seat, steps := L.CheckInt(i), L.OptInt(i+1, 1)
	n := v.cur.call.Status.Seats
	if n <= 0 {
		L.RaiseError("next_seat: the game has no seats")
	}
	dir := 1
	if d, ok := L.GetField(v.cur.game, "direction").(lua.LNumber); ok && d < 0 {
		dir = -1
	}
	L.Push(lua.LNumber(((seat+dir*steps)%n + n) % n))
	return 1
}

// top(zone) is the top card of a zone ("pile" if absent), or nil when it is empty.
func (v *vm) top(L *lua.LState) int {
	i := v.self(L)
	name := L.OptString(i, "pile")
	z := v.zone(L, name)
	switch {
	case len(z) == 0:
		L.Push(lua.LNil)
	case topFirst(name):
		L.Push(z[0])
	default:
		L.Push(z[len(z)-1])
	}
	return 1
}

// hand(seat) is the zone table "hand.N" itself (changes to it are changes to the game).
func (v *vm) hand(L *lua.LState) int {
	i := v.self(L)
	name := fmt.Sprintf("hand.%d", L.CheckInt(i))
	v.zone(L, name)
	L.Push(v.zones(L).RawGetString(name))
	return 1
}

// codeCards maps card codes to cards.
var codeCards = func() map[string]sdk.Card {
	m := map[string]sdk.Card{"-": 0}
	for c, lv := range cardValues {
		m[lv.String()] = c
	}
	return m
}()

func parseCard(v lua.LValue) (sdk.Card, error) {
	s, ok := v.(lua.LString)
	if !ok {
		return 0, fmt.Errorf("a card must be a code like \"QH\" or \"R7\", got a %s", v.Type())
	}
	if c, ok := codeCards[string(s)]; ok {
		return c, nil
	}
	return sdk.ParseCard(string(s))
}

// result reads what the hook handed back.
func (v *vm) result(c *engine.HookCall, ret lua.LValue) (*engine.HookResult, error) {
	res := &engine.HookResult{Table: c.Table, Memory: c.Memory}
	if readOnlyHook(c.Hook) {
		if err := v.checkUnchanged(c); err != nil {
			return nil, err
		}
	}
	switch c.Hook {
	case engine.HookBefore:
		return res, refusal(res, ret, "before_action")
	case engine.HookOpen:
		return res, v.openSpec(res, ret)
	case engine.HookBot:
		return res, botAction(res, ret)
	case engine.HookAsk:
		switch x := ret.(type) {
		case *lua.LNilType:
		case lua.LBool, lua.LNumber, lua.LString:
			res.Answer, res.Answered = x.String(), true
		default:
			return nil, fmt.Errorf("answers[%q] returned a %s; answer with true, false, a number or a string (nil: no answer)", c.Name, x.Type())
		}
		return res, nil
	}
	// The hooks that may change the game.
	if c.Hook == engine.HookApply {
		if err := refusal(res, ret, c.Name+".apply"); err != nil {
			return nil, err
		}
	}
	t, err := v.readTable(c.Table)
	if err != nil {
		return nil, err
	}
	res.Table = t
	res.Changed = !equalTables(c.Table, t)
	if res.Changed {
		if diff := sdk.CardDiff(c.Table.Cards(), t.Cards()); diff != "" {
			// The line is that of the last change to the cards the runner saw (game.move, a
			// zone assigned, table.insert or table.remove on a zone, a card appended).
			return nil, &Error{Line: v.cur.editLine, Msg: fmt.Sprintf("%s broke the card invariant (every card exactly once): %s", hookName(c), diff)}
		}
	}
	if res.Memory, err = v.readMemory(); err != nil {
		return nil, err
	}
	res.Events = v.cur.events
	res.End = v.cur.end
	return res, nil
}

// refusal reads a hook's verdict: nil or true lets the action through, a string refuses it with
// that reason, false refuses it with a plain one.
func refusal(res *engine.HookResult, ret lua.LValue, what string) error {
	switch x := ret.(type) {
	case *lua.LNilType:
	case lua.LBool:
		if !x {
			res.Refusal = "a house rule does not allow this"
		}
	case lua.LString:
		if len(x) > maxTextBytes {
			return fmt.Errorf("%s returned a refusal of %d bytes, over the %d-byte cap", what, len(x), maxTextBytes)
		}
		res.Refusal = string(x)
		if res.Refusal == "" {
			res.Refusal = "a house rule does not allow this"
		}
	default:
		return fmt.Errorf("%s returned a %s; return nothing to allow, or a reason (a string) to refuse", what, x.Type())
	}
	return nil
}

// openSpec reads an open hook's answer: nil/false closed, true open, or a table
// {label=, targets={...}, cards={...}, choices={...}, multi=}.
func (v *vm) openSpec(res *engine.HookResult, ret lua.LValue) error {
	switch x := ret.(type) {
	case *lua.LNilType:
		return nil
	case lua.LBool:
		if x {
			res.Open = &sdk.ActionSpec{}
		}
		return nil
	case *lua.LTable:
		sp := &sdk.ActionSpec{}
		if l, ok := x.RawGetString("label").(lua.LString); ok {
			if len(l) > 80 {
				return fmt.Errorf("open returned a label over 80 bytes")
			}
			sp.Label = string(l)
		}
		if t, ok := x.RawGetString("targets").(*lua.LTable); ok {
			for j := 1; j <= t.Len(); j++ {
				n, ok := t.RawGetInt(j).(lua.LNumber)
				if !ok || !isInt(n) {
					return fmt.Errorf("open returned targets that are not seat numbers")
				}
				sp.Targets = append(sp.Targets, int(n))
			}
		}
		if t, ok := x.RawGetString("cards").(*lua.LTable); ok {
			for j := 1; j <= t.Len() && j <= maxZoneCards; j++ {
				c, err := parseCard(t.RawGetInt(j))
				if err != nil {
					return fmt.Errorf("open returned cards: %v", err)
				}
				sp.Cards = append(sp.Cards, c)
			}
		}
		if t, ok := x.RawGetString("choices").(*lua.LTable); ok {
			for j := 1; j <= t.Len() && j <= 64; j++ {
				sp.Choices = append(sp.Choices, t.RawGetInt(j).String())
			}
		}
		sp.Multi = lua.LVAsBool(x.RawGetString("multi"))
		res.Open = sp
		return nil
	}
	return fmt.Errorf("open returned a %s; return true, false, nil or a table {targets=, cards=, choices=}", ret.Type())
}

// botAction reads a bot hook's choice: nil for none, or {target=, cards={...}, choice=}.
func botAction(res *engine.HookResult, ret lua.LValue) error {
	switch x := ret.(type) {
	case *lua.LNilType:
		return nil
	case *lua.LTable:
		a := &sdk.Action{}
		if n, ok := x.RawGetString("target").(lua.LNumber); ok {
			t := int(n)
			a.Target = &t
		}
		if t, ok := x.RawGetString("cards").(*lua.LTable); ok {
			for j := 1; j <= t.Len() && j <= maxZoneCards; j++ {
				c, err := parseCard(t.RawGetInt(j))
				if err != nil {
					return fmt.Errorf("bot returned cards: %v", err)
				}
				a.Cards = append(a.Cards, c)
			}
		}
		if s, ok := x.RawGetString("choice").(lua.LString); ok {
			a.Args = map[string]string{"choice": string(s)}
		}
		res.Action = a
		return nil
	}
	return fmt.Errorf("bot returned a %s; return nil or a table {target=, cards=, choice=}", ret.Type())
}

// readTable reads game.zones, turn, direction, counters and values back into a Table.
func (v *vm) readTable(orig sdk.Table) (sdk.Table, error) {
	g := v.cur.game
	t := sdk.Table{Zones: map[string][]sdk.Card{}}
	num := func(key string, was int) (int, error) {
		raw := g.RawGetString(key)
		if raw == lua.LNil {
			return was, nil
		}
		n, ok := raw.(lua.LNumber)
		if !ok || !isInt(n) {
			return 0, fmt.Errorf("game.%s must be a whole number, not %s", key, raw)
		}
		return int(n), nil
	}
	var err error
	if t.Turn, err = num("turn", orig.Turn); err != nil {
		return t, err
	}
	if t.Direction, err = num("direction", orig.Direction); err != nil {
		return t, err
	}
	// A lazy field the hook never touched is as it was.
	untouched := func(key string) bool { return g.RawGetString(key) == lua.LNil }
	t.Counters, t.Values = orig.Counters, orig.Values
	if untouched("zones") {
		t.Zones = orig.Zones
		if untouched("counters") && untouched("values") {
			return t, nil
		}
	}
	zones, ok := g.RawGetString("zones").(*lua.LTable)
	zones = v.seeThrough(zones)
	if !ok && !untouched("zones") {
		return t, fmt.Errorf("game.zones must stay a table of zones")
	}
	if !ok {
		zones = v.L.NewTable() // read nothing: t.Zones is the original
	}
	zones.ForEach(func(k, val lua.LValue) {
		if err != nil {
			return
		}
		name, ok := k.(lua.LString)
		z, ok2 := val.(*lua.LTable)
		if !ok || !ok2 {
			err = fmt.Errorf("game.zones[%v] must be a list of card codes, not a %s", k, val.Type())
			return
		}
		n := z.Len()
		if n > maxZoneCards {
			err = fmt.Errorf("zone %s holds %d cards, more than any game has", name, n)
			return
		}
		cards := make([]sdk.Card, 0, n)
		count := 0
		z.ForEach(func(_, _ lua.LValue) { count++ })
		if count != n {
			err = fmt.Errorf("zone %s must be a list (keys 1..n), it has other keys", name)
			return
		}
		for j := 1; j <= n; j++ {
			c, e := parseCard(z.RawGetInt(j))
			if e != nil {
				err = fmt.Errorf("zone %s, position %d: %v", name, j, e)
				return
			}
			cards = append(cards, c)
		}
		t.Zones[string(name)] = cards
	})
	if err != nil {
		return t, err
	}
	if untouched("counters") {
	} else if ct, ok := g.RawGetString("counters").(*lua.LTable); ok {
		t.Counters = nil
		ct.ForEach(func(k, val lua.LValue) {
			n, ok := val.(lua.LNumber)
			if err == nil && (!ok || !isInt(n)) {
				err = fmt.Errorf("game.counters[%v] must be a whole number, not %s", k, val)
				return
			}
			if t.Counters == nil {
				t.Counters = map[string]int{}
			}
			t.Counters[k.String()] = int(n)
		})
	} else {
		return t, fmt.Errorf("game.counters must stay a table")
	}
	if untouched("values") {
	} else if vt, ok := g.RawGetString("values").(*lua.LTable); ok {
		t.Values = nil
		vt.ForEach(func(k, val lua.LValue) {
			s, ok := val.(lua.LString)
			if err == nil && (!ok || len(s) > maxTextBytes) {
				err = fmt.Errorf("game.values[%v] must be a string of up to %d bytes", k, maxTextBytes)
				return
			}
			if t.Values == nil {
				t.Values = map[string]string{}
			}
			t.Values[k.String()] = string(s)
		})
	} else {
		return t, fmt.Errorf("game.values must stay a table")
	}
	if err != nil {
		return t, err
	}
	// Keep nil maps nil when the original had none and the script added none: equal tables compare equal.
	if len(t.Counters) == 0 && orig.Counters == nil {
		t.Counters = nil
	}
	if len(t.Values) == 0 && orig.Values == nil {
		t.Values = nil
	}
	return t, nil
}

// readMemory reads game.memory: a flat table of strings, numbers and booleans kept for the game.
func (v *vm) readMemory() (map[string]any, error) {
	raw := v.cur.game.RawGetString("memory")
	if raw == lua.LNil {
		return v.cur.call.Memory, nil
	}
	mt, ok := raw.(*lua.LTable)
	if !ok {
		return nil, fmt.Errorf("game.memory must stay a table")
	}
	out := map[string]any{}
	var err error
	mt.ForEach(func(k, val lua.LValue) {
		if err != nil {
			return
		}
		ks, ok := k.(lua.LString)
		if !ok || len(ks) > 64 {
			err = fmt.Errorf("game.memory keys must be strings of up to 64 bytes, not %v", k)
			return
		}
		if len(out) >= maxMemoryKeys {
			err = fmt.Errorf("game.memory holds more than %d keys", maxMemoryKeys)
			return
		}
		switch x := val.(type) {
		case lua.LString:
			if len(x) > maxMemoryBytes {
				err = fmt.Errorf("game.memory.%s is %d bytes, over the %d-byte cap", ks, len(x), maxMemoryBytes)
				return
			}
			out[string(ks)] = string(x)
		case lua.LNumber:
			out[string(ks)] = float64(x)
		case lua.LBool:
			out[string(ks)] = bool(x)
		default:
			err = fmt.Errorf("game.memory.%s is a %s; memory keeps only strings, numbers and booleans", ks, val.Type())
		}
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

func equalTables(a, b sdk.Table) bool {
	return a.Turn == b.Turn && a.Direction == b.Direction &&
		maps.EqualFunc(a.Zones, b.Zones, slices.Equal) &&
		maps.Equal(a.Counters, b.Counters) && maps.Equal(a.Values, b.Values)
}

func sortedKeys[M ~map[string]V, V any](m M) []string {
	keys := slices.Collect(maps.Keys(m))
	slices.SortFunc(keys, cmp.Compare)
	return keys
}
