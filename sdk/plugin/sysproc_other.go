//go:build !linux

package plugin

import "os/exec"

// configureCmd does nothing where the kernel has no parent-death signal: Managed clients and
// CleanupClients are the only guard against orphaned plugins there.
func configureCmd(*exec.Cmd) {}
