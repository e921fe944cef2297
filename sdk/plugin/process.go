package plugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/plugin/internal/adapter"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
)

// Spec says how to start a plugin process.
type Spec struct {
	// Path is the executable.
	Path string `json:"path"`
	// Args are its arguments ("plugin", "serve", "lastcard" for a built-in variant).
	Args []string `json:"args,omitempty"`
	// Env is added to the host's environment ("KEY=value"); a key given here wins over the host's.
	Env []string `json:"env,omitempty"`
}

// String is the command line, for messages and logs.
func (s Spec) String() string {
	if len(s.Args) == 0 {
		return s.Path
	}
	return s.Path + " " + strings.Join(s.Args, " ")
}

// Defaults of Config.
const (
	// DefaultCallTimeout bounds a call whose context has no deadline. A ruleset answers an action
	// in well under a millisecond; ten seconds means "stuck", never "slow".
	DefaultCallTimeout = 10 * time.Second
	// DefaultStartTimeout bounds a launch (the handshake and the first Describe); a plugin starts
	// in 5-10 ms.
	DefaultStartTimeout = 10 * time.Second
	// DefaultKillTimeout bounds a graceful stop before the process is killed.
	DefaultKillTimeout = 2 * time.Second
)

// Config tunes a Process; the zero Config is ready to use.
type Config struct {
	// CallTimeout bounds every call whose context carries no deadline (DefaultCallTimeout).
	CallTimeout time.Duration
	// StartTimeout bounds a launch (DefaultStartTimeout).
	StartTimeout time.Duration
	// KillTimeout bounds a graceful stop in Close before the process is killed (DefaultKillTimeout).
	KillTimeout time.Duration
	// Logger receives go-plugin's logs and the plugin's stderr lines; default: warnings and
	// errors as records of slog.Default() (SlogLogger), so a host logging JSON writes them as
	// JSON lines too.
	Logger hclog.Logger
	// Stderr, when set, receives the plugin's raw stderr as well.
	Stderr io.Writer
}

func (c Config) withDefaults() Config {
	if c.CallTimeout <= 0 {
		c.CallTimeout = DefaultCallTimeout
	}
	if c.StartTimeout <= 0 {
		c.StartTimeout = DefaultStartTimeout
	}
	if c.KillTimeout <= 0 {
		c.KillTimeout = DefaultKillTimeout
	}
	if c.Logger == nil {
		c.Logger = SlogLogger(slog.Default(), hclog.Warn).Named("plugin")
	}
	return c
}

// Process is a supervised plugin process and an engine.Engine: the host calls it exactly as it calls
// engine.New(ruleset) in-process. It is safe for concurrent use by many rooms.
//
// It launches the plugin on the first call (not in NewProcess) and keeps one process. Every call
// gets a deadline (Config.CallTimeout when the context has none). When the process dies under a
// call, that call returns a *CrashError and the next call launches a fresh process; when a call
// times out, the process is killed (a stuck plugin keeps burning a core and still answers health
// checks) and the next call launches a fresh one. The host keeps every game's state, so nothing
// is lost: sending the same state to the new process continues the game.
type Process struct {
	spec Spec
	cfg  Config

	// launchMu serialises launches, so that many calls arriving after a crash start one process.
	launchMu sync.Mutex

	mu      sync.Mutex
	cur     *instance
	last    *instance // the instance launched last, running or not
	desc    *engine.Description
	closed  bool
	lastErr string
	reaping sync.WaitGroup // retired processes still being reaped

	launches, calls, refusals, errs, crashes, timeouts, misses atomic.Uint64
	latency                                                    histogram
}

// instance is one launched process. Its fields are fixed at launch; retired is guarded by
// Process.mu.
type instance struct {
	client  *goplugin.Client
	proc    *os.Process
	engine  *adapter.Client
	pid     int
	version int
	id      string
	retired bool
}

// exited reports whether the process is gone or its calls channel broke (the process died, or is
// dying: the channel notices first).
func (inst *instance) exited() bool { return inst.engine.Broken() || inst.client.Exited() }

// NewProcess returns a supervised plugin for spec; nothing is launched until the first call.
func NewProcess(spec Spec, cfg Config) *Process {
	p := &Process{spec: spec, cfg: cfg.withDefaults()}
	register(p)
	return p
}

var _ engine.Engine = (*Process)(nil)

// Spec returns how the process is started.
func (p *Process) Spec() Spec { return p.spec }

