package main

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"
	"strings"
	"time"

	"cardhouse/platform/bench"
	"cardhouse/plugins/builtin"
	"cardhouse/rulesets/drugs"
	"cardhouse/rulesets/ginrummy"
	"cardhouse/rulesets/hotspot"
	"cardhouse/rulesets/lastcard"
	"cardhouse/sdk"

	"github.com/spf13/cobra"
)

// benchBots are the built-in variants' bots, by ruleset id, which the bench's players run
// client-side to choose from their views (the engines of plugins/builtin cannot: a bot call
// there takes the state, which a client never has).
func benchBots() map[string]sdk.Bots {
	return map[string]sdk.Bots{
		"drugs":    drugs.New(),
		"ginrummy": ginrummy.New(),
		"hotspot":  hotspot.New(),
		"lastcard": lastcard.New(),
	}
}

// benchOptions are the flags of `cardhouse bench` beyond bench.Config's.
type benchOptions struct {
	variants   string
	inprocess  bool
	compare    time.Duration
	json       bool
	cpuprofile string
	idle       bench.IdleConfig // --idle-rooms: hold idle connections instead of playing
}

// newBenchCmd is `cardhouse bench`: the load benchmark of the whole stack (docs/performance.md).
func newBenchCmd() *cobra.Command {
	var (
		cfg bench.Config
		o   benchOptions
	)
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Load-test the whole stack: rooms of four bot players over real WebSockets",
		Long: "Start a server (or target one with --server) and play --rooms rooms of four players at\n" +
			"once over real WebSockets, each player choosing with its variant's level-1 bot from the\n" +
			"views it receives, for a warm-up and then a measured window. Prints accepted actions per\n" +
			"second, the latency from an act to the view it produced, the server's CPU and memory (with\n" +
			"its plugin processes), actions per server CPU-second, refusals, errors and the client's own\n" +
			"CPU. The started server runs on a free port of 127.0.0.1, with SQLite in a temporary folder\n" +
			"or --db (PostgreSQL; the bench uses a schema of its own there and drops it after).\n" +
			"--inprocess plays the same games straight on the rulesets' engines instead; --compare D\n" +
			"adds such a run of D after the server run and prints the platform's overhead as a ratio.\n\n" +
			"Example: cardhouse bench --rooms 250 --duration 30s --variants lastcard,hotspot,drugs\n" +
			"Built-in variants: " + strings.Join(builtinIDs(), ", "),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runBench(cmd, cfg, o)
		},
	}
	f := cmd.Flags()
	addBenchClusterFlags(f, &cfg)
	f.IntVar(&cfg.Rooms, "rooms", 250, "rooms played at once (four player sockets each)")
	f.DurationVar(&cfg.Duration, "duration", 30*time.Second, "measured window")
	f.DurationVar(&cfg.Warmup, "warmup", 5*time.Second, "play before the window, not counted")
	f.DurationVar(&cfg.Think, "think", 0, "how long a player waits after its view before acting (0: at once)")
	f.StringVar(&o.variants, "variants", "lastcard", "comma-separated ruleset ids; rooms take them in turn")
	f.IntVar(&cfg.Spectators, "spectators", 0, "spectators per room, each on its own socket")
	f.IntVar(&cfg.Protocol, "protocol", 2, "protocol version the sockets speak: 2 (patches after a full view) or 1 (full views)")
	f.StringVar(&cfg.Server, "server", "", "base URL of a running server to target, or of several nodes comma-separated (default: start one); it needs no sign-in limit (serve --signin-rate 0) and its metrics open to the bench (serve --public-metrics, or --metrics)")
	f.StringVar(&cfg.MetricsURL, "metrics", "", "URL of the --server's metrics (default: its /metrics, served to anyone only with serve --public-metrics; or the /metrics of its --metrics-addr listener); with several nodes, the first node's")
	f.IntVar(&cfg.ServerPID, "server-pid", 0, "process id of the --server, for its CPU and memory figures")
	f.StringVar(&cfg.DB, "db", "", "PostgreSQL DSN for the started server (default: SQLite in a temporary folder)")
	f.BoolVar(&cfg.KeepSchema, "keep-schema", false, "with --db: use the DSN's schema as it is instead of a fresh one")
	f.StringVar(&cfg.ServerProfile, "server-pprof", "", "write the server's CPU profile of the window to this file (the started server gets --pprof)")
	f.StringVar(&o.cpuprofile, "cpuprofile", "", "write the bench client's own CPU profile to this file")
	f.IntVar(&cfg.Parallel, "parallel", 16, "rooms set up at once")
	f.Uint64Var(&cfg.Seed, "seed", 1, "seed of the players' bots")
	f.BoolVar(&o.inprocess, "inprocess", false, "play the same games on the in-process engines only (no server)")
	f.DurationVar(&o.compare, "compare", 0, "after the server run, play in-process for this long and print the platform's overhead")
	f.BoolVar(&o.json, "json", false, "print the result as JSON too")
	f.IntVar(&o.idle.Rooms, "idle-rooms", 0, "instead of playing, hold this many rooms of idle connections and report the server's memory")
	f.IntVar(&o.idle.Sockets, "idle-sockets", 4, "with --idle-rooms: connections per room (four players, the rest spectators)")
	f.DurationVar(&o.idle.Hold, "idle-hold", 10*time.Second, "with --idle-rooms: how long the connections are held before the figures are read")
	f.BoolVar(&o.idle.Deal, "idle-deal", false, "with --idle-rooms: deal one game in each room first (nobody acts)")
	return cmd
}

