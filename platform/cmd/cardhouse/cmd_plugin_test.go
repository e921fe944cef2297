package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cardhouse/sdk/plugin"
)

// TestMain lets the test binary stand in for the cardhouse binary as the server of the built-in
// variants: openEngines launches os.Executable() with "plugin serve ID", and under `go test` that
// executable is this test binary. Every test of this package that opens engines relies on it.
func TestMain(m *testing.M) {
	if len(os.Args) == 4 && os.Args[1] == "plugin" && os.Args[2] == "serve" {
		cmd := newPluginCmd()
		cmd.SetArgs(os.Args[2:])
		if err := cmd.Execute(); err != nil {
			fmt.Fprintln(os.Stderr, "cardhouse:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	removeClusterBinary()
	removePreviousBinary()
	os.Exit(code)
}

// namedPluginSource is a plugin main whose ruleset id is its file name up to the first "-", so one
// build copied under several names makes several plugins (or several serving one id).
const namedPluginSource = `package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/plugin"
)

type named struct{ id string }

func (n named) Info() sdk.Info {
	return sdk.Info{ID: n.id, Name: strings.ToUpper(n.id), Version: "0.0.1", MinSeats: 2, MaxSeats: 3, StateVersion: 1}
}
func (named) Start(context.Context, sdk.StartRequest) (int, error) { return 0, nil }
func (named) Apply(context.Context, sdk.ApplyRequest[int]) (sdk.ApplyResponse[int], error) {
	return sdk.ApplyResponse[int]{}, sdk.Refuse(sdk.CodeBadAction, "nothing to do")
}
func (named) View(int, int) sdk.View          { return sdk.View{} }
func (named) Status(int) sdk.Status           { return sdk.Status{Phase: sdk.PhaseGameOver} }
func (named) Observe(int) sdk.Observation     { return nil }
func (named) Cards(int) []sdk.Card            { return nil }

func main() {
	id, _, _ := strings.Cut(filepath.Base(os.Args[0]), "-")
	plugin.Serve(engine.New[int](named{id: id}))
}
`

// buildNamedPlugin compiles namedPluginSource once (through a build overlay, so nothing is written
// into the tree) and returns the executable.
func buildNamedPlugin(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build a test plugin")
	}
	tmp := t.TempDir()
	src := filepath.Join(tmp, "main.go")
	if err := os.WriteFile(src, []byte(namedPluginSource), 0o644); err != nil {
		t.Fatal(err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	fake := filepath.Join(wd, "testdata", "namedplugin_overlay", "main.go") // exists only in the overlay
	overlay := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(overlay, []byte(`{"Replace":{"`+fake+`":"`+src+`"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(tmp, "named")
	cmd := exec.Command(goBin, "build", "-overlay", overlay, "-o", exe, "./testdata/namedplugin_overlay")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the test plugin: %v\n%s", err, out)
	}
	return exe
}

func TestOpenEngines(t *testing.T) {
	exe := buildNamedPlugin(t)
	bin, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	folder := func(t *testing.T, names ...string) string {
		dir := t.TempDir()
		for _, name := range names {
			if err := os.WriteFile(filepath.Join(dir, name), bin, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	builtins, err := builtinSpecs()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		files   []string
		broken  bool
		wantIDs []string
		wantErr string
	}{
		{name: "two plugins", files: []string{"alpha", "beta-1"}, wantIDs: []string{"alpha", "beta"}},
		{name: "one id served twice", files: []string{"beta-1", "beta-2"}, wantErr: `ruleset "beta" is served by both`},
		{name: "a plugin that will not start", files: []string{"alpha"}, broken: true, wantErr: "launching plugin"},
		{name: "empty folder", wantIDs: []string{}},
	}
	if ids := builtinIDs(); len(ids) > 0 {
		cases = append(cases, struct {
			name    string
			files   []string
			broken  bool
			wantIDs []string
			wantErr string
		}{name: "a folder plugin serving a built-in's id is refused", files: []string{ids[0], "alpha"}, wantIDs: []string{"alpha"}})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := folder(t, c.files...)
			if c.broken {
				if err := os.WriteFile(filepath.Join(dir, "zz-broken"), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			specs, err := pluginSpecs(dir)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(specs[:len(builtins)], builtins, func(a, b plugin.Spec) bool { return a.String() == b.String() }) {
				t.Errorf("pluginSpecs does not start with the built-ins: %v", specs)
			}
			engines, closeAll, err := openEngines(context.Background(), dir)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("openEngines: %v, want an error containing %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer closeAll()
			var ids []string
			for id, e := range engines {
				if len(builtins) == 0 || id == "alpha" || id == "beta" {
					ids = append(ids, id)
				}
				d, err := e.Describe(context.Background())
				if err != nil || d.ID != id {
					t.Errorf("engine %q describes itself as %+v (%v)", id, d, err)
				}
				if p, ok := e.(*plugin.Process); !ok || p.Stats().Protocol != plugin.ProtocolVersion {
					t.Errorf("engine %q is a %T, want a running *plugin.Process", id, e)
				}
			}
			for _, id := range builtinIDs() {
				p, ok := engines[id].(*plugin.Process)
				if !ok {
					t.Errorf("built-in %q is missing: %v", id, engines)
					continue
				}
				if strings.HasPrefix(p.Spec().Path, dir) {
					t.Errorf("built-in %q is served by %s, from the folder: a folder plugin must not replace a built-in", id, p.Spec())
				}
			}
			slices.Sort(ids)
			if !slices.Equal(ids, c.wantIDs) && !(len(ids) == 0 && len(c.wantIDs) == 0) {
				t.Errorf("ids %v, want %v", ids, c.wantIDs)
			}
		})
	}
}
