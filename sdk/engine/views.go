package engine

import "cardhouse/sdk"

// Step is the result of starting a game or applying an action.
type Step struct {
	// State is the game's new stored state. Treat its bytes as read-only: the engine keeps them to
	// recognise the state when it comes back with the next call (a changed copy is decoded afresh).
	State  []byte      `json:"state"`
	Events []sdk.Event `json:"events,omitempty"`
	Status sdk.Status  `json:"status"`
	// Views[i] is seat i's view as JSON, ready to send; Spectator is the spectators' view.
	Views     [][]byte `json:"views,omitempty"`
	Spectator []byte   `json:"spectator,omitempty"`
	// Patches, from a sticky engine that kept the game's views of the step before (the one that
	// made the game of ActRequest.Seq actions), turn each of those views into Views[i]: the
	// protocol v2 patch (sdk.AppendViewPatch), written from the typed views, so that the host
	// need not diff the views' bytes. nil when the engine did not keep them. A host uses them only
	// when the views it holds are those of that step of the same GameRef.Game (the engine cannot
	// know which views the host kept).
	Patches [][]byte `json:"patches,omitempty"`
	// SpectatorPatch is the spectators' patch, when both views were made.
	SpectatorPatch []byte `json:"spectator_patch,omitempty"`
	// Actions, in a step without views (ActRequest.PatchesOnly), are each seat's open actions: the
	// "actions" member of Views[i] as JSON (an array), empty when none are open. nil in a step with
	// views, which carry them.
	Actions [][]byte `json:"actions,omitempty"`
	// House is what the game's house rules printed during the step and, when asked for, their
	// hook calls: for the rule's author and the room's admins, never for players. nil when the
	// rules printed nothing (and no trace was asked for).
	House *HouseReport `json:"house,omitempty"`
}

func (e *engine[S]) step(s S, blob []byte, events []sdk.Event, withViews bool, hs *houseState) *Step {
	st := &Step{State: blob, Events: events, Status: e.r.Status(s)}
	hs.decorateStatus(&st.Status)
	if withViews {
		st.Views, st.Spectator = e.views(s, st.Status.Seats, events, hs, true, nil)
	}
	return st
}

// views are the seats' views and, with spectator, the spectators' view, as JSON (makeViews, then
// encodeViews).
func (e *engine[S]) views(s S, seats int, events []sdk.Event, hs *houseState, spectator bool, into []byte) ([][]byte, []byte) {
	return e.encodeViews(e.makeViews(s, seats, events, hs, spectator), into)
}

// makeViews makes the seats' typed views and, with spectator, the spectators' view, each with
// the step's events as its viewer sees them.
func (e *engine[S]) makeViews(s S, seats int, events []sdk.Event, hs *houseState, spectator bool) *keptViews {
	// A ruleset that makes every viewer's view at once shares their public parts, which the
	// patches are then written once for (sdk.ViewPatcher). House rules edit each view in place
	// (decorateView), so their games' views share nothing.
	if vm, ok := e.r.(sdk.ViewsMaker[S]); ok && hs == nil {
		return e.makeViewsAtOnce(vm, s, seats, events, spectator)
	}
	one := func(viewer int) sdk.View {
		v := e.r.View(s, viewer)
		v.Viewer = viewer
		hs.decorateView(&v)
		if v.Ruleset == "" {
			v.Ruleset = e.info.ID
		}
		if len(events) > 0 {
			v.Events = make([]sdk.Event, len(events))
			for i, ev := range events {
				v.Events[i] = ev.For(viewer)
			}
		}
		return v
	}
	kv := &keptViews{seats: make([]sdk.View, seats)}
	for i := range seats {
		kv.seats[i] = one(i)
	}
	if spectator {
		v := one(sdk.Spectator)
		kv.spectator = &v
	}
	return kv
}

// makeViewsAtOnce is makeViews through the ruleset's Views: one call for every viewer.
func (e *engine[S]) makeViewsAtOnce(vm sdk.ViewsMaker[S], s S, seats int, events []sdk.Event, spectator bool) *keptViews {
	n := seats
	if spectator {
		n++
	}
	viewers := make([]int, n)
	for i := range seats {
		viewers[i] = i
	}
	if spectator {
		viewers[seats] = sdk.Spectator
	}
	all := make([]sdk.View, n)
	vm.Views(s, viewers, all)
	for i, viewer := range viewers {
		v := &all[i]
		v.Viewer = viewer
		if v.Ruleset == "" {
			v.Ruleset = e.info.ID
		}
		if len(events) > 0 {
			v.Events = make([]sdk.Event, len(events))
			for j, ev := range events {
				v.Events[j] = ev.For(viewer)
			}
		}
	}
	kv := &keptViews{seats: all[:seats:seats]}
	if spectator {
		kv.spectator = &all[seats]
	}
	return kv
}

