package drugs

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"cardhouse/sdk"
	"github.com/google/go-cmp/cmp"
)

// DR-11: pick-ups that never burn end the game at StallLimit, fewest cards winning.
func TestStallEndsTheGame(t *testing.T) {
	t.Parallel()
	// Two players who cycle the pile forever: each round of six actions gives the same table
	// back (seat 0 holds 4C, seat 1 KH and 5H) with two pick-ups and no burn.
	s := start(t, setup{hands: []string{"4C", "KH 5H"}, faceUp: []string{"QC", "QH"}, faceDown: []string{"2S", "2H"}, rest: "out"})
	cycle := []sdk.Action{play(0, "4C"), play(1, "KH"), pickup(0), play(1, "5H"), play(0, "KH"), pickup(1)}
	n := 0
	for ; s.Phase == sdk.PhasePlaying; n++ {
		if n > 10*StallLimit {
			t.Fatalf("no end after %d actions", n)
		}
		s, _ = act(t, s, cycle[n%len(cycle)])
	}
	if n != 3*StallLimit {
		t.Fatalf("ended after %d actions, want %d (%d pick-ups)", n, 3*StallLimit, StallLimit)
	}
	last := s.Log[len(s.Log)-1]
	if last.Name != EvWon || last.Data["reason"] != "stalled" || s.Stall != StallLimit {
		t.Fatalf("ended by %+v, stall %d", last, s.Stall)
	}
	// The winner holds the fewest cards.
	if s.holding(s.Winner) > s.holding(1-s.Winner) {
		t.Fatalf("winner %d holds %d, the other %d", s.Winner, s.holding(s.Winner), s.holding(1-s.Winner))
	}
	// A burn resets the count.
	s = start(t, setup{pile: "KS", hands: []string{"10C 4C", "9H"}, faceUp: []string{"", ""}, faceDown: []string{"2S", "2H"}, rest: "out"})
	s.Stall = StallLimit - 1
	s, _ = act(t, s, play(0, "10C"))
	if s.Stall != 0 {
		t.Fatalf("stall %d after a burn", s.Stall)
	}
}

func TestRowJSONKeepsGaps(t *testing.T) {
	t.Parallel()
	r := Row{sdk.MustParseCards("7C")[0], 0, sdk.MustParseCards("10S")[0]}
	b, err := json.Marshal(r)
	if err != nil || string(b) != `["7C",null,"10S"]` {
		t.Fatalf("%s %v", b, err)
	}
	var back Row
	if err := json.Unmarshal(b, &back); err != nil || !slices.Equal(r, back) {
		t.Fatalf("%v %v", back, err)
	}
	if err := json.Unmarshal([]byte(`["7X"]`), &back); err == nil || !strings.Contains(err.Error(), "position 0") {
		t.Fatalf("bad code: %v", err)
	}
}

func TestStateRoundTrip(t *testing.T) {
	t.Parallel()
	s, _, _ := playout(t, 4, true, 2, 3)
	b := encode(t, s)
	var back State
	if err := json.Unmarshal([]byte(b), &back); err != nil {
		t.Fatal(err)
	}
	if got := encode(t, &back); got != b {
		t.Fatalf("state does not round-trip:\n%s\n%s", b, got)
	}
}