// launch starts a process, connects, and reads its description.
func (p *Process) launch() (*instance, error) {
	if p.spec.Path == "" {
		return nil, &LaunchError{Plugin: p.spec.String(), Err: errors.New("no executable path given")}
	}
	cmd := exec.Command(p.spec.Path, p.spec.Args...)
	// go-plugin appends the host's environment after ours, so we build it ourselves to let the
	// spec's variables win (exec keeps the last value of a repeated key).
	cmd.Env = append(os.Environ(), p.spec.Env...)
	configureCmd(cmd)
	stderr := p.cfg.Stderr
	client := goplugin.NewClient(&goplugin.ClientConfig{
		HandshakeConfig:  Handshake,
		VersionedPlugins: versionedPlugins(nil),
		Cmd:              cmd,
		SkipHostEnv:      true,
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		Managed:          true,
		StartTimeout:     p.cfg.StartTimeout,
		Logger:           p.cfg.Logger,
		Stderr:           stderr,
	})
	fail := func(err error) (*instance, error) {
		if cmd.Process != nil {
			_ = cmd.Process.Kill()
		}
		client.Kill()
		return nil, &LaunchError{Plugin: p.spec.String(), Err: err}
	}
	rpc, err := client.Client()
	if err != nil {
		return fail(asProtocolError(err))
	}
	raw, err := rpc.Dispense(pluginName)
	if err != nil {
		return fail(err)
	}
	engine, ok := raw.(*adapter.Client)
	if !ok {
		return fail(fmt.Errorf("plugin %q is a %T, not a ruleset", pluginName, raw))
	}
	ctx, cancel := context.WithTimeout(context.Background(), p.cfg.StartTimeout)
	defer cancel()
	d, err := engine.Connect(ctx, p.cfg.CallTimeout)
	if err != nil {
		engine.Close()
		return fail(err)
	}
	if d.ID == "" {
		engine.Close()
		return fail(errors.New("the ruleset describes itself with no id"))
	}
	inst := &instance{client: client, proc: cmd.Process, engine: engine, version: client.NegotiatedVersion(), id: d.ID}
	if cmd.Process != nil {
		inst.pid = cmd.Process.Pid
	}
	p.cfg.Logger.Debug("plugin launched", "plugin", p.spec.String(), "pid", inst.pid)
	p.mu.Lock()
	if p.desc != nil && p.desc.ID != d.ID {
		p.cfg.Logger.Warn("plugin now serves another ruleset", "plugin", p.spec.String(), "was", p.desc.ID, "now", d.ID)
	}
	p.desc = d
	p.mu.Unlock()
	p.launches.Add(1)
	return inst, nil
}

// instance returns the running process, launching one when there is none (or it has exited).
func (p *Process) instance() (*instance, error) {
	current := func() (*instance, bool, error) {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.closed {
			return nil, false, fmt.Errorf("plugin %s: %w", p.spec, ErrClosed)
		}
		if inst := p.cur; inst != nil {
			if !inst.exited() {
				return inst, true, nil
			}
			// It died between calls: count the crash and reap it.
			p.detach(inst)
			p.crashes.Add(1)
			p.lastErr = idleDeath(inst.pid)
			go p.reap(inst)
		}
		return nil, false, nil
	}
	if inst, ok, err := current(); ok || err != nil {
		return inst, err
	}
	p.launchMu.Lock()
	defer p.launchMu.Unlock()
	if inst, ok, err := current(); ok || err != nil {
		return inst, err // another call launched it meanwhile
	}
	inst, err := p.launch()
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil {
		p.lastErr = err.Error()
		return nil, err
	}
	if p.closed { // closed while launching
		inst.retired = true
		p.reaping.Add(1)
		go p.reap(inst)
		return nil, fmt.Errorf("plugin %s: %w", p.spec, ErrClosed)
	}
	p.cur, p.last = inst, inst
	return inst, nil
}

// detach takes inst out of service so that the next call launches a fresh process; it reports
// whether inst was still in service. The caller holds p.mu and must then reap inst (p.reaping has
// been counted up for it).
func (p *Process) detach(inst *instance) bool {
	if inst.retired {
		return false
	}
	inst.retired = true
	if p.cur == inst {
		p.cur = nil
	}
	p.reaping.Add(1)
	return true
}

// reap kills inst at once and waits for go-plugin to collect it.
func (p *Process) reap(inst *instance) {
	defer p.reaping.Done()
	inst.engine.Close()
	if inst.proc != nil {
		_ = inst.proc.Kill()
	}
	inst.client.Kill()
}

// retire kills inst (after a crash or a timeout) unless another call or Close already did.
func (p *Process) retire(inst *instance, counter *atomic.Uint64) {
	p.mu.Lock()
	ok := p.detach(inst)
	p.mu.Unlock()
	if ok {
		counter.Add(1)
		go p.reap(inst)
	}
}

