package plugin

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"cardhouse/sdk"
)

// ErrCrashed matches every *CrashError: the plugin process died during the call.
var ErrCrashed = errors.New("plugin process crashed")

// ErrProtocol matches a launch refused because the plugin speaks another wire protocol than the
// host (ProtocolVersion): it was built against an SDK the host cannot talk to.
var ErrProtocol = errors.New("plugin speaks another protocol")

// protocolError is the clear form of go-plugin's "incompatible API version" refusal.
type protocolError struct {
	plugin int
	host   []int
	err    error
}

func (e *protocolError) Error() string {
	newer := "a newer"
	if len(e.host) > 0 && e.plugin < slices.Min(e.host) {
		newer = "an older"
	}
	return fmt.Sprintf("it speaks Cardhouse plugin protocol %d; this server speaks protocol %s: it was built against %s Cardhouse SDK. Rebuild the plugin against this server's SDK (sdk/plugin.ProtocolVersion %d), or run a server that speaks protocol %d (%v)",
		e.plugin, joinInts(e.host), newer, ProtocolVersion, e.plugin, e.err)
}

func (e *protocolError) Unwrap() error { return e.err }

func (e *protocolError) Is(target error) bool { return target == ErrProtocol }

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, " or ")
}

// incompatible is go-plugin's message for a handshake of another protocol version.
var incompatible = regexp.MustCompile(`incompatible API version with plugin\. Plugin version: (\d+), Client versions: \[([\d ]*)\]`)

// asProtocolError turns go-plugin's refusal of a plugin of another protocol into a protocolError;
// any other error is returned as it is.
func asProtocolError(err error) error {
	m := incompatible.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	pe := &protocolError{err: err}
	pe.plugin, _ = strconv.Atoi(m[1])
	for _, f := range strings.Fields(m[2]) {
		if n, err := strconv.Atoi(f); err == nil {
			pe.host = append(pe.host, n)
		}
	}
	slices.Sort(pe.host)
	return pe
}

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
