package rulesets_test

import (
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoRulingInPlayerWords: no string of a ruleset's code (its refusals' reasons, its texts)
// holds a ruling id: a refusal names the ruling it applies in sdk.RuleError.Ruling
// (sdk.RefuseUnder), apart from the reason players read, so that no client parses ids out of it.
func TestNoRulingInPlayerWords(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*/*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var s scanner.Scanner
		fset := token.NewFileSet()
		s.Init(fset.AddFile(path, fset.Base(), len(src)), src, nil, 0)
		for {
			pos, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			if tok != token.STRING {
				continue
			}
			for _, m := range citedRuling.FindAllStringSubmatch(lit, -1) {
				if lit == `"`+m[1]+`"` {
					continue // the id alone: a RefuseUnder's ruling
				}
				t.Errorf("%s: the string %s holds the ruling id %s: give it to sdk.RefuseUnder (RuleError.Ruling), not the words", fset.Position(pos), lit, m[1])
			}
		}
	}
}
