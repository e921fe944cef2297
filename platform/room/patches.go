package room

import (
	"cardhouse/platform/viewpatch"
	"cardhouse/sdk"
)

// Protocol v2 (docs/protocol.md, "Patches"): after a full view, a connection that speaks
// ProtocolPatches receives only what changed in its seat's view. The patches are computed here,
// in the room, from the bytes of the views before and after an action, once per seat (and once
// for all spectators), and go only to the connections that hold the views before (Client.held):
// any other connection, and any view a patch would not make smaller, gets the full view.

// viewBase is the room's views as they were before an action: what a v2 connection holds when
// it has had every message since they were sent.
type viewBase struct {
	gen, game, seq int
	views          [][]byte
	spectator      []byte
}

// viewBase returns the room's current views as a base for the next action's patches (nil when
// it has none). The bytes stay valid through that action's broadcast: the next step's views are
// written into the other view buffer (adoptViews), refresh into new ones.
func (r *Room) viewBase() *viewBase {
	if r.game == nil || r.views == nil || r.broken != nil {
		return nil
	}
	return &viewBase{gen: r.viewGen, game: r.game.Number, seq: r.game.Seq, views: r.views, spectator: r.spectator}
}

// viewSend is one sending of the views to the room's connections: the spectators' messages,
// encoded once for all of them, and the patches from base.
type viewSend struct {
	spec      []byte // the spectators' full view message
	specPatch []byte // the spectators' patch message
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
	wanted := false
	for c := range r.clients {
		wanted = wanted || c.Protocol == ProtocolPatches
	}
	if !wanted {
		return vs
	}
	vs.base = base
	vs.patches = make([][]byte, len(r.views)+1)
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
