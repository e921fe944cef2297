package houserules

import (
	"math"
	"slices"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"

	lua "github.com/yuin/gopher-lua"
)

// vm is one sandboxed Lua state with the Go functions scripts call. It is used by one goroutine
// at a time (the pool hands it out); cur is the call it serves.
type vm struct {
	r   *Runner
	L   *lua.LState
	cur *callState
	// sc is the script being run, for messages.
	sc *script
	// envMeta is the metatable of every call's globals: reads fall through to the read-only sandbox.
	envMeta *lua.LTable
	// fns are the game table's functions, made once per state; gameMeta finds them and builds the
	// game's lazy fields.
	fns      map[string]*lua.LFunction
	gameMeta *lua.LTable
	// partMeta is the metatable of game.counters and game.values: it refuses names the ruleset
	// does not have; zonesMeta is that of game.zones, a proxy whose writes are seen (with their
	// line); listMeta that of each zone's list, whose appends are seen.
	partMeta, zonesMeta, listMeta *lua.LTable
}

// callState is what one hook call accumulates.
type callState struct {
	call   *engine.HookCall
	rng    *sdk.RNG
	seat   int // the acting seat, or NoSeat: the default seat of emitted events
	game   *lua.LTable
	events []sdk.Event
	log    []string
	logLen int
	// options and eventList are game.options and game.events once built: kept here, not in the
	// game table, so that assigning either field reaches __newindex and fails.
	options, eventList *lua.LTable
	// end is the round's or game's end the hook asked for (game.end_round, game.end_game).
	end *sdk.EndRequest
	// zonesProxy is game.zones as the script sees it and zonesBacking the table behind it, once
	// built; editLine is the line of the last change to the cards the runner saw.
	zonesProxy, zonesBacking *lua.LTable
	editLine                 int
}

// Lua state sizes: enough for any reasonable hook, small enough that a runaway recursion or
// unpack stops with an error instead of eating memory.
const (
	callStackSize    = 200
	registrySize     = 1024
	registryMaxSize  = 64 * 1024
	registryGrowStep = 1024
	// maxResults caps how many values unpack and string.byte may push at once: gopher-lua pushes
	// them one by one in Go, where no deadline reaches (a million took seconds).
	maxResults = 4096
)

