//go:build linux

package plugin

import (
	"os/exec"
	"syscall"
)

// configureCmd makes the kernel kill the plugin when the host dies, even by kill -9, so no plugin
// is left orphaned. (Pdeathsig follows the host thread that started the child; the Go runtime
// does not end threads that did not lock themselves, so in practice this means the host process.)
func configureCmd(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
