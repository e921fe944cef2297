package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"

	"cardhouse/sdk/engine"
	"cardhouse/sdk/scenario"

	"github.com/spf13/cobra"
)

// pluginsEnv names the environment variable that gives --plugins its default.
const pluginsEnv = "CARDHOUSE_PLUGINS"

// newScenarioCmd is `cardhouse scenario [--plugins DIR] FILE_OR_DIR...`: it runs rule scenarios
// (docs/scenarios.md) through the same plugin processes the server uses, the built-in variants
// included (the binary launches itself for them), prints one line per scenario and "N passed, N
// failed", and fails when any scenario fails.
func newScenarioCmd() *cobra.Command {
	var plugins string
	cmd := &cobra.Command{
		Use:   "scenario [--plugins DIR] FILE_OR_DIR...",
		Short: "Run rule scenarios against the rulesets, through their plugin processes",
		Long: `Run rule scenarios (YAML files, see docs/scenarios.md) against the rulesets.

Folders are searched recursively for *.yaml and *.yml. Every ruleset runs in its own plugin
process, exactly as the server runs it: the built-in variants, and the external plugins found in
--plugins (default $` + pluginsEnv + `). One line is printed per scenario, "ok NAME" or
"FAIL NAME: step K: WHAT, want X, got Y", then "N passed, N failed". The exit status is non-zero
when any scenario fails or cannot be read.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			return runScenarios(ctx, cmd.OutOrStdout(), openEngines, plugins, args)
		},
	}
	cmd.Flags().StringVar(&plugins, "plugins", os.Getenv(pluginsEnv), "folder of external ruleset plugins (default $"+pluginsEnv+")")
	return cmd
}

// engineOpener opens every ruleset the binary can run, by id, and returns a function that stops
// their processes (openEngines in cmd_plugin.go).
type engineOpener func(ctx context.Context, pluginsDir string) (map[string]engine.Engine, func(), error)

// runScenarios runs the scenarios under paths against the engines open gives, writing the
// runner's lines to w; it returns an error when a scenario failed or the rulesets cannot be opened.
func runScenarios(ctx context.Context, w io.Writer, open engineOpener, pluginsDir string, paths []string) error {
	engines, closeAll, err := open(ctx, pluginsDir)
	if err != nil {
		return fmt.Errorf("opening the rulesets: %w", err)
	}
	if closeAll != nil {
		defer closeAll()
	}
	_, failed := scenario.RunAll(ctx, w, scenario.MapLookup(engines), paths...)
	if failed > 0 {
		return fmt.Errorf("%d scenario(s) failed", failed)
	}
	return nil
}