// newVM makes a sandboxed state: only base, table, string and math, minus everything that reaches
// outside (files, modules, loading code, the collector, the environment of functions), with
// string's builtins capped, math.random drawing from the game's RNG, and every library table
// read-only so no call can leave anything behind for the next.
func newVM(r *Runner) *vm {
	L := lua.NewState(lua.Options{
		SkipOpenLibs:     true,
		CallStackSize:    callStackSize,
		RegistrySize:     registrySize,
		RegistryMaxSize:  registryMaxSize,
		RegistryGrowStep: registryGrowStep,
	})
	v := &vm{r: r, L: L}
	for _, lib := range []struct {
		name string
		open lua.LGFunction
	}{{lua.BaseLibName, lua.OpenBase}, {lua.TabLibName, lua.OpenTable}, {lua.MathLibName, lua.OpenMath}} {
		L.Push(L.NewFunction(lib.open))
		L.Push(lua.LString(lib.name))
		L.Call(1, 0)
	}
	g := L.G.Global
	base := L.NewTable()
	for _, name := range []string{"assert", "error", "ipairs", "pcall", "xpcall",
		"select", "tonumber", "tostring", "type", "getmetatable", "setmetatable", "rawget",
		"rawequal", "_VERSION"} {
		base.RawSetString(name, g.RawGetString(name))
	}
	base.RawSetString("print", L.NewFunction(v.print))
	// pairs and next see through game.zones, a proxy, to its zones.
	next := g.RawGetString("next").(*lua.LFunction)
	base.RawSetString("next", L.NewFunction(func(L *lua.LState) int {
		if t, ok := L.Get(1).(*lua.LTable); ok {
			L.Replace(1, v.seeThrough(t))
		}
		return next.GFunction(L)
	}))
	base.RawSetString("pairs", L.NewFunction(func(L *lua.LState) int {
		t := v.seeThrough(L.CheckTable(1))
		L.Push(next)
		L.Push(t)
		L.Push(lua.LNil)
		return 3
	}))
	unpack := g.RawGetString("unpack").(*lua.LFunction).GFunction
	base.RawSetString("unpack", L.NewFunction(func(L *lua.LState) int {
		t := L.CheckTable(1)
		if i, j := L.OptInt(2, 1), L.OptInt(3, t.Len()); j-i >= maxResults {
			L.RaiseError("unpack: %d values, over the cap of %d", j-i+1, maxResults)
		}
		return unpack(L)
	}))

	tableLib := L.NewTable()
	g.RawGetString("table").(*lua.LTable).ForEach(func(k, val lua.LValue) { tableLib.RawSet(k, val) })
	// table.insert and table.remove on a zone's list are changes to the cards: seen, with their
	// line, and refused in a hook that cannot change the game.
	for _, name := range []string{"insert", "remove"} {
		orig := tableLib.RawGetString(name).(*lua.LFunction).GFunction
		tableLib.RawSetString(name, L.NewFunction(func(L *lua.LState) int {
			if t, ok := L.Get(1).(*lua.LTable); ok && v.cur != nil && v.zoneList(t) {
				if readOnlyHook(v.cur.call.Hook) {
					L.RaiseError("%s cannot change the game (table.%s on a zone): only %s can", hookName(v.cur.call), name, changingHooks)
				}
				v.noteEdit(L)
			}
			return orig(L)
		}))
	}
	mathLib := L.NewTable()
	g.RawGetString("math").(*lua.LTable).ForEach(func(k, val lua.LValue) { mathLib.RawSet(k, val) })
	mathLib.RawSetString("random", L.NewFunction(v.mathRandom))
	mathLib.RawSetString("randomseed", L.NewFunction(func(L *lua.LState) int {
		L.RaiseError("math.randomseed is not available: draws come from the game's seeded RNG")
		return 0
	}))
	stringLib := v.stringLib()
	L.SetMetatable(lua.LString(""), v.table(map[string]lua.LValue{"__index": stringLib, "__metatable": lua.LFalse}))

	v.unavailable(base, stringLib)
	base.RawSetString("table", v.readOnly(tableLib, "table"))
	base.RawSetString("math", v.readOnly(mathLib, "math"))
	base.RawSetString("string", v.readOnly(stringLib, "string"))
	base.RawSetString("cards", v.readOnly(v.cardsLib(), "cards"))
	v.envMeta = v.table(map[string]lua.LValue{"__index": v.readOnly(base, "the sandbox"), "__metatable": lua.LFalse})

	// Nothing a script can reach leads to the state's real globals, but empty them all the same.
	var keys []lua.LValue
	g.ForEach(func(k, _ lua.LValue) { keys = append(keys, k) })
	for _, k := range keys {
		g.RawSet(k, lua.LNil)
	}

	v.fns = map[string]*lua.LFunction{
		"move": L.NewFunction(v.move), "emit": L.NewFunction(v.emit), "random": L.NewFunction(v.random),
		"choose": L.NewFunction(v.choose), "next_seat": L.NewFunction(v.nextSeat), "top": L.NewFunction(v.top),
		"hand": L.NewFunction(v.hand), "log": L.NewFunction(v.print),
		"end_round": L.NewFunction(v.endRound(false)), "end_game": L.NewFunction(v.endRound(true)),
	}
	v.gameMeta = v.table(map[string]lua.LValue{"__index": L.NewFunction(v.gameIndex), "__newindex": L.NewFunction(v.gameNewIndex), "__metatable": lua.LFalse})
	v.partMeta = v.table(map[string]lua.LValue{"__newindex": L.NewFunction(v.partNewIndex), "__metatable": lua.LFalse})
	v.zonesMeta = v.table(map[string]lua.LValue{"__newindex": L.NewFunction(v.partNewIndex), "__metatable": lua.LFalse})
	v.listMeta = v.table(map[string]lua.LValue{"__newindex": L.NewFunction(v.listNewIndex), "__metatable": lua.LFalse})
	return v
}

