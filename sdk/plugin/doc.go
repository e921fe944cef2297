// Package plugin runs Cardhouse rulesets as separate processes over hashicorp/go-plugin (gRPC).
//
// A variant's executable is one line:
//
//	func main() { plugin.Serve(sdk.NewEngine(lastcard.New())) }
//
// The host side is [Process], built from a [Spec] (or found with [Discover]): an [sdk.Engine]
// exactly like the in-process sdk.NewEngine, so a ruleset runs in or out of process unchanged.
// Process launches the plugin on first use, gives every call a deadline, relaunches the plugin
// after a crash or a timeout, and counts calls, errors and latencies ([Process.Stats]). A host
// calls [CleanupClients] once at exit.
//
// Errors cross the boundary typed: a refused action is a *sdk.RuleError (errors.Is sdk.ErrIllegal)
// with the same Code and Reason; a ruleset failure (a bug, a recovered panic) a *sdk.FailureError
// (sdk.ErrRuleset); a call past its deadline wraps context.DeadlineExceeded; a process that died is
// a *CrashError (ErrCrashed and sdk.ErrRuleset). The host keeps every game's state, so after a
// crash the same state bytes continue the game on the fresh process.
//
// Start reading at process.go (the host side), then serve.go (the plugin side and the handshake).
// The wire protocol (ProtocolVersion 1) is internal/pb/rulesetv1/ruleset.proto; its generated code
// and the converters between it and the sdk types live in internal/, so plugin authors never see
// protobuf. Regenerate with gen.sh (or go generate ./sdk/plugin).
package plugin
