package sdk

import (
	"errors"
	"strings"
	"testing"
)

func intp(i int) *int { return &i }

func TestDealLayout(t *testing.T) {
	t.Parallel()
	set := FrenchDeck(1, 0)
	d := Deal{
		Pile:  MustParseCards("9C 7H"),
		Hands: [][]Card{MustParseCards("QH QC"), MustParseCards("5C")},
		Deck:  MustParseCards("4C 8D"),
		First: intp(1),
	}
	rng := NewRNG(9)
	l, err := d.Layout(set, 3, &rng)
	if err != nil {
		t.Fatal(err)
	}
	if l.First != 1 || len(l.Hands) != 3 || len(l.Hands[2]) != 0 {
		t.Errorf("first %d, hands %v", l.First, l.Hands)
	}
	if l.Deck[0] != MustParseCards("4C")[0] || l.Deck[1] != MustParseCards("8D")[0] {
		t.Errorf("deck does not start with the named cards: %v", l.Deck[:2])
	}
	var all []Card
	all = append(all, l.Pile...)
	for _, h := range l.Hands {
		all = append(all, h...)
	}
	all = append(all, l.Deck...)
	if diff := CardDiff(set, all); diff != "" {
		t.Errorf("layout does not hold the set exactly once: %s", diff)
	}
	// Same seed, same order of the unnamed cards.
	rng2 := NewRNG(9)
	l2, _ := d.Layout(set, 3, &rng2)
	if CardStrings(l.Deck)[10] != CardStrings(l2.Deck)[10] {
		t.Error("layout not deterministic for a seed")
	}
	// Rest "out" keeps the deck to what is named.
	d.Rest = "out"
	rng3 := NewRNG(9)
	l3, err := d.Layout(set, 3, &rng3)
	if err != nil || len(l3.Deck) != 2 || len(l3.Out) != 52-7 {
		t.Errorf("rest out: deck %d out %d err %v", len(l3.Deck), len(l3.Out), err)
	}
}

func TestDealLayoutErrors(t *testing.T) {
	t.Parallel()
	set := FrenchDeck(1, 0)
	tests := []struct {
		name string
		deal Deal
		want string
	}{
		{"card twice", Deal{Pile: MustParseCards("QH"), Deck: MustParseCards("QH")}, "deck names QH once more"},
		{"not in set", Deal{Hands: [][]Card{MustParseCards("JK")}}, "JK, which is not in this game's cards"},
		{"too many seats", Deal{Hands: [][]Card{{}, {}, {}}}, "lists 3 seats, the game has 2"},
		{"first out of range", Deal{First: intp(5)}, "first seat 5"},
		{"bad rest", Deal{Rest: "table"}, `rest must be "deck" or "out"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := NewRNG(1)
			_, err := tt.deal.Layout(set, 2, &rng)
			if !errors.Is(err, ErrIllegal) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want a refusal containing %q", err, tt.want)
			}
		})
	}
}