// sandboxHint ends the message of everything the sandbox leaves out.
const sandboxHint = "not available in house rules (see \"The sandbox and its limits\" in docs/house-rules.md)"

// unavailable puts stand-ins for what the sandbox leaves out into base (and string.dump into
// stringLib): using one fails with a message saying so, instead of "attempt to index a nil value".
func (v *vm) unavailable(base, stringLib *lua.LTable) {
	for _, lib := range []string{"os", "io", "debug", "package", "coroutine"} {
		fail := v.L.NewFunction(func(L *lua.LState) int {
			if k, ok := L.Get(2).(lua.LString); ok {
				L.RaiseError("%s.%s: %s is %s", lib, string(k), lib, sandboxHint)
			}
			L.RaiseError("%s is %s", lib, sandboxHint)
			return 0
		})
		t := v.L.NewTable()
		t.Metatable = v.table(map[string]lua.LValue{"__index": fail, "__newindex": fail, "__call": fail, "__metatable": lua.LFalse})
		base.RawSetString(lib, t)
	}
	for _, fn := range []string{"require", "module", "load", "loadstring", "loadfile", "dofile", "getfenv", "setfenv",
		"rawset", "collectgarbage", "newproxy"} {
		base.RawSetString(fn, v.L.NewFunction(func(L *lua.LState) int {
			L.RaiseError("%s is %s", fn, sandboxHint)
			return 0
		}))
	}
	stringLib.RawSetString("dump", v.L.NewFunction(func(L *lua.LState) int {
		L.RaiseError("string.dump is %s", sandboxHint)
		return 0
	}))
}

func (v *vm) table(fields map[string]lua.LValue) *lua.LTable {
	t := v.L.NewTable()
	for k, val := range fields {
		t.RawSetString(k, val)
	}
	return t
}

// readOnly returns an empty proxy that reads through to t and refuses writes; its metatable is
// protected, so neither can be changed from a script.
func (v *vm) readOnly(t *lua.LTable, name string) *lua.LTable {
	p := v.L.NewTable()
	p.Metatable = v.table(map[string]lua.LValue{
		"__index": t,
		"__newindex": v.L.NewFunction(func(L *lua.LState) int {
			L.RaiseError("%s is read-only: keep your own values in locals or in game.memory", name)
			return 0
		}),
		"__metatable": lua.LFalse,
	})
	return p
}

// load runs the script's top level in a fresh globals table and returns it: every call starts
// from the script as written, so no call sees what another left behind.
func (v *vm) load(sc *script) (*lua.LTable, error) {
	env := v.L.CreateTable(0, 16)
	env.Metatable = v.envMeta
	env.RawSetString("_G", env)
	fn := v.L.NewFunctionFromProto(sc.proto)
	fn.Env = env
	v.L.Push(fn)
	if err := v.L.PCall(0, 0, nil); err != nil {
		return nil, err
	}
	return env, nil
}

// prepare pushes the hook's function and its arguments; fn is nil when the script lacks the hook.
func (v *vm) prepare(env *lua.LTable, c *engine.HookCall) (fn *lua.LFunction, nargs int) {
	L := v.L
	switch c.Hook {
	case engine.HookStart, engine.HookBefore, engine.HookAfter, engine.HookRoundEnd:
		fn, _ = env.RawGetString(c.Hook).(*lua.LFunction)
	case engine.HookAsk:
		if t, ok := env.RawGetString("answers").(*lua.LTable); ok {
			fn, _ = t.RawGetString(c.Name).(*lua.LFunction)
		}
	case engine.HookOpen, engine.HookApply, engine.HookBot:
		if t, ok := env.RawGetString("actions").(*lua.LTable); ok {
			if a, ok := t.RawGetString(c.Name).(*lua.LTable); ok {
				fn, _ = a.RawGetString(c.Hook).(*lua.LFunction)
			}
		}
	}
	if fn == nil {
		return nil, 0
	}
	L.Push(fn)
	L.Push(v.gameTable())
	switch c.Hook {
	case engine.HookBefore, engine.HookAfter, engine.HookApply:
		L.Push(v.actionTable(c.Action))
		return fn, 2
	case engine.HookOpen, engine.HookBot:
		L.Push(lua.LNumber(c.Seat))
		return fn, 2
	case engine.HookAsk:
		L.Push(v.stringMap(c.Args))
		return fn, 2
	}
	return fn, 1
}

