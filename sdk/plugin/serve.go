package plugin

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"

	"cardhouse/sdk/engine"
	"cardhouse/sdk/plugin/internal/adapter"
	pb "cardhouse/sdk/plugin/internal/pb/rulesetv1"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// ProtocolVersion is the wire protocol this package speaks (package rulesetv1). It is not the SDK
// version: it changes only when a host and a plugin built against different SDKs could no longer
// understand each other. A later protocol is served beside this one (VersionedPlugins), so old
// hosts keep working with new plugins.
const ProtocolVersion = 1

// pluginName is the one plugin a Cardhouse plugin process serves, in go-plugin's plugin set.
const pluginName = "ruleset"

// Handshake is the go-plugin handshake of Cardhouse plugins. The magic cookie is not security: it
// keeps a plugin executable started by hand from waiting for a host that will never talk to it,
// and a host from launching an executable that is not a Cardhouse plugin.
var Handshake = goplugin.HandshakeConfig{
	ProtocolVersion:  ProtocolVersion,
	MagicCookieKey:   "CARDHOUSE_PLUGIN",
	MagicCookieValue: "deal-me-in-7c1e3b9a",
}

// LogLevelEnv names the environment variable that sets a plugin's log level (trace, debug, info,
// warn, error); the default is info. The host shows plugin logs through its own logger and level.
const LogLevelEnv = "CARDHOUSE_PLUGIN_LOG_LEVEL"

// pluginGCPercent is a plugin's GOGC unless the environment sets one. A plugin's live heap is
// small (the states it caches) while every action allocates its views afresh, so at the default
// of 100 the collector ran every few hundred actions and took a third of the plugin's CPU; at 800
// it runs about eight times less often, for a few tens of MiB more heap (docs/performance.md has
// the figures).
const pluginGCPercent = 800

// pluginMemoryLimit holds the heap GOGC 800 would let grow (nine times what is live: the cache of
// decoded states alone is tens of MiB under load) to a soft limit: past it the collector runs as
// often as it must. GOMEMLIMIT overrides it.
const pluginMemoryLimit = 96 << 20

// CPUProfileEnv names the environment variable that makes a plugin write a CPU profile: set to a
// folder, each plugin process writes RULESET-PID.pprof there from its start until the host stops
// it (plugins inherit the host's environment: set it on the server or the benchmark).
const CPUProfileEnv = "CARDHOUSE_PLUGIN_CPUPROFILE"

// rulesetPlugin is the go-plugin Plugin of protocol 1: the server side holds the engine and
// serves OpenChannel, the client side makes an adapter.Client, which Process connects.
type rulesetPlugin struct {
	goplugin.NetRPCUnsupportedPlugin
	engine engine.Engine
}

var _ goplugin.GRPCPlugin = (*rulesetPlugin)(nil)

func (p *rulesetPlugin) GRPCServer(_ *goplugin.GRPCBroker, s *grpc.Server) error {
	pb.RegisterRulesetServer(s, adapter.NewServer(p.engine))
	return nil
}

func (p *rulesetPlugin) GRPCClient(_ context.Context, _ *goplugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return adapter.NewClient(pb.NewRulesetClient(c)), nil
}

// versionedPlugins lists what each protocol version serves; engine is nil on the host side.
func versionedPlugins(engine engine.Engine) map[int]goplugin.PluginSet {
	return map[int]goplugin.PluginSet{
		ProtocolVersion: {pluginName: &rulesetPlugin{engine: engine}},
	}
}

// recoverUnary is the last guard of the plugin's gRPC server: a panic that escapes OpenChannel
// fails that call instead of the whole process.
func recoverUnary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (resp any, err error) {
	defer func() {
		if p := recover(); p != nil {
			resp, err = nil, status.Errorf(codes.Internal, "panic in %s: %v\n%s", info.FullMethod, p, debug.Stack())
		}
	}()
	return handler(ctx, req)
}

// Serve serves e as a Cardhouse plugin and returns when the host is done with it. It is the whole
// body of a variant's main:
//
//	func main() { plugin.Serve(engine.New(lastcard.New())) }
//
// Nothing may be printed to stdout before Serve (stdout carries the handshake); log to stderr,
// which the host reads. Started by hand rather than by a host, Serve says so and exits with
// status 1. A panic inside a call is recovered and returned to the host as a ruleset failure.
func Serve(e engine.Engine) {
	level := hclog.LevelFromString(os.Getenv(LogLevelEnv))
	if level == hclog.NoLevel {
		level = hclog.Info
	}
	logger := hclog.New(&hclog.LoggerOptions{
		Name:       "ruleset",
		Output:     os.Stderr,
		Level:      level,
		JSONFormat: true, // the host parses the level of each line
	})
	if d, err := e.Describe(context.Background()); err == nil && d != nil {
		logger = logger.With("ruleset", d.ID, "version", d.Version)
	} else if err != nil {
		logger.Error(fmt.Sprintf("describing the ruleset: %v", err))
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(pluginGCPercent)
		if os.Getenv("GOMEMLIMIT") == "" {
			debug.SetMemoryLimit(pluginMemoryLimit)
		}
	}
	if dir := os.Getenv(CPUProfileEnv); dir != "" {
		if stop, err := startProfile(dir, e); err != nil {
			logger.Error(fmt.Sprintf("%s: %v", CPUProfileEnv, err))
		} else {
			defer stop()
		}
	}
	goplugin.Serve(&goplugin.ServeConfig{
		HandshakeConfig:  Handshake,
		VersionedPlugins: versionedPlugins(e),
		GRPCServer: func(opts []grpc.ServerOption) *grpc.Server {
			return grpc.NewServer(append(opts, grpc.ChainUnaryInterceptor(recoverUnary))...)
		},
		Logger: logger,
	})
}

// startProfile starts the CPU profile CPUProfileEnv asks for; stop writes it out.
func startProfile(dir string, e engine.Engine) (stop func(), err error) {
	id := "plugin"
	if d, err := e.Describe(context.Background()); err == nil && d != nil {
		id = d.ID
	}
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("%s-%d.pprof", id, os.Getpid())))
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}
