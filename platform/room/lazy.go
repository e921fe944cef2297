package room

import (
	"encoding/json"
	"fmt"

	"cardhouse/platform/viewpatch"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
)

// Lean steps (DESIGN.md, "Views, not special UIs"; docs/performance.md): when the room's views
// are the sticky engine's own of the step before and no connection needs a full view with every
// action (none speaks protocol v1), the room asks for the step's patches only
// (engine.ActRequest.PatchesOnly): the plugin then neither encodes nor sends the whole views, and
// the room keeps them lazily, as the views it last held whole (r.views, r.spectator) and the
// patches of the steps since (r.lazySteps). They are applied (viewpatch.Apply) only when something
// reads a whole view: a connection that does not hold the views before an action (a new one, a
// resync), a bot's fallback, a diff after a step that came without usable patches (a restarted
// plugin). What the room needs with every action comes with the step: the seats' open actions
// (engine.Step.Actions), for checkAction. Correctness never rests on it: any step the engine
// answers with its views (a fresh plugin, an evicted game, house rules, the game's end, a patch as
// large as a view) is adopted whole, and refresh and a deal replace the views as before.

// Bounds on the patches a room keeps unapplied: past either, the next step asks for the views
// again, so that applying them (when a whole view is needed) never costs more than a few dozen
// patches and a room never holds more than a few times its views' bytes in patches.
const (
	maxPendingSteps = 32
	// maxPendingFactor times the bytes of the views last held whole.
	maxPendingFactor = 4
)

// pendingStep is one lean step's patches: each seat's, and the spectators' (nil: the step made
// no spectators' view).
type pendingStep struct {
	seats     [][]byte
	spectator []byte
}

// asksLean reports whether the next step may come without its views: the room's views are the
// sticky engine's own of the step before (base.fromStep), every connection takes patches, and the
// patches kept unapplied are within their bounds.
func (r *Room) asksLean(base *viewBase) bool {
	if !r.sticky() || base == nil || !base.fromStep || len(r.lazySteps) >= maxPendingSteps {
		return false
	}
	for c := range r.clients {
		if c.Protocol != ProtocolPatches {
			return false
		}
	}
	size := len(r.spectator)
	for _, v := range r.views {
		size += len(v)
	}
	return r.lazyBytes < maxPendingFactor*size
}

// leanStep reports whether step is a lean one the room can keep: it came without views, with
// every seat's patch and open actions, from the views the room holds (base.fromStep), and with the
// spectators' patch when they were asked for.
func leanStep(step *engine.Step, base *viewBase, watched bool) bool {
	n := step.Status.Seats
	return len(step.Views) == 0 && step.Spectator == nil && base != nil && base.fromStep &&
		len(step.Patches) == n && len(step.Actions) == n && (step.SpectatorPatch != nil || !watched)
}

// adoptPatches makes a lean step's views the room's: its patches wait in r.lazySteps until a whole
// view is read (materialise), its open actions are the seats'.
func (r *Room) adoptPatches(step *engine.Step) {
	ps := pendingStep{seats: step.Patches, spectator: step.SpectatorPatch}
	r.lazySteps = append(r.lazySteps, ps)
	r.lazyBytes += len(ps.spectator)
	for _, p := range ps.seats {
		r.lazyBytes += len(p)
	}
	r.lazyActions = step.Actions
	r.viewGen++
}

// dropPending forgets the patches kept unapplied: the room's views were replaced whole.
func (r *Room) dropPending() {
	clear(r.lazySteps)
	r.lazySteps, r.lazyBytes, r.lazyActions = r.lazySteps[:0], 0, nil
}

// materialise applies the patches kept unapplied to the views last held whole, so that r.views
// and r.spectator are the game's (the same JSON values as the engine's views of the last step;
// members a patch added may come in another order). The views are written into r.lazyBufs, in
// turn, each a full slice of its part. A patch that does not apply (a bug) is logged and the
// views are read again (refresh); it reports false then.
func (r *Room) materialise() bool {
	if len(r.lazySteps) == 0 {
		return true
	}
	views, spec := r.views, r.spectator
	for i, st := range r.lazySteps {
		var err error
		if views, spec, err = r.applyStep(views, spec, st); err != nil {
			r.log.Error("applying the patches kept for the views", "step", i+1, "of", len(r.lazySteps), "err", err)
			r.dropPending()
			if err := r.refresh(); err != nil {
				r.log.Error("reading the views again", "err", err)
			}
			return false
		}
	}
	r.views, r.spectator = views, spec
	r.dropPending()
	return true
}

// applyStep writes the views st makes of views and spec into r.lazyBufs[0] and swaps the two
// buffers: the one it read from (when it was the other) holds nothing kept after it.
func (r *Room) applyStep(views [][]byte, spec []byte, st pendingStep) ([][]byte, []byte, error) {
	if len(st.seats) != len(views) {
		return nil, nil, fmt.Errorf("%d patches for %d views", len(st.seats), len(views))
	}
	buf := r.lazyBufs[0][:0]
	marks := make([]int, 0, len(views)+2)
	var err error
	for s, p := range st.seats {
		marks = append(marks, len(buf))
		if buf, err = viewpatch.Apply(buf, views[s], p); err != nil {
			return nil, nil, fmt.Errorf("seat %d: %w", s, err)
		}
	}
	marks = append(marks, len(buf))
	if spec != nil && st.spectator != nil {
		if buf, err = viewpatch.Apply(buf, spec, st.spectator); err != nil {
			return nil, nil, fmt.Errorf("the spectators' view: %w", err)
		}
	}
	marks = append(marks, len(buf))
	out := make([][]byte, len(views))
	for s := range out {
		out[s] = buf[marks[s]:marks[s+1]:marks[s+1]]
	}
	var outSpec []byte
	if n := len(marks); marks[n-1] > marks[n-2] {
		outSpec = buf[marks[n-2]:marks[n-1]:marks[n-1]]
	}
	r.lazyBufs[0] = buf
	r.lazyBufs[0], r.lazyBufs[1] = r.lazyBufs[1], r.lazyBufs[0]
	return out, outSpec, nil
}

// leanSpecs decodes seat's open actions as the last lean step gave them.
func (r *Room) leanSpecs(seat int) ([]sdk.ActionSpec, error) {
	if seat < 0 || seat >= len(r.lazyActions) || len(r.lazyActions[seat]) == 0 {
		return nil, nil
	}
	var specs []sdk.ActionSpec
	if err := json.Unmarshal(r.lazyActions[seat], &specs); err != nil {
		return nil, fmt.Errorf("reading seat %d's open actions: %w", seat, err)
	}
	return specs, nil
}
