package viewgen

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cardhouse/rulesets/drugs"
	"cardhouse/rulesets/hotspot"
	"cardhouse/rulesets/lastcard"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
)

var update = flag.Bool("update", false, "rewrite web/testdata/views from the engines")

// moment names a view worth recording and how to recognise it; the first view of a playout that
// matches is kept.
type moment struct {
	name string
	// seat is whose view is tested (-1: the spectators' view); any is true to try every seat.
	any  bool
	seat int
	when func(v *sdk.View) bool
}

func hasAction(pred func(a sdk.ActionSpec) bool) func(v *sdk.View) bool {
	return func(v *sdk.View) bool { return slices.ContainsFunc(v.Actions, pred) }
}

func indicator(id string, vals ...string) func(v *sdk.View) bool {
	return func(v *sdk.View) bool {
		return slices.ContainsFunc(v.Indicators, func(i sdk.Indicator) bool { return i.ID == id && slices.Contains(vals, i.Value) })
	}
}

var common = []moment{
	{name: "start", seat: 0, when: func(v *sdk.View) bool { return true }},
	{name: "spectator", seat: sdk.Spectator, when: func(v *sdk.View) bool { return v.Phase == sdk.PhasePlaying && len(v.Events) > 0 }},
	{name: "over", seat: 0, when: func(v *sdk.View) bool { return v.Phase != sdk.PhasePlaying }},
}

var multi = moment{name: "multi", any: true, when: hasAction(func(a sdk.ActionSpec) bool { return a.Type == sdk.ActPlay && a.Multi && len(a.Cards) > 1 })}

var variants = []struct {
	id      string
	engine  engine.Engine
	seats   int
	seed    uint64
	options map[string]any
	moments []moment
}{
	{id: "hotspot", engine: engine.New(hotspot.New()), seats: 3, seed: 7, moments: []moment{multi,
		{name: "choice", any: true, when: hasAction(func(a sdk.ActionSpec) bool { return len(a.ChoiceFor) > 0 })},
		{name: "lastcard", any: true, when: hasAction(func(a sdk.ActionSpec) bool { return a.Type == sdk.ActCall })},
		{name: "penalty", any: true, when: indicator("penalty", "2", "4", "6")},
	}},
	{id: "drugs", engine: engine.New(drugs.New()), seats: 3, seed: 11, options: map[string]any{"chaos": true}, moments: []moment{multi,
		{name: "fire", any: true, when: indicator("fire", "fire", "red")},
		{name: "faceup", any: true, when: hasAction(func(a sdk.ActionSpec) bool { return a.From != "" })},
		{name: "blind", any: true, when: hasAction(func(a sdk.ActionSpec) bool { return a.Type == sdk.ActFlip })},
		{name: "gift", any: true, when: hasAction(func(a sdk.ActionSpec) bool { return a.Type == sdk.ActGift })},
		{name: "joker", seat: 0, when: func(v *sdk.View) bool {
			return slices.ContainsFunc(v.Events, func(e sdk.Event) bool { return e.Name == "joker" })
		}},
	}},
	{id: "lastcard", engine: engine.New(lastcard.New()), seats: 3, seed: 5, moments: []moment{
		{name: "choice", any: true, when: hasAction(func(a sdk.ActionSpec) bool { return len(a.ChoiceFor) > 0 })},
		{name: "call", any: true, when: hasAction(func(a sdk.ActionSpec) bool { return a.Type == sdk.ActCall })},
		{name: "catch", any: true, when: hasAction(func(a sdk.ActionSpec) bool { return a.Type == sdk.ActCatch })},
	}},
}

// TestRecordedViews plays each variant and checks (or, with -update, writes) one
// recorded view per moment.
func TestRecordedViews(t *testing.T) {
	for _, vr := range variants {
		t.Run(vr.id, func(t *testing.T) {
			t.Parallel()
			// Later games only fill in the moments earlier ones did not reach.
			got := map[string][]byte{}
			all := append(slices.Clone(common), vr.moments...)
			for k := uint64(0); k < 30 && len(got) < len(all); k++ {
				for name, b := range playout(t, vr.engine, vr.seats, vr.seed+k, vr.options, append(slices.Clone(common), vr.moments...)) {
					if _, ok := got[name]; !ok {
						got[name] = b
					}
				}
			}
			for _, m := range append(slices.Clone(common), vr.moments...) {
				b, ok := got[m.name]
				if !ok {
					t.Errorf("%s: no view matched moment %q in the playout (seed %d)", vr.id, m.name, vr.seed)
					continue
				}
				path := filepath.Join("..", "..", "testdata", "views", vr.id+"-"+m.name+".json")
				if *update {
					if err := os.WriteFile(path, b, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				old, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run with -update to record)", err)
				}
				if !bytes.Equal(old, b) {
					t.Errorf("%s changed: the engine's views differ from the recording; rerun with -update and look at the table again", path)
				}
			}
		})
	}
}

