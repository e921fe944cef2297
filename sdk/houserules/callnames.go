package houserules

import (
	"reflect"
	"slices"
	"strings"

	"github.com/yuin/gopher-lua/ast"
)

// gopher-lua says only "attempt to call a non-function object"; the script's own calls on the
// failing line say which function it was.
const callError = "attempt to call a non-function object"

// callNames maps each line of a parsed script to the functions its calls there name, as written:
// "foo", "game.nope", "g:nope". It walks the syntax tree by reflection (gopher-lua has no walker).
func callNames(chunk []ast.Stmt) map[int][]string {
	out := map[int][]string{}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Pointer:
			if v.IsNil() {
				return
			}
			if c, ok := v.Interface().(*ast.FuncCallExpr); ok {
				if name := calleeName(c); name != "" && !slices.Contains(out[c.Line()], name) {
					out[c.Line()] = append(out[c.Line()], name)
				}
			}
			walk(v.Elem())
		case reflect.Struct:
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		case reflect.Slice:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(chunk))
	return out
}

// calleeName is the name a call gives what it calls ("" for an expression with no name).
func calleeName(c *ast.FuncCallExpr) string {
	if c.Receiver != nil {
		if r := exprName(c.Receiver); r != "" {
			return r + ":" + c.Method
		}
		return ""
	}
	return exprName(c.Func)
}

func exprName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.IdentExpr:
		return x.Value
	case *ast.AttrGetExpr:
		obj := exprName(x.Object)
		if obj == "" {
			return ""
		}
		if k, ok := x.Key.(*ast.StringExpr); ok {
			return obj + "." + k.Value
		}
		return obj + "[...]"
	}
	return ""
}

// explainCall names the callee of a failed call on line, when the script's calls there say.
func (sc *script) explainCall(line int, msg string) string {
	if sc == nil || line <= 0 || !strings.HasPrefix(msg, callError) {
		return msg
	}
	switch names := sc.calls[line]; len(names) {
	case 0:
		return msg
	case 1:
		return "attempt to call " + names[0] + ", which is not a function (misspelt, or nil?)"
	default:
		return "attempt to call something that is not a function (this line calls " + strings.Join(names, ", ") + ")"
	}
}
