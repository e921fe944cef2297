// Package rulesets_test enforces every boundary of DESIGN.md's folder table with `go list`:
// rulesets are pure (they import the sdk and its pure sub-packages only), the sdk depends on no
// platform, ruleset, admin or plugin package, the server reaches variants and house rules only
// through plugins (no ruleset, no gopher-lua), and the admin area reaches plugins only through the
// platform. A violation names the import chain that breaks it.
package rulesets_test

import (
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
)

// pkg is one package of `go list -deps -json`.
type pkg struct {
	ImportPath string
	Standard   bool
	Imports    []string
}

// graph is every package the repository's packages depend on, by import path.
var graph = sync.OnceValues(func() (map[string]pkg, error) {
	out, err := exec.Command("go", "list", "-deps", "-json=ImportPath,Standard,Imports", "cardhouse/...").Output()
	if err != nil {
		return nil, fmt.Errorf("go list -deps cardhouse/...: %w", err)
	}
	g := map[string]pkg{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		g[p.ImportPath] = p
	}
	return g, nil
})

func load(t *testing.T) map[string]pkg {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH: cannot list dependencies")
	}
	g, err := graph()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// chain is the shortest import chain from the package from to a package for which bad holds,
// nil when there is none.
func chain(g map[string]pkg, from string, bad func(string) bool) []string {
	prev := map[string]string{from: ""}
	queue := []string{from}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if p != from && bad(p) {
			var out []string
			for ; p != ""; p = prev[p] {
				out = append(out, p)
			}
			slices.Reverse(out)
			return out
		}
		for _, d := range g[p].Imports {
			if _, seen := prev[d]; !seen {
				prev[d] = p
				queue = append(queue, d)
			}
		}
	}
	return nil
}

// under lists the repository's packages below prefix (a package path or a folder/...).
func under(g map[string]pkg, prefix string) []string {
	var out []string
	for p := range g {
		if p == prefix || strings.HasPrefix(p, prefix+"/") {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

func hasPrefix(prefixes ...string) func(string) bool {
	return func(p string) bool {
		for _, pre := range prefixes {
			if p == pre || strings.HasPrefix(p, pre+"/") {
				return true
			}
		}
		return false
	}
}

// impure are what a pure package never depends on: transport, database, web framework, script
// engine, file formats.
var impure = hasPrefix("google.golang.org/grpc", "google.golang.org/protobuf", "github.com/hashicorp/go-plugin",
	"gorm.io", "github.com/labstack/echo", "github.com/yuin/gopher-lua", "net/http", "database/sql", "gopkg.in/yaml.v3")

// check fails t for every package of pkgs (but those in except) with a chain to a package bad
// names, saying why.
func check(t *testing.T, g map[string]pkg, pkgs []string, except func(string) bool, bad func(string) bool, why string) {
	t.Helper()
	if len(pkgs) == 0 {
		t.Fatalf("no packages to check for %q: the layout changed?", why)
	}
	for _, p := range pkgs {
		if except != nil && except(p) {
			continue
		}
		if c := chain(g, p, bad); c != nil {
			t.Errorf("%s: %s", why, strings.Join(c, " -> "))
		}
	}
}

func TestRulesetsArePure(t *testing.T) {
	g := load(t)
	// A ruleset imports, directly, the standard library, the sdk and the sdk's pure sub-packages.
	for _, p := range under(g, "cardhouse/rulesets") {
		for _, d := range g[p].Imports {
			if g[d].Standard {
				continue
			}
			if !hasPrefix("cardhouse/sdk")(d) || impure(d) || chain(g, d, impure) != nil {
				t.Errorf("rulesets import only the sdk and its pure sub-packages: %s imports %s", p, d)
			}
		}
	}
	check(t, g, under(g, "cardhouse/rulesets"), nil, impure, "rulesets depend on no transport, database, web framework or script engine")
	check(t, g, []string{"cardhouse/sdk"}, nil, impure, "the sdk root (the author's API) depends on no transport or script engine")
}

func TestSDKStandsAlone(t *testing.T) {
	g := load(t)
	check(t, g, under(g, "cardhouse/sdk"), nil, hasPrefix("cardhouse/platform", "cardhouse/rulesets", "cardhouse/admin", "cardhouse/plugins", "cardhouse/web"),
		"nothing under sdk/ imports platform, rulesets, admin, plugins or web")
}

// compositionRoot is the main binary: it links the built-in variants and their house-rule runner
// to serve them as plugins (`cardhouse plugin serve ID`), so it alone may.
var compositionRoot = hasPrefix("cardhouse/platform/cmd")

func TestPlatformReachesVariantsOnlyAsPlugins(t *testing.T) {
	g := load(t)
	server := append(under(g, "cardhouse/platform"), under(g, "cardhouse/admin")...)
	check(t, g, server, compositionRoot, hasPrefix("cardhouse/rulesets", "cardhouse/plugins"),
		"the platform and the admin area reach variants only through sdk/plugin")
	check(t, g, server, compositionRoot, hasPrefix("github.com/yuin/gopher-lua", "cardhouse/sdk/houserules"),
		"the platform and the admin area run no Lua: house rules run in the plugins")
}

func TestAdminGoesThroughThePlatform(t *testing.T) {
	g := load(t)
	for _, p := range under(g, "cardhouse/admin") {
		for _, d := range g[p].Imports {
			if hasPrefix("cardhouse/sdk/plugin")(d) {
				t.Errorf("admin reaches plugins through platform (room.Manager), never sdk/plugin: %s imports %s", p, d)
			}
		}
	}
}
