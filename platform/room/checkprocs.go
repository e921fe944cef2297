package room

// House-rule checks run in plugin processes of their own (issue "Modders and admins, second
// pass", findings 1 and 2): a check plays a stranger's script through dry-run games, and a call
// that overran its deadline used to kill the process serving every live game of the ruleset.
// Here each ruleset served by a plugin process gets a second process, launched from the same spec
// when a check needs it and closed once no check has used it for Config.CheckIdle. Checks of one
// ruleset take turns in it, so a check that crashes or overruns its process costs no other check
// and no live game.

import (
	"context"
	"sync"
	"time"

	"cardhouse/sdk/engine"
	"cardhouse/sdk/plugin"
)

// spawnable is an engine served by a plugin process the server can launch again from its spec
// (*plugin.Process).
type spawnable interface {
	Spec() plugin.Spec
}

// checkProcs are the check processes, by ruleset id.
type checkProcs struct {
	cfg  plugin.Config
	idle time.Duration

	mu     sync.Mutex
	procs  map[string]*checkProc
	closed bool
}

// checkProc is one ruleset's check process. turn (capacity 1) is held by the check using it, or
// by the idle timer closing it.
type checkProc struct {
	turn chan struct{}
	// proc and spec are guarded by checkProcs.mu; proc is nil while no process is up.
	proc  *plugin.Process
	spec  plugin.Spec
	timer *time.Timer
}

func newCheckProcs(cfg plugin.Config, idle time.Duration) *checkProcs {
	return &checkProcs{cfg: cfg, idle: idle, procs: map[string]*checkProc{}}
}

// checkEngine returns the engine a check of ruleset id runs on, and the func that hands it back
// when the check is done with it (once). For a ruleset served by a plugin process that is the
// ruleset's check process, waited for while another check uses it (ctx bounds the wait); for an
// in-process engine (tests) it is the engine itself: there is no process to protect.
func (m *Manager) checkEngine(ctx context.Context, id string) (engine.Engine, func(), error) {
	live := m.engine(id)
	sp, ok := live.(spawnable)
	if !ok {
		return live, func() {}, nil
	}
	return m.checks.acquire(ctx, id, sp.Spec())
}

// CheckStats reads ruleset id's check process (the zero Stats before its first check or after it
// was closed as idle); ok is false when checks of the ruleset run on its engine itself.
func (m *Manager) CheckStats(id string) (PluginStats, bool) {
	if _, ok := m.engine(id).(spawnable); !ok {
		return PluginStats{}, false
	}
	c := m.checks
	c.mu.Lock()
	defer c.mu.Unlock()
	if cp := c.procs[id]; cp != nil && cp.proc != nil {
		return pluginStats(cp.proc.Stats()), true
	}
	return PluginStats{}, true
}

func (c *checkProcs) acquire(ctx context.Context, id string, spec plugin.Spec) (engine.Engine, func(), error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, nil, ErrClosed
	}
	cp := c.procs[id]
	if cp == nil {
		cp = &checkProc{turn: make(chan struct{}, 1)}
		c.procs[id] = cp
	}
	c.mu.Unlock()
	select {
	case cp.turn <- struct{}{}:
	case <-ctx.Done():
		return nil, nil, errf(KindUnavailable, "check_busy", "the %s check process is busy with other checks; try again in a moment", id)
	}
	c.mu.Lock()
	if cp.timer != nil {
		cp.timer.Stop()
		cp.timer = nil
	}
	var old *plugin.Process
	if cp.proc != nil && cp.spec.String() != spec.String() {
		old, cp.proc = cp.proc, nil // the ruleset is served by another executable now
	}
	if c.closed {
		c.mu.Unlock()
		<-cp.turn
		return nil, nil, ErrClosed
	}
	if cp.proc == nil {
		cp.proc, cp.spec = plugin.NewProcess(spec, c.cfg), spec
	}
	p := cp.proc
	c.mu.Unlock()
	if old != nil {
		_ = old.Close()
	}
	var once sync.Once
	release := func() { once.Do(func() { c.release(cp) }) }
	return p, release, nil
}

// release hands cp back and arms its idle timer, which closes the process unless a check took
// it again meanwhile.
func (c *checkProcs) release(cp *checkProc) {
	c.mu.Lock()
	if !c.closed && cp.proc != nil {
		cp.timer = time.AfterFunc(c.idle, func() { c.closeIdle(cp) })
	}
	c.mu.Unlock()
	<-cp.turn
}

func (c *checkProcs) closeIdle(cp *checkProc) {
	select {
	case cp.turn <- struct{}{}:
	default:
		return // a check has it
	}
	defer func() { <-cp.turn }()
	c.mu.Lock()
	p := cp.proc
	cp.proc, cp.timer = nil, nil
	c.mu.Unlock()
	if p != nil {
		_ = p.Close()
	}
}

// close stops every check process (a check in progress sees its calls fail with ErrClosed).
func (c *checkProcs) close() {
	c.mu.Lock()
	c.closed = true
	var ps []*plugin.Process
	for _, cp := range c.procs {
		if cp.timer != nil {
			cp.timer.Stop()
		}
		if cp.proc != nil {
			ps = append(ps, cp.proc)
		}
	}
	c.mu.Unlock()
	for _, p := range ps {
		_ = p.Close()
	}
}