// cardValues holds every card's code as a Lua value, so building a table allocates no strings.
var cardValues = func() map[sdk.Card]lua.LValue {
	m := map[sdk.Card]lua.LValue{0: lua.LString("-")}
	for c := sdk.Card(1); c <= sdk.WildDrawFour; c++ {
		if c.Valid() {
			m[c] = lua.LString(c.String())
		}
	}
	return m
}()

func cardValue(c sdk.Card) lua.LValue {
	if v, ok := cardValues[c]; ok {
		return v
	}
	return lua.LString(c.String())
}

func (v *vm) cardList(cards []sdk.Card) *lua.LTable {
	t := v.L.CreateTable(len(cards), 0)
	for i, c := range cards {
		t.RawSetInt(i+1, cardValue(c))
	}
	return t
}

// gameTable is the `game` argument of every hook. It starts empty: every field is built on first
// use by gameIndex (a before_action that only reads its action pays for no table) and its
// functions come from a shared metatable.
func (v *vm) gameTable() *lua.LTable {
	g := v.L.CreateTable(0, 0)
	g.Metatable = v.gameMeta
	v.cur.game = g
	return g
}

// gameIndex is the game table's __index: it builds a field on first use (and keeps the tables a
// hook may change in the game table, where its changes are read back from) or finds a function.
// Numbers and words are not kept, so that every write to them reaches gameNewIndex. Tables fill
// their keys in sorted order so pairs() walks them the same way every time.
func (v *vm) gameIndex(L *lua.LState) int {
	g, key := L.CheckTable(1), L.Get(2)
	k, ok := key.(lua.LString)
	if !ok || v.cur == nil || g != v.cur.game {
		L.Push(lua.LNil)
		return 1
	}
	c := v.cur.call
	var val lua.LValue
	switch string(k) {
	case "ruleset", "hook", "seats", "turn", "direction", "phase", "round", "winner":
		L.Push(v.scalar(string(k)))
		return 1
	case "zones":
		t := L.CreateTable(0, len(c.Table.Zones))
		for _, name := range sortedKeys(c.Table.Zones) {
			list := v.cardList(c.Table.Zones[name])
			list.Metatable = v.listMeta
			t.RawSetString(name, list)
		}
		p := L.NewTable()
		p.Metatable = L.NewTable()
		p.Metatable.(*lua.LTable).RawSetString("__index", t)
		p.Metatable.(*lua.LTable).RawSetString("__newindex", v.zonesMeta.RawGetString("__newindex"))
		p.Metatable.(*lua.LTable).RawSetString("__metatable", lua.LFalse)
		v.cur.zonesProxy, v.cur.zonesBacking = p, t
		val = p
	case "counters":
		t := L.CreateTable(0, len(c.Table.Counters))
		for _, k := range sortedKeys(c.Table.Counters) {
			t.RawSetString(k, lua.LNumber(c.Table.Counters[k]))
		}
		t.Metatable = v.partMeta
		val = t
	case "values":
		t := v.stringMap(c.Table.Values)
		t.Metatable = v.partMeta
		val = t
	case "options":
		if v.cur.options == nil {
			t := L.CreateTable(0, len(c.Rule.Options))
			for _, k := range sortedKeys(c.Rule.Options) {
				t.RawSetString(k, toLua(c.Rule.Options[k]))
			}
			v.cur.options = t
		}
		L.Push(v.cur.options)
		return 1
	case "events":
		if v.cur.eventList == nil {
			t := L.CreateTable(len(c.Events), 0)
			for i, ev := range c.Events {
				e := L.CreateTable(0, 4)
				e.RawSetString("name", lua.LString(ev.Name))
				e.RawSetString("seat", lua.LNumber(ev.Seat))
				e.RawSetString("cards", v.cardList(ev.Cards))
				e.RawSetString("data", v.stringMap(ev.Data))
				t.RawSetInt(i+1, e)
			}
			v.cur.eventList = t
		}
		L.Push(v.cur.eventList)
		return 1
	case "memory":
		t := L.CreateTable(0, len(c.Memory))
		for _, k := range sortedKeys(c.Memory) {
			t.RawSetString(k, toLua(c.Memory[k]))
		}
		val = t
	default:
		if fn, ok := v.fns[string(k)]; ok {
			L.Push(fn)
		} else {
			L.Push(lua.LNil)
		}
		return 1
	}
	g.RawSetString(string(k), val)
	L.Push(val)
	return 1
}

