package viewpatch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"cardhouse/plugins/builtin"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest"
)

// game is the views one playout showed: views[i][s] is seat s's view after step i (s = seats:
// the spectators').
type game struct {
	name  string
	views [][][]byte
}

// playGames plays random games of every built-in variant through its real engine (bots with some
// random actions, so that unusual branches show), keeping every view of every step.
func playGames(tb testing.TB, perVariant int) []game {
	tb.Helper()
	ctx := context.Background()
	var games []game
	for id, mk := range builtin.Engines() {
		e := mk()
		desc, err := e.Describe(ctx)
		if err != nil {
			tb.Fatal(err)
		}
		for i := range perVariant {
			seats := desc.MinSeats + i%(min(desc.MaxSeats, 5)-desc.MinSeats+1)
			g := game{name: fmt.Sprintf("%s/%d-seats/seed-%d", id, seats, i+1)}
			keep := func(st *engine.Step) {
				vs := make([][]byte, 0, seats+1)
				for _, v := range st.Views {
					vs = append(vs, bytes.Clone(v))
				}
				g.views = append(g.views, append(vs, bytes.Clone(st.Spectator)))
			}
			pc := rulesettest.PlayoutConfig{Seats: seats, Seed: uint64(i + 1), Random: 0.3, Views: true, Games: 2, MaxSteps: 800,
				OnAct: func(_ context.Context, a rulesettest.Attempt) error {
					if len(g.views) == 0 {
						keep(a.BeforeStep)
					}
					if a.Err == nil {
						keep(a.Step)
					}
					return nil
				}}
			if _, err := rulesettest.Playout(ctx, e, pc); err != nil && !errors.Is(err, rulesettest.ErrNotEnded) {
				tb.Fatalf("%s: %v", g.name, err)
			}
			if len(g.views) < 10 {
				tb.Fatalf("%s: only %d steps", g.name, len(g.views))
			}
			games = append(games, g)
		}
	}
	return games
}

// canonical is v decoded and encoded again: members sorted, white space gone.
func canonical(tb testing.TB, v []byte) string {
	tb.Helper()
	var x any
	if err := json.Unmarshal(v, &x); err != nil {
		tb.Fatalf("not JSON: %v: %s", err, v)
	}
	b, _ := json.Marshal(x)
	return string(b)
}

// TestPatchesRebuildEveryView: for every seat and the spectators, in random games of every
// variant, applying the patches the viewer received to its first full view gives, at every step,
// the full view the server would send then; the spectators' patches never carry a hand's cards
// while a round is played.
func TestPatchesRebuildEveryView(t *testing.T) {
	t.Parallel()
	games := playGames(t, 4)
	variants := map[string]bool{}
	for _, g := range games {
		variants[strings.Split(g.name, "/")[0]] = true
		seats := len(g.views[0]) - 1
		for s := 0; s <= seats; s++ {
			held := g.views[0][s]
			patched, full := 0, 0
			for i := 1; i < len(g.views); i++ {
				next := g.views[i][s]
				p, ok := Diff(nil, held, next)
				if !ok {
					full++
					held = next
					continue
				}
				patched++
				if s == seats && phaseOf(t, next) == sdk.PhasePlaying {
					// Once a round is over the variants show every hand left (the reveal).
					spectatorPatchHidesHands(t, g.name, i, held, p)
				}
				got, err := Apply(nil, held, p)
				if err != nil {
					t.Fatalf("%s step %d viewer %d: applying %s: %v", g.name, i, s, p, err)
				}
				if c, w := canonical(t, got), canonical(t, next); c != w {
					t.Fatalf("%s step %d viewer %d: the patched view differs\npatch %s\ngot  %s\nwant %s", g.name, i, s, p, c, w)
				}
				held = got
			}
			if patched == 0 || full > patched/10 {
				t.Errorf("%s viewer %d: %d patches, %d full views: want patches nearly always", g.name, s, patched, full)
			}
		}
	}
	if len(variants) != len(builtin.Engines()) {
		t.Fatalf("played %v, want every built-in variant", variants)
	}
}

