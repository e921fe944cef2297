package houserules

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"

	"github.com/agnivade/levenshtein"
	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"
)

// MaxSourceBytes caps a script's size: house rules are short, and the source travels in every
// stored game state that uses it.
const MaxSourceBytes = 64 << 10

// script is a compiled house rule: its shared FunctionProto and what it declares.
type script struct {
	proto *lua.FunctionProto
	info  engine.HouseRuleInfo
	// actions maps an action name to its declaration.
	actions map[string]engine.HouseAction
	// calls are the names the script's calls give their functions, by line (explainCall).
	calls map[int][]string
	err   *Error
	// transient marks a failure that says nothing about the script (the caller gave up): not cached.
	transient bool
}

var (
	ruleName   = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,39}$`)
	actionName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,31}$`)
)

// genericHooks are the global functions a script may define, in the order the docs list them.
var genericHooks = []string{engine.HookStart, engine.HookBefore, engine.HookAfter, engine.HookRoundEnd}

// reservedActions are the action types the SDK and the built-in rulesets use.
var reservedActions = []string{sdk.ActPlay, sdk.ActDraw, sdk.ActPass, sdk.ActCall, sdk.ActCatch,
	sdk.ActPickup, sdk.ActFlip, sdk.ActGift, sdk.ActDeal, sdk.ActDeadline}

// compile parses and compiles source, runs its top level in the sandbox and reads its declarations.
func (r *Runner) compile(ctx context.Context, source string) *script {
	bad := func(line int, format string, args ...any) *script {
		return &script{err: &Error{Line: line, Msg: fmt.Sprintf(format, args...)}}
	}
	if len(source) > MaxSourceBytes {
		return bad(0, "the script is %d bytes, over the %d KiB limit", len(source), MaxSourceBytes>>10)
	}
	chunk, err := parse.Parse(strings.NewReader(source), chunkName)
	if err != nil {
		line, msg := splitLuaError(err)
		if at, bracket, ok := unclosedBracket(source, line); ok {
			return bad(at, "%s", bracketMessage(bracket, at, msg, line))
		}
		return bad(line, "%s", msg)
	}
	proto, err := lua.Compile(chunk, chunkName)
	if err != nil {
		line, msg := splitLuaError(err)
		return bad(line, "%s", msg)
	}
	sc := &script{proto: proto, calls: callNames(chunk)}
	v := r.pool.Get().(*vm)
	v.sc = sc
	defer func() { v.sc = nil }()
	defer func() {
		if p := recover(); p != nil {
			sc.err = &Error{Msg: fmt.Sprintf("crashed the script engine while loading: %v", p)}
			v.L.Close()
			return
		}
		if sc.err == nil {
			r.pool.Put(v)
		} else {
			v.L.Close()
		}
	}()
	cctx, cancel := r.budget(ctx)
	defer cancel()
	v.L.SetContext(cctx)
	defer v.L.RemoveContext()
	rng := sdk.NewRNG(0)
	v.cur = &callState{call: &engine.HookCall{}, seat: sdk.NoSeat, rng: &rng}
	defer func() { v.cur = nil }()
	env, err := v.load(sc)
	if err != nil {
		c := &engine.HookCall{Hook: ""}
		e := v.fail(ctx, cctx, c, err)
		var he *Error
		if !errors.As(e, &he) {
			return &script{err: &Error{Msg: e.Error()}, transient: true}
		}
		sc.err = he
		return sc
	}
	if e := sc.declare(env); e != nil {
		sc.err = e
	}
	return sc
}

