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
// # Transports
//
// go-plugin connects host and plugin with gRPC, and a unary gRPC call costs an HTTP/2 stream,
// headers both ways and several goroutine hand-offs on each side: ~300 µs for a trivial call on a
// busy 2-core machine. So the host moves its calls onto one long-lived channel per process,
// multiplexed by call id, each call one message each way ([Config.Transport], [Stats.Transport]):
//
//   - TransportSocket (the default): the plugin opens a private unix socket for this host
//     (OpenChannel; a random token, one connection, the socket removed once connected) and
//     serves framed protobuf messages on it. The caller reads its own reply off the socket, the
//     plugin serves the call on the goroutine that read it: no goroutine to wake on the way.
//   - TransportStream: the same messages on one bidirectional gRPC stream (Calls).
//   - TransportUnary: one gRPC call per engine call; what plugins built before the multiplexed
//     transports answer. Describe at launch tells which the plugin offers; the host falls back.
//
// Every transport keeps the same guarantees: typed errors, a deadline per call (on a channel a
// watchdog with one timer for all calls enforces it, and the plugin's side gets the deadline in
// its context), a cancelled call cancelled in the plugin, a crash noticed as the channel ends,
// concurrent calls served concurrently.
//
// Start reading at process.go (the host side), then serve.go (the plugin side and the handshake).
// The wire protocol (ProtocolVersion 1) is internal/pb/rulesetv1/ruleset.proto; its generated code,
// the converters between it and the sdk types and both ends of the multiplexed channels live in
// internal/adapter, so plugin authors never see protobuf. Regenerate with gen.sh (or go generate
// ./sdk/plugin).
package plugin
