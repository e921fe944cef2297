package houserules

import (
	"errors"
	"slices"
	"strings"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"

	lua "github.com/yuin/gopher-lua"
)

// A write to the game table that cannot take effect is an error at its line, never a silent
// no-op: game.winner and game.phase (end the round with game.end_round instead), the fields the
// SDK only reports (seats, round, options, events), a name the game does not have, a new zone,
// counter or value the ruleset does not know, and any change in a hook that cannot change the game.

// readOnlyHook reports whether a hook's changes to the table are thrown away.
func readOnlyHook(hook string) bool {
	switch hook {
	case engine.HookStart, engine.HookAfter, engine.HookRoundEnd, engine.HookApply:
		return false
	}
	return true
}

// changingHooks names the hooks that may change the game, for messages.
const changingHooks = "on_start, after_action, on_round_end and an action's apply"

// gameNewIndex is the game table's __newindex: it lets a table-changing hook set turn, direction,
// zones, counters, values and memory, and refuses every other write with a message saying why.
func (v *vm) gameNewIndex(L *lua.LState) int {
	g, key, val := L.CheckTable(1), L.Get(2), L.Get(3)
	if v.cur == nil || g != v.cur.game {
		L.RaiseError("this game table is no longer the game")
	}
	k, _ := key.(lua.LString)
	c := v.cur.call
	switch name := string(k); name {
	case "turn", "direction", "zones", "counters", "values", "memory":
		if readOnlyHook(c.Hook) {
			L.RaiseError("%s cannot change the game (game.%s): only %s can", hookName(c), name, changingHooks)
		}
		switch name {
		case "turn", "direction":
			n, ok := val.(lua.LNumber)
			if !ok || !isInt(n) {
				L.RaiseError("game.%s must be a whole number, not %s", name, describeValue(val))
			}
		default:
			if _, ok := val.(*lua.LTable); !ok {
				L.RaiseError("game.%s must be a table, not %s", name, describeValue(val))
			}
		}
		g.RawSetString(name, val)
	case "winner", "phase":
		L.RaiseError("game.%s cannot be assigned: end the round with game.end_round(seat), or the game with game.end_game(seat), in after_action or an action's apply", name)
	case "round", "seats", "ruleset", "hook", "options", "events":
		L.RaiseError("game.%s is read-only: the SDK reports it, a hook cannot change it", name)
	default:
		if _, ok := v.fns[name]; ok {
			L.RaiseError("game.%s is a function of the SDK and cannot be replaced", name)
		}
		L.RaiseError("the game has no field %s that a hook can set (keep your own values in locals or game.memory)", luaKey(key))
	}
	return 0
}

// partNewIndex is the __newindex of game.zones, game.counters and game.values: a name the
// ruleset does not have (or any write in a hook that cannot change the game) is an error.
func (v *vm) partNewIndex(L *lua.LState) int {
	t, key, val := L.CheckTable(1), L.Get(2), L.Get(3)
	if v.cur == nil {
		L.RaiseError("this table is no longer the game's")
	}
	c := v.cur.call
	part, known := "", []string(nil)
	for _, p := range [...]string{"zones", "counters", "values"} {
		if v.cur.game.RawGetString(p) == t {
			part = p
		}
	}
	target := t
	switch part {
	case "zones":
		known = sortedKeys(c.Table.Zones)
		if t == v.cur.zonesProxy {
			target = v.cur.zonesBacking
		}
	case "counters":
		known = sortedKeys(c.Table.Counters)
	case "values":
		known = sortedKeys(c.Table.Values)
	default:
		t.RawSet(key, val) // a table the script detached from the game: its own business
		return 0
	}
	if readOnlyHook(c.Hook) {
		L.RaiseError("%s cannot change the game (game.%s): only %s can", hookName(c), part, changingHooks)
	}
	k, ok := key.(lua.LString)
	if !ok || !slices.Contains(known, string(k)) {
		has := "none"
		if len(known) > 0 {
			has = strings.Join(known, ", ")
		}
		L.RaiseError("ruleset %s has no %s %s (it has %s)", c.Ruleset, strings.TrimSuffix(part, "s"), luaKey(key), has)
	}
	if part == "zones" {
		v.noteEdit(L)
	}
	target.RawSet(key, val)
	return 0
}