// declare reads and checks the script's declarations from its globals after the top level ran.
func (sc *script) declare(env *lua.LTable) *Error {
	bad := func(format string, args ...any) *Error { return &Error{Msg: fmt.Sprintf(format, args...)} }
	info := &sc.info
	name, ok := env.RawGetString("name").(lua.LString)
	if ok && !ruleName.MatchString(string(name)) {
		return bad("name %q is not a short lower-case name (letters, digits, - and _; up to 40), as name = \"seven-zero\"", string(name))
	}
	if !ok {
		return bad("the script must set name to a short lower-case name (letters, digits, - and _; up to 40), as name = \"seven-zero\"")
	}
	info.Name = string(name)
	desc, ok := env.RawGetString("description").(lua.LString)
	if !ok || strings.TrimSpace(string(desc)) == "" || len(desc) > 1000 {
		return bad("the script must set description to a sentence saying what the rule does (up to 1000 bytes)")
	}
	info.Description = strings.TrimSpace(string(desc))
	opts, e := declareOptions(env.RawGetString("options"))
	if e != nil {
		return e
	}
	info.Options = opts

	for _, h := range genericHooks {
		switch fn := env.RawGetString(h).(type) {
		case *lua.LFunction:
			info.Hooks = append(info.Hooks, h)
		case *lua.LNilType:
		default:
			return bad("%s must be a function, not a %s", h, fn.Type())
		}
	}
	// A misspelt hook would silently never run: refuse functions that look like hooks but are not,
	// naming the line of the first and the hook it most resembles.
	type strayFn struct {
		name string
		line int
	}
	var stray []strayFn
	env.ForEach(func(k, val lua.LValue) {
		ks, isStr := k.(lua.LString)
		fn, isFn := val.(*lua.LFunction)
		if !isStr || !isFn || slices.Contains(genericHooks, string(ks)) {
			return
		}
		if looksLikeHook(string(ks)) {
			line := 0
			if fn.Proto != nil {
				line = fn.Proto.LineDefined
			}
			stray = append(stray, strayFn{string(ks), line})
		}
	})
	if len(stray) > 0 {
		slices.SortFunc(stray, func(a, b strayFn) int { return cmp.Or(a.line-b.line, strings.Compare(a.name, b.name)) })
		names := make([]string, len(stray))
		for i, f := range stray {
			names[i] = f.name
		}
		e := bad("%s looks like a hook but is not one (hooks are %s); rename it if it is a helper", strings.Join(names, ", "), strings.Join(genericHooks, ", "))
		if hook := nearestHook(stray[0].name); hook != "" {
			e.Msg = fmt.Sprintf("%s looks like a hook but is not one: did you mean %s? (hooks are %s; rename it if it is a helper)", strings.Join(names, ", "), hook, strings.Join(genericHooks, ", "))
		}
		e.Line = stray[0].line
		return e
	}

	switch ans := env.RawGetString("answers").(type) {
	case *lua.LNilType:
	case *lua.LTable:
		var err *Error
		ans.ForEach(func(k, val lua.LValue) {
			ks, ok := k.(lua.LString)
			if _, isFn := val.(*lua.LFunction); err == nil && (!ok || !isFn) {
				err = bad("answers must map question names to functions; %v is a %s", k, val.Type())
				return
			}
			info.Answers = append(info.Answers, string(ks))
		})
		if err != nil {
			return err
		}
		sort.Strings(info.Answers)
	default:
		return bad("answers must be a table of functions, not a %s", ans.Type())
	}

	sc.actions = map[string]engine.HouseAction{}
	switch acts := env.RawGetString("actions").(type) {
	case *lua.LNilType:
	case *lua.LTable:
		var err *Error
		acts.ForEach(func(k, val lua.LValue) {
			if err != nil {
				return
			}
			var a engine.HouseAction
			a, err = declareAction(k, val)
			if err == nil {
				sc.actions[a.Name] = a
				info.Actions = append(info.Actions, a)
			}
		})
		if err != nil {
			return err
		}
		slices.SortFunc(info.Actions, func(a, b engine.HouseAction) int { return strings.Compare(a.Name, b.Name) })
	default:
		return bad("actions must be a table, not a %s", acts.Type())
	}
	if len(info.Hooks) == 0 && len(info.Answers) == 0 && len(info.Actions) == 0 {
		return bad("the script defines no hook, answer or action, so it would change nothing (hooks are %s)", strings.Join(genericHooks, ", "))
	}
	return nil
}

func declareAction(k, val lua.LValue) (engine.HouseAction, *Error) {
	bad := func(format string, args ...any) (engine.HouseAction, *Error) {
		return engine.HouseAction{}, &Error{Msg: fmt.Sprintf(format, args...)}
	}
	ks, ok := k.(lua.LString)
	if !ok || !actionName.MatchString(string(ks)) {
		return bad("action name %v must be lower-case letters, digits and _ (up to 32)", k)
	}
	name := string(ks)
	if slices.Contains(reservedActions, name) {
		return bad("action %q: the name is taken by the rulesets' own actions (%s)", name, strings.Join(reservedActions, ", "))
	}
	t, ok := val.(*lua.LTable)
	if !ok {
		return bad("action %q must be a table with label, open and apply", name)
	}
	a := engine.HouseAction{Name: name}
	label, ok := t.RawGetString("label").(lua.LString)
	if !ok || label == "" || len(label) > 80 {
		return bad("action %q needs a label of up to 80 bytes, shown on its button", name)
	}
	a.Label = string(label)
	for _, fn := range []string{"open", "apply"} {
		if _, ok := t.RawGetString(fn).(*lua.LFunction); !ok {
			return bad("action %q needs a function %s", name, fn)
		}
	}
	switch b := t.RawGetString("bot").(type) {
	case *lua.LFunction:
		a.Bot = true
	case *lua.LNilType:
	default:
		return bad("action %q: bot must be a function, not a %s", name, b.Type())
	}
	switch b := t.RawGetString("blocking").(type) {
	case lua.LBool:
		a.Blocking = bool(b)
	case *lua.LNilType:
	default:
		return bad("action %q: blocking must be true or false", name)
	}
	return a, nil
}