// do runs one call with the supervision: deadline, crash and timeout handling, statistics.
func (p *Process) do(ctx context.Context, op string, f func(context.Context, engine.Engine) error) error {
	start := time.Now()
	err := p.try(ctx, op, f)
	p.calls.Add(1)
	p.latency.observe(time.Since(start))
	switch {
	case err == nil:
	case errors.Is(err, sdk.ErrIllegal):
		p.refusals.Add(1)
	case errors.Is(err, engine.ErrNeedState):
		p.misses.Add(1)
	default:
		p.errs.Add(1)
		p.mu.Lock()
		p.lastErr = err.Error()
		p.mu.Unlock()
	}
	return err
}

func (p *Process) try(ctx context.Context, op string, f func(context.Context, engine.Engine) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("plugin %s: %s not sent: %w", p.spec, op, err)
	}
	inst, err := p.instance()
	if err != nil {
		return err
	}
	// The engine gives a call without a deadline Config.CallTimeout itself (the calls channel's
	// watchdog, no per-call context).
	err = f(ctx, inst.engine)
	if err == nil || errors.Is(err, sdk.ErrIllegal) || errors.Is(err, engine.ErrNeedState) {
		return err
	}
	var te *adapter.TransportError
	transport := errors.As(err, &te)
	switch {
	case transport && te.Lost, inst.exited():
		p.mu.Lock()
		closed := p.closed
		p.mu.Unlock()
		if closed { // Close stopped the process under this call: not a crash
			return fmt.Errorf("plugin %s: %s interrupted: %w", p.spec, op, ErrClosed)
		}
		p.retire(inst, &p.crashes)
		return &CrashError{Plugin: p.spec.String(), Op: op, PID: inst.pid, Err: err}
	case errors.Is(err, context.DeadlineExceeded):
		p.retire(inst, &p.timeouts)
		return fmt.Errorf("plugin %s: %s gave no answer before its deadline; the process (pid %d) was killed and the next call launches a fresh one: %w",
			p.spec, op, inst.pid, err)
	case transport:
		return &sdk.FailureError{Ruleset: inst.id, Op: op, Err: err}
	}
	return err
}

// Describe returns the ruleset's description, launching the plugin if it has not run yet. The
// description is read at every launch and cached; the caller gets its own copy.
func (p *Process) Describe(ctx context.Context) (*engine.Description, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.mu.Lock()
	d := p.desc
	p.mu.Unlock()
	if d == nil {
		if _, err := p.instance(); err != nil {
			return nil, err
		}
		p.mu.Lock()
		d = p.desc
		p.mu.Unlock()
	}
	return cloneDescription(d)
}

func cloneDescription(d *engine.Description) (*engine.Description, error) {
	b, err := json.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("copying the description: %w", err)
	}
	return adapter.DescriptionFromJSON(b)
}

// NewGame implements engine.Engine.
func (p *Process) NewGame(ctx context.Context, req *engine.NewGameRequest) (step *engine.Step, err error) {
	err = p.do(ctx, "NewGame", func(ctx context.Context, e engine.Engine) (err error) {
		step, err = e.NewGame(ctx, req)
		return err
	})
	if err != nil {
		return nil, err
	}
	return step, nil
}

// Act implements engine.Engine.
func (p *Process) Act(ctx context.Context, req *engine.ActRequest) (step *engine.Step, err error) {
	err = p.do(ctx, "Act", func(ctx context.Context, e engine.Engine) (err error) {
		step, err = e.Act(ctx, req)
		return err
	})
	if err != nil {
		return nil, err
	}
	return step, nil
}

