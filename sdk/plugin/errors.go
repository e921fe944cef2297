package plugin

import (
	"errors"
	"fmt"

	"cardhouse/sdk"
)

// ErrCrashed matches every *CrashError: the plugin process died during the call.
var ErrCrashed = errors.New("plugin process crashed")

// ErrClosed is returned by calls on a Process after Close (or CleanupClients).
var ErrClosed = errors.New("plugin process closed")

// CrashError is a call that failed because the plugin process died under it: an os.Exit, a panic
// that escaped, a kill -9, the OOM killer. errors.Is matches both ErrCrashed and sdk.ErrRuleset.
// The state the host sent is untouched and still good: the next call launches a fresh process,
// and sending the same state again continues the game.
type CrashError struct {
	// Plugin names the executable (Spec.String()).
	Plugin string
	// Op is the call that was in flight: "Describe", "NewGame", "Act", "Inspect", "Bot".
	Op string
	// PID is the process that died.
	PID int
	// Err is what the transport reported.
	Err error
}

func (e *CrashError) Error() string {
	return fmt.Sprintf("plugin %s (pid %d) crashed during %s: %v", e.Plugin, e.PID, e.Op, e.Err)
}

func (e *CrashError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrCrashed) and errors.Is(err, sdk.ErrRuleset) true.
func (e *CrashError) Is(target error) bool { return target == ErrCrashed || target == sdk.ErrRuleset }

// LaunchError is a plugin that could not be started or did not answer its first Describe: a
// missing or non-executable file, a failed handshake (not a Cardhouse plugin, or one speaking
// another protocol version), a start that timed out. errors.Is matches sdk.ErrRuleset.
type LaunchError struct {
	Plugin string
	Err    error
}

func (e *LaunchError) Error() string { return fmt.Sprintf("launching plugin %s: %v", e.Plugin, e.Err) }

func (e *LaunchError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, sdk.ErrRuleset) true.
func (e *LaunchError) Is(target error) bool { return target == sdk.ErrRuleset }
