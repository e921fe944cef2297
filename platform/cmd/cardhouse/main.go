// Command cardhouse is Cardhouse's one binary: it serves the site, runs rule scenarios, serves the
// built-in variants as plugins (it launches itself for that), and administers.
package main

import (
	"fmt"
	"os"
	"time"

	"cardhouse/sdk/plugin"

	"github.com/spf13/cobra"
)

func main() {
	err := newRootCmd().Execute()
	// Stop every plugin process this run launched (os.Exit skips defers, so it is done here).
	plugin.CleanupClients(5 * time.Second)
	if err != nil {
		fmt.Fprintln(os.Stderr, "cardhouse:", err)
		os.Exit(1)
	}
}

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "cardhouse",
		Short:         "Cardhouse: an open platform for card games",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	// Every subcommand is listed here, explicitly.
	root.AddCommand(
		newServeCmd(),
		newScenarioCmd(),
		newPluginCmd(),
		newRulesCmd(),
		newAdminCmd(),
		newBackupCmd(),
		newRestoreCmd(),
		newTournamentCmd(),
		newBenchCmd(),
		newVersionCmd(),
	)
	return root
}