// playout plays one game by a fixed policy over the views (choose; the clock firing due
// deadlines) and returns, per moment, the first matching view as indented JSON. The policy is
// this file's own, not the rulesets' bots, so the recordings change when views or rules change,
// not when someone makes a bot smarter.
func playout(t *testing.T, e engine.Engine, seats int, seed uint64, options map[string]any, moments []moment) map[string][]byte {
	t.Helper()
	ctx := context.Background()
	now := int64(0)
	step, err := e.NewGame(ctx, &engine.NewGameRequest{Seats: seats, Seed: seed, Options: options, Now: now})
	if err != nil {
		t.Fatalf("new game: %v", err)
	}
	out := map[string][]byte{}
	record := func(st *engine.Step) {
		for _, m := range moments {
			if _, done := out[m.name]; done {
				continue
			}
			cands := []int{m.seat}
			if m.any {
				cands = nil
				for i := range seats {
					cands = append(cands, i)
				}
			}
			for _, seat := range cands {
				raw := st.Spectator
				if seat >= 0 {
					raw = st.Views[seat]
				}
				var v sdk.View
				if err := json.Unmarshal(raw, &v); err != nil {
					t.Fatalf("view of seat %d: %v", seat, err)
				}
				if m.when(&v) {
					var buf bytes.Buffer
					if err := json.Indent(&buf, raw, "", "  "); err != nil {
						t.Fatal(err)
					}
					buf.WriteByte('\n')
					out[m.name] = buf.Bytes()
					break
				}
			}
		}
	}
	record(step)
	rng := seed*0x9E3779B97F4A7C15 | 1
	for i := 0; i < 3000 && step.Status.Phase == sdk.PhasePlaying; i++ {
		now += 700
		var next *engine.Step
		for _, seat := range step.Status.Actors {
			var v sdk.View
			if err := json.Unmarshal(step.Views[seat], &v); err != nil {
				t.Fatalf("view of seat %d: %v", seat, err)
			}
			rng ^= rng << 13
			rng ^= rng >> 7
			rng ^= rng << 17
			for _, act := range choose(&v, seat, rng) {
				if st, err := e.Act(ctx, &engine.ActRequest{State: step.State, Action: act, Now: now}); err == nil {
					next = st
					break
				}
			}
			if next != nil {
				break
			}
		}
		if next == nil {
			for _, d := range step.Status.Deadlines {
				if d.At <= now || len(step.Status.Actors) == 0 {
					now = max(now, d.At)
					st, err := e.Act(ctx, &engine.ActRequest{State: step.State, Action: sdk.Action{Seat: sdk.Clock, Type: sdk.ActDeadline, Deadline: d.ID}, Now: now})
					if err != nil {
						t.Fatalf("step %d: deadline %s refused: %v", i, d.ID, err)
					}
					next = st
					break
				}
			}
		}
		if next == nil {
			t.Fatalf("step %d: nobody acts and no deadline is due: %+v", i, step.Status)
		}
		step = next
		record(step)
	}
	if step.Status.Phase == sdk.PhasePlaying {
		t.Fatal(fmt.Sprintf("the game did not end in 3000 steps: %+v", step.Status))
	}
	return out
}

// choose lists the actions a simple player would try from view v of seat, best first: catch or
// call (forgotten one time in three), then a card (picked by r) of the first action that takes cards, a face-down card to
// flip, then whatever else is open (draw, pick up, pass).
func choose(v *sdk.View, seat int, r uint64) []sdk.Action {
	var out []sdk.Action
	target := func(a sdk.ActionSpec) *int {
		if len(a.Targets) == 0 {
			return nil
		}
		t := a.Targets[0]
		return &t
	}
	for _, a := range v.Actions {
		// One time in three the player forgets to call, so others get to catch them out.
		if a.Type == sdk.ActCatch || a.Type == sdk.ActCall && r%3 != 0 {
			out = append(out, sdk.Action{Seat: seat, Type: a.Type, Target: target(a)})
		}
	}
	for _, a := range v.Actions {
		if len(a.Cards) == 0 {
			continue
		}
		for k := range a.Cards {
			c := a.Cards[(int(r%uint64(len(a.Cards)))+k)%len(a.Cards)]
			act := sdk.Action{Seat: seat, Type: a.Type, Cards: []sdk.Card{c}, From: a.From, Target: target(a)}
			if slices.Contains(a.ChoiceFor, c) && len(a.Choices) > 0 {
				ch := a.Choices[r%uint64(len(a.Choices))]
				if strings.Contains("RYGB", ch) {
					act.Color = ch
				} else {
					act.Suit = ch
				}
			}
			out = append(out, act)
		}
	}
	for _, a := range v.Actions {
		switch {
		case len(a.Cards) > 0 || a.Type == sdk.ActCatch:
		case a.Type == sdk.ActFlip:
			idx := 0
			if len(a.Indexes) > 0 {
				idx = a.Indexes[0]
			}
			out = append(out, sdk.Action{Seat: seat, Type: a.Type, Index: &idx})
		default:
			out = append(out, sdk.Action{Seat: seat, Type: a.Type, Target: target(a)})
		}
	}
	return out
}
