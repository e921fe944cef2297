package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"cardhouse/platform/room"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/plugin"
)

// pluginFolder is `serve --plugins`: the executables found there (plugin.Discover), each launched
// once. A plugin serving the id of a built-in variant, or of a plugin already served, is refused
// (closed, and listed with the reason); a rescan (the admin plugin page) launches only the
// executables not seen before, so adding a file to the folder adds its ruleset without a restart.
type pluginFolder struct {
	dir      string
	builtins map[string]string // built-in ids -> the command serving them

	mu      sync.Mutex
	seen    map[string]bool   // executable paths already scanned
	serving map[string]string // folder ids -> the command serving them
	procs   []*plugin.Process
	refused []room.RefusedPlugin
}

var _ room.PluginFolder = (*pluginFolder)(nil)

func newPluginFolder(dir string, builtins map[string]engine.Engine) *pluginFolder {
	f := &pluginFolder{dir: dir, builtins: map[string]string{}, seen: map[string]bool{}, serving: map[string]string{}}
	for id, e := range builtins {
		cmd := id
		if p, ok := e.(*plugin.Process); ok {
			cmd = p.Spec().String()
		}
		f.builtins[id] = cmd
	}
	return f
}

// scan launches the folder's executables not scanned before and returns the engines of those
// taken, by id, and those refused. known are the ids served now. strict (at start) makes a
// launch that fails, or two new plugins serving one id, an error that leaves nothing running;
// otherwise (a rescan) they are refused and the others taken.
func (f *pluginFolder) scan(ctx context.Context, known map[string]bool, strict bool) (map[string]engine.Engine, []room.RefusedPlugin, error) {
	specs, err := plugin.Discover(f.dir)
	if err != nil {
		return nil, nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	found := map[string]engine.Engine{}
	var refused []room.RefusedPlugin
	var started []*plugin.Process
	refuse := func(p *plugin.Process, spec plugin.Spec, id, reason string) {
		if p != nil {
			_ = p.Close()
		}
		refused = append(refused, room.RefusedPlugin{Command: spec.String(), ID: id, Reason: reason})
	}
	for _, spec := range specs {
		if f.seen[spec.Path] {
			continue
		}
		p := plugin.NewProcess(spec, hostConfig())
		d, err := p.Describe(ctx)
		if err != nil {
			_ = p.Close()
			if strict {
				closeProcs(started)
				return nil, nil, err
			}
			f.seen[spec.Path] = true
			refuse(nil, spec, "", "it did not start: "+err.Error())
			continue
		}
		f.seen[spec.Path] = true
		switch builtin, isBuiltin := f.builtins[d.ID]; {
		case isBuiltin:
			refuse(p, spec, d.ID, fmt.Sprintf("ruleset %q is built in (%s): a folder plugin cannot replace it; give the plugin an id of its own, or remove it from the folder", d.ID, builtin))
		case f.serving[d.ID] != "" || found[d.ID] != nil:
			prev := f.serving[d.ID]
			if prev == "" {
				prev = found[d.ID].(*plugin.Process).Spec().String()
			}
			if strict {
				_ = p.Close()
				closeProcs(started)
				return nil, nil, fmt.Errorf("ruleset %q is served by both %s and %s", d.ID, prev, spec)
			}
			refuse(p, spec, d.ID, fmt.Sprintf("ruleset %q is already served by %s", d.ID, prev))
		case known[d.ID]:
			refuse(p, spec, d.ID, fmt.Sprintf("ruleset %q is already served", d.ID))
		default:
			found[d.ID] = p
			started = append(started, p)
		}
	}
	for id, e := range found {
		f.serving[id] = e.(*plugin.Process).Spec().String()
	}
	f.procs = append(f.procs, started...)
	f.refused = append(f.refused, refused...)
	return found, refused, nil
}

// Rescan is scan after the start: see room.PluginFolder.
func (f *pluginFolder) Rescan(ctx context.Context, known map[string]bool) (map[string]engine.Engine, []room.RefusedPlugin, error) {
	if f == nil {
		return nil, nil, errors.New("no plugin folder")
	}
	return f.scan(ctx, known, false)
}

// Refused lists every plugin the folder refused since the server started.
func (f *pluginFolder) Refused() []room.RefusedPlugin {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.refused)
}

// close stops the folder's plugins.
func (f *pluginFolder) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	closeProcs(f.procs)
	f.procs = nil
}

func closeProcs(ps []*plugin.Process) {
	for _, p := range ps {
		_ = p.Close()
	}
}
