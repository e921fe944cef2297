package sdk

import (
	"encoding/json"
	"fmt"
	"testing"
)

func intPtr(i int) *int { return &i }

// randomView builds a view that uses every field, with values drawn from rng, including strings
// that need escaping.
func randomView(rng *RNG) View {
	strs := []string{"", "hand.0", "Q♥ <b>&</b>", "line\nbreak\ttab\"quote\\", "\x00\x1f\u2028\u2029", "\xff bad utf8", "naïve 🃏"}
	s := func() string { return strs[rng.Intn("t", len(strs))] }
	cards := func() []Card {
		n := rng.Intn("t", 4)
		if n == 3 {
			return nil
		}
		out := make([]Card, n)
		deck := append(FrenchDeck(1, 1), LastCardDeck()...)
		for i := range out {
			out[i] = deck[rng.Intn("t", len(deck))]
		}
		if n > 1 && rng.Intn("t", 2) == 0 {
			out[0] = 0 // a gap
		}
		return out
	}
	ints := func() []int {
		if rng.Intn("t", 3) == 0 {
			return nil
		}
		return []int{rng.Intn("t", 9) - 1, 1 << 20}
	}
	v := View{Ruleset: s(), Viewer: rng.Intn("t", 5) - 1, Phase: s(), Turn: rng.Intn("t", 9) - 1,
		Direction: []int{1, -1}[rng.Intn("t", 2)], Round: rng.Intn("t", 3), Winner: rng.Intn("t", 4) - 1}
	if rng.Intn("t", 4) > 0 {
		v.Players = []PlayerView{{Seat: 0, HandCount: 7}, {Seat: 1, HandCount: 0, Score: intPtr(-5), Points: intPtr(23), Tags: []string{s(), s()}}}
		if rng.Intn("t", 2) == 0 {
			v.Players[1].Tricks, v.Players[1].Bid, v.Players[1].Team = intPtr(rng.Intn("t", 3)), s(), intPtr(rng.Intn("t", 2))
		}
	}
	if rng.Intn("t", 4) > 0 {
		v.Zones = []Zone{{ID: s(), Kind: ZoneHand, Owner: 1, Label: s(), Cards: cards(), Count: 3, Hidden: rng.Intn("t", 2) == 0, Slots: []bool{true, false}}, {ID: "deck", Kind: ZoneDeck, Owner: -1}}
		if rng.Intn("t", 2) == 0 {
			v.Zones = append(v.Zones, Zone{ID: "meld.1.0", Kind: ZoneMeld, Owner: 1, Cards: cards(), Count: 3, Meld: intPtr(rng.Intn("t", 2))})
		}
	}
	if rng.Intn("t", 2) == 0 {
		v.Indicators = []Indicator{{ID: s(), Label: s(), Value: s(), Kind: s()}}
	}
	if rng.Intn("t", 2) == 0 {
		v.Actions = []ActionSpec{{Type: s(), Label: s(), Cards: cards(), Multi: true, From: s(), Choices: []string{s()}, ChoiceFor: cards(), Targets: ints(), Indexes: ints(), Args: []string{s(), s()}}, {Type: "draw", Label: "Draw"}}
		if rng.Intn("t", 2) == 0 {
			v.Actions[0].Count, v.Actions[0].ChoiceLabels, v.Actions[0].Zones = rng.Intn("t", 4), []string{s(), s()}, []string{s()}
		}
	}
	if rng.Intn("t", 2) == 0 {
		v.Deadlines = []Deadline{{ID: s(), Seat: 2, At: 1 << 40, Kind: s()}}
	}
	if rng.Intn("t", 2) == 0 {
		v.Events = []Event{{Name: s(), Seat: -1, Cards: cards(), Count: rng.Intn("t", 3), Data: map[string]string{s(): s(), "b": s(), "a": ""}, Private: rng.Intn("t", 2) == 0}}
	}
	if rng.Intn("t", 2) == 0 {
		v.Roles = map[string]string{"10": "burn", "2": "reset", s(): s()}
	}
	trick := func() *Trick {
		switch rng.Intn("t", 4) {
		case 0:
			return nil
		case 1:
			return &Trick{Leader: rng.Intn("t", 4)} // no plays: null
		}
		t := &Trick{Leader: 2, Plays: []TrickPlay{{Seat: 2, Card: MustParseCards("QH")[0]}, {Seat: 3}}}
		if rng.Intn("t", 2) == 0 {
			t.Winner = intPtr(rng.Intn("t", 4))
		}
		return t
	}
	v.Trick, v.LastTrick = trick(), trick()
	switch rng.Intn("t", 3) {
	case 1:
		v.Teams = []Team{{ID: 0, Name: s(), Seats: []int{0, 2}, Score: -120}, {ID: 1, Name: s()}}
	case 2:
		v.Teams = []Team{{ID: 1, Name: s(), Seats: []int{1, 3}, Score: 51, Contract: intPtr(rng.Intn("t", 14)), Tricks: intPtr(0), Bags: intPtr(7)}}
	}
	switch rng.Intn("t", 3) {
	case 1:
		v.Sheet = &ScoreSheet{} // every list nil: null
	case 2:
		v.Sheet = &ScoreSheet{By: s(), Columns: []string{s(), s()}, Rows: []ScoreRow{{Label: s(), Cells: []int{-3, 26}}, {Label: "Hand 2", Cells: ints(), Notes: []string{s(), ""}}}, Totals: []int{-3, 26}}
	}
	v.LowWins = rng.Intn("t", 2) == 0
	return v
}

func TestViewAppendJSONMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	rng := NewRNG(11)
	for i := range 2000 {
		v := randomView(&rng)
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if got := v.AppendJSON(nil); string(got) != string(want) {
			t.Fatalf("view %d:\nencoding/json: %s\nAppendJSON:    %s", i, want, got)
		}
	}
	var empty View
	want, _ := json.Marshal(empty)
	if got := empty.AppendJSON(nil); string(got) != string(want) {
		t.Fatalf("empty view:\nencoding/json: %s\nAppendJSON:    %s", want, got)
	}
}

func FuzzJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", "<&>", "\u2028", "\xff", "é\x01\"\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Fatalf("%q: encoding/json %s, appendJSONString %s", s, want, got)
		}
	})
}

func BenchmarkViewJSON(b *testing.B) {
	rng := NewRNG(3)
	views := make([]View, 64)
	for i := range views {
		views[i] = randomView(&rng)
	}
	for _, enc := range []string{"encoding/json", "AppendJSON"} {
		b.Run(enc, func(b *testing.B) {
			b.ReportAllocs()
			var buf []byte
			for i := 0; b.Loop(); i++ {
				v := &views[i%len(views)]
				if enc == "AppendJSON" {
					buf = v.AppendJSON(buf[:0])
				} else {
					var err error
					if buf, err = json.Marshal(v); err != nil {
						b.Fatal(fmt.Sprint(err))
					}
				}
			}
		})
	}
}
