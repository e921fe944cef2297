package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"cardhouse/admin"
	"cardhouse/platform/store"

	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// adminDBFlags are the database flags of `cardhouse admin`, the same as serve's.
type adminDBFlags struct{ data, db string }

func (f *adminDBFlags) open(ctx context.Context) (*store.Store, error) {
	return store.Open(ctx, store.Config{DSN: f.db, DataDir: f.data})
}

// newAdminCmd is `cardhouse admin`: account administration from the command line, against the
// database directly (the server may be running). The admin pages are under /admin of the server.
func newAdminCmd() *cobra.Command {
	var f adminDBFlags
	cmd := &cobra.Command{
		Use:   "admin",
		Short: "Administer accounts from the command line (the first admin, promotion, demotion)",
		Long: `Administer accounts against the database directly. The first admin is made with
  cardhouse admin create-user NAME --admin
which asks for the password on the terminal (twice), or reads it from the first line of stdin when
stdin is not a terminal. Every action is written to the admin audit log as the command line.
The rest of the admin area is the web pages under /admin of a running server.`,
	}
	pf := cmd.PersistentFlags()
	pf.StringVar(&f.data, "data", envOr("CARDHOUSE_DATA", "./data"), "folder of the embedded SQLite database (env CARDHOUSE_DATA)")
	pf.StringVar(&f.db, "db", envOr("CARDHOUSE_DB", ""), "PostgreSQL DSN; empty for SQLite in --data (env CARDHOUSE_DB)")
	cmd.AddCommand(newAdminCreateUserCmd(&f), newAdminRoleCmd(&f, "promote", store.RoleAdmin), newAdminRoleCmd(&f, "demote", store.RolePlayer))
	return cmd
}

func newAdminCreateUserCmd(f *adminDBFlags) *cobra.Command {
	var asAdmin bool
	cmd := &cobra.Command{
		Use:   "create-user NAME",
		Short: "Create a registered account (--admin: an admin); the password comes from the terminal or stdin",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			pw, err := readPassword(cmd.InOrStdin(), cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			st, err := f.open(cmd.Context())
			if err != nil {
				return err
			}
			defer st.Close()
			u, err := admin.CreateAccount(cmd.Context(), st, admin.CLIActor(), args[0], pw, asAdmin, 0)
			if err != nil {
				return fmt.Errorf("admin create-user: %w", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "created %s (id %d, %s)\n", *u.Username, u.ID, u.Role)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asAdmin, "admin", false, "make the account an admin")
	return cmd
}

func newAdminRoleCmd(f *adminDBFlags, verb, role string) *cobra.Command {
	return &cobra.Command{
		Use:   verb + " NAME",
		Short: strings.ToUpper(verb[:1]) + verb[1:] + " a registered account to " + role,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := f.open(cmd.Context())
			if err != nil {
				return err
			}
			defer st.Close()
			u, err := admin.SetRoleByName(cmd.Context(), st, admin.CLIActor(), args[0], role)
			if err != nil {
				return fmt.Errorf("admin %s: %w", verb, err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s's role is now %s\n", *u.Username, u.Role)
			return nil
		},
	}
}

// readPassword asks for the password twice without echo when in is a terminal, and otherwise
// reads the first line of in (a pipe or a file: scripts and tests).
func readPassword(in io.Reader, prompt io.Writer) (string, error) {
	if f, ok := in.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprint(prompt, "Password: ")
		a, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(prompt)
		if err != nil {
			return "", fmt.Errorf("reading the password: %w", err)
		}
		fmt.Fprint(prompt, "Again: ")
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(prompt)
		if err != nil {
			return "", fmt.Errorf("reading the password: %w", err)
		}
		if string(a) != string(b) {
			return "", errors.New("the two passwords differ")
		}
		return string(a), nil
	}
	line, err := bufio.NewReader(in).ReadString('\n')
	if err != nil && !(errors.Is(err, io.EOF) && line != "") {
		return "", errors.New("reading the password from stdin: give it on the first line")
	}
	return strings.TrimRight(line, "\r\n"), nil
}
