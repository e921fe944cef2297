package room

import (
	"errors"
	"fmt"

	"cardhouse/sdk/engine"
)

// A sticky engine (engine.Description.Sticky) keeps the room's game decoded between calls: the
// room names the game and how many actions it has had, and sends the state's bytes only when the
// engine says it does not hold it (engine.ErrNeedState: a fresh plugin process after a crash, an
// evicted game, a room just loaded). Then it sends the state it holds, r.game.State, and the
// actions accepted since (r.tail), which the engine replays: the engine's copy is a cache, the
// room's state and tail are the game. The engine sends a new state back only when the room
// stores one (every StateEvery actions and at every phase change).

// sticky reports whether the room's engine keeps its games between calls.
func (r *Room) sticky() bool { return r.desc != nil && r.desc.Sticky }

// gameKey is the key of game number of this room in a sticky engine. The room's epoch, drawn
// when it was loaded, keeps it apart from any other copy of the game the engine may hold: the
// room before a reload, or another node's that lost the room's lease, whose copy may have gone
// on by an action that was never committed.
func (r *Room) gameKey(number int) string {
	return fmt.Sprintf("%s/%d/%016x", r.code, number, r.epoch)
}

// withState runs one engine call about the room's current game: with a sticky engine first by
// name alone, then, if the engine does not hold the game, with the state's bytes and the tail;
// with any other engine with the state, which is then the latest (its tail is empty).
func (r *Room) withState(call func(state []byte, ref engine.GameRef) error) error {
	if !r.sticky() {
		return call(r.game.State, engine.GameRef{})
	}
	ref := engine.GameRef{Game: r.gameKey(r.game.Number), Seq: r.game.Seq}
	err := call(nil, ref)
	if !errors.Is(err, engine.ErrNeedState) {
		return err
	}
	ref.Tail = r.tail
	return call(r.game.State, ref)
}
