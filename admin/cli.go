package admin

// What `cardhouse admin ...` does (platform/cmd/cardhouse/cmd_admin.go is its command line): the
// first admin account, and promotion or demotion of an account by name. These run against the
// store directly, without a server, and write the audit log as the command line.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/user"
	"strings"

	"cardhouse/platform/server"
	"cardhouse/platform/store"

	"golang.org/x/crypto/bcrypt"
)

// CLIActor is who the audit log names for an action of the command line: the operating-system
// user who ran it, on which host.
func CLIActor() Actor {
	name := "unknown"
	if u, err := user.Current(); err == nil {
		name = u.Username
	}
	host, _ := os.Hostname()
	return Actor{Name: "command line (" + name + "@" + host + ")"}
}

// CreateAccount creates a registered account with the username and password, as an admin when
// asAdmin, checking both as registration does. cost is the bcrypt cost (0: the default).
func CreateAccount(ctx context.Context, st *store.Store, by Actor, username, password string, asAdmin bool, cost int) (*store.User, error) {
	username = strings.ToLower(strings.TrimSpace(username))
	if !server.ValidUsername(username) {
		return nil, fmt.Errorf("username %q: want 3 to 32 of a-z, 0-9, _ and -", username)
	}
	if !server.ValidPassword(password) {
		return nil, fmt.Errorf("password: want 8 to 72 bytes, got %d", len(password))
	}
	if cost == 0 {
		cost = bcrypt.DefaultCost
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), cost)
	if err != nil {
		return nil, err
	}
	role := store.RolePlayer
	if asAdmin {
		role = store.RoleAdmin
	}
	u := &store.User{Username: &username, DisplayName: username, PasswordHash: string(hash), Role: role}
	if err := st.CreateUser(ctx, u); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return nil, fmt.Errorf("username %q is taken (promote it instead: cardhouse admin promote %s)", username, username)
		}
		return nil, err
	}
	id := u.ID
	detail := "created as " + role
	if err := st.AddAudit(ctx, &store.AuditEntry{Actor: by.Name, Action: "user.create", TargetType: "user", TargetID: idStr(id), Target: username, Detail: detail}); err != nil {
		return u, fmt.Errorf("account %s created, but writing the audit log failed: %w", username, err)
	}
	return u, nil
}

// SetRoleByName promotes (role admin) or demotes (role player) the registered account username.
// Setting the role it has already is an error saying so.
func SetRoleByName(ctx context.Context, st *store.Store, by Actor, username, role string) (*store.User, error) {
	if role != store.RoleAdmin && role != store.RolePlayer {
		return nil, fmt.Errorf("role: want %q or %q, got %q", store.RolePlayer, store.RoleAdmin, role)
	}
	u, err := st.UserByUsername(ctx, strings.TrimSpace(username))
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("no account named %q", username)
	}
	if err != nil {
		return nil, err
	}
	if u.Role == role {
		return nil, fmt.Errorf("%s is already a %s", *u.Username, role)
	}
	if u.Banned && role == store.RoleAdmin {
		return nil, fmt.Errorf("%s is banned: unban it before promoting", *u.Username)
	}
	if err := st.SetRole(ctx, u.ID, role); err != nil {
		return nil, err
	}
	action := "user.promote"
	if role == store.RolePlayer {
		action = "user.demote"
	}
	old := u.Role
	u.Role = role
	if err := st.AddAudit(ctx, &store.AuditEntry{Actor: by.Name, Action: action, TargetType: "user", TargetID: idStr(u.ID), Target: *u.Username, Detail: old + " → " + role}); err != nil {
		return u, fmt.Errorf("%s is now a %s, but writing the audit log failed: %w", *u.Username, role, err)
	}
	return u, nil
}
