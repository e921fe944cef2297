package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"cardhouse/platform/store"
	"cardhouse/platform/store/storetest"
)

// runAdmin runs `cardhouse admin args...` with stdin and returns stdout and the error.
func runAdmin(t *testing.T, stdin string, args ...string) (string, error) {
	t.Helper()
	cmd := newAdminCmd()
	var out, errOut bytes.Buffer
	cmd.SetArgs(args)
	cmd.SetIn(strings.NewReader(stdin))
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.ExecuteContext(context.Background())
	return out.String(), err
}

// TestAdminCommands makes the first admin from the command line (password on stdin), promotes
// and demotes, and checks each refusal changes nothing; on SQLite and PostgreSQL.
func TestAdminCommands(t *testing.T) {
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			storetest.SkipUnlessAvailable(t, dialect)
			dir := t.TempDir()
			// SQLite through --data (the file cardhouse.db there), PostgreSQL through --db.
			dsn := storetest.DSN(t, dialect, dir)
			db := []string{"--db", dsn}
			if dialect == "sqlite" {
				db = []string{"--data", dir}
			}
			with := func(args ...string) []string { return append(args, db...) }

			out, err := runAdmin(t, "correct horse\n", with("create-user", "Root", "--admin")...)
			if err != nil || !strings.Contains(out, "created root (id 1, admin)") {
				t.Fatalf("create-user --admin: %q, %v", out, err)
			}
			if _, err := runAdmin(t, "correct horse\n", with("create-user", "root")...); err == nil || !strings.Contains(err.Error(), "taken") {
				t.Errorf("a second root: %v", err)
			}
			if _, err := runAdmin(t, "short\n", with("create-user", "pat")...); err == nil || !strings.Contains(err.Error(), "password") {
				t.Errorf("a short password: %v", err)
			}
			if _, err := runAdmin(t, "", with("create-user", "pat")...); err == nil || !strings.Contains(err.Error(), "stdin") {
				t.Errorf("no password at all: %v", err)
			}
			if _, err := runAdmin(t, "correct horse\n", with("create-user", "Bad Name")...); err == nil || !strings.Contains(err.Error(), "username") {
				t.Errorf("a bad username: %v", err)
			}
			if _, err := runAdmin(t, "correct horse\n", with("create-user", "pat")...); err != nil {
				t.Fatal(err)
			}
			if out, err := runAdmin(t, "", with("promote", "PAT")...); err != nil || !strings.Contains(out, "pat's role is now admin") {
				t.Errorf("promote: %q %v", out, err)
			}
			if _, err := runAdmin(t, "", with("promote", "pat")...); err == nil || !strings.Contains(err.Error(), "already") {
				t.Errorf("promote twice: %v", err)
			}
			if out, err := runAdmin(t, "", with("demote", "pat")...); err != nil || !strings.Contains(out, "pat's role is now player") {
				t.Errorf("demote: %q %v", out, err)
			}
			if _, err := runAdmin(t, "", with("demote", "nobody")...); err == nil || !strings.Contains(err.Error(), `no account named "nobody"`) {
				t.Errorf("demote nobody: %v", err)
			}

			ctx := context.Background()
			st, err := store.Open(ctx, store.Config{DSN: dsn})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			root, err := st.UserByUsername(ctx, "root")
			if err != nil || root.Role != store.RoleAdmin || root.PasswordHash == "" || root.PasswordHash == "correct horse" {
				t.Fatalf("root: %+v %v", root, err)
			}
			pat, _ := st.UserByUsername(ctx, "pat")
			if pat.Role != store.RolePlayer {
				t.Errorf("pat is %s", pat.Role)
			}
			entries, _, err := st.Audit(ctx, store.AuditQuery{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range entries {
				if !strings.HasPrefix(e.Actor, "command line (") {
					t.Errorf("actor %q", e.Actor)
				}
				got = append([]string{e.Action + " " + e.Target}, got...)
			}
			want := "user.create root,user.create pat,user.promote pat,user.demote pat"
			if strings.Join(got, ",") != want {
				t.Errorf("audit: %v, want %s", got, want)
			}
		})
	}
}
