package viewpatch

import (
	"errors"
	"fmt"
)

// A small JSON scanner: the patch is computed from the views' bytes as the ruleset wrote them,
// comparing raw values, so that nothing is decoded into maps (decoding two 1.7 KB views per seat
// per action with encoding/json cost more than the whole patch saves the room).

// member is one "key": value of an object, both raw (key without its quotes, escapes as written).
type member struct {
	key, val []byte
}

var errSyntax = errors.New("malformed JSON")

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at b[i] (a quote).
func skipString(b []byte, i int) (int, error) {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1, nil
		}
	}
	return 0, errSyntax
}

// skipValue returns the index after the value starting at b[i] (white space skipped first).
func skipValue(b []byte, i int) (int, error) {
	i = skipSpace(b, i)
	if i >= len(b) {
		return 0, errSyntax
	}
	switch c := b[i]; {
	case c == '"':
		return skipString(b, i)
	case c == '{' || c == '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				j, err := skipString(b, i)
				if err != nil {
					return 0, err
				}
				i = j - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, nil
				}
			}
		}
		return 0, errSyntax
	default:
		j := i
		for j < len(b) && (b[j] == '-' || b[j] == '+' || b[j] == '.' || b[j] >= '0' && b[j] <= '9' || b[j] >= 'a' && b[j] <= 'z' || b[j] >= 'A' && b[j] <= 'Z') {
			j++
		}
		if j == i {
			return 0, fmt.Errorf("%w: unexpected %q", errSyntax, c)
		}
		return j, nil
	}
}

// members appends the members of the object b to into.
func members(into []member, b []byte) ([]member, error) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, fmt.Errorf("%w: want an object", errSyntax)
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return into, nil
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return nil, fmt.Errorf("%w: want a key", errSyntax)
		}
		end, err := skipString(b, i)
		if err != nil {
			return nil, err
		}
		key := b[i+1 : end-1]
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return nil, fmt.Errorf("%w: want a colon", errSyntax)
		}
		start := skipSpace(b, i+1)
		end, err = skipValue(b, start)
		if err != nil {
			return nil, err
		}
		into = append(into, member{key: key, val: b[start:end]})
		i = skipSpace(b, end)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
			continue
		}
		if i < len(b) && b[i] == '}' {
			return into, nil
		}
		return nil, fmt.Errorf("%w: want a comma or a closing brace", errSyntax)
	}
}

// elements appends the elements of the array b to into.
func elements(into [][]byte, b []byte) ([][]byte, error) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return nil, fmt.Errorf("%w: want an array", errSyntax)
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return into, nil
	}
	for {
		start := i
		end, err := skipValue(b, start)
		if err != nil {
			return nil, err
		}
		into = append(into, b[start:end])
		i = skipSpace(b, end)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
			continue
		}
		if i < len(b) && b[i] == ']' {
			return into, nil
		}
		return nil, fmt.Errorf("%w: want a comma or a closing bracket", errSyntax)
	}
}

func isObject(v []byte) bool { return len(v) > 0 && v[0] == '{' }
func isArray(v []byte) bool  { return len(v) > 0 && v[0] == '[' }
func isNull(v []byte) bool   { return string(v) == "null" }

func find(ms []member, key []byte) ([]byte, bool) {
	for _, m := range ms {
		if string(m.key) == string(key) {
			return m.val, true
		}
	}
	return nil, false
}
