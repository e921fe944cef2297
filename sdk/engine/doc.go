// Package engine is the host's side of a ruleset: it erases a ruleset's state type into an
// [Engine], the byte-level interface the server speaks (states are opaque bytes the host keeps,
// every call is coarse), and runs the games' house rules around the ruleset's own steps.
//
// A variant author needs one line of it, in the plugin's main:
//
//	func main() { plugin.Serve(engine.New(lastcard.New(), houserules.Enable())) }
//
// Start reading at engine.go ([Engine], [New], Describe), then one file per call: newgame.go,
// act.go, inspect.go, bot.go, with views.go (a step and its per-seat views), state.go (the
// versioned state envelope and its upgrade), statecache.go (the decoded states kept between
// calls, by their bytes) and sticky.go (the games a host names, [GameRef], kept decoded so that
// their state need not cross with every call; [ErrNeedState] when the engine does not hold one). houserule.go is the house-rule orchestration: which hooks run when, the checks after
// each ([HouseRuleRunner] is the script language's side; sdk/houserules is the Lua one), the
// actions rules add, and [HouseRuleDescriber]; suspend.go names the rule behind a hook's failure
// ([sdk.HouseFault]) and suspends a rule for the rest of a game ([ActSuspendHouseRule]); a step's
// [HouseReport] carries what the rules printed and, traced, every hook call, which hooktally.go
// counts ([HookTally]) for `rules check` and the upload's dry run. sdk/plugin serves an Engine over
// hashicorp/go-plugin, and its host-side client is an Engine too, so a ruleset runs in or out of
// process unchanged.
package engine