// encodeViews writes kv's views as JSON one after another into one buffer (into, when its
// capacity is enough; else a new one sized from the last step's views), each a full slice of its
// own part of it, so appending to one cannot overwrite the next.
func (e *engine[S]) encodeViews(kv *keptViews, into []byte) ([][]byte, []byte) {
	n := len(kv.seats)
	if kv.spectator != nil {
		n++
	}
	per := max(e.viewSize.Load(), 512)
	buf := into[:0]
	if need := int(per+per/8) * n; cap(buf) < need {
		buf = make([]byte, 0, need)
	}
	one := func(v *sdk.View) []byte {
		start := len(buf)
		buf = v.AppendJSON(buf)
		return buf[start:len(buf):len(buf)]
	}
	views := make([][]byte, len(kv.seats))
	for i := range kv.seats {
		views[i] = one(&kv.seats[i])
	}
	var spec []byte
	if kv.spectator != nil {
		spec = one(kv.spectator)
	}
	if n > 0 {
		e.viewSize.Store(int64(len(buf) / n))
	}
	return views, spec
}

// patchesSuffice reports whether st may go without its views (ActRequest.PatchesOnly): it
// carries a patch for every view made, and none of them is as large as the views were on average
// when last encoded (the host then sends the patch, where it would send a smaller full view).
func (e *engine[S]) patchesSuffice(st *Step, made *keptViews) bool {
	if len(st.Patches) != len(made.seats) || (made.spectator != nil && st.SpectatorPatch == nil) {
		return false
	}
	limit := int(e.viewSize.Load())
	if limit == 0 {
		return false
	}
	for _, p := range st.Patches {
		if len(p) >= limit {
			return false
		}
	}
	return len(st.SpectatorPatch) < limit
}

// keptViews are the typed views of a game's last step, which a sticky engine keeps beside the
// game's state to write the next step's patches. Apply does not mutate its input state, so what
// the views share with the state they were made from stays as it was.
type keptViews struct {
	seats     []sdk.View
	spectator *sdk.View
}

// actions are the seats' open actions as JSON arrays (sdk.AppendActionsJSON), one buffer for all;
// a seat with none has an empty one.
func (kv *keptViews) actions() [][]byte {
	var buf []byte
	marks := make([]int, len(kv.seats)+1)
	for i := range kv.seats {
		marks[i] = len(buf)
		if len(kv.seats[i].Actions) > 0 {
			buf = sdk.AppendActionsJSON(buf, kv.seats[i].Actions)
		}
	}
	marks[len(kv.seats)] = len(buf)
	out := make([][]byte, len(kv.seats))
	for i := range out {
		out[i] = buf[marks[i]:marks[i+1]:marks[i+1]]
	}
	return out
}

// patches writes the patches from kept to now, one buffer for all; nil when a seat's view cannot
// be patched (the host then diffs or sends full views).
func (kept *keptViews) patches(now *keptViews) ([][]byte, []byte) {
	if kept == nil || len(kept.seats) != len(now.seats) {
		return nil, nil
	}
	var buf []byte
	var vp sdk.ViewPatcher // what the views share is patched once
	marks := make([]int, 0, len(now.seats)+2)
	for i := range now.seats {
		marks = append(marks, len(buf))
		var ok bool
		if buf, ok = vp.Append(buf, &kept.seats[i], &now.seats[i]); !ok {
			return nil, nil
		}
	}
	marks = append(marks, len(buf))
	if kept.spectator != nil && now.spectator != nil {
		var ok bool
		if buf, ok = vp.Append(buf, kept.spectator, now.spectator); !ok {
			buf = buf[:marks[len(marks)-1]]
		}
	}
	marks = append(marks, len(buf))
	out := make([][]byte, len(now.seats))
	for i := range out {
		out[i] = buf[marks[i]:marks[i+1]:marks[i+1]]
	}
	var spec []byte
	if n := len(marks); marks[n-1] > marks[n-2] {
		spec = buf[marks[n-2]:marks[n-1]:marks[n-1]]
	}
	return out, spec
}