// spectatorPatchHidesHands fails when a spectators' patch (of the view held) holds cards of a
// hand in any form (a hand zone sent whole with cards, a hand entry's cards set or spliced) or the
// cards of a private event.
func spectatorPatchHidesHands(t *testing.T, name string, step int, held, p []byte) {
	t.Helper()
	var patch struct {
		Zones  json.RawMessage `json:"zones"`
		Events json.RawMessage `json:"events"`
	}
	if err := json.Unmarshal(p, &patch); err != nil {
		t.Fatalf("%s step %d: spectators' patch %s: %v", name, step, p, err)
	}
	var events []sdk.Event
	var spliced map[string][]json.RawMessage
	switch {
	case len(patch.Events) == 0 || string(patch.Events) == "null":
	case json.Unmarshal(patch.Events, &events) == nil: // sent whole
	case json.Unmarshal(patch.Events, &spliced) == nil && len(spliced[SpliceKey]) >= 2:
		for _, raw := range spliced[SpliceKey][2:] {
			var ev sdk.Event
			if err := json.Unmarshal(raw, &ev); err != nil {
				t.Fatalf("%s step %d: a spliced event %s: %v", name, step, raw, err)
			}
			events = append(events, ev)
		}
	default:
		t.Fatalf("%s step %d: spectators' events patch %s is neither an array nor a splice", name, step, patch.Events)
	}
	for _, ev := range events {
		if ev.Private && len(ev.Cards) > 0 {
			t.Fatalf("%s step %d: the spectators' patch shows the private cards of event %s: %s", name, step, ev.Name, p)
		}
	}
	if len(patch.Zones) == 0 {
		return
	}
	var zones []sdk.Zone
	if json.Unmarshal(patch.Zones, &zones) == nil { // sent whole
		for _, z := range zones {
			if z.Kind == sdk.ZoneHand && len(z.Cards) > 0 {
				t.Fatalf("%s step %d: the spectators' patch shows hand %s: %s", name, step, z.ID, p)
			}
		}
		return
	}
	var view sdk.View
	if err := json.Unmarshal(held, &view); err != nil {
		t.Fatal(err)
	}
	hands := map[string]bool{}
	for _, z := range view.Zones {
		hands[z.ID] = z.Kind == sdk.ZoneHand
	}
	var entries map[string]json.RawMessage
	if err := json.Unmarshal(patch.Zones, &entries); err != nil {
		t.Fatalf("%s step %d: spectators' zones patch %s: %v", name, step, patch.Zones, err)
	}
	for id, raw := range entries {
		var e map[string]json.RawMessage
		if id == OrderKey || string(raw) == "null" {
			continue
		}
		if err := json.Unmarshal(raw, &e); err != nil {
			t.Fatalf("%s step %d: zone %s's patch %s: %v", name, step, id, raw, err)
		}
		cards, has := e["cards"]
		if (hands[id] || string(e["kind"]) == `"hand"`) && has && string(cards) != "null" {
			t.Fatalf("%s step %d: the spectators' patch shows the cards of %s: %s", name, step, id, cards)
		}
	}
}

