// Package plugin runs Cardhouse rulesets as separate processes, launched and handshaken by
// hashicorp/go-plugin, their calls on one private socket per process.
//
// A variant's executable is one line:
//
//	func main() { plugin.Serve(engine.New(lastcard.New())) }
//
// The host side is [Process], built from a [Spec] (or found with [Discover]): an [engine.Engine]
// exactly like the in-process engine.New, so a ruleset runs in or out of process unchanged.
// Process launches the plugin on first use, gives every call a deadline, relaunches the plugin
// after a crash or a timeout, and counts calls, errors and latencies ([Process.Stats]). A host
// calls [CleanupClients] once at exit.
//
// Errors cross the boundary typed: a refused action is a *sdk.RuleError (errors.Is sdk.ErrIllegal)
// with the same Code and Reason; a ruleset failure (a bug, a recovered panic) a *sdk.FailureError
// (sdk.ErrRuleset); a call past its deadline wraps context.DeadlineExceeded; a process that died is
// a *CrashError (ErrCrashed and sdk.ErrRuleset); a call naming a game (engine.GameRef) that the
// plugin does not hold, engine.ErrNeedState (counted in Stats.NeedState, not an error). The host
// keeps every game's state, so after a crash the same state bytes continue the game on the fresh
// process: the plugin keeps the games it is told about decoded between calls (the engine's sticky
// cache), and a fresh process answers ErrNeedState until the host sends the state it stored last
// and the actions since.
//
// Process is also an [engine.HouseRuleDescriber]: the plugin compiles a house-rule script and runs
// its top level in its own sandbox and says what it declares (name, options, hooks, actions), or
// why it does not compile, with the line. The server checks uploads this way and runs no Lua.
//
// # How a call crosses
//
// go-plugin launches the plugin (Serve on its side), checks the handshake (the magic cookie and
// ProtocolVersion) and connects gRPC; the host then makes one gRPC call, OpenChannel, and the
// plugin answers with a private unix socket (a fresh folder, a random token, one connection
// accepted, the socket removed once connected). Every engine call, Describe first, crosses on
// that socket, none on gRPC: Process.Act gives the call its deadline (the context's, else
// Config.CallTimeout), the host's adapter converts the request to a protobuf Call with a fresh
// id and the deadline, and writes it as one frame (a 4-byte length, then the message; the frames
// of calls made while another call's write is in its system call cross together in the next
// write, as a batch, and so do the plugin's replies). On the
// plugin side the worker that reads the frame hands the reading turn to another and serves the
// call itself: it converts it back, calls the engine.Engine under a context that ends at the deadline
// or when the host cancels, and writes the Reply of the same id (the step's state, its events as
// Event messages, the status, the views; a refusal or a failure in its error field). A host that
// keeps a sticky game's views as patches asks for a lean step (ActRequest.patches_only): the reply
// then carries each view's patch and each seat's open actions instead of the views, about a
// seventh of the bytes, whenever the plugin can patch every view (else the views, as an older
// plugin, which ignores the flag, always sends them). On the host
// the caller holding the read token reads until its own reply comes, handing any other reply to
// its caller, so a lone call reads its answer straight off the socket. One watchdog timer per
// channel end expires the calls past their deadline; a caller that gives up sends a cancel for
// its id; the socket ending is how a dead process is noticed at once. Calls are served
// concurrently, answered in any order.
//
// Every guarantee above rests on that channel: typed errors (refusal, failure, deadline,
// cancellation, crash), a deadline per call, a cancelled call cancelled in the plugin, a crash
// noticed as the channel ends, concurrent calls served concurrently. A plugin built before the
// channel existed passes the handshake but cannot open it: its launch fails with a *LaunchError
// saying it must be rebuilt.
//
// Start reading at process.go (the host side), then serve.go (the plugin side and the handshake).
// The wire protocol (ProtocolVersion 1) is internal/pb/rulesetv1/ruleset.proto (its generated code
// beside it); the converters between it and the sdk types and both ends of the calls channel live
// in internal/adapter, so plugin authors never see protobuf. Regenerate with gen.sh (or go generate
// ./sdk/plugin).
package plugin
