package main

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"cardhouse/plugins/builtin"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/plugin"

	"github.com/hashicorp/go-hclog"
	"github.com/spf13/cobra"
)

// newPluginCmd is `cardhouse plugin`: serve a built-in variant as a plugin (the binary launches
// itself for that) and list the plugins a host would run.
func newPluginCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "plugin",
		Short: "Serve and list ruleset plugins",
	}
	cmd.AddCommand(newPluginServeCmd(), newPluginListCmd())
	return cmd
}

func newPluginServeCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "serve ID",
		Short: "Serve a built-in variant as a plugin process (started by a host, not by hand)",
		Long: "Serve a built-in variant over the plugin protocol. The host runs this itself (it launches\n" +
			"its own binary once per built-in variant); started from a terminal it only says so.\n" +
			"Built-in variants: " + strings.Join(builtinIDs(), ", "),
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			newEngine, ok := builtin.Engines()[args[0]]
			if !ok {
				return fmt.Errorf("plugin serve: no built-in variant %q (built in: %s)", args[0], strings.Join(builtinIDs(), ", "))
			}
			plugin.Serve(newEngine())
			return nil
		},
	}
}

func newPluginListCmd() *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "list",
		Short: "Launch every plugin (built-in and in --plugins) and print what it serves",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			specs, err := pluginSpecs(dir)
			if err != nil {
				return err
			}
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "ID\tNAME\tVERSION\tSEATS\tPROTOCOL\tSDK\tCOMMAND")
			failed := 0
			for _, spec := range specs {
				p := plugin.NewProcess(spec, plugin.Config{})
				ctx, cancel := context.WithTimeout(cmd.Context(), 30*time.Second)
				d, err := p.Describe(ctx)
				cancel()
				if err != nil {
					failed++
					fmt.Fprintf(w, "-\t-\t-\t-\t-\t-\t%s\t(%v)\n", spec, err)
				} else {
					fmt.Fprintf(w, "%s\t%s\t%s\t%d-%d\t%d\t%s\t%s\n", d.ID, d.Name, d.Version, d.MinSeats, d.MaxSeats, p.Stats().Protocol, d.SDKVersion, spec)
				}
				_ = p.Close()
			}
			if err := w.Flush(); err != nil {
				return err
			}
			if failed > 0 {
				return fmt.Errorf("plugin list: %d of %d plugins failed to launch", failed, len(specs))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "plugins", os.Getenv(pluginsEnv), "folder of plugin executables (env "+pluginsEnv+")")
	return cmd
}

// hostConfig is how the server runs its plugins: go-plugin's records and the plugins' stderr
// lines go to the server's slog logger at the level of --log-level (one JSON line each), not as
// hclog text among them.
func hostConfig() plugin.Config {
	return plugin.Config{Logger: plugin.SlogLogger(slog.Default(), hclog.Debug).Named("plugin")}
}

// builtinIDs lists the built-in variants' ids, sorted.
func builtinIDs() []string {
	ids := make([]string, 0)
	for id := range builtin.Engines() {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// builtinSpecs are the self-launch specs of the built-in variants: this executable, serving one.
func builtinSpecs() ([]plugin.Spec, error) {
	ids := builtinIDs()
	if len(ids) == 0 {
		return nil, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding this executable to serve the built-in variants: %w", err)
	}
	specs := make([]plugin.Spec, len(ids))
	for i, id := range ids {
		specs[i] = plugin.Spec{Path: exe, Args: []string{"plugin", "serve", id}}
	}
	return specs, nil
}

// pluginSpecs lists the plugins a host runs: a self-launch spec for every built-in variant (this
// executable with "plugin serve ID"), sorted by id, then the executables found in dir (see
// plugin.Discover; dir "" means none).
func pluginSpecs(dir string) ([]plugin.Spec, error) {
	specs, err := builtinSpecs()
	if err != nil {
		return nil, err
	}
	if dir == "" {
		return specs, nil
	}
	found, err := plugin.Discover(dir)
	if err != nil {
		return nil, err
	}
	return append(specs, found...), nil
}

// openEngines launches the built-in variants and the plugins of dir (see pluginFolder) and
// returns them keyed by the ruleset id each describes, with a func that stops them all. Each
// engine is a *plugin.Process (type-assert it for Stats and Restart). A plugin in dir serving the
// id of a built-in variant is refused and logged (the built-in keeps serving it; the admin plugin
// page lists the refusal); two plugins in dir serving one id, or a plugin that fails to launch,
// are an error, and nothing is left running then.
func openEngines(ctx context.Context, dir string) (map[string]engine.Engine, func(), error) {
	engines, _, closeAll, err := openPlugins(ctx, dir)
	return engines, closeAll, err
}

// openPlugins is openEngines, with the plugin folder (nil when dir is "") whose rescan adds the
// plugins put there later.
func openPlugins(ctx context.Context, dir string) (map[string]engine.Engine, *pluginFolder, func(), error) {
	builtins, err := builtinSpecs()
	if err != nil {
		return nil, nil, nil, err
	}
	engines := map[string]engine.Engine{}
	var all []*plugin.Process
	closeAll := func() {
		for _, p := range all {
			_ = p.Close()
		}
	}
	for _, spec := range builtins {
		p := plugin.NewProcess(spec, hostConfig())
		all = append(all, p)
		d, err := p.Describe(ctx)
		if err != nil {
			closeAll()
			return nil, nil, nil, fmt.Errorf("opening plugins: %w", err)
		}
		if prev, ok := engines[d.ID].(*plugin.Process); ok {
			closeAll()
			return nil, nil, nil, fmt.Errorf("opening plugins: ruleset %q is served by both %s and %s", d.ID, prev.Spec(), spec)
		}
		engines[d.ID] = p
	}
	if dir == "" {
		return engines, nil, closeAll, nil
	}
	folder := newPluginFolder(dir, engines)
	known := map[string]bool{}
	for id := range engines {
		known[id] = true
	}
	found, refused, err := folder.scan(ctx, known, true)
	if err != nil {
		closeAll()
		return nil, nil, nil, fmt.Errorf("opening plugins: %w", err)
	}
	for _, r := range refused {
		slog.Error("plugin refused", "plugin", r.Command, "ruleset", r.ID, "reason", r.Reason)
	}
	maps.Copy(engines, found)
	return engines, folder, func() { closeAll(); folder.close() }, nil
}