func TestViewsHideWhatTheyMust(t *testing.T) {
	t.Parallel()
	r := New()
	s := start(t, setup{seats: 3, pile: "5S", hands: []string{"9C 4C", "KH", "AH"}, faceUp: []string{"QC", "QH", ""},
		faceDown: []string{"6C 2C 8C", "7H", "7D"}, deck: "JD", rest: "out"})
	for _, viewer := range []int{sdk.Spectator, 0, 1, 2} {
		v := r.View(s, viewer)
		for _, z := range v.Zones {
			switch {
			case strings.HasPrefix(z.ID, "hand."):
				if (z.Owner == viewer) != (z.Cards != nil || z.Count == 0) || (z.Owner != viewer && !z.Hidden) {
					t.Errorf("viewer %d sees zone %s: %+v", viewer, z.ID, z)
				}
			case strings.HasPrefix(z.ID, "face_down."), z.ID == "deck", z.ID == "burned":
				if z.Cards != nil || !z.Hidden {
					t.Errorf("viewer %d sees zone %s: %+v", viewer, z.ID, z)
				}
			case strings.HasPrefix(z.ID, "face_up."), z.ID == "pile":
				if len(z.Cards) != z.Count {
					t.Errorf("zone %s is public: %+v", z.ID, z)
				}
			}
		}
		if (viewer == 0) != (len(v.Actions) > 0) {
			t.Errorf("viewer %d actions %+v", viewer, v.Actions)
		}
	}
	v := r.View(s, 0)
	want := []sdk.ActionSpec{{Type: sdk.ActPlay, Label: "Play", Cards: cards("9C"), Multi: true}, {Type: sdk.ActPickup, Label: "Pick up the pile"}}
	if diff := cmp.Diff(want, v.Actions); diff != "" {
		t.Fatalf("actions (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(Roles, v.Roles); diff != "" || v.Roles["10"] != "burn" || v.Roles["JK"] != "joker" {
		t.Fatal(diff)
	}
	z, _ := v.Zone("face_down.0")
	if diff := cmp.Diff([]bool{true, true, true}, z.Slots); diff != "" {
		t.Fatal(diff)
	}
	// Redeal: the view of every viewer survives a shuffle of what it cannot see.
	for seed := range uint64(20) {
		for _, viewer := range []int{sdk.Spectator, 0, 1, 2} {
			rng := sdk.NewRNG(seed)
			other := r.Redeal(s, viewer, &rng)
			a, _ := json.Marshal(r.View(s, viewer))
			b, _ := json.Marshal(r.View(other, viewer))
			if string(a) != string(b) {
				t.Fatalf("viewer %d: view changed by a redeal", viewer)
			}
			if d := sdk.CardDiff(s.allCards(), other.allCards()); d != "" {
				t.Fatal(d)
			}
		}
	}
}

func TestRedealMovesHiddenCardsOnly(t *testing.T) {
	t.Parallel()
	r := New()
	s, _ := r.Start(context.Background(), sdk.StartRequest{Seats: 4, Options: sdk.Options{OptOverdose: 4, OptChaos: true}, RNG: sdk.NewRNG(9)})
	moved := false
	for seed := range uint64(10) {
		rng := sdk.NewRNG(seed)
		o := r.Redeal(s, 1, &rng)
		if !slices.Equal(o.Hands[1], s.Hands[1]) || !slices.Equal(o.Pile, s.Pile) {
			t.Fatal("the viewer's hand or the pile moved")
		}
		for i := range 4 {
			if !slices.Equal(o.FaceUp[i], s.FaceUp[i]) {
				t.Fatal("a face-up row moved")
			}
			if slices.Contains([]sdk.Card(o.FaceDown[i]), sdk.Joker) {
				t.Fatal("a redeal put a Joker face down (D-11)")
			}
		}
		moved = moved || !slices.Equal(o.Hands[0], s.Hands[0]) || !slices.Equal(o.Deck, s.Deck)
	}
	if !moved {
		t.Fatal("redeal never moved a hidden card")
	}
}

func TestTable(t *testing.T) {
	t.Parallel()
	r := New()
	s := start(t, setup{pile: "5S", hands: []string{"9C 4C", "KH"}, faceUp: []string{"QC", "QH"},
		faceDown: []string{"6C 2C 8C", "7H"}, deck: "JD", rest: "out"})
	tab := r.Table(s)
	if diff := cmp.Diff(cards("6C 2C 8C"), tab.Zones["face_down.0"]); diff != "" {
		t.Fatal(diff)
	}
	back, err := r.SetTable(s, tab)
	if err != nil || encode(t, back) != encode(t, s) {
		t.Fatalf("round trip: %v", err)
	}
	// A house rule moves a card from the deck to seat 1's hand and arms the pile.
	edit := tab.Clone()
	edit.Zones["hand.1"] = append(edit.Zones["hand.1"], edit.Zones["deck"]...)
	edit.Zones["deck"] = nil
	edit.Counters["armed"] = 1
	got, err := r.SetTable(s, edit)
	if err != nil || len(got.Hands[1]) != 2 || len(got.Deck) != 0 || !got.Armed || s.Armed {
		t.Fatalf("edit: %v", err)
	}
	if len(s.Hands[1]) != 1 {
		t.Fatal("SetTable changed its input")
	}
	bad := []struct {
		name string
		f    func(*sdk.Table)
		want string
	}{
		{"unknown zone", func(t *sdk.Table) { t.Zones["hand.5"] = nil }, "no zone"},
		{"lost card", func(t *sdk.Table) { t.Zones["hand.1"] = nil }, "lost KH"},
		{"gap in a hand", func(t *sdk.Table) { t.Zones["hand.1"] = []sdk.Card{0} }, "not a card"},
		{"turn", func(t *sdk.Table) { t.Turn = 2 }, "turn"},
		{"direction", func(t *sdk.Table) { t.Direction = 0 }, "direction"},
		{"counter", func(t *sdk.Table) { t.Counters["penalty"] = 1 }, "no counter"},
		{"value", func(t *sdk.Table) { t.Values["suit"] = "S" }, "no value"},
		{"armed", func(t *sdk.Table) { t.Counters["armed"] = 2 }, "armed"},
		{"winner", func(t *sdk.Table) { t.Counters["winner"] = 1 }, "game.end_game(seat)"},
		{"phase", func(t *sdk.Table) { t.Values["phase"] = sdk.PhaseGameOver }, "game.end_game(seat)"},
		{"joker without chaos", func(t *sdk.Table) { t.Zones["deck"] = []sdk.Card{sdk.Joker} }, "not a card"},
	}
	for _, b := range bad {
		e := tab.Clone()
		b.f(&e)
		_, err := r.SetTable(s, e)
		if re, ok := sdk.AsRefusal(err); !ok || !strings.Contains(re.Reason, b.want) {
			t.Errorf("%s: %v, want a refusal naming %q", b.name, err, b.want)
		}
	}
}

func TestHistory(t *testing.T) {
	t.Parallel()
	r := New()
	s := start(t, setup{hands: []string{"4C 5C 6C 8D", "8H"}, faceUp: []string{"5D", "6D"}, faceDown: []string{"6H", "7H"}, deck: "QS KS", rest: "out"})
	s, _ = act(t, s, play(0, "4C"))
	s, _ = act(t, s, play(1, "8H"))
	h0, h1 := r.History(s, 0), r.History(s, 1)
	i := slices.IndexFunc(h0, func(e sdk.Event) bool { return e.Name == EvDrew })
	if i < 0 || h0[i].Cards != nil || h0[i].Count != 2 || len(h1[i].Cards) != 2 {
		t.Fatalf("seat 0 sees %+v, seat 1 sees %+v", h0[i], h1[i])
	}
	long, _, _ := playout(t, 2, false, 1, 5)
	if len(long.Log) != LogLimit {
		t.Fatalf("log of a long game holds %d events, want the limit %d", len(long.Log), LogLimit)
	}
	if last := long.Log[len(long.Log)-1]; last.Name != EvWon {
		t.Fatalf("the log keeps the newest events: last is %q", last.Name)
	}
}

func TestBots(t *testing.T) {
	t.Parallel()
	r := New()
	s := start(t, setup{seats: 3, pile: "5S", hands: []string{"9C 4C", "KH", "AH"}, faceUp: []string{"", "", ""},
		faceDown: []string{"6C", "7H", "7D"}, rest: "out"})
	for _, level := range []int{1, 2} {
		for seat := range 3 {
			rng := sdk.NewRNG(1)
			a, err := r.Bot(context.Background(), sdk.BotRequest{Seat: seat, Level: level, View: r.View(s, seat), RNG: &rng})
			if err != nil || (seat == 0) != (a != nil) {
				t.Fatalf("level %d seat %d: %+v %v", level, seat, a, err)
			}
			if a != nil {
				act(t, s, *a)
			}
		}
	}
}
