package room

// The rulesets rooms play: the engines the server started with, and the plugins an admin's
// rescan of the plugin folder adds while it runs (issue 23). The set is replaced whole, never
// changed in place, so rooms and requests read it without a lock.

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"cardhouse/sdk/engine"
)

// rulesetSet is the engines by ruleset id and the descriptions of those that described
// themselves (only those are offered for new rooms).
type rulesetSet struct {
	engines map[string]engine.Engine
	descs   map[string]*engine.Description
}

// engine returns the engine of ruleset id, or nil.
func (m *Manager) engine(id string) engine.Engine { return m.set.Load().engines[id] }

// desc returns the description of ruleset id.
func (m *Manager) desc(id string) (*engine.Description, bool) {
	d, ok := m.set.Load().descs[id]
	return d, ok
}

func (m *Manager) descOrNil(id string) *engine.Description { d, _ := m.desc(id); return d }

// rulesetIDs lists the offered rulesets' ids, sorted.
func (m *Manager) rulesetIDs() []string { return slices.Sorted(maps.Keys(m.set.Load().descs)) }

// RefusedPlugin is a plugin the server did not take: its command, the ruleset id it serves ("" if
// it never said) and why.
type RefusedPlugin struct {
	Command string `json:"command"`
	ID      string `json:"id,omitempty"`
	Reason  string `json:"reason"`
}

// PluginFolder is the folder of plugins beyond the built-in rulesets (`serve --plugins`).
type PluginFolder interface {
	// Rescan launches the executables added to the folder since the last scan and returns their
	// engines by ruleset id, and the ones it refused this time (an id a plugin already serves, a
	// launch that failed). known are the ids the server serves now.
	Rescan(ctx context.Context, known map[string]bool) (map[string]engine.Engine, []RefusedPlugin, error)
	// Refused lists every plugin the folder has refused since the server started.
	Refused() []RefusedPlugin
}

// AddEngine offers ruleset id, served by e, for new rooms: it must describe itself, and no
// ruleset of that id may exist (409 ruleset_exists).
func (m *Manager) AddEngine(ctx context.Context, id string, e engine.Engine) (*engine.Description, error) {
	cctx, cancel := context.WithTimeout(ctx, m.cfg.CallTimeout)
	d, err := e.Describe(cctx)
	cancel()
	if err != nil {
		return nil, fmt.Errorf("describing ruleset %q: %w", id, err)
	}
	for {
		old := m.set.Load()
		if _, ok := old.engines[id]; ok {
			return nil, errf(KindConflict, "ruleset_exists", "ruleset %q is already served", id)
		}
		next := &rulesetSet{engines: maps.Clone(old.engines), descs: maps.Clone(old.descs)}
		next.engines[id], next.descs[id] = e, d
		if m.set.CompareAndSwap(old, next) {
			break
		}
	}
	m.cfg.Logger.Info("ruleset added", "ruleset", id, "version", d.Version)
	return d, nil
}

// PluginScan is what a rescan of the plugin folder did: the rulesets it added and the plugins it
// refused.
type PluginScan struct {
	Added   []string        `json:"added"`
	Refused []RefusedPlugin `json:"refused"`
}

// ErrNoPluginFolder is returned by RescanPlugins on a server started without a plugin folder.
var ErrNoPluginFolder = errf(KindConflict, "no_plugin_folder", "this server has no plugin folder to scan (serve --plugins)")

// RescanPlugins scans the plugin folder again and offers the new plugins' rulesets for new
// rooms, without a restart; running plugins are left as they are.
func (m *Manager) RescanPlugins(ctx context.Context) (PluginScan, error) {
	if m.cfg.Plugins == nil {
		return PluginScan{}, ErrNoPluginFolder
	}
	known := map[string]bool{}
	for id := range m.set.Load().engines {
		known[id] = true
	}
	found, refused, err := m.cfg.Plugins.Rescan(ctx, known)
	if err != nil {
		return PluginScan{}, err
	}
	scan := PluginScan{Added: []string{}, Refused: refused}
	for _, id := range slices.Sorted(maps.Keys(found)) {
		if _, err := m.AddEngine(ctx, id, found[id]); err != nil {
			scan.Refused = append(scan.Refused, RefusedPlugin{ID: id, Reason: err.Error()})
			continue
		}
		scan.Added = append(scan.Added, id)
	}
	if scan.Refused == nil {
		scan.Refused = []RefusedPlugin{}
	}
	return scan, nil
}

// HasPluginFolder reports whether the server has a plugin folder to rescan.
func (m *Manager) HasPluginFolder() bool { return m.cfg.Plugins != nil }

// RefusedPlugins lists the plugins the folder refused since the server started.
func (m *Manager) RefusedPlugins() []RefusedPlugin {
	if m.cfg.Plugins == nil {
		return nil
	}
	return m.cfg.Plugins.Refused()
}
