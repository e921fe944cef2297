package lastcard_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"cardhouse/rulesets/lastcard"
	"cardhouse/sdk"
)

// TestHistory checks the Historian: each seat sees its own drawn cards and only the count of the
// others', "turn" events are left out, and a new round starts a new log.
func TestHistory(t *testing.T) {
	t.Parallel()
	r := lastcard.New()
	s := start(t, table{pile: "R5", hands: []string{"W B2 B3", "Y1 Y2", "G1 G2"}, deck: "Y7 G9"}, nil)
	s, _ = act(t, s, sdk.Action{Seat: 0, Type: sdk.ActPlay, Cards: cards("W"), Color: "Y"})
	s, _ = act(t, s, sdk.Action{Seat: 1, Type: sdk.ActDraw}) // Y7: playable, kept
	s, _ = act(t, s, sdk.Action{Seat: 1, Type: sdk.ActPass})

	mine := r.History(s, 1)
	theirs := r.History(s, 2)
	want := []string{"played", "color_chosen", "drew"}
	for _, h := range [][]sdk.Event{mine, theirs} {
		var got []string
		for _, e := range h {
			got = append(got, e.Name)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("history (-want +got):\n%s", diff)
		}
	}
	if diff := cmp.Diff(sdk.CardStrings(cards("Y7")), sdk.CardStrings(mine[2].Cards)); diff != "" {
		t.Errorf("the drawer's history (-want +got):\n%s", diff)
	}
	if len(theirs[2].Cards) != 0 || theirs[2].Count != 1 {
		t.Errorf("another seat sees the draw as %+v, want a count of 1 and no card", theirs[2])
	}
	if mine[0].Data["color"] != "Y" || mine[0].Cards[0] != sdk.Wild {
		t.Errorf("played event read back as %+v", mine[0])
	}
}

// TestHistoryIsBounded plays a long round of draws and checks the log keeps the latest events.
func TestHistoryIsBounded(t *testing.T) {
	t.Parallel()
	r := lastcard.New()
	// Nobody can play on R5 with these hands: every turn is a draw of a card that cannot be played,
	// until the deck (out of play beyond these) runs dry.
	deck := strings.Repeat("B1 B2 B3 B4 B6 B7 B8 B9 ", 2) + strings.Repeat("G1 G2 G3 G4 G6 G7 G8 G9 ", 2)
	s := start(t, table{pile: "R5", hands: []string{"Y1", "Y2"}, deck: deck, rest: "out"}, nil)
	for range 300 {
		s, _ = act(t, s, sdk.Action{Seat: s.Turn, Type: sdk.ActDraw})
	}
	h := r.History(s, 0)
	if len(h) != 256 {
		t.Fatalf("history holds %d events, want the last 256", len(h))
	}
	last := h[len(h)-1]
	if last.Name != "drew" || last.Count != 0 {
		t.Errorf("last event %+v, want an empty draw (deck and pile are dry)", last)
	}
}

// TestRedeal checks the Redealer: the viewer's hand, the pile and every count stay; the other
// cards move; the input is not modified; the views of the viewer are unchanged.
func TestRedeal(t *testing.T) {
	t.Parallel()
	r := lastcard.New()
	s := start(t, table{pile: "R5", hands: []string{"R1 B2 G3", "Y1 Y2 Y3", "G1 G2 G4"}}, nil)
	before, _ := json.Marshal(s)
	moved := 0
	for seed := range uint64(20) {
		rng := sdk.NewRNG(seed)
		c := r.Redeal(s, 0, &rng)
		if d := sdk.CardDiff(r.Cards(s), r.Cards(c)); d != "" {
			t.Fatalf("seed %d: redeal %s", seed, d)
		}
		if diff := cmp.Diff(viewJSON(t, r, s, 0), viewJSON(t, r, c, 0)); diff != "" {
			t.Fatalf("seed %d: the viewer's view changed:\n%s", seed, diff)
		}
		if !slices.Equal(c.Hands[1], s.Hands[1]) {
			moved++
		}
	}
	if after, _ := json.Marshal(s); string(after) != string(before) {
		t.Error("Redeal modified its input")
	}
	if moved < 18 {
		t.Errorf("only %d of 20 redeals changed seat 1's hand", moved)
	}
}

