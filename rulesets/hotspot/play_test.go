package hotspot

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"cardhouse/sdk"
)

func cards(s string) []sdk.Card { return sdk.MustParseCards(s) }

func card(s string) sdk.Card { return cards(s)[0] }

func TestCheckPlay(t *testing.T) {
	t.Parallel()
	on7H := Position{Top: card("7H"), Suit: sdk.Hearts}
	tests := []struct {
		name  string
		pos   Position
		hand  string
		sel   string
		want  PlayCheck
		after *Position
	}{
		{name: "suit match", pos: on7H, hand: "3H 9S", sel: "3H",
			want: PlayCheck{Legal: true}, after: &Position{Top: card("3H"), Suit: sdk.Hearts}},
		{name: "rank match changes the suit", pos: on7H, hand: "7C 9S", sel: "7C",
			want: PlayCheck{Legal: true}, after: &Position{Top: card("7C"), Suit: sdk.Clubs}},
		{name: "no match", pos: on7H, hand: "5C 9S", sel: "5C",
			want: PlayCheck{Code: CodeNoMatch}},
		{name: "not held", pos: on7H, hand: "5C 9S", sel: "5H",
			want: PlayCheck{Code: sdk.CodeNotHeld}},
		{name: "ace on anything needs a suit (H-5)", pos: on7H, hand: "AS 9S", sel: "AS",
			want: PlayCheck{Legal: true, NeedSuit: true}},
		{name: "ace going out wins (HS-4)", pos: on7H, hand: "AS", sel: "AS",
			want: PlayCheck{Legal: true, NeedSuit: true, Wins: true}},
		{name: "ace not on a penalty (H-5, H-6)", pos: Position{Top: card("2H"), Suit: sdk.Hearts, Penalty: 2}, hand: "AH 9S", sel: "AH",
			want: PlayCheck{Code: CodePenalty}},
		{name: "2 on a penalty of another suit (H-6)", pos: Position{Top: card("2H"), Suit: sdk.Hearts, Penalty: 2}, hand: "2C 9S", sel: "2C",
			want: PlayCheck{Legal: true}, after: &Position{Top: card("2C"), Suit: sdk.Clubs, Penalty: 4}},
		{name: "a 2 must match like any card", pos: on7H, hand: "2C 9S", sel: "2C",
			want: PlayCheck{Code: CodeNoMatch}},
		{name: "a group of 2s adds two each", pos: on7H, hand: "2H 2C 2S 9S", sel: "2H 2C 2S",
			want: PlayCheck{Legal: true}, after: &Position{Top: card("2S"), Suit: sdk.Spades, Penalty: 6}},
		{name: "two of a rank are incomplete when a third is held (H-7)", pos: on7H, hand: "5H 5C 5S", sel: "5H 5C",
			want: PlayCheck{Incomplete: true, Code: CodeNotAGroup}},
		{name: "two of a rank with no third are refused (H-7)", pos: on7H, hand: "5H 5C 9S", sel: "5H 5C",
			want: PlayCheck{Code: CodeNotAGroup}},
		{name: "group first card must be legal", pos: on7H, hand: "5C 5H 5S", sel: "5C 5H 5S",
			want: PlayCheck{Code: CodeNoMatch}},
		{name: "group", pos: on7H, hand: "5H 5C 5S 9S", sel: "5H 5C 5S",
			want: PlayCheck{Legal: true}, after: &Position{Top: card("5S"), Suit: sdk.Spades}},
		{name: "nothing follows a plain card", pos: on7H, hand: "5H 6H", sel: "5H 6H",
			want: PlayCheck{Code: CodeNoExtraGo}},
		{name: "queen alone keeps the extra go", pos: on7H, hand: "QH 9S", sel: "QH",
			want: PlayCheck{Legal: true}, after: &Position{Top: card("QH"), Suit: sdk.Hearts, ExtraGo: true}},
		{name: "queen chain into a group (the rules' example)", pos: on7H, hand: "QH QC 3C 3H 3S 3D 9S", sel: "QH QC 3C 3H 3S 3D",
			want: PlayCheck{Legal: true}, after: &Position{Top: card("3D"), Suit: sdk.Diamonds}},
		{name: "queen follow-up must match the queen (H-9)", pos: on7H, hand: "QH 5C", sel: "QH 5C",
			want: PlayCheck{Code: CodeNoMatch}},
		{name: "queen then ace names a suit (H-5)", pos: on7H, hand: "QH AS 9D", sel: "QH AS",
			want: PlayCheck{Legal: true, NeedSuit: true}},
		{name: "queen sequence to zero wins", pos: Position{Top: card("7S"), Suit: sdk.Spades}, hand: "QS 5S", sel: "QS 5S",
			want: PlayCheck{Legal: true, Wins: true}},
		{name: "drawn card first (HS-5)", pos: Position{Top: card("7H"), Suit: sdk.Hearts, Drawn: card("6H")}, hand: "7C 6H", sel: "7C",
			want: PlayCheck{Code: CodeMustPlayDrawn}},
		{name: "empty pile takes anything", pos: Position{}, hand: "9S 4C", sel: "9S",
			want: PlayCheck{Legal: true}, after: &Position{Top: card("9S"), Suit: sdk.Spades}},
		{name: "a joker is no card of this game", pos: on7H, hand: "9S", sel: "JK",
			want: PlayCheck{Code: sdk.CodeUnknownCard}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := CheckPlay(tt.pos, cards(tt.hand), cards(tt.sel))
			if tt.after != nil && !cmp.Equal(*tt.after, got.After) {
				t.Errorf("After: %s", cmp.Diff(*tt.after, got.After))
			}
			if got.Legal == false && got.Reason == "" {
				t.Errorf("a refused selection has no reason")
			}
			got.After, got.Next, got.Reason = Position{}, nil, ""
			if !got.Legal && !tt.want.Legal {
				tt.want.Reason = ""
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("CheckPlay(%v, %s, %s) (-want +got):\n%s", tt.pos, tt.hand, tt.sel, d)
			}
		})
	}
}

