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
}

func (e *engine[S]) step(s S, blob []byte, events []sdk.Event, withViews bool, hs *houseState) *Step {
	st := &Step{State: blob, Events: events, Status: e.r.Status(s)}
	hs.decorateStatus(&st.Status)
	if withViews {
		st.Views, st.Spectator = e.views(s, st.Status.Seats, events, hs, true, nil)
	}
	return st
}

// views are the seats' views and, with spectator, the spectators' view, as JSON. They are written
// one after another into one buffer (into, when its capacity is enough; else a new one sized from
// the last step's views), each a full slice of its own part of it, so appending to one cannot
// overwrite the next.
func (e *engine[S]) views(s S, seats int, events []sdk.Event, hs *houseState, spectator bool, into []byte) ([][]byte, []byte) {
	n := seats
	if spectator {
		n++
	}
	per := max(e.viewSize.Load(), 512)
	buf := into[:0]
	if need := int(per+per/8) * n; cap(buf) < need {
		buf = make([]byte, 0, need)
	}
	one := func(viewer int) []byte {
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
		start := len(buf)
		buf = v.AppendJSON(buf)
		return buf[start:len(buf):len(buf)]
	}
	views := make([][]byte, seats)
	for i := range seats {
		views[i] = one(i)
	}
	var spec []byte
	if spectator {
		spec = one(sdk.Spectator)
	}
	if n > 0 {
		e.viewSize.Store(int64(len(buf) / n))
	}
	return views, spec
}
