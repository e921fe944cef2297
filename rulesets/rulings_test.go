package rulesets_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// rulingsDir holds the pages that define every ruling id (docs/rulings/README.md), relative to the
// repository's root.
const rulingsDir = "docs/rulings"

// citedRuling finds a ruling id as the repository cites it: one of the exact prefixes (H Hotspot,
// D DRUGS, L Last Card, P the platform, HE Hearts, SP Spades, GR Gin Rummy), a hyphen and a number,
// as a whole word. The group before it keeps a hyphenated word's tail out ("X-D-1"); word
// boundaries keep "UTF-8", "HE-AAC", "HS-1" (a package's own ruling) and dates out by themselves.
var citedRuling = regexp.MustCompile(`(?:^|[^\w-])((?:HE|SP|GR|H|D|L|P)-\d+)\b`)

// definedRuling is a ruling's definition in its page: a list item that starts its line with the id.
var definedRuling = regexp.MustCompile(`^- ((?:HE|SP|GR|H|D|L|P)-(\d+)) `)

// notRulings are words of the ruling form that mean something else where they appear: the NIST
// curves.
var notRulings = map[string]bool{"P-224": true, "P-256": true, "P-384": true, "P-521": true}

// TestRulingsCitedAreDefined walks the repository's text files (git's tracked ones, and new ones
// not ignored) and fails, naming file and line, on any ruling id that no page of docs/rulings
// defines: the repository explains every id it cites.
func TestRulingsCitedAreDefined(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..")
	defined, err := rulingDefinitions(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(defined) == 0 {
		t.Fatalf("%s defines no ruling id: want a list item \"- X-n ...\" per ruling", rulingsDir)
	}
	files, err := repoTextFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	var cited, undefined int
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			if os.IsNotExist(err) {
				continue // deleted in the work tree, not yet in git
			}
			t.Fatal(err)
		}
		if isBinary(data) {
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 0, 64*1024), len(data)+1)
		for line := 1; sc.Scan(); line++ {
			for _, m := range citedRuling.FindAllStringSubmatch(sc.Text(), -1) {
				id := m[1]
				if notRulings[id] {
					continue
				}
				cited++
				if _, ok := defined[id]; !ok {
					undefined++
					t.Errorf("%s:%d: ruling %s is cited but no page of %s defines it (%s)",
						f, line, id, rulingsDir, rangesOf(defined, prefixOf(id)))
				}
			}
		}
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	t.Logf("%d files, %d citations of %d defined ids, %d undefined", len(files), cited, len(defined), undefined)
}

// TestRulingsDefinedOnce: every id is defined once in all of docs/rulings, each page defines the
// ids of one prefix, and a prefix's ids run from 1 with no gap (a ruling that no longer holds says
// so; its id does not disappear).
func TestRulingsDefinedOnce(t *testing.T) {
	t.Parallel()
	pages, err := filepath.Glob(filepath.Join("..", rulingsDir, "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	where := map[string]string{} // id -> page:line of its first definition
	nums := map[string][]int{}   // prefix -> its numbers
	for _, page := range pages {
		defs, err := pageDefinitions(page)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.ToSlash(filepath.Join(rulingsDir, filepath.Base(page)))
		prefixes := map[string]bool{}
		for _, d := range defs {
			at := fmt.Sprintf("%s:%d", name, d.line)
			if first, ok := where[d.id]; ok {
				t.Errorf("%s: ruling %s is defined again (first at %s)", at, d.id, first)
				continue
			}
			where[d.id] = at
			p := prefixOf(d.id)
			prefixes[p] = true
			nums[p] = append(nums[p], d.num)
		}
		if len(prefixes) > 1 {
			t.Errorf("%s defines the ids of several prefixes (%s): want one page per prefix", name, strings.Join(sortedKeys(prefixes), ", "))
		}
	}
	for _, p := range sortedKeys(nums) {
		ns := nums[p]
		sort.Ints(ns)
		for i, n := range ns {
			if n != i+1 {
				t.Errorf("the %s- rulings skip %s-%d: want them numbered from 1 with no gap, got %v", p, p, i+1, ns)
				break
			}
		}
	}
}

// definition is one ruling id defined in a page.
type definition struct {
	id   string
	num  int
	line int
}

func pageDefinitions(path string) ([]definition, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []definition
	for i, l := range strings.Split(string(data), "\n") {
		if m := definedRuling.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[2])
			out = append(out, definition{id: m[1], num: n, line: i + 1})
		}
	}
	return out, nil
}

// rulingDefinitions reads every page of docs/rulings: the ids they define.
func rulingDefinitions(root string) (map[string]bool, error) {
	pages, err := filepath.Glob(filepath.Join(root, rulingsDir, "*.md"))
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, page := range pages {
		defs, err := pageDefinitions(page)
		if err != nil {
			return nil, err
		}
		for _, d := range defs {
			out[d.id] = true
		}
	}
	return out, nil
}

// repoTextFiles lists the repository's files, slash-separated and relative to root: git's tracked
// files and the untracked ones it does not ignore, or, where git cannot say (an exported tree),
// a walk that skips what .gitignore names for the build and runtime outputs.
func repoTextFiles(root string) ([]string, error) {
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	if out, err := cmd.Output(); err == nil {
		var files []string
		seen := map[string]bool{}
		for _, f := range strings.Split(string(out), "\x00") {
			if f != "" && !seen[f] {
				seen[f] = true
				files = append(files, f)
			}
		}
		return files, nil
	}
	skip := map[string]bool{".git": true, "node_modules": true, "bin": true, "dist": true, "data": true, "out": true}
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && skip[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	return files, err
}

// isBinary reports a file that is not text: a NUL byte in its first 8 KB, as git decides.
func isBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0
}

func prefixOf(id string) string { return id[:strings.IndexByte(id, '-')] }

// rangesOf says which ids of prefix are defined, for the failure message.
func rangesOf(defined map[string]bool, prefix string) string {
	var ns []int
	for id := range defined {
		if prefixOf(id) == prefix {
			n, _ := strconv.Atoi(id[len(prefix)+1:])
			ns = append(ns, n)
		}
	}
	if len(ns) == 0 {
		return "no " + prefix + "- ruling is defined"
	}
	sort.Ints(ns)
	return fmt.Sprintf("%s- rulings defined: %s-%d to %s-%d", prefix, prefix, ns[0], prefix, ns[len(ns)-1])
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
