package lastcard_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"cardhouse/rulesets/lastcard"
	"cardhouse/sdk"
)

// TestJokerColourInEitherForm: a Joker's colour travels as Args["choice"]; an action stored
// before choices moved there names it in "color" (a game's action log, a scenario's color:) and
// must still apply, to the same table and the same events.
func TestJokerColourInEitherForm(t *testing.T) {
	t.Parallel()
	tb := table{pile: "R5", hands: []string{"W R2 B3", "Y1 Y2", "G1 G2"}, deck: "Y7 G9"}
	for _, stored := range []string{
		`{"seat":0,"type":"play","cards":["W"],"args":{"choice":"Y"}}`,
		`{"seat":0,"type":"play","cards":["W"],"color":"Y"}`, // the old form
	} {
		var a sdk.Action
		if err := json.Unmarshal([]byte(stored), &a); err != nil {
			t.Fatal(err)
		}
		s, evs := act(t, start(t, tb, nil), a)
		if s.Color != "Y" {
			t.Errorf("%s: the colour in play is %q, want Y", stored, s.Color)
		}
		if diff := cmp.Diff([]string{"played", "color_chosen", "turn"}, names(evs)); diff != "" {
			t.Errorf("%s: events (-want +got):\n%s", stored, diff)
		}
	}
	// Either form is refused alike: a colour that is none, and a colour on a card with its own.
	for _, c := range []struct {
		a    sdk.Action
		code string
	}{
		{sdk.Action{Seat: 0, Type: sdk.ActPlay, Cards: cards("W")}, lastcard.CodeNoColor},
		{sdk.Action{Seat: 0, Type: sdk.ActPlay, Cards: cards("W"), Args: map[string]string{sdk.ArgChoice: "S"}}, lastcard.CodeNoColor},
		{sdk.Action{Seat: 0, Type: sdk.ActPlay, Cards: cards("W"), Color: "S"}, lastcard.CodeNoColor},
		{sdk.Action{Seat: 0, Type: sdk.ActPlay, Cards: cards("R2"), Args: map[string]string{sdk.ArgChoice: "R"}}, sdk.CodeBadAction},
		{sdk.Action{Seat: 0, Type: sdk.ActPlay, Cards: cards("R2"), Color: "R"}, sdk.CodeBadAction},
	} {
		if e := refused(t, start(t, tb, nil), c.a); e.Code != c.code {
			t.Errorf("%+v: refused with %q, want %q", c.a, e.Code, c.code)
		}
	}
}
