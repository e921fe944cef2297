// Package botplay plays games with bots over an [engine.Engine]: the one loop behind the
// tournament (`cardhouse tournament`), the in-process bench, the conformance kit's playouts
// (sdk/rulesettest) and the house-rule dry runs (`cardhouse rules check`, the server's upload
// check). What differs between them is configuration, not code: who chooses for a seat ([Bot]:
// the engine's bot through [EngineBot], a bot reading the seats' views, random actions), the
// order the seats are asked in ([OutOfTurnFirst]), how the clock moves and when the deadlines
// fire, the step bound, the number of games dealt one after another, a bound per engine call, and
// an observer of every action tried ([Config.OnAct]) for digests, counts and timing.
//
// Start reading at play.go ([Play], [Config], [Result]); bots.go has the ready-made bots and
// orders, error.go the error a game that cannot go on returns.
package botplay
