// Package rulesets_test enforces the boundaries of DESIGN.md with `go list -deps`: rulesets stay pure
// (no transport, database, web framework or script engine), the SDK root stays free of them too, and
// the platform reaches variants only as plugins.
package rulesets_test

import (
	"os/exec"
	"strings"
	"testing"
)

func deps(t *testing.T, pattern string) map[string][]string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH: cannot list dependencies")
	}
	pkgs, err := exec.Command("go", "list", pattern).Output()
	if err != nil {
		t.Fatalf("go list %s: %v", pattern, err)
	}
	// Per package, so a failure names the package that pulls the dependency in.
	result := map[string][]string{}
	for _, p := range strings.Fields(string(pkgs)) {
		o, err := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}`, p).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", p, err)
		}
		result[p] = strings.Fields(string(o))
	}
	return result
}

func TestRulesetsArePure(t *testing.T) {
	forbidden := []string{
		"google.golang.org/grpc", "google.golang.org/protobuf", "github.com/hashicorp/go-plugin",
		"gorm.io/", "github.com/labstack/echo", "github.com/yuin/gopher-lua", "net/http",
		"database/sql", "gopkg.in/yaml.v3",
	}
	for _, pattern := range []string{"cardhouse/rulesets/...", "cardhouse/sdk"} {
		for pkg, ds := range deps(t, pattern) {
			for _, d := range ds {
				for _, f := range forbidden {
					if strings.HasPrefix(d, f) {
						t.Errorf("%s depends on %s: rulesets and the sdk root must import only the sdk and the standard library", pkg, d)
					}
				}
			}
		}
	}
}

func TestPlatformReachesVariantsOnlyAsPlugins(t *testing.T) {
	for pkg, ds := range deps(t, "cardhouse/platform/...") {
		if strings.HasPrefix(pkg, "cardhouse/platform/cmd/") {
			continue // the main binary is the composition root: it links the built-in variants to serve them as plugins
		}
		for _, d := range ds {
			if strings.HasPrefix(d, "cardhouse/rulesets/") || strings.HasPrefix(d, "cardhouse/plugins/") {
				t.Errorf("%s imports %s: the platform reaches variants only through sdk/plugin", pkg, d)
			}
		}
	}
}