// TestRedealKeepsTheDrawnCardPlayable checks that a seat that drew a card it may still play keeps
// a playable card as its drawn card in every sampled world.
func TestRedealKeepsTheDrawnCardPlayable(t *testing.T) {
	t.Parallel()
	r := lastcard.New()
	s := start(t, table{pile: "R5", hands: []string{"B1 B2", "Y1 Y2 Y3", "G1 G2 G4"}, deck: "R7"}, nil)
	s, _ = act(t, s, sdk.Action{Seat: 0, Type: sdk.ActDraw})
	if s.Drawn == nil {
		t.Fatal("R7 on R5 should be playable")
	}
	for seed := range uint64(50) {
		rng := sdk.NewRNG(seed)
		c := r.Redeal(s, 1, &rng)
		if c.Drawn == nil || !slices.Contains(c.Hands[0], *c.Drawn) {
			t.Fatalf("seed %d: drawn %v not in hand %v", seed, c.Drawn, c.Hands[0])
		}
		if _, err := r.Apply(ctx, sdk.ApplyRequest[*lastcard.State]{State: c, Action: sdk.Action{Seat: 0, Type: sdk.ActPlay, Cards: []sdk.Card{*c.Drawn}, Color: colourFor(*c.Drawn)}}); err != nil {
			t.Fatalf("seed %d: the redealt drawn card %s cannot be played: %v", seed, *c.Drawn, err)
		}
		if got := r.History(c, 1); len(got) != len(r.History(s, 1)) || len(c.Log) == 0 || strings.Contains(c.Log[len(c.Log)-1], "R7") {
			t.Fatalf("seed %d: the redealt log still tells seat 0's drawn card: %v", seed, c.Log)
		}
	}
}

func colourFor(c sdk.Card) string {
	if c == sdk.Wild || c == sdk.WildDrawFour {
		return "G"
	}
	return ""
}

func viewJSON(t *testing.T, r *lastcard.Rules, s *lastcard.State, viewer int) string {
	t.Helper()
	b, err := json.Marshal(r.View(s, viewer))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestTable checks the TableEditor: a round trip gives the same game, edits take effect, and bad
// tables are refused with a reason naming what is wrong.
func TestTable(t *testing.T) {
	t.Parallel()
	r := lastcard.New()
	s := start(t, table{pile: "R5", hands: []string{"R1 B2 G3", "Y1 Y2 Y3", "G1 G2 G4"}}, nil)
	same, err := r.SetTable(s, r.Table(s))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(r.Observe(s), r.Observe(same)); diff != "" {
		t.Errorf("round trip changed the observation:\n%s", diff)
	}

	tb := r.Table(s)
	tb.Counters["penalty"] = 2
	tb.Values["penalty_kind"] = "draw_two"
	tb.Values["color"] = "G"
	tb.Counters["score.2"] = 40
	tb.Turn, tb.Direction = 2, -1
	edited, err := r.SetTable(s, tb)
	if err != nil {
		t.Fatal(err)
	}
	o := r.Observe(edited)
	if o["penalty"] != 2 || o["color"] != "G" || o["turn"] != 2 || o["direction"] != -1 || !cmp.Equal(o["scores"], []int{0, 0, 40}) {
		t.Errorf("edited observation %v", o)
	}
	if _, err := r.Apply(ctx, sdk.ApplyRequest[*lastcard.State]{State: edited, Action: sdk.Action{Seat: 2, Type: sdk.ActDraw}}); err != nil {
		t.Errorf("the penalty set by the table cannot be drawn: %v", err)
	}

	bad := []struct {
		name string
		edit func(*sdk.Table)
		want string
	}{
		{"unknown zone", func(tb *sdk.Table) { tb.Zones["burned"] = nil }, "unknown zone"},
		{"hand of no seat", func(tb *sdk.Table) { tb.Zones["hand.3"] = nil }, "unknown zone"},
		{"French card", func(tb *sdk.Table) { tb.Zones["pile"] = cards("QH") }, "not a Last Card card"},
		{"turn", func(tb *sdk.Table) { tb.Turn = 3 }, "turn 3"},
		{"direction", func(tb *sdk.Table) { tb.Direction = 0 }, "direction"},
		{"penalty without kind", func(tb *sdk.Table) { tb.Counters["penalty"] = 2 }, "penalty_kind"},
		{"colour", func(tb *sdk.Table) { tb.Values["color"] = "P" }, "color"},
		{"counter", func(tb *sdk.Table) { tb.Counters["run"] = 1 }, "unknown counter"},
		{"value", func(tb *sdk.Table) { tb.Values["suit"] = "H" }, "unknown value"},
		{"drawn not held", func(tb *sdk.Table) { tb.Values["drawn"] = "W" }, "not in the hand"},
		{"negative score", func(tb *sdk.Table) { tb.Counters["score.1"] = -5 }, "negative"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			tb := r.Table(s)
			tt.edit(&tb)
			_, err := r.SetTable(s, tb)
			re, ok := sdk.AsRefusal(err)
			if !ok || !strings.Contains(re.Reason, tt.want) {
				t.Errorf("want a refusal naming %q, got %v", tt.want, err)
			}
		})
	}
}