// Inspect implements engine.Engine.
func (p *Process) Inspect(ctx context.Context, req *engine.InspectRequest) (in *engine.Inspection, err error) {
	err = p.do(ctx, "Inspect", func(ctx context.Context, e engine.Engine) (err error) {
		in, err = e.Inspect(ctx, req)
		return err
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// Bot implements engine.Engine.
func (p *Process) Bot(ctx context.Context, req *engine.BotCall) (ans *engine.BotAnswer, err error) {
	err = p.do(ctx, "Bot", func(ctx context.Context, e engine.Engine) (err error) {
		ans, err = e.Bot(ctx, req)
		return err
	})
	if err != nil {
		return nil, err
	}
	return ans, nil
}

// DescribeHouseRule implements engine.HouseRuleDescriber: the plugin compiles the script and runs
// its top level in its own sandbox, so a hostile script costs that process, never the host.
func (p *Process) DescribeHouseRule(ctx context.Context, source string) (info *engine.HouseRuleInfo, err error) {
	err = p.do(ctx, "DescribeHouseRule", func(ctx context.Context, e engine.Engine) (err error) {
		d, ok := e.(engine.HouseRuleDescriber)
		if !ok {
			return sdk.Refuse(sdk.CodeHouseRule, "the plugin %s cannot describe house rules", p.spec.Path)
		}
		info, err = d.DescribeHouseRule(ctx, source)
		return err
	})
	if err != nil {
		return nil, err
	}
	return info, nil
}

var _ engine.HouseRuleDescriber = (*Process)(nil)

// Restart kills the running process (calls in flight on it fail with a *CrashError) and launches
// a fresh one now, reading the description again: what an operator does after replacing the
// executable. It returns the launch's error, if any.
func (p *Process) Restart() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return fmt.Errorf("plugin %s: %w", p.spec, ErrClosed)
	}
	inst := p.cur
	ok := inst != nil && p.detach(inst)
	p.mu.Unlock()
	if ok {
		go p.reap(inst)
	}
	_, err := p.instance()
	return err
}

// Exited reports whether the process launched last has exited: it crashed, was killed after a
// timeout or a Restart, or Close stopped it. It is false before the first launch and while the
// process runs.
func (p *Process) Exited() bool {
	p.mu.Lock()
	last := p.last
	p.mu.Unlock()
	return last != nil && (last.retired || last.exited())
}

// Close stops the process (gracefully, then killed after Config.KillTimeout) and waits until it is
// gone. Later calls return ErrClosed. Close is idempotent.
func (p *Process) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		p.reaping.Wait()
		return nil
	}
	p.closed = true
	inst := p.cur
	ok := inst != nil && p.detach(inst)
	p.mu.Unlock()
	// A launch in progress finishes, sees closed and reaps its process: wait for it.
	p.launchMu.Lock()
	p.launchMu.Unlock() //nolint:staticcheck // an empty critical section: waiting is the point
	if ok {
		go func() {
			defer p.reaping.Done()
			done := make(chan struct{})
			go func() { inst.engine.Close(); inst.client.Kill(); close(done) }()
			select {
			case <-done:
			case <-time.After(p.cfg.KillTimeout):
				if inst.proc != nil {
					_ = inst.proc.Kill()
				}
				<-done
			}
		}()
	}
	p.reaping.Wait()
	unregister(p)
	return nil
}

// Stats is a snapshot of a Process for metrics and the admin page.
type Stats struct {
	Spec Spec `json:"spec"`
	// Running is true while a launched process is in service.
	Running bool `json:"running"`
	// PID and Protocol are those of the running process (or the one launched last); zero before
	// the first launch.
	PID      int `json:"pid"`
	Protocol int `json:"protocol"`
	// Launches counts processes started; Restarts those started after the first (after a crash, a
	// timeout or Restart).
	Launches uint64 `json:"launches"`
	Restarts uint64 `json:"restarts"`
	// Calls counts every call; Refusals the refused actions among them (a player's mistake, not an
	// error); Errors every other failed call (failures, crashes, timeouts, launch errors).
	Calls    uint64 `json:"calls"`
	Refusals uint64 `json:"refusals"`
	Errors   uint64 `json:"errors"`
	// NeedState counts the calls about a game the plugin did not hold (engine.ErrNeedState): a
	// fresh process, an evicted game, another host's copy. Each is followed by the same call
	// with the state; they are not errors.
	NeedState uint64 `json:"need_state"`
	// Crashes counts processes found dead; Timeouts calls that ran out of time (each killed the
	// process).
	Crashes  uint64 `json:"crashes"`
	Timeouts uint64 `json:"timeouts"`
	// Latency of every call, including a launch it had to wait for.
	Latency Latency `json:"latency"`
	// LastError is the text of the last failed call or launch ("" if none).
	LastError string `json:"last_error,omitempty"`
	// Description is the ruleset's, read at the last launch (nil before the first).
	Description *engine.Description `json:"description,omitempty"`
}

// idleDeath is the last error of a process that died while no call was in flight.
func idleDeath(pid int) string {
	return fmt.Sprintf("the plugin process (pid %d) died between calls (killed, or it exited on its own)", pid)
}

// Stats returns a snapshot of the counters.
func (p *Process) Stats() Stats {
	p.mu.Lock()
	s := Stats{Spec: p.spec, LastError: p.lastErr}
	if p.last != nil {
		s.PID, s.Protocol = p.last.pid, p.last.version
	}
	s.Running = p.cur != nil && !p.cur.exited()
	// A process that died between calls is a crash now, not at the next call (which reaps it
	// and counts it then: this one stands in for that count until it does).
	idle := p.cur != nil && !s.Running
	if idle {
		s.LastError = idleDeath(p.cur.pid)
	}
	d := p.desc
	p.mu.Unlock()
	if d != nil {
		s.Description, _ = cloneDescription(d)
	}
	s.Launches = p.launches.Load()
	if s.Launches > 0 {
		s.Restarts = s.Launches - 1
	}
	s.Calls, s.Refusals, s.Errors, s.NeedState = p.calls.Load(), p.refusals.Load(), p.errs.Load(), p.misses.Load()
	s.Crashes, s.Timeouts = p.crashes.Load(), p.timeouts.Load()
	if idle {
		s.Crashes++
	}
	s.Latency = p.latency.snapshot()
	return s
}