// TestPatchCases: each kind of change, and what the patch is.
func TestPatchCases(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, old, new, patch string
	}{
		{"same", `{"a":1,"zones":[{"id":"x","count":1}]}`, `{"a":1,"zones":[{"id":"x","count":1}]}`, `{}`},
		{"scalar", `{"turn":1,"phase":"playing"}`, `{"turn":2,"phase":"playing"}`, `{"turn":2}`},
		{"added and removed", `{"a":1,"b":2}`, `{"a":1,"c":[3]}`, `{"c":[3],"b":null}`},
		{"one zone's count", `{"zones":[{"id":"hand.0","count":5},{"id":"pile","count":1}]}`, `{"zones":[{"id":"hand.0","count":4},{"id":"pile","count":1}]}`, `{"zones":{"hand.0":{"count":4}}}`},
		{"zone cards whole", `{"zones":[{"id":"pile","cards":["H2"],"count":1}]}`, `{"zones":[{"id":"pile","cards":["H2","H3"],"count":2}]}`, `{"zones":{"pile":{"cards":["H2","H3"]}}}`},
		{"pile grows", `{"zones":[{"id":"pile","cards":["H2","H3","H4","H5","H6"],"count":5}]}`, `{"zones":[{"id":"pile","cards":["H2","H3","H4","H5","H6","S10"],"count":6}]}`, `{"zones":{"pile":{"cards":{"$splice":[5,0,"S10"]}}}}`},
		{"players by seat", `{"players":[{"seat":0,"hand_count":5},{"seat":1,"hand_count":5}]}`, `{"players":[{"seat":0,"hand_count":5},{"seat":1,"hand_count":4,"tags":["called"]}]}`, `{"players":{"1":{"hand_count":4,"tags":["called"]}}}`},
		{"entry added", `{"indicators":[{"id":"suit","value":"H"}]}`, `{"indicators":[{"id":"suit","value":"H"},{"id":"penalty","value":"2"}]}`, `{"indicators":{"penalty":{"id":"penalty","value":"2"}}}`},
		{"entry removed and moved", `{"actions":[{"type":"play"},{"type":"draw"},{"type":"call"}]}`, `{"actions":[{"type":"draw"},{"type":"play"}]}`, `{"actions":{"$order":["draw","play"],"call":null}}`},
		{"entry removed", `{"actions":[{"type":"play"},{"type":"draw"},{"type":"call"}]}`, `{"actions":[{"type":"play"},{"type":"call"}]}`, `{"actions":{"draw":null}}`},
		{"entry added first", `{"indicators":[{"id":"suit","value":"H"}]}`, `{"indicators":[{"id":"penalty","value":"2"},{"id":"suit","value":"H"}]}`, `{"indicators":{"$order":["penalty","suit"],"penalty":{"id":"penalty","value":"2"}}}`},
		{"card played from the middle", `{"zones":[{"id":"hand.0","cards":["H2","S3","D4","C5","H6","S7"],"count":6}]}`, `{"zones":[{"id":"hand.0","cards":["H2","S3","C5","H6","S7"],"count":5}]}`, `{"zones":{"hand.0":{"cards":{"$splice":[2,1]}}}}`},
		// Derived members (docs/protocol.md): a hand count that is its hand's count goes.
		{"hand count derived", `{"players":[{"seat":0,"hand_count":5},{"seat":1,"hand_count":2}],"zones":[{"id":"hand.0","cards":["H2","S3","D4","C5","H6"],"count":5},{"id":"hand.1","count":2}]}`, `{"players":[{"seat":0,"hand_count":4},{"seat":1,"hand_count":2}],"zones":[{"id":"hand.0","cards":["H2","D4","C5","H6"],"count":4},{"id":"hand.1","count":2}]}`, `{"zones":{"hand.0":{"cards":{"$splice":[1,1]}}}}`},
		{"hidden hand count derived", `{"players":[{"seat":1,"hand_count":2,"tags":["called"]}],"zones":[{"id":"hand.1","count":2}]}`, `{"players":[{"seat":1,"hand_count":3}],"zones":[{"id":"hand.1","count":3}]}`, `{"players":{"1":{"tags":null}},"zones":{"hand.1":{"count":3}}}`},
		{"a count that is not the cards' length", `{"zones":[{"id":"pile","cards":["H2","H3"],"count":9}]}`, `{"zones":[{"id":"pile","cards":["H3","H4"],"count":9}]}`, `{"zones":{"pile":{"cards":["H3","H4"],"count":9}}}`},
		{"a zone without a count", `{"zones":[{"id":"row","cards":["H2"]}]}`, `{"zones":[{"id":"row","cards":["H3"]}]}`, `{"zones":{"row":{"cards":["H3"],"count":null}}}`},
		{"a hand count that is not its hand's", `{"players":[{"seat":0,"hand_count":7}],"zones":[{"id":"hand.0","count":5}]}`, `{"players":[{"seat":0,"hand_count":7}],"zones":[{"id":"hand.0","count":4}]}`, `{"players":{"0":{"hand_count":7}},"zones":{"hand.0":{"count":4}}}`},
		{"a hand count that changes otherwise", `{"players":[{"seat":0,"hand_count":7}],"zones":[{"id":"hand.0","count":5}]}`, `{"players":[{"seat":0,"hand_count":8}],"zones":[{"id":"hand.0","count":4}]}`, `{"players":{"0":{"hand_count":8}},"zones":{"hand.0":{"count":4}}}`},
		{"a player without a hand count", `{"players":[{"seat":0}],"zones":[{"id":"hand.0","count":5}]}`, `{"players":[{"seat":0}],"zones":[{"id":"hand.0","count":4}]}`, `{"players":{"0":{"hand_count":null}},"zones":{"hand.0":{"count":4}}}`},
		{"list appears", `{"turn":1}`, `{"turn":1,"actions":[{"type":"draw"}]}`, `{"actions":[{"type":"draw"}]}`},
		{"list goes", `{"turn":1,"actions":[{"type":"draw"}]}`, `{"turn":1}`, `{"actions":null}`},
		{"repeated keys go whole", `{"actions":[{"type":"play","cards":["H2"]}]}`, `{"actions":[{"type":"play"},{"type":"play"}]}`, `{"actions":[{"type":"play"},{"type":"play"}]}`},
		{"other arrays whole", `{"events":[{"type":"play"}]}`, `{"events":[{"type":"draw"}]}`, `{"events":[{"type":"draw"}]}`},
		{"nested object", `{"roles":{"10":"burn","2":"reset"}}`, `{"roles":{"10":"burn"}}`, `{"roles":{"2":null}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, ok := Diff(nil, []byte(tc.old), []byte(tc.new))
			if !ok {
				t.Fatalf("no patch")
			}
			if string(p) != tc.patch {
				t.Fatalf("patch %s, want %s", p, tc.patch)
			}
			got, err := Apply(nil, []byte(tc.old), p)
			if err != nil {
				t.Fatal(err)
			}
			if c, w := canonical(t, got), canonical(t, []byte(tc.new)); c != w {
				t.Fatalf("applied: %s, want %s", c, w)
			}
		})
	}
}

// TestNoPatch: what a patch cannot say goes as a full view.
func TestNoPatch(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, old, new string }{
		{"a null", `{"zones":[]}`, `{"zones":null}`},
		{"not an object", `{"a":1}`, `[1]`},
		{"malformed", `{"a":1}`, `{"a":}`},
	} {
		if p, ok := Diff(nil, []byte(tc.old), []byte(tc.new)); ok {
			t.Errorf("%s: patch %s, want none", tc.name, p)
		}
	}
}

// TestApplyRefusesBadPatches: a patch that does not fit the view is an error, not a wrong view.
func TestApplyRefusesBadPatches(t *testing.T) {
	t.Parallel()
	view := `{"zones":[{"id":"pile","cards":["H2"],"count":1}],"turn":0}`
	for _, tc := range []struct{ name, patch, want string }{
		{"unknown entry", `{"zones":{"deck":{"count":2}}}`, "not an object keyed"},
		{"order names a missing entry", `{"zones":{"$order":["pile","deck"]}}`, "neither held nor sent"},
		{"not an object", `[1]`, "not an object"},
		{"malformed", `{"turn":}`, "malformed"},
		{"splice out of range", `{"zones":{"pile":{"cards":{"$splice":[3,1]}}}}`, "does not fit"},
		{"removed entry it lacks", `{"zones":{"deck":null}}`, "does not hold"},
		{"list not held", `{"actions":{"draw":{"type":"draw"}}}`, "list the view does not hold"},
		{"splice of an array not held", `{"events":{"$splice":[0,0,1]}}`, "list the view does not hold"},
	} {
		_, err := Apply(nil, []byte(view), []byte(tc.patch))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}

// phaseOf reads a view's phase.
func phaseOf(t *testing.T, view []byte) string {
	t.Helper()
	var v struct {
		Phase string `json:"phase"`
	}
	if err := json.Unmarshal(view, &v); err != nil {
		t.Fatal(err)
	}
	return v.Phase
}

// TestTypedPatchDerivedMembers: the typed patch (sdk.AppendViewPatch) leaves out the derived
// members as Diff does, and says them when the view does not follow the rule (a count that is
// not its cards' length, a hand count that is not its hand's): applied, it gives the view.
func TestTypedPatchDerivedMembers(t *testing.T) {
	t.Parallel()
	five := sdk.MustParseCards("2H 3S 4D 5C 6H")
	view := func(handCount, count int, cards []sdk.Card, pileCount int) sdk.View {
		return sdk.View{Players: []sdk.PlayerView{{Seat: 0, HandCount: handCount}, {Seat: 1, HandCount: 3}},
			Zones: []sdk.Zone{{ID: "hand.0", Kind: sdk.ZoneHand, Cards: cards, Count: count},
				{ID: "hand.1", Kind: sdk.ZoneHand, Count: 3, Hidden: true},
				{ID: "pile", Kind: sdk.ZonePile, Cards: sdk.MustParseCards("9H"), Count: pileCount}}}
	}
	for _, tc := range []struct {
		name     string
		old, new sdk.View
		patch    string
	}{
		{"derived", view(5, 5, five, 1), view(4, 4, five[1:], 1), `{"zones":{"hand.0":{"cards":{"$splice":[0,1]}}}}`},
		{"a hand count that is not its hand's", view(7, 5, five, 1), view(7, 4, five[1:], 1), `{"players":{"0":{"hand_count":7}},"zones":{"hand.0":{"cards":{"$splice":[0,1]}}}}`},
		{"a count that is not the cards' length", view(9, 9, five, 1), view(9, 9, five[1:], 1), `{"zones":{"hand.0":{"cards":{"$splice":[0,1]},"count":9}}}`},
		{"a count alone", view(5, 5, five, 1), view(5, 5, five, 4), `{"zones":{"pile":{"count":4}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, ok := sdk.AppendViewPatch(nil, &tc.old, &tc.new)
			if !ok || string(p) != tc.patch {
				t.Fatalf("patch %s (%v), want %s", p, ok, tc.patch)
			}
			old, _ := json.Marshal(&tc.old)
			want, _ := json.Marshal(&tc.new)
			got, err := Apply(nil, old, p)
			if err != nil {
				t.Fatal(err)
			}
			if c, w := canonical(t, got), canonical(t, want); c != w {
				t.Fatalf("applied: %s, want %s", c, w)
			}
			if d, ok := Diff(nil, old, want); !ok || string(d) != tc.patch {
				t.Errorf("Diff writes %s, want the typed patch %s", d, tc.patch)
			}
		})
	}
}
