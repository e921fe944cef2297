package room

import (
	"cardhouse/platform/viewpatch"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
)

// Protocol v2 (docs/protocol.md, "Patches"): after a full view, a connection that speaks
// ProtocolPatches receives only what changed in its seat's view. A sticky plugin writes the
// patches with the step, from the typed views it kept (engine.Step.Patches), when the room's
// views before the action are that plugin's own of the step before (stepPatches); otherwise
// (a fresh or restarted plugin, views read again) they are computed here from the bytes of the
// views before and after, once per seat (and once for all spectators). Either way they go only
// to the connections that hold the views before (Client.held): any other connection, and any view
// a patch would not make smaller, gets the full view.

// viewBase is the room's views as they were before an action: what a v2 connection holds when
// it has had every message since they were sent.
type viewBase struct {
	gen, game, seq int
	views          [][]byte
	spectator      []byte
	// fromStep: the views are those of the sticky engine's step that made the game of seq
	// actions, which the engine patches from (stepPatches).
	fromStep bool
	// whole: views and spectator are the views at seq; else patches kept unapplied (lazy.go)
	// lead from them to the views at seq, and they cannot be diffed.
	whole bool
}

// stepPatches are the patches a sticky engine wrote with a step (engine.Step.Patches), from the
// views of its step before, kept for the broadcast when the room's views before were exactly
// those: they need no diff here. Any other views (read again by refresh, made by a deal, or
// after a step without patches: a fresh or restarted plugin) are diffed here as before.
type stepPatches struct {
	gen       int // the viewGen of the views they patch to
	seats     [][]byte
	spectator []byte
	// fromGen is the viewGen of views that came whole from a sticky engine's step (adoptStep):
	// the next step's patches are from them while viewGen is still fromGen.
	fromGen int
	from    bool
}

// adoptStepPatches records, after adoptViews(step), that the room's views are the engine's own
// (a sticky engine's step), and keeps step's patches when base was the engine's own too.
func (r *Room) adoptStepPatches(step *engine.Step, base *viewBase) {
	sp := &r.stepPatches
	sp.seats, sp.spectator = nil, nil
	if stepPatchesApply(step, base) {
		sp.gen, sp.seats, sp.spectator = r.viewGen, step.Patches, step.SpectatorPatch
	}
	sp.from, sp.fromGen = r.sticky(), r.viewGen
}

// stepPatchesApply reports whether step's patches turn base's views into step's: the engine
// wrote them from the views of its step before, and base's are those.
func stepPatchesApply(step *engine.Step, base *viewBase) bool {
	return base != nil && base.fromStep && step.Patches != nil && len(step.Patches) == step.Status.Seats
}

// viewBase returns the room's current views as a base for the next action's patches (nil when
// it has none). The bytes stay valid through that action's broadcast: the next step's views are
// written into the other view buffer (adoptViews), refresh into new ones.
func (r *Room) viewBase() *viewBase {
	if r.game == nil || r.views == nil || r.broken != nil {
		return nil
	}
	fromStep := r.stepPatches.from && r.stepPatches.fromGen == r.viewGen
	return &viewBase{gen: r.viewGen, game: r.game.Number, seq: r.game.Seq, views: r.views, spectator: r.spectator, fromStep: fromStep,
		whole: len(r.lazySteps) == 0}
}

// viewSend is one sending of the views to the room's connections: the spectators' messages,
// encoded once for all of them, and the patches from base.
type viewSend struct {
	spec      []byte    // the spectators' full view message
	specPatch [2][]byte // the spectators' patch message, without "seat" and with it
	base      *viewBase
	// patches[s] is seat s's patch from base (nil: none, send the full view); patches[len-1]
	// the spectators'.
	patches [][]byte
}

// patchesFrom computes the patches from base to the room's views, for every seat and the
// spectators, when a connection that speaks ProtocolPatches may be sent one. It computes them
// all before anything is sent: sending may refresh the views (the spectators').
func (r *Room) patchesFrom(base *viewBase) *viewSend {
	vs := &viewSend{}
	if base == nil || r.game == nil || base.game != r.game.Number || base.seq >= r.game.Seq || base.gen == r.viewGen {
		return vs
	}
	if !r.wantsPatches() {
		return vs
	}
	vs.base = base
	vs.patches = make([][]byte, len(r.views)+1)
	if sp := &r.stepPatches; sp.seats != nil && sp.gen == r.viewGen && len(sp.seats) == len(r.views) {
		// The engine's: its views before were base's (adoptStepPatches).
		for s, p := range sp.seats {
			if len(p) < len(r.views[s]) {
				vs.patches[s] = p
			}
		}
		if base.spectator != nil && r.spectator != nil && sp.spectator != nil && len(sp.spectator) < len(r.spectator) {
			vs.patches[len(r.views)] = sp.spectator
		}
		return vs
	}
	if !base.whole {
		return &viewSend{} // not the views before: full views (apply materialises them first)
	}
	buf := r.patchBuf[:0]
	marks := make([]int, 0, len(vs.patches)+1)
	diff := func(old, new []byte) {
		mark := len(buf)
		marks = append(marks, mark)
		if old == nil || new == nil {
			return
		}
		var ok bool
		if buf, ok = viewpatch.Diff(buf, old, new); !ok || len(buf)-mark >= len(new) {
			buf = buf[:mark] // the full view is as small: send it
		}
	}
	for s, v := range r.views {
		var old []byte
		if s < len(base.views) {
			old = base.views[s]
		}
		diff(old, v)
	}
	diff(base.spectator, r.spectator)
	marks = append(marks, len(buf))
	for i := range vs.patches {
		if marks[i+1] > marks[i] {
			vs.patches[i] = buf[marks[i]:marks[i+1]:marks[i+1]]
		}
	}
	r.patchBuf = buf
	return vs
}

// patchFor returns the patch to send c for seat's view (sdk.Spectator: the spectators'), or nil
// when c is to get the full view.
func (vs *viewSend) patchFor(c *Client, seat int) []byte {
	if vs == nil || vs.base == nil || c.Protocol != ProtocolPatches || !c.holds(seat, vs.base.gen) {
		return nil
	}
	if seat == sdk.Spectator {
		return vs.patches[len(vs.patches)-1]
	}
	if seat < 0 || seat >= len(vs.patches)-1 {
		return nil
	}
	return vs.patches[seat]
}

// wantsPatches reports whether a connection that speaks ProtocolPatches may be sent a patch.
func (r *Room) wantsPatches() bool {
	for c := range r.clients {
		if c.Protocol == ProtocolPatches {
			return true
		}
	}
	return false
}