// listNewIndex is the __newindex of a zone's list: an appended card is a change to the cards
// (refused in a hook that cannot change the game).
func (v *vm) listNewIndex(L *lua.LState) int {
	t, key, val := L.CheckTable(1), L.Get(2), L.Get(3)
	if v.cur != nil {
		if readOnlyHook(v.cur.call.Hook) {
			L.RaiseError("%s cannot change the game (game.zones): only %s can", hookName(v.cur.call), changingHooks)
		}
		v.noteEdit(L)
	}
	t.RawSet(key, val)
	return 0
}

// zoneList reports whether t is one of the game's zone lists.
func (v *vm) zoneList(t *lua.LTable) bool { return t.Metatable == v.listMeta }

// noteEdit keeps the script line running now as the last change to the cards.
func (v *vm) noteEdit(L *lua.LState) {
	if v.cur == nil {
		return
	}
	for level := 0; level < 8; level++ {
		dbg, ok := L.GetStack(level)
		if !ok {
			return
		}
		if _, err := L.GetInfo("l", dbg, lua.LNil); err == nil && dbg.CurrentLine > 0 {
			v.cur.editLine = dbg.CurrentLine
			return
		}
	}
}

// seeThrough returns the table behind game.zones for the functions that walk tables (pairs,
// next), so that a script iterates the zones as it would a plain table.
func (v *vm) seeThrough(t *lua.LTable) *lua.LTable {
	if v.cur != nil && t == v.cur.zonesProxy && t != nil {
		return v.cur.zonesBacking
	}
	return t
}

// checkUnchanged fails a hook that cannot change the game but changed a zone, counter or value
// in place (a write no metamethod sees), after it returned.
func (v *vm) checkUnchanged(c *engine.HookCall) error {
	g := v.cur.game
	if g == nil || (g.RawGetString("zones") == lua.LNil && g.RawGetString("counters") == lua.LNil && g.RawGetString("values") == lua.LNil) {
		return nil
	}
	t, err := v.readTable(c.Table)
	if err != nil || !equalTables(c.Table, t) {
		return errors.New(hookName(c) + " changed the game, which it cannot: only " + changingHooks + " can (its changes would be lost)")
	}
	return nil
}

// endRound is game.end_round(seat) (game false) and game.end_game(seat) (game true): the round or
// the game ends with seat winning through the ruleset's own end and scoring, once the hook returns.
func (v *vm) endRound(game bool) lua.LGFunction {
	fn := "end_round"
	if game {
		fn = "end_game"
	}
	return func(L *lua.LState) int {
		i := v.self(L)
		c := v.cur.call
		switch {
		case c.Hook != engine.HookAfter && c.Hook != engine.HookApply:
			L.RaiseError("game.%s works only in after_action or an action's apply, not in %s", fn, hookName(c))
		case c.Status.Phase != sdk.PhasePlaying:
			L.RaiseError("game.%s: the round is already over (game.phase is %q)", fn, c.Status.Phase)
		case !c.CanEnd:
			L.RaiseError("game.%s: ruleset %s cannot end a round for house rules (it does not implement sdk.Ender)", fn, c.Ruleset)
		case v.cur.end != nil:
			L.RaiseError("game.%s: this hook has already ended the round", fn)
		}
		n, ok := L.Get(i).(lua.LNumber)
		if !ok || !isInt(n) || int(n) < 0 || int(n) >= c.Status.Seats {
			L.RaiseError("game.%s(seat): the winner must be a seat from 0 to %d, not %s", fn, c.Status.Seats-1, describeValue(L.Get(i)))
		}
		v.cur.end = &sdk.EndRequest{Winner: int(n), Game: game}
		return 0
	}
}

// hookName names a call's hook for messages: "before_action", "actions.swap.open", "answers.may_play".
func hookName(c *engine.HookCall) string { return engine.HookTrace{Hook: c.Hook, Name: c.Name}.Where() }

// luaKey shows a table key as a script writes it.
func luaKey(k lua.LValue) string {
	if s, ok := k.(lua.LString); ok {
		return "\"" + string(s) + "\""
	}
	return k.String()
}

// describeValue shows a value in a message: strings quoted, tables and functions by type.
func describeValue(val lua.LValue) string {
	switch x := val.(type) {
	case lua.LString:
		return "\"" + string(x) + "\""
	case lua.LNumber, lua.LBool:
		return x.String()
	case *lua.LNilType:
		return "nil"
	}
	return "a " + val.Type().String()
}
