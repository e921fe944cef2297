package houserules

import (
	"fmt"
	"strings"

	"github.com/yuin/gopher-lua/parse"
)

// closers pairs each bracket with the one that closes it.
var closers = map[int]int{'(': ')', '[': ']', '{': '}'}

// unclosedBracket finds a bracket that a syntax error is really about: one still open when a
// statement keyword (end, local, if, return...) or the end of the script comes, or closed by the
// wrong bracket. Lua's parser names the token where it gave up (often the `end` on the next line);
// the bracket names the line to fix. It scans with gopher-lua's own scanner, so strings and
// comments are skipped as Lua skips them, and looks no further than the error's line (errLine, 0 for
// the end of the script). ok is false when no bracket explains the error.
func unclosedBracket(source string, errLine int) (line int, bracket string, ok bool) {
	sc := parse.NewScanner(strings.NewReader(source), chunkName)
	lx := &parse.Lexer{}
	// stack holds the open brackets and, as 0, the open blocks: a bracket may hold a function
	// (an anonymous one), and its body statements.
	type open struct{ tok, line int }
	var stack []open
	bracketOnTop := func() (open, bool) {
		if len(stack) == 0 || stack[len(stack)-1].tok == 0 {
			return open{}, false
		}
		return stack[len(stack)-1], true
	}
	found := func(o open) (int, string, bool) { return o.line, string(rune(o.tok)), true }
	for {
		tok, err := sc.Scan(lx)
		if err != nil {
			return 0, "", false // a malformed string or number: the parser's message says so
		}
		lx.PrevTokenType = tok.Type
		if tok.Type == parse.EOF {
			if o, on := bracketOnTop(); on {
				return found(o)
			}
			return 0, "", false
		}
		if errLine > 0 && tok.Pos.Line > errLine {
			return 0, "", false
		}
		switch tok.Type {
		case '(', '[', '{':
			stack = append(stack, open{tok: tok.Type, line: tok.Pos.Line})
		case ')', ']', '}':
			o, on := bracketOnTop()
			if !on {
				return 0, "", false
			}
			if closers[o.tok] != tok.Type {
				return found(o)
			}
			stack = stack[:len(stack)-1]
		case parse.TFunction, parse.TIf, parse.TDo, parse.TRepeat:
			if o, on := bracketOnTop(); on && tok.Type != parse.TFunction {
				return found(o)
			}
			stack = append(stack, open{line: tok.Pos.Line})
		case parse.TEnd, parse.TUntil:
			if o, on := bracketOnTop(); on {
				return found(o)
			}
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case parse.TLocal, parse.TReturn, parse.TFor, parse.TWhile, parse.TThen, parse.TElse, parse.TElseIf, parse.TBreak, parse.TIn:
			if o, on := bracketOnTop(); on {
				return found(o)
			}
		}
	}
}

// bracketMessage words a syntax error whose cause is an unclosed bracket: msg is the parser's
// message as splitLuaError left it ("syntax error near 'end'"), errLine its line (0 at the end).
func bracketMessage(bracket string, line int, msg string, errLine int) string {
	out := fmt.Sprintf("syntax error: the bracket %s opened here is never closed (a %s is missing)", bracket, string(rune(closers[int(bracket[0])])))
	near := strings.TrimSpace(strings.TrimPrefix(msg, "syntax error"))
	switch {
	case errLine > line && strings.HasPrefix(near, "near "):
		out += fmt.Sprintf("; Lua noticed only %s on line %d", near, errLine)
	case errLine == 0:
		out += "; Lua noticed only at the end of the script"
	}
	return out
}
