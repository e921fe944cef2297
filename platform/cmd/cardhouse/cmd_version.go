package main

import (
	"fmt"

	"cardhouse/sdk"

	"github.com/spf13/cobra"
)

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the versions of Cardhouse and its SDK",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintf(cmd.OutOrStdout(), "cardhouse (sdk %s)\n", sdk.Version)
			return nil
		},
	}
}
