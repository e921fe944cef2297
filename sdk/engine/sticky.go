package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"

	"cardhouse/sdk"
)

// A sticky engine keeps each named game's decoded state between calls, so that a host that
// holds a game need not send its state with every call nor take it back after every action
// (DESIGN.md, "Rulesets are pure"). The host names the game and says how many actions it has had
// (GameRef); the engine answers from its copy when it holds exactly that game after exactly that
// many actions, and with ErrNeedState when it does not (a fresh process, an evicted game, another
// host), and the host calls again with the state bytes it keeps and the actions since them. The
// copy is only ever a cache: what the engine does with it is what it does with the bytes.

// ErrNeedState is the answer to a call that names a game (GameRef) without its state when the
// engine does not hold that game after GameRef.Seq actions: the host calls again with the state
// bytes and GameRef.Tail. It is neither a refusal nor a ruleset failure.
var ErrNeedState = errors.New("the engine does not hold this game's state: send it")

// GameRef names a game whose decoded state a sticky engine (Description.Sticky) may keep between
// calls. The zero GameRef names none: the call's state bytes are the state, as for any engine.
type GameRef struct {
	// Game is the host's key for the game. A host makes it unique to its own copy of the game (a
	// room code, the game's number and a random number drawn when the room was loaded), so that
	// two hosts, or one host before and after a reload, never mistake each other's copies.
	Game string `json:"game,omitempty"`
	// Seq is how many actions the host's game has had: the call is about the state after them.
	Seq int `json:"seq,omitempty"`
	// Tail are the actions the call's state bytes are still to go through to be the state after
	// Seq actions (a host sends the bytes of the state it stored last and the actions since). They
	// are applied as they were accepted, without views; one that is refused now is a failure.
	Tail []Logged `json:"tail,omitempty"`
}

// Logged is one accepted action and the clock it was applied at.
type Logged struct {
	Action sdk.Action `json:"action"`
	Now    int64      `json:"now"`
}

// gameCacheSize bounds the games a sticky engine keeps: a few KiB each, a few hundred live games
// per plugin. Past it the game used least recently is forgotten (its host then sends its state).
const gameCacheSize = 4096

// gameCache is a sticky engine's games, by key.
type gameCache[S any] struct {
	mu    sync.Mutex
	games map[string]*gameEntry[S]
	// clock counts uses; each entry remembers its last, and eviction drops the oldest.
	clock uint64
}

// gameEntry is one game's state after seq actions. A game with house rules keeps its stored form
// (blob) instead of a decoded state: the house rules' memory is advanced in place by the runner,
// so every call decodes it afresh from the bytes, exactly as it would from the host's.
type gameEntry[S any] struct {
	seq   int
	state S
	env   envelope
	blob  []byte
	used  uint64
	// views are the typed views of the step that made this state, when it made them (keptViews).
	views *keptViews
}

func (c *gameCache[S]) get(key string, seq int) (*gameEntry[S], bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	g := c.games[key]
	if g == nil || g.seq != seq {
		return nil, false
	}
	c.clock++
	g.used = c.clock
	return g, true
}

func (c *gameCache[S]) put(key string, g *gameEntry[S]) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.games == nil {
		c.games = make(map[string]*gameEntry[S])
	}
	if _, ok := c.games[key]; !ok && len(c.games) >= gameCacheSize {
		oldest, at := "", ^uint64(0)
		for k, e := range c.games {
			if e.used < at {
				oldest, at = k, e.used
			}
		}
		delete(c.games, oldest)
	}
	c.clock++
	g.used = c.clock
	c.games[key] = g
}

// views returns the views key's game after seq actions was kept with (nil: none).
func (c *gameCache[S]) views(key string, seq int) *keptViews {
	c.mu.Lock()
	defer c.mu.Unlock()
	if g := c.games[key]; g != nil && g.seq == seq {
		return g.views
	}
	return nil
}

// forget drops key's game: it ended, or it cannot be kept.
func (c *gameCache[S]) forget(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.games, key)
}

// remember keeps s (with env) as key's game after seq actions. blob is its stored form when the
// caller has it; a game with house rules needs it and is not kept without it. views are the typed
// views of the step that made s, when it made them: the next step's patches are from them.
func (e *engine[S]) remember(key string, seq int, s S, env envelope, blob []byte, views *keptViews) {
	g := &gameEntry[S]{seq: seq, env: env, views: views}
	if len(env.HouseRules) > 0 || env.House != nil {
		if blob == nil {
			e.games.forget(key)
			return
		}
		g.blob = blob
	} else {
		g.state = s
	}
	e.games.put(key, g)
}

// resolve reads the state a call is about: from state (and ref's tail after it) when given, else
// from the engine's copy of ref's game, else ErrNeedState. A state read from bytes becomes the
// game's copy. The house rules' memory (env.House) is the caller's own to advance.
func (e *engine[S]) resolve(ctx context.Context, ref GameRef, state []byte) (S, envelope, error) {
	if len(state) == 0 && ref.Game != "" {
		if g, ok := e.games.get(ref.Game, ref.Seq); ok {
			if g.blob == nil {
				return g.state, g.env, nil
			}
			return e.decode(g.blob, false)
		}
		var zero S
		return zero, envelope{}, ErrNeedState
	}
	s, env, err := e.decode(state, ref.Game == "")
	if err != nil {
		return s, env, err
	}
	for i, l := range ref.Tail {
		var hs *houseState
		if s, _, hs, err = e.apply(ctx, s, env, l.Action, l.Now, false); err != nil {
			if ctx.Err() != nil {
				return s, env, ctx.Err()
			}
			return s, env, &sdk.FailureError{Ruleset: e.info.ID, Op: "replay", Err: fmt.Errorf("the game's action %d of %d after its stored state (%s of seat %d): %w", i+1, len(ref.Tail), l.Action.Type, l.Action.Seat, err)}
		}
		env.House = hs
		hs.takeReport() // what the tail's hooks printed was reported when it was played
	}
	if ref.Game != "" {
		// A game with house rules is kept as its stored form (the caller advances the memory it
		// decoded in place): the bytes given, or those of the state the tail reached.
		var blob []byte
		if len(env.HouseRules) > 0 || env.House != nil {
			if len(ref.Tail) == 0 {
				blob = bytes.Clone(state)
			} else if blob, err = e.encode(s, env.HouseRules, env.House, false); err != nil {
				return s, env, err
			}
		}
		e.remember(ref.Game, ref.Seq, s, env, blob, nil)
	}
	return s, env, nil
}