func runBench(cmd *cobra.Command, cfg bench.Config, o benchOptions) error {
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
	for _, v := range strings.Split(o.variants, ",") {
		if v = strings.TrimSpace(v); v != "" {
			cfg.Variants = append(cfg.Variants, v)
		}
	}
	engines := builtin.Engines()
	for _, v := range cfg.Variants {
		if engines[v] == nil {
			return fmt.Errorf("bench: no built-in variant %q (built in: %s)", v, strings.Join(builtinIDs(), ", "))
		}
	}
	cfg.Bots = benchBots()
	cfg.Progress = errOut
	if o.idle.Rooms > 0 {
		return runIdleBench(ctx, cmd, cfg, o)
	}
	if o.cpuprofile != "" {
		f, err := os.Create(o.cpuprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	inCfg := func(d time.Duration) bench.InProcessConfig {
		return bench.InProcessConfig{Rooms: cfg.Rooms, Warmup: min(cfg.Warmup, time.Second), Duration: d,
			Variants: cfg.Variants, Engines: engines, Bots: cfg.Bots, Seed: cfg.Seed}
	}
	if o.inprocess {
		fmt.Fprintf(errOut, "in-process: %d games at once for %s\n", cfg.Rooms, cfg.Duration)
		res, err := bench.RunInProcess(ctx, inCfg(cfg.Duration))
		if err != nil {
			return err
		}
		if err := res.Print(out); err != nil {
			return err
		}
		if o.json {
			return res.JSON(out)
		}
		return nil
	}
	if cfg.Server == "" {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("bench: finding this executable to start the server: %w", err)
		}
		cfg.Exe = exe
	}
	res, err := bench.Run(ctx, cfg)
	if err != nil {
		return err
	}
	if o.compare > 0 {
		fmt.Fprintf(errOut, "in-process comparison: %d games at once for %s\n", cfg.Rooms, o.compare)
		in, err := bench.RunInProcess(ctx, inCfg(o.compare))
		if err != nil {
			return err
		}
		res.SetInProcess(in)
	}
	if err := res.Print(out); err != nil {
		return err
	}
	if o.json {
		return res.JSON(out)
	}
	return nil
}

// runIdleBench is `cardhouse bench --idle-rooms N`: connections held open, nobody playing.
func runIdleBench(ctx context.Context, cmd *cobra.Command, cfg bench.Config, o benchOptions) error {
	// The flags of a played run that an idle one would silently ignore.
	for _, name := range []string{"nodes", "cluster", "server-pids", "broker-pid", "stop-node", "metrics", "spectators", "think"} {
		if cmd.Flags().Changed(name) {
			return fmt.Errorf("bench: --%s does not apply to --idle-rooms, which holds idle connections on one server (--idle-sockets sets the sockets per room)", name)
		}
	}
	ic := o.idle
	ic.Variant = cfg.Variants[0]
	ic.Server, ic.ServerPID, ic.DB, ic.KeepSchema, ic.Parallel, ic.Progress = cfg.Server, cfg.ServerPID, cfg.DB, cfg.KeepSchema, cfg.Parallel, cfg.Progress
	if ic.Server == "" {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("bench: finding this executable to start the server: %w", err)
		}
		ic.Exe = exe
	}
	res, err := bench.RunIdle(ctx, ic)
	if err != nil {
		return err
	}
	if err := res.Print(cmd.OutOrStdout()); err != nil {
		return err
	}
	if o.json {
		return res.JSON(cmd.OutOrStdout())
	}
	return nil
}
