// Package room runs Cardhouse's live rooms: one goroutine (an actor) per room owns that room's
// members, its current game, its connections and its timers, so rooms share no mutable state.
//
// Start reading at [Manager] (creating, loading and finding rooms), then room.go (the Room and
// its parts) and actor.go: every operation on a room, from a join request to a card played, is a
// function the actor runs in turn (Room.do). Each concern has its file and its part of the Room:
//
//   - game.go (roomGame): dealing, a player's action (Room.act, one path for HTTP and the
//     WebSocket; validate.go checks its shape), the engine call, the commit and the views. An
//     accepted action goes to the engine (a variant plugin, as an engine.Engine), then it is
//     committed (with the new state every StateEvery actions and at every phase change), and only
//     then does each connection get its own view (P-7, P-9); a room loaded after a restart replays
//     the stored actions after the stored state (Room.catchUp). sticky.go: with a sticky engine
//     the room names its game instead of sending the state, and keeps the stored state and the
//     actions since (its tail) to send when the engine does not hold the game. patches.go: the
//     protocol v2 patches of each action; lazy.go: while every connection takes patches, the room
//     asks the engine for the patches only and keeps its views as patches, made whole when read.
//   - membership.go (roomMembers): joining, leaving, kicks, approval, the host, bots, seats;
//     rejoin.go: taking a dropped guest's seat back by name; members.go: membership deltas;
//     kickban.go: who a kick keeps out, for a cooldown or banned from the room (stored bans).
//   - connections.go (roomConns): attaching and detaching connections, and what is sent to them
//     (the room, the views, goodbyes); client.go: one connection's bounded outbox (a channel, or
//     a Sink the actor flushes after each thing it does).
//   - timers.go (roomTimers): deadlines, bots and turn clocks, grace periods, pause and abandon.
//   - chat.go, dispatch.go (a WebSocket message to its operation), admin.go (the admin's view).
//   - rulesets.go: the engines rooms play, replaced whole when a rescan of the plugin folder adds
//     one (Manager.RescanPlugins), and the plugins the folder refused.
//
// protocol.go holds the versioned messages sent to clients; docs/protocol.md documents them.
// Time comes from a [Clock], so tests drive deadlines, grace periods and bot delays without
// sleeping.
//
// House rules: houserulecheck.go validates an uploaded script through the rulesets' plugins with a
// dry run of bot games (Manager.CheckHouseRule); houserules.go enables rules in a room and hands
// the enabled versions to each Deal, which pins them to the game. faults.go keeps a failing rule
// from freezing a live game: bots fall back to other actions, every failure is stored and counted,
// and a rule that keeps failing is suspended for the game by an action of its log.
package room
