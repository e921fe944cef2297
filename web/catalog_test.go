package web_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// tCall is a t("...") call with a literal text, and every literal of a conditional inside one
// (t(led ? "{name} led: {card}" : "{name}: {card}", ...)).
var (
	tCall     = regexp.MustCompile(`(?:^|[^\w.$])t\(\s*((?:"(?:[^"\\]|\\.)*"|[^"()])*?)(?:,\s*\{|\))`)
	literal   = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	holeRE    = regexp.MustCompile(`\{\w+(?::\w+)?\}`)
	i18nAttrs = regexp.MustCompile(`data-i18n[^>]*>([^<]+)<`)
)

// clientTexts lists the English texts the client's code puts through t() (houserules.js aside:
// the modder branch converts it), and the texts of the static pages marked data-i18n.
func clientTexts(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	files, _ := filepath.Glob("static/js/*.js")
	for _, f := range files {
		if filepath.Base(f) == "houserules.js" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range tCall.FindAllStringSubmatch(string(b), -1) {
			for _, lit := range literal.FindAllString(m[1], -1) {
				s, err := strconv.Unquote(lit)
				if err != nil {
					t.Fatalf("%s: %s: %v", f, lit, err)
				}
				if s != "" {
					out[s] = filepath.Base(f)
				}
			}
		}
	}
	pages, _ := filepath.Glob("static/*.html")
	for _, f := range pages {
		b, _ := os.ReadFile(f)
		for _, m := range i18nAttrs.FindAllStringSubmatch(string(b), -1) {
			out[m[1]] = filepath.Base(f)
		}
	}
	return out
}

func readCatalog(t *testing.T, id string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("static", "i18n", id+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]any
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatalf("i18n/%s.json: %v", id, err)
	}
	return c
}

func holes(s string) []string {
	h := holeRE.FindAllString(s, -1)
	sort.Strings(h)
	return slices.Compact(h)
}

// TestFrenchCatalogComplete: every English text the client's code puts through t() with a
// literal has its French in i18n/fr.json with the same placeholders, a plural its "one" and
// "other" forms; and en.json's plurals keep their key's placeholders. (The texts built from
// tables of English words are checked in the browser: TestFrenchEverywhere.)
func TestFrenchCatalogComplete(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	texts := clientTexts(t)
	if len(texts) < 200 {
		t.Fatalf("found only %d texts through t(): the scan is broken", len(texts))
	}
	fr := readCatalog(t, "fr")
	en := readCatalog(t, "en")
	for s, where := range texts {
		v, ok := fr[s]
		if !ok {
			t.Errorf("%s: no French for %q", where, s)
			continue
		}
		forms := map[string]any{"": v}
		if m, isPlural := v.(map[string]any); isPlural {
			forms = m
			for _, need := range []string{"one", "other"} {
				if _, ok := m[need]; !ok {
					t.Errorf("%q: the French plural has no %q form", s, need)
				}
			}
		}
		for form, tr := range forms {
			str, _ := tr.(string)
			// A form may leave the count out ("une carte"), never add a placeholder.
			for _, h := range holes(str) {
				if !slices.Contains(holes(s), h) {
					t.Errorf("%q %s: the French %q has %s, which the English has not", s, form, str, h)
				}
			}
		}
	}
	for k, v := range en {
		m, ok := v.(map[string]any)
		if !ok {
			continue
		}
		for form, tr := range m {
			// A form may leave the count out ("a bot will take the empty seat"), nothing else.
			str, _ := tr.(string)
			got, want := holes(str), holes(k)
			if !strings.Contains(str, "{count}") {
				want = slices.DeleteFunc(want, func(h string) bool { return h == "{count}" })
			}
			if !slices.Equal(got, want) {
				t.Errorf("en.json %q %s: %q changes the placeholders", k, form, str)
			}
		}
	}
	t.Logf("%d texts through t(), %d French entries", len(texts), len(fr))
}
