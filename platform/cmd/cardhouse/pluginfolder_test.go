package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cardhouse/platform/room"
	"cardhouse/platform/store"
	"cardhouse/platform/store/storetest"
	"cardhouse/sdk/plugin"
)

// TestPluginFolderRescan (issue 23): plugins copied into the folder after the start are added by
// a rescan of the room manager, without a restart, and a room can be made with the new ruleset at
// once; one serving a built-in's id or an id already served is refused with a reason that names
// it, and the built-in keeps its own process. A second rescan finds nothing new.
func TestPluginFolderRescan(t *testing.T) {
	exe := buildNamedPlugin(t)
	bin, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	builtinID := ""
	if ids := builtinIDs(); len(ids) > 0 {
		builtinID = ids[0]
	}
	dir := t.TempDir()
	put := func(name string) {
		if err := os.WriteFile(filepath.Join(dir, name), bin, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	put("alpha")
	ctx := context.Background()
	engines, folder, closeAll, err := openPlugins(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closeAll)
	st := storetest.Open(t, "sqlite")
	m, err := room.NewManager(ctx, room.Config{Store: st, Engines: engines, Plugins: folder, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	var builtinPID int
	if builtinID != "" {
		builtinPID = engines[builtinID].(*plugin.Process).Stats().PID
		put(builtinID + "-copy")
	}
	put("beta-1")
	put("alpha-2")

	scan, err := m.RescanPlugins(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(scan.Added, []string{"beta"}) {
		t.Errorf("the rescan added %v, want [beta]", scan.Added)
	}
	reasons := map[string]string{}
	for _, r := range scan.Refused {
		reasons[filepath.Base(r.Command)] = r.Reason
	}
	want := map[string]string{"alpha-2": `ruleset "alpha" is already served by`}
	if builtinID != "" {
		want[builtinID+"-copy"] = "is built in"
	}
	for file, w := range want {
		if !strings.Contains(reasons[file], w) {
			t.Errorf("%s refused with %q, want a reason saying %q (refused: %+v)", file, reasons[file], w, scan.Refused)
		}
	}
	if len(scan.Refused) != len(want) {
		t.Errorf("refused %+v, want %d", scan.Refused, len(want))
	}
	if got := m.RefusedPlugins(); len(got) != len(want) {
		t.Errorf("the manager lists %d refused plugins, want %d", len(got), len(want))
	}
	if builtinID != "" {
		if p := m.Engines()[builtinID].(*plugin.Process); p.Stats().PID != builtinPID || strings.HasPrefix(p.Spec().Path, dir) {
			t.Errorf("built-in %s is now served by %s (pid %d, was %d)", builtinID, p.Spec(), p.Stats().PID, builtinPID)
		}
	}
	ids := []string{}
	for _, d := range m.Rulesets() {
		ids = append(ids, d.ID)
	}
	if !slices.Contains(ids, "beta") || !slices.Contains(ids, "alpha") {
		t.Fatalf("rulesets after the rescan: %v", ids)
	}
	host := &store.User{DisplayName: "Hana", Guest: true}
	if err := st.CreateUser(ctx, host); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Create(ctx, host, room.CreateRequest{Ruleset: "beta", Seats: 2}); err != nil {
		t.Fatalf("a room of the added ruleset: %v", err)
	}

	again, err := m.RescanPlugins(ctx)
	if err != nil || len(again.Added) != 0 || len(again.Refused) != 0 {
		t.Errorf("a second rescan: %+v, %v; want nothing new", again, err)
	}
}
