package rulesets_test

import (
	"bytes"
	"context"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"cardhouse/plugins/builtin"
)

// variantIDs are the built-in variants' ids, read from plugins/builtin (the one list of them).
func variantIDs(t *testing.T) []string {
	t.Helper()
	var ids []string
	for id, newEngine := range builtin.Engines() {
		d, err := newEngine().Describe(context.Background())
		if err != nil || d.ID != id {
			t.Fatalf("built-in variant %q: describe: %v, %+v", id, err, d)
		}
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// place is one word of code that names a variant: the file (slash path from the repository's
// root) and the word as written, which holds the variant's id (in any case).
type place struct {
	File, Word string
}

// suitNames are words that are a French suit's name: a variant whose id is one ("hearts",
// "spades") is not told from the suit by a word alone, so those words are not counted for it.
var suitNames = []string{"spades", "hearts", "diamonds", "clubs"}

// wordsWith returns the words of text (letters, digits, _, $ and -) that hold id, ignoring case.
func wordsWith(text, id string) []string {
	re := regexp.MustCompile(`(?i)[A-Za-z0-9_$-]*` + regexp.QuoteMeta(id) + `[A-Za-z0-9_$-]*`)
	var out []string
	for _, w := range re.FindAllString(text, -1) {
		if !slices.Contains(suitNames, strings.ToLower(w)) {
			out = append(out, w)
		}
	}
	return out
}

// goCode is the identifiers and literals of a Go file, comments left out.
func goCode(src []byte) string {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", fset.Base(), len(src)), src, nil, 0)
	var b strings.Builder
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return b.String()
		}
		if tok == token.IDENT || tok.IsLiteral() {
			b.WriteString(lit)
			b.WriteByte(' ')
		}
	}
}

// jsCode is a JavaScript file with its comments blanked: // to the end of the line and /* */,
// outside string and template literals (a regular expression literal holding a quote or // would
// confuse it; the client has none).
func jsCode(src []byte) string {
	var b strings.Builder
	var quote byte
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case quote != 0:
			if c == '\\' && i+1 < len(src) {
				b.WriteByte(c)
				i++
				c = src[i]
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			c = '\n'
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := bytes.Index(src[i+2:], []byte("*/"))
			if end < 0 {
				return b.String()
			}
			i += end + 3
			c = ' '
		}
		b.WriteByte(c)
	}
	return b.String()
}

// variantPlaces lists the places under the repository's sdk/ and web/static/js/ that name one of
// ids in code (comments are documentation and may name a variant as an example): Go files
// (tests, testdata and generated files left out) and JavaScript files, outside a folder named
// after the variant.
func variantPlaces(t *testing.T, root string, ids []string) map[place][]string {
	t.Helper()
	found := map[place][]string{}
	for _, dir := range []string{"sdk", "web/static/js"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			rel = filepath.ToSlash(rel)
			if d.IsDir() {
				if d.Name() == "testdata" {
					return filepath.SkipDir
				}
				return nil
			}
			var code string
			switch {
			case strings.HasSuffix(rel, "_test.go"):
				return nil
			case strings.HasSuffix(rel, ".go"):
				src, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				if generated.Match(src) {
					return nil
				}
				code = goCode(src)
			case strings.HasSuffix(rel, ".js"):
				src, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				code = jsCode(src)
			default:
				return nil
			}
			for _, id := range ids {
				if slices.Contains(strings.Split(rel, "/"), id) {
					continue // the variant's own folder
				}
				for _, w := range wordsWith(code, id) {
					p := place{rel, w}
					if !slices.Contains(found[p], id) {
						found[p] = append(found[p], id)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return found
}

// generated is Go's marker of a generated file.
var generated = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)

// TestNoVariantInSDKOrClient: no built-in variant's id (plugins/builtin) appears in the code of
// sdk/ or web/static/js/ outside the variant's own folders, tests and generated files (issue 28:
// a variant needs no code in the SDK or the client). Words that are a suit's name are not counted
// (see suitNames), so the check is blind to "hearts" and "spades" as ids.
func TestNoVariantInSDKOrClient(t *testing.T) {
	for p, ids := range variantPlaces(t, "..", variantIDs(t)) {
		t.Errorf("%s names the variant %s in code (%q): the sdk and the client know no variant; move it into the variant (its Info, its views)", p.File, strings.Join(ids, ", "), p.Word)
	}
}

// TestVariantWords: the scan counts code (identifiers, string literals) and skips comments and
// suit names.
func TestVariantWords(t *testing.T) {
	goSrc := "package x\n// lastcard in a comment\nvar a = \"lastcard\" /* hotspot */\nfunc IsLastCard() {}\nvar Hearts = 1\n"
	jsSrc := "// lastcard\nconst a = \"x // lastcard\"; /* hotspot */ const b = 'Hot' + `spot ${Hotspot}`;\nconst S = { H: \"hearts\" };\n"
	for _, c := range []struct {
		name, code, id string
		want           []string
	}{
		{"go", goCode([]byte(goSrc)), "lastcard", []string{"lastcard", "IsLastCard"}},
		{"go comment", goCode([]byte(goSrc)), "hotspot", nil},
		{"go suit", goCode([]byte(goSrc)), "hearts", nil},
		{"js string", jsCode([]byte(jsSrc)), "lastcard", []string{"lastcard"}},
		{"js template", jsCode([]byte(jsSrc)), "hotspot", []string{"Hotspot"}},
		{"js suit", jsCode([]byte(jsSrc)), "hearts", nil},
	} {
		if got := wordsWith(c.code, c.id); !slices.Equal(got, c.want) {
			t.Errorf("%s: words with %s = %q, want %q", c.name, c.id, got, c.want)
		}
	}
}