// scalar is one of the game's numbers or words, as the call gives it.
func (v *vm) scalar(key string) lua.LValue {
	c := v.cur.call
	switch key {
	case "ruleset":
		return lua.LString(c.Ruleset)
	case "hook":
		return lua.LString(c.Hook)
	case "seats":
		return lua.LNumber(c.Status.Seats)
	case "turn":
		return lua.LNumber(c.Table.Turn)
	case "direction":
		return lua.LNumber(c.Table.Direction)
	case "phase":
		return lua.LString(c.Status.Phase)
	case "round":
		return lua.LNumber(c.Status.Round)
	case "winner":
		return lua.LNumber(c.Status.Winner)
	}
	return lua.LNil
}

func (v *vm) stringMap(m map[string]string) *lua.LTable {
	t := v.L.CreateTable(0, len(m))
	for _, k := range sortedKeys(m) {
		t.RawSetString(k, lua.LString(m[k]))
	}
	return t
}

// actionTable is the `action` argument: {seat, type, cards, choice, suit, color, from, target,
// index, deadline, args}. choice is the action's choice (sdk.Action.Choice: args.choice, or the
// old suit or color field); suit and color stay for the scripts written when a choice travelled
// in them: suit is a choice that is a French suit ("S", "H", "D", "C"), color one that is a
// colour of the coloured cards ("R", "Y", "G", "B").
func (v *vm) actionTable(a *sdk.Action) *lua.LTable {
	t := v.L.CreateTable(0, 11)
	if a == nil {
		return t
	}
	t.RawSetString("seat", lua.LNumber(a.Seat))
	t.RawSetString("type", lua.LString(a.Type))
	t.RawSetString("cards", v.cardList(a.Cards))
	choice := a.Choice()
	suit, color := a.Suit, a.Color
	if suit == "" && len(choice) == 1 && slices.Contains(sdk.Suits, sdk.Suit(choice[0])) {
		suit = choice
	}
	if color == "" && len(choice) == 1 && slices.Contains(sdk.Colors, sdk.Color(choice[0])) {
		color = choice
	}
	for _, kv := range [...][2]string{{"choice", choice}, {"color", color}, {"deadline", a.Deadline}, {"from", a.From}, {"suit", suit}} {
		if kv[1] != "" {
			t.RawSetString(kv[0], lua.LString(kv[1]))
		}
	}
	if a.Target != nil {
		t.RawSetString("target", lua.LNumber(*a.Target))
	}
	if a.Index != nil {
		t.RawSetString("index", lua.LNumber(*a.Index))
	}
	t.RawSetString("args", v.stringMap(a.Args))
	return t
}

// toLua converts an option or memory value to Lua.
func toLua(x any) lua.LValue {
	switch y := x.(type) {
	case bool:
		return lua.LBool(y)
	case int:
		return lua.LNumber(y)
	case float64:
		return lua.LNumber(y)
	case string:
		return lua.LString(y)
	}
	return lua.LNil
}

func isInt(n lua.LNumber) bool {
	f := float64(n)
	return f == math.Trunc(f) && math.Abs(f) < 1<<31
}
