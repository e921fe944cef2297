package adapter

import (
	"errors"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"

	"github.com/google/go-cmp/cmp"
)

func TestValueRoundTrip(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   any
		want any // nil: same as in
	}{
		{"nil", nil, nil},
		{"int", 7, nil},
		{"bool", true, nil},
		{"string", "QH", nil},
		{"strings", []string{"QH", "10S"}, nil},
		{"ints", []int{0, 2, -1}, nil},
		{"string lists", [][]string{{"AS"}, {}, {"W", "Y+2"}}, nil},
		{"empty strings", []string{}, nil},
		{"other via JSON, whole numbers as int", map[string]any{"a": 1, "b": []any{2.5, "x"}}, map[string]any{"a": 1, "b": []any{2.5, "x"}}},
		{"a struct via JSON", struct{ N int }{3}, map[string]any{"N": 3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			pv, err := ValueToPB(c.in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ValueFromPB(pv)
			if err != nil {
				t.Fatal(err)
			}
			want := c.want
			if want == nil {
				want = c.in
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestActionRoundTrip(t *testing.T) {
	t.Parallel()
	two, three := 2, 3
	cases := []sdk.Action{
		{Seat: 1, Type: sdk.ActPlay, Cards: sdk.MustParseCards("QH QC 3C"), Suit: "S"},
		{Seat: 0, Type: sdk.ActPlay, Cards: sdk.MustParseCards("W+4 Y+2"), Color: "G", From: "face_up"},
		{Seat: 2, Type: sdk.ActCatch, Target: &two},
		{Seat: 3, Type: sdk.ActFlip, Index: &three, Args: map[string]string{"k": "v"}},
		{Seat: sdk.Clock, Type: sdk.ActDeadline, Deadline: "last_card.1"},
	}
	for _, a := range cases {
		pa, err := ActionToPB(&a)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ActionFromPB(pa)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(a, got); diff != "" {
			t.Errorf("action %s (-want +got):\n%s", a.Type, diff)
		}
	}
	if _, err := ActionFromPB(nil); !errors.Is(err, sdk.ErrIllegal) {
		t.Errorf("no action: %v, want a refusal", err)
	}
	pa, _ := ActionToPB(&sdk.Action{Type: sdk.ActPlay})
	pa.Cards = []string{"AS", "ZZ"}
	if _, err := ActionFromPB(pa); err == nil || err.Error() != `action play: card 2: unknown card code "ZZ" (French cards are rank then suit, as QH, 10S, AS, JK; Last Card cards are colour then value, as R7, GS, Y+2, W, W+4)` {
		t.Errorf("bad card code: %v", err)
	}
}

func TestNewGameAndStatusRoundTrip(t *testing.T) {
	t.Parallel()
	first, opener := 1, 2
	req := &engine.NewGameRequest{
		Seats: 3, Seed: 1 << 60, Options: map[string]any{"target": "500", "chaos": true}, Now: 5,
		HouseRules: []sdk.HouseRule{{Name: "seven-swap", Version: 3, Source: "return {}", Options: map[string]any{"n": "x"}}},
		Deal:       &sdk.Deal{Pile: sdk.MustParseCards("5H"), Hands: [][]sdk.Card{sdk.MustParseCards("AS")}, First: &first, Rest: "out"},
		Forced:     map[string][]string{"joker_effect": {"gift"}}, Opener: &opener, NoViews: true,
	}
	pr, err := NewGameToPB(req)
	if err != nil {
		t.Fatal(err)
	}
	got, err := NewGameFromPB(pr)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(req, got); diff != "" {
		t.Errorf("new game (-want +got):\n%s", diff)
	}
	if _, err := NewGameToPB(&engine.NewGameRequest{Options: map[string]any{"f": func() {}}}); !errors.Is(err, sdk.ErrIllegal) {
		t.Errorf("unencodable options: %v, want a refusal", err)
	}

	st := sdk.Status{Phase: sdk.PhasePlaying, Seats: 4, Turn: 2, Winner: sdk.NoSeat, Round: 3, Actors: []int{2, 0},
		Deadlines: []sdk.Deadline{{ID: "last_card.0", Seat: 0, At: 1 << 40, Kind: "last_card"}}}
	if diff := cmp.Diff(st, StatusFromPB(StatusToPB(&st))); diff != "" {
		t.Errorf("status (-want +got):\n%s", diff)
	}
}

func TestDescriptionDefaultsKeepTheirTypes(t *testing.T) {
	t.Parallel()
	d := engine.Description{Info: sdk.Info{ID: "x", Options: []sdk.Option{
		{Name: "n", Type: sdk.OptionInt, Default: 7},
		{Name: "b", Type: sdk.OptionBool, Default: true},
		{Name: "c", Type: sdk.OptionChoice, Default: "500", Choices: []string{"500", "200"}},
		{Name: "derived", Type: sdk.OptionInt},
	}}, SDKVersion: sdk.Version}
	b, err := marshalOpt("description", d, false)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DescriptionFromJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&d, got); diff != "" {
		t.Errorf("description (-want +got):\n%s", diff)
	}
}
