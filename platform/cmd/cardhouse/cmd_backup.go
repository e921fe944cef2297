package main

import (
	"fmt"
	"path/filepath"
	"time"

	"cardhouse/platform/store"

	"github.com/spf13/cobra"
)

// pgBackupHint says how a PostgreSQL database is backed up and restored (docs/operations.md).
const pgBackupHint = `--db names a PostgreSQL database: back it up with PostgreSQL's own tools, while the site runs:
  pg_dump --format=custom --file=cardhouse.dump "$CARDHOUSE_DB"
and restore it, every node stopped, with
  pg_restore --clean --if-exists --no-owner --dbname="$CARDHOUSE_DB" cardhouse.dump
(docs/operations.md, "Back up and restore")`

// newBackupCmd is `cardhouse backup [FILE]`: a consistent copy of the embedded SQLite database,
// taken while the server runs.
func newBackupCmd() *cobra.Command {
	var f adminDBFlags
	cmd := &cobra.Command{
		Use:   "backup [FILE]",
		Short: "Copy the SQLite database consistently while the server runs (default FILE: backups/cardhouse-TIME.db beside --data)",
		Long: `Copy the embedded SQLite database (cardhouse.db in --data) into a new file, consistently, while
the server goes on playing: the copy holds every action acknowledged before it began (SQLite's
VACUUM INTO, one read transaction). The copy is checked (SQLite's integrity check, the schema
version, the counts it prints) before the command succeeds. It never overwrites a file.
Restore a copy with 'cardhouse restore'. A PostgreSQL database (--db) is copied with pg_dump.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			src, ok := store.SQLitePath(store.Config{DSN: f.db, DataDir: f.data})
			if !ok {
				return fmt.Errorf("%s", pgBackupHint)
			}
			out := filepath.Join(filepath.Dir(src), "backups", "cardhouse-"+time.Now().UTC().Format("20060102T150405Z")+".db")
			if len(args) == 1 {
				out = args[0]
			}
			info, err := store.Backup(cmd.Context(), src, out)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "backed up %s to %s\n", src, info)
			return nil
		},
	}
	dbFlags(cmd, &f)
	return cmd
}

// newRestoreCmd is `cardhouse restore FILE`: a backup put in place of the SQLite database, the
// server stopped.
func newRestoreCmd() *cobra.Command {
	var f adminDBFlags
	var force bool
	cmd := &cobra.Command{
		Use:   "restore FILE",
		Short: "Put a backup in place of the SQLite database (the server stopped)",
		Long: `Put a backup made by 'cardhouse backup' in place of the embedded SQLite database (cardhouse.db in
--data). The server must be stopped (the command refuses while a server or 'cardhouse admin' has
the database open). The backup is checked first; one made by a newer Cardhouse is refused. A
database already there is kept beside it as cardhouse.db.replaced-TIME, and only with --force.
The next 'cardhouse serve' migrates the restored file if it is older, and its live games resume.
A PostgreSQL database (--db) is restored with pg_restore.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dst, ok := store.SQLitePath(store.Config{DSN: f.db, DataDir: f.data})
			if !ok {
				return fmt.Errorf("%s", pgBackupHint)
			}
			info, replaced, err := store.Restore(cmd.Context(), args[0], dst, force)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "restored %s to %s\n", args[0], info)
			if replaced != "" {
				fmt.Fprintf(cmd.OutOrStdout(), "the database it replaced is kept as %s\n", replaced)
			}
			if info.Version < info.Known {
				fmt.Fprintf(cmd.OutOrStdout(), "its schema (version %d) is migrated to version %d when the server starts\n", info.Version, info.Known)
			}
			return nil
		},
	}
	dbFlags(cmd, &f)
	cmd.Flags().BoolVar(&force, "force", false, "replace a database already there (it is kept as cardhouse.db.replaced-TIME)")
	return cmd
}

// dbFlags adds serve's database flags to cmd.
func dbFlags(cmd *cobra.Command, f *adminDBFlags) {
	fl := cmd.Flags()
	fl.StringVar(&f.data, "data", envOr("CARDHOUSE_DATA", "./data"), "folder of the embedded SQLite database (env CARDHOUSE_DATA)")
	fl.StringVar(&f.db, "db", envOr("CARDHOUSE_DB", ""), "PostgreSQL DSN; empty for SQLite in --data (env CARDHOUSE_DB)")
}
