package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"cardhouse/sdk"
)

// envelope is the header of a stored state: which ruleset, which state version, the house rules the
// game started with and their memory. The stored form is the header's JSON, a newline, then the
// ruleset's state as JSON (see encode): the large state is written and read once, never copied
// into or scanned out of a wrapper.
type envelope struct {
	Ruleset    string          `json:"r"`
	Version    int             `json:"v"`
	HouseRules []sdk.HouseRule `json:"h,omitempty"`
	House      *houseState     `json:"hs,omitempty"`
}

// encode writes the stored form of a state (header line, newline, state JSON) and, with
// remember, keeps the decoded state for the next call that brings these bytes back (a call about
// a named game has the game's copy instead: sticky.go).
func (e *engine[S]) encode(s S, rules []sdk.HouseRule, hs *houseState, remember bool) ([]byte, error) {
	head := e.plainHead
	if len(rules) > 0 || hs != nil {
		var err error
		if head, err = json.Marshal(envelope{Ruleset: e.info.ID, Version: e.info.StateVersion, HouseRules: rules, House: hs}); err != nil {
			return nil, &sdk.FailureError{Ruleset: e.info.ID, Op: "encode state", Err: err}
		}
	}
	var b []byte
	if ap, ok := e.r.(sdk.StateAppender[S]); ok {
		b = make([]byte, 0, len(head)+1+int(e.stateSize.Load()))
		b = ap.AppendState(append(append(b, head...), '\n'), s)
		if n := int64(len(b) - len(head) - 1); n > e.stateSize.Load() {
			e.stateSize.Store(n)
		}
	} else {
		raw, err := json.Marshal(s)
		if err != nil {
			return nil, &sdk.FailureError{Ruleset: e.info.ID, Op: "encode state", Err: err}
		}
		b = make([]byte, 0, len(head)+1+len(raw))
		b = append(append(append(b, head...), '\n'), raw...)
	}
	if remember {
		e.cache.put(b, true, s, envelope{Ruleset: e.info.ID, Version: e.info.StateVersion, HouseRules: rules, House: hs})
	}
	return b, nil
}

// decode reads a stored state. A state this engine produced recently comes from the cache: states
// are immutable (Apply never modifies its input), so the decoded value can be shared. remember
// puts a state decoded afresh in that cache.
func (e *engine[S]) decode(blob []byte, remember bool) (S, envelope, error) {
	if s, env, ok := e.cache.get(blob); ok {
		return s, env, nil
	}
	var zero S
	var env envelope
	cut := bytes.IndexByte(blob, '\n')
	if cut < 0 {
		return zero, env, &sdk.FailureError{Ruleset: e.info.ID, Op: "decode state", Err: errors.New("not a stored game state (no header line)")}
	}
	if err := json.Unmarshal(blob[:cut], &env); err != nil {
		return zero, env, &sdk.FailureError{Ruleset: e.info.ID, Op: "decode state", Err: fmt.Errorf("header: %w", err)}
	}
	if env.Ruleset != e.info.ID {
		return zero, env, &sdk.FailureError{Ruleset: e.info.ID, Op: "decode state", Err: fmt.Errorf("the state belongs to ruleset %q", env.Ruleset)}
	}
	raw := blob[cut+1:]
	if env.Version != e.info.StateVersion {
		up, ok := e.r.(sdk.Upgrader)
		if !ok {
			return zero, env, &sdk.FailureError{Ruleset: e.info.ID, Op: "decode state", Err: fmt.Errorf("state version %d, ruleset reads version %d and cannot upgrade", env.Version, e.info.StateVersion)}
		}
		var err error
		if raw, err = up.UpgradeState(env.Version, raw); err != nil {
			return zero, env, &sdk.FailureError{Ruleset: e.info.ID, Op: "upgrade state", Err: err}
		}
	}
	var s S
	if err := json.Unmarshal(raw, &s); err != nil {
		return zero, env, &sdk.FailureError{Ruleset: e.info.ID, Op: "decode state", Err: err}
	}
	if remember {
		e.cache.put(blob, false, s, env)
	}
	return s, env, nil
}

// StateJSON returns the ruleset's own state, as JSON, out of a stored state made by an Engine of
// this SDK: for tools, admin pages and tests that read a game's state without its ruleset.
func StateJSON(blob []byte) ([]byte, error) {
	cut := bytes.IndexByte(blob, '\n')
	if cut < 0 || !json.Valid(blob[:cut]) {
		return nil, errors.New("not a stored game state (no header line)")
	}
	return blob[cut+1:], nil
}
