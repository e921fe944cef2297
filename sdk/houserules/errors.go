package houserules

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"

	lua "github.com/yuin/gopher-lua"
)

// chunkName is the name scripts are compiled under; Lua prefixes error positions with it, and
// splitLuaError takes it off again.
const chunkName = "script"

// Error is a house rule that failed: it did not compile, declared something wrong, raised an
// error, overran its budget or handed back what cannot be read. Error() reads
// `house rule "seven-zero" v3: line 12: attempt to index a nil value (in after_action)`.
type Error struct {
	Rule    string
	Version int
	// Hook is the hook that failed ("" while loading).
	Hook string
	// Line is the script line, 0 when unknown.
	Line int
	Msg  string
}

// RuleName is the rule's name (engine.RuleFailure).
func (e *Error) RuleName() string { return e.Rule }

var _ engine.RuleFailure = (*Error)(nil)

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "house rule %q", e.Rule)
	if e.Version > 0 {
		fmt.Fprintf(&b, " v%d", e.Version)
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, ": line %d", e.Line)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	if e.Hook != "" {
		fmt.Fprintf(&b, " (in %s)", e.Hook)
	}
	return b.String()
}

// declaredName finds `name = "..."` in a source that may not compile, for messages.
var declaredName = regexp.MustCompile(`(?m)^\s*name\s*=\s*["']([a-z][a-z0-9_-]{0,39})["']`)

// named returns a copy of e naming the rule: its given name, else the one the source declares.
func (e *Error) named(rule sdk.HouseRule) *Error {
	c := *e
	c.Rule, c.Version = rule.Name, rule.Version
	if c.Rule == "" {
		if m := declaredName.FindStringSubmatch(rule.Source); m != nil {
			c.Rule = m[1]
		} else {
			c.Rule = "(unnamed)"
		}
	}
	return &c
}

var (
	luaPos    = regexp.MustCompile(`(?:^|\s)` + chunkName + `:(\d+):\s*`)
	syntaxPos = regexp.MustCompile(`line:(\d+)\(column:\d+\)`)
)

// splitLuaError finds the script line in a gopher-lua error and returns it with the message
// stripped of positions and tracebacks.
func splitLuaError(err error) (int, string) {
	msg := err.Error()
	var api *lua.ApiError
	if errors.As(err, &api) {
		if api.Object != nil {
			msg = api.Object.String()
		}
		if api.Type == lua.ApiErrorSyntax && api.Cause != nil {
			msg = api.Cause.Error()
		}
	}
	if i := strings.Index(msg, "\nstack traceback:"); i >= 0 {
		msg = msg[:i]
	}
	line := 0
	if m := luaPos.FindStringSubmatchIndex(msg); m != nil {
		line, _ = strconv.Atoi(msg[m[2]:m[3]])
		// The innermost position is the one that matters; drop every prefix up to it.
		for {
			m2 := luaPos.FindStringSubmatchIndex(msg)
			if m2 == nil {
				break
			}
			msg = msg[:m2[0]] + msg[m2[1]:]
		}
	} else if strings.Contains(msg, chunkName+" at EOF:") {
		msg = "syntax error at the end of the script (is an `end` or a bracket missing?)"
	} else if m := syntaxPos.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = strings.TrimSpace(syntaxPos.ReplaceAllString(msg, ""))
		msg = strings.TrimPrefix(msg, chunkName)
		msg = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(msg), "syntax error"))
		msg = strings.TrimSuffix(msg, ":")
		msg = "syntax error " + strings.Join(strings.Fields(msg), " ")
	}
	if len(msg) > 300 {
		msg = msg[:300] + "…"
	}
	return line, strings.TrimSpace(msg)
}

// ScriptLine is the script line the rule failed at (0 when unknown).
func (e *Error) ScriptLine() int { return e.Line }

// HouseFault is the failure's parts (engine.HouseFaulter): the engine hands them to the host
// with the refusal.
func (e *Error) HouseFault() sdk.HouseFault {
	return sdk.HouseFault{Rule: e.Rule, Version: e.Version, Hook: e.Hook, Line: e.Line, Message: e.Msg}
}

var _ engine.HouseFaulter = (*Error)(nil)

// lenError is gopher-lua's whole message for # on a value with no length.
const lenError = "__len undefined"

// explainLen says what a failed # means: gopher-lua says only "__len undefined".
func explainLen(msg string) string {
	if msg != lenError {
		return msg
	}
	return "attempt to get the length (#) of a value that is not a table or a string (nil? a misspelt zone or field?)"
}
