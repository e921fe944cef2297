package sdk

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCardCodesRoundTrip(t *testing.T) {
	t.Parallel()
	all := append(FrenchDeck(1, 1), LastCardDeck()...)
	seen := map[string]Card{}
	for _, c := range all {
		code := c.String()
		got, err := ParseCard(code)
		if err != nil {
			t.Fatalf("ParseCard(%q): %v", code, err)
		}
		if got != c {
			t.Errorf("ParseCard(%q) = %d, want %d", code, got, c)
		}
		if prev, ok := seen[code]; ok && prev != c {
			t.Errorf("code %q names two cards: %d and %d", code, prev, c)
		}
		seen[code] = c
	}
	// 52 French + Joker + 52 coloured Last Card cards + 2 Jokers: every distinct code.
	if len(seen) != 107 {
		t.Errorf("distinct codes = %d, want 107", len(seen))
	}
}

func TestParseCard(t *testing.T) {
	t.Parallel()
	tests := []struct {
		code  string
		want  Card
		wantS string
	}{
		{"QH", French(12, Hearts), "QH"},
		{"10s", French(10, Spades), "10S"},
		{"AS", French(1, Spades), "AS"},
		{"KC", French(13, Clubs), "KC"},
		{"JK", Joker, "JK"},
		{"R7", LC(Red, 7), "R7"},
		{"GS", LC(Green, ValueSkip), "GS"},
		{"BR", LC(Blue, ValueReverse), "BR"},
		{"Y+2", LC(Yellow, ValueDrawTwo), "Y+2"},
		{"W", Wild, "W"},
		{"w+4", WildDrawFour, "W+4"},
	}
	for _, tt := range tests {
		got, err := ParseCard(tt.code)
		if err != nil {
			t.Errorf("ParseCard(%q): %v", tt.code, err)
			continue
		}
		if got != tt.want || got.String() != tt.wantS {
			t.Errorf("ParseCard(%q) = %v (%d), want %s (%d)", tt.code, got, got, tt.wantS, tt.want)
		}
	}
	for _, bad := range []string{"", "X", "1H", "11H", "QX", "R10", "Y+4", "JKX", "Q"} {
		if c, err := ParseCard(bad); err == nil {
			t.Errorf("ParseCard(%q) = %v, want an error", bad, c)
		}
	}
}

func TestCardProperties(t *testing.T) {
	t.Parallel()
	q := French(12, Hearts)
	if q.Rank() != 12 || q.Suit() != Hearts || q.Color() != 0 || q.Value() != -1 || !q.IsFrench() {
		t.Errorf("QH properties wrong: rank %d suit %c", q.Rank(), q.Suit())
	}
	if Joker.Rank() != 0 || Joker.Suit() != 0 || !Joker.IsFrench() || Joker.RankCode() != "JK" {
		t.Errorf("Joker properties wrong")
	}
	y2 := LC(Yellow, ValueDrawTwo)
	if y2.Color() != Yellow || y2.Value() != ValueDrawTwo || y2.Rank() != 0 || !y2.IsColorCard() || y2.RankCode() != "+2" {
		t.Errorf("Y+2 properties wrong")
	}
	if Wild.Color() != 0 || Wild.Value() != -1 || !Wild.IsColorCard() {
		t.Errorf("W properties wrong")
	}
}

func TestDecks(t *testing.T) {
	t.Parallel()
	if n := len(FrenchDeck(2, 2)); n != 108 {
		t.Errorf("two French decks with 2 Jokers each: %d cards, want 108", n)
	}
	lc := LastCardDeck()
	if len(lc) != 108 {
		t.Fatalf("Last Card deck: %d cards, want 108", len(lc))
	}
	counts := CountCards(lc)
	checks := map[string]int{"R0": 1, "R1": 2, "B9": 2, "GS": 2, "YR": 2, "B+2": 2, "W": 4, "W+4": 4}
	for code, want := range checks {
		if got := counts[MustParseCards(code)[0]]; got != want {
			t.Errorf("%s: %d copies, want %d", code, got, want)
		}
	}
}

func TestCardJSON(t *testing.T) {
	t.Parallel()
	in := MustParseCards("QH 10S JK Y+2 W+4")
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `["QH","10S","JK","Y+2","W+4"]` {
		t.Errorf("JSON = %s", b)
	}
	var out []Card
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(in, out); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	if err := json.Unmarshal([]byte(`["QX"]`), &out); err == nil {
		t.Error("unmarshal of an unknown code succeeded")
	}
}

func TestMultisets(t *testing.T) {
	t.Parallel()
	a := MustParseCards("QH QH 3C")
	if !SameCards(a, MustParseCards("3C QH QH")) {
		t.Error("same multiset in another order not equal")
	}
	if SameCards(a, MustParseCards("QH 3C 3C")) {
		t.Error("different multiplicities compared equal")
	}
	if got := CardDiff(a, MustParseCards("QH 7D 7D")); got != "lost QH, 3C; invented 2 x 7D" {
		t.Errorf("CardDiff = %q", got)
	}
	rest, ok := RemoveCards(a, MustParseCards("QH"))
	if !ok || !SameCards(rest, MustParseCards("QH 3C")) || len(a) != 3 {
		t.Errorf("RemoveCards = %v %v (input %v)", rest, ok, a)
	}
	if _, ok := RemoveCards(a, MustParseCards("3C 3C")); ok {
		t.Error("RemoveCards took a card twice")
	}
}

func TestCardJSONZeroSlot(t *testing.T) {
	t.Parallel()
	row := []Card{MustParseCards("7S")[0], 0, MustParseCards("JC")[0]}
	b, err := json.Marshal(row)
	if err != nil || string(b) != `["7S","","JC"]` {
		t.Fatalf("marshal = %s, %v", b, err)
	}
	var back []Card
	if err := json.Unmarshal(b, &back); err != nil || !cmp.Equal(back, row) {
		t.Fatalf("unmarshal = %v, %v", back, err)
	}
	if err := json.Unmarshal([]byte(`["7S",null]`), &back); err != nil || back[1] != 0 {
		t.Errorf("null did not read as the zero Card: %v %v", back, err)
	}
	if err := json.Unmarshal([]byte(`[7]`), &back); err == nil {
		t.Error("a number read as a card")
	}
}

func BenchmarkCardsJSON(b *testing.B) {
	deck := LastCardDeck()
	b.ReportAllocs()
	for b.Loop() {
		blob, _ := json.Marshal(deck)
		var out []Card
		if err := json.Unmarshal(blob, &out); err != nil {
			b.Fatal(err)
		}
	}
}