// declareOptions reads `options = { {name = ..., type = ..., default = ...}, ... }` and checks it
// as sdk.ValidateOptions will use it: every default must be valid.
func declareOptions(v lua.LValue) ([]sdk.Option, *Error) {
	bad := func(format string, args ...any) ([]sdk.Option, *Error) {
		return nil, &Error{Msg: fmt.Sprintf(format, args...)}
	}
	if v == lua.LNil {
		return nil, nil
	}
	t, ok := v.(*lua.LTable)
	if !ok {
		return bad("options must be a list of tables, not a %s", v.Type())
	}
	var out []sdk.Option
	seen := map[string]bool{}
	for i := 1; i <= t.Len(); i++ {
		ot, ok := t.RawGetInt(i).(*lua.LTable)
		if !ok {
			return bad("options[%d] must be a table with name, type and default", i)
		}
		str := func(k string) string {
			s, _ := ot.RawGetString(k).(lua.LString)
			return string(s)
		}
		o := sdk.Option{Name: str("name"), Label: str("label"), Description: str("description"), Type: sdk.OptionType(str("type"))}
		if !actionName.MatchString(o.Name) || seen[o.Name] {
			return bad("options[%d]: name must be a unique lower-case name (letters, digits, _)", i)
		}
		seen[o.Name] = true
		if o.Label == "" {
			o.Label = o.Name
		}
		switch o.Type {
		case sdk.OptionInt:
			if mn, ok := ot.RawGetString("min").(lua.LNumber); ok {
				o.Min = int(mn)
			}
			if mx, ok := ot.RawGetString("max").(lua.LNumber); ok {
				o.Max = int(mx)
			}
		case sdk.OptionBool:
		case sdk.OptionChoice:
			ch, ok := ot.RawGetString("choices").(*lua.LTable)
			if !ok || ch.Len() == 0 {
				return bad("option %q: a choice needs choices = {\"a\", \"b\", ...}", o.Name)
			}
			for j := 1; j <= ch.Len(); j++ {
				s, ok := ch.RawGetInt(j).(lua.LString)
				if !ok {
					return bad("option %q: choices must be strings", o.Name)
				}
				o.Choices = append(o.Choices, string(s))
			}
		default:
			return bad("option %q: type must be \"int\", \"bool\" or \"choice\", got %q", o.Name, o.Type)
		}
		def := ot.RawGetString("default")
		if def == lua.LNil {
			return bad("option %q needs a default", o.Name)
		}
		norm, err := sdk.ValidateOptions([]sdk.Option{o}, map[string]any{o.Name: fromLua(def)})
		if err != nil {
			return bad("option %q: default: %v", o.Name, err)
		}
		o.Default = norm[o.Name]
		out = append(out, o)
	}
	return out, nil
}

// fromLua converts a scalar Lua value to Go (numbers as float64); tables and functions become nil.
func fromLua(v lua.LValue) any {
	switch x := v.(type) {
	case lua.LBool:
		return bool(x)
	case lua.LNumber:
		return float64(x)
	case lua.LString:
		return string(x)
	}
	return nil
}

// looksLikeHook reports whether a global function's name looks meant as a hook: it starts as the
// hooks do, or is a few letters from one.
func looksLikeHook(name string) bool {
	for _, p := range []string{"on_", "before_", "after_"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return nearestHook(name) != ""
}

// nearestHook is the hook a name is a misspelling of (at most two edits, or three for a long
// name), or "" when it resembles none.
func nearestHook(name string) string {
	best, bestD := "", 0
	for _, h := range genericHooks {
		d := levenshtein.ComputeDistance(strings.ToLower(name), h)
		if d <= max(2, len(h)/4) && (best == "" || d < bestD) {
			best, bestD = h, d
		}
	}
	return best
}
