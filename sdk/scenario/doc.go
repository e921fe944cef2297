// Package scenario reads rule scenarios (the YAML format of docs/scenarios.md, a fixed contract)
// and plays them against any engine.Engine: in-process (engine.New) or across the plugin process.
//
// Start reading at [ParseFile] and [Run]; [RunAll] is what `cardhouse scenario` prints, and
// sdk/rulesettest.Scenarios wraps [Run] for ruleset tests.
//
// # Parsing
//
// Parsing is strict: an unknown key, a value of the wrong type, an unknown card code, a step with
// no action or with two, a modifier that does not go with the action (`suit` on a draw), `seat`
// missing on a seat's action, `wait` below 0 are all a [*ParseError] naming the file, the step
// (counting from 1), the field and the line: `queen.yaml: step 3: play: unknown card code "QX" (line 7)`. A file
// without `name` is named after its base name. `seed` defaults to 0. `random` takes a list per
// label (a single value is a list of one). `reject: false` is the same as no `reject`.
//
// Beyond the fixed format (a runner may accept more, never less), one step sends any action type a
// ruleset or house rule defines: `act: {type: TYPE, cards: [CARDS], target: SEAT, index: N,
// args: {KEY: VALUE}}` with `seat` (required), and `suit`, `color`, `from` and `reject` beside it
// as with `play`. Only `type` is required inside; each key fills the sdk.Action field of its name
// (args values are text: `2` is "2"). `{seat: 0, act: {type: play, cards: [8H]}, suit: S}` is the
// same action as `{seat: 0, play: [8H], suit: S}`.
//
// # Running
//
// The game starts with NewGame (seats, options, seed, deal, random as Forced, house rules read
// relative to the YAML file and passed as sdk.HouseRule{Name: the script's base name without
// extension, Version: 1, Source}), at game clock 0 ms. Then, step by step:
//
//   - An action step is sent with Act at the current clock; `deal: true` is the host's
//     (sdk.Host) ActDeal; `bot: LEVEL` asks Engine.Bot (seed: the scenario's seed mixed with the
//     step number, so a run is reproducible) and applies what it chose.
//   - Without `reject` the action must be accepted. With it, it must be refused, meaning
//     errors.Is(err, sdk.ErrIllegal); any other error (a ruleset failure) is a FAIL, never a
//     refusal. The reason must contain `reject`'s text (case-insensitive) and must not be empty;
//     the old state bytes are kept and Inspect must observe the same game and status as before.
//     A refused action produces no events and leaves "the last action" as it was.
//   - `wait: S` fires every deadline of the latest status that is due at or before clock+S, one
//     at a time in time order (ties in listed order), each as sdk.Action{Seat: sdk.Clock, Type:
//     sdk.ActDeadline, Deadline: ID} at its At, re-reading the deadlines after every firing; then
//     the clock is clock+S. A refused or failing firing is a FAIL.
//   - After every step, Inspect's Cards must equal the starting cards as a multiset
//     (sdk.CardDiff names what was lost or invented).
//
// # Expectations
//
// Each key given is compared with the ruleset's Observation (keys not given are not checked; a
// key the ruleset does not observe is a FAIL listing the keys it does). Values are first made
// plain, as JSON carries them, so numbers compare numerically whatever YAML or JSON gave (7 equals
// 7.0) and null equals nil. Card codes compare as cards (qh equals QH). Then by key:
//
//   - hands and face_up: one row per seat, in seat order, each row a multiset;
//   - hand.N and face_up.N: a multiset; derived from row N of hands (face_up) when the ruleset
//     does not observe the key itself;
//   - last_card_open and called: sets of seats;
//   - events: the names the last accepted action or wait produced (for an expect before any
//     action, those of the start) must contain the given list as a subsequence;
//   - every other key (pile, deck, hand_count, scores, turn, ...): exactly, lists in order.
//
// # Output
//
// A passing scenario is "ok NAME"; a failing one "FAIL NAME: step K: WHAT, want X, got Y", K
// counting the steps from 1 as they stand in the file (expect and wait steps included); a game
// that cannot start reads "FAIL NAME: start, want a game, got refused: ...". A file that cannot be
// read or parsed is "FAIL " and its [*ParseError]. [RunAll] ends with "N passed, N failed".
package scenario