func TestCheckPlayNext(t *testing.T) {
	t.Parallel()
	on7H := Position{Top: card("7H"), Suit: sdk.Hearts}
	tests := []struct {
		name, hand, sel, want string
	}{
		{"cards that may start", "QH QC 3C 3H 3S 9S AD 7S", "", "AD 3H 7S QH"},
		{"after a queen: the next queen, a heart, an ace", "QH QC 3C 3H 3S 9S AD", "QH", "AD 3H QC"},
		{"after a chain: the club and the ace", "QH QC 3C 3H 3S 9S AD", "QH QC", "AD 3C"},
		{"a single may grow into a group", "QH QC 3C 3H 3S 9S AD", "QH QC 3C", "3H 3S"},
		{"two of a rank want the third", "QH QC 3C 3H 3S 9S AD", "QH QC 3C 3H", "3S"},
		{"nothing after a plain card", "5H 6H 5C 5S", "6H", ""},
		{"under a penalty only 2s", "2H 2C 9H", "", "2C 2H"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			pos := on7H
			if tt.name == "under a penalty only 2s" {
				pos = Position{Top: card("2S"), Suit: sdk.Spades, Penalty: 2}
			}
			got := CheckPlay(pos, cards(tt.hand), cards(tt.sel)).Next
			want := cards(tt.want)
			slices.Sort(want) // Next is in card order
			if d := cmp.Diff(sdk.CardStrings(want), sdk.CardStrings(got)); d != "" {
				t.Errorf("Next (-want +got):\n%s", d)
			}
		})
	}
}

// legalSelections counts every legal selection (ordered, as sent) of hand in position p: the
// "perft" of one turn.
func legalSelections(p Position, hand []sdk.Card) int {
	n := 0
	var walk func(sel []sdk.Card)
	walk = func(sel []sdk.Card) {
		pc := CheckPlay(p, hand, sel)
		if pc.Legal {
			n++
		}
		for _, c := range pc.Next {
			walk(append(append([]sdk.Card(nil), sel...), c))
		}
	}
	walk(nil)
	return n
}

// TestPerft counts the legal plays of fixed hands, counted by hand in the comments.
func TestPerft(t *testing.T) {
	t.Parallel()
	on7H := Position{Top: card("7H"), Suit: sdk.Hearts}
	tests := []struct {
		hand string
		want int
	}{
		// QH; 5H; QH 5H. (5C matches nothing; two 5s are no group.)
		{"QH 5H 5C 9S", 3},
		// 3H; 3H+{3C,3S} in 2 orders; QH; QH QC; QH 3H; QH 3H+2 orders; QH QC 3C; QH QC 3C+2 orders.
		{"QH QC 3C 3H 3S", 11},
		// Under no penalty every 2 is a single (2H) or a group of three starting with 2H (2 orders).
		{"2H 2C 2S", 3},
	}
	for _, tt := range tests {
		if got := legalSelections(on7H, cards(tt.hand)); got != tt.want {
			t.Errorf("legal plays of %s on 7H = %d, want %d", tt.hand, got, tt.want)
		}
	}
}
