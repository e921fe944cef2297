package sdk

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// plays makes a trick from card codes, seats numbered from leader round a table of four.
func plays(leader int, codes string) []TrickPlay {
	var out []TrickPlay
	for i, c := range MustParseCards(codes) {
		out = append(out, TrickPlay{Seat: (leader + i) % 4, Card: c})
	}
	return out
}

func TestTrickRulesWinning(t *testing.T) {
	t.Parallel()
	noTrumps, spades := TrickRules{}, TrickRules{Trump: Spades}
	lowAces := TrickRules{Rank: func(c Card) int { return c.Rank() }}
	tests := []struct {
		name  string
		rules TrickRules
		trick []TrickPlay
		want  int
	}{
		{"the highest of the suit led", noTrumps, plays(0, "5H KH 9H 2H"), 1},
		{"the ace is high", noTrumps, plays(2, "KD 3D AD QD"), 0},
		{"off-suit cards never take", noTrumps, plays(1, "2C AH AS KD"), 1},
		{"no trumps: a spade is off-suit", noTrumps, plays(0, "3H AS 4H 2H"), 2},
		{"a trump takes the suit led", spades, plays(0, "AH 2S KH QH"), 1},
		{"the highest trump takes", spades, plays(3, "AH 2S KS 5S"), 1},
		{"a trump led is followed", spades, plays(0, "4S AH 5S 3S"), 2},
		{"off-suit after a trump", spades, plays(0, "9C 2S AD AC"), 1},
		{"the first of equal cards keeps it (two decks)", noTrumps, plays(0, "9C 9C 2C 3C"), 0},
		{"a rank of the ruleset's own", lowAces, plays(0, "AD 2D 3D KD"), 3},
		{"one card", spades, plays(2, "7C"), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.rules.Winning(tt.trick); got.Seat != tt.want {
				t.Errorf("Winning(%v) = seat %d (%s), want seat %d", tt.trick, got.Seat, got.Card, tt.want)
			}
		})
	}
	if got := spades.Winning(nil); got.Seat != NoSeat {
		t.Errorf("Winning(nil) = %+v, want NoSeat", got)
	}
}

func TestFollowingSuit(t *testing.T) {
	t.Parallel()
	hand := MustParseCards("2C 9H KC 4D")
	if got := Led(nil); got != 0 {
		t.Errorf("Led(nil) = %q, want 0", got)
	}
	if got := Led(plays(0, "JC AH")); got != Clubs {
		t.Errorf("Led = %q, want clubs", got)
	}
	if diff := cmp.Diff(MustParseCards("2C KC"), Following(hand, Clubs)); diff != "" {
		t.Errorf("Following clubs (-want +got):\n%s", diff)
	}
	if got := Following(hand, Spades); got != nil {
		t.Errorf("Following spades = %v, want nil", got)
	}
	if got := Following(hand, 0); got != nil {
		t.Errorf("Following nothing led = %v, want nil", got)
	}
	tests := []struct {
		led  Suit
		card string
		want bool
	}{
		{0, "9H", true},      // a lead
		{Clubs, "KC", true},  // follows
		{Clubs, "9H", false}, // holds clubs
		{Spades, "9H", true}, // void in spades: anything goes
		{Diamonds, "2C", false},
	}
	for _, tt := range tests {
		if got := FollowsSuit(hand, tt.led, MustParseCards(tt.card)[0]); got != tt.want {
			t.Errorf("FollowsSuit(%v, %q, %s) = %v, want %v", hand, tt.led, tt.card, got, tt.want)
		}
	}
}

func TestTrickView(t *testing.T) {
	t.Parallel()
	open := TrickView(2, nil, NoSeat)
	b, _ := json.Marshal(open)
	if got, want := string(b), `{"leader":2,"plays":[]}`; got != want {
		t.Errorf("a trick with no plays = %s, want %s (an empty list, never null)", got, want)
	}
	src := plays(1, "AH 2S")
	taken := TrickView(1, src, 2)
	src[0].Card = Joker
	b, _ = json.Marshal(taken)
	if got, want := string(b), `{"leader":1,"plays":[{"seat":1,"card":"AH"},{"seat":2,"card":"2S"}],"winner":2}`; got != want {
		t.Errorf("a trick taken = %s, want %s (its own copy of the plays)", got, want)
	}
}

func TestTricksTaken(t *testing.T) {
	t.Parallel()
	if diff := cmp.Diff([]int{1, 0, 3, 0}, TricksTaken(4, []int{2, 0, 2, 2})); diff != "" {
		t.Errorf("TricksTaken (-want +got):\n%s", diff)
	}
}
