package hotspot

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"cardhouse/sdk"
)

// TestAceSuitInEitherForm: the suit an Ace makes active travels as Args["choice"]; an action
// stored before choices moved there names it in "suit" (a game's action log, a scenario's suit:)
// and must still apply, to the same table and the same events; either form is refused alike.
func TestAceSuitInEitherForm(t *testing.T) {
	t.Parallel()
	var want *State
	for _, stored := range []string{
		`{"seat":0,"type":"play","cards":["AS"],"args":{"choice":"D"}}`,
		`{"seat":0,"type":"play","cards":["AS"],"suit":"D"}`, // the old form
	} {
		var a sdk.Action
		if err := json.Unmarshal([]byte(stored), &a); err != nil {
			t.Fatal(err)
		}
		s, evs := act(t, deal(t, nil, "7H", "AS 9C 5D", "3C 4C"), a, 0)
		if s.Suit != "D" {
			t.Errorf("%s: the active suit is %q, want D", stored, s.Suit)
		}
		if diff := cmp.Diff([]string{EvPlayed, EvSuitChosen}, eventNames(evs)[:2]); diff != "" {
			t.Errorf("%s: events (-want +got):\n%s", stored, diff)
		}
		if want == nil {
			want = s
		} else if diff := cmp.Diff(want, s); diff != "" {
			t.Errorf("the old form leaves another table (-new +old):\n%s", diff)
		}
	}
	for _, c := range []struct {
		a    sdk.Action
		code string
	}{
		{sdk.Action{Seat: 0, Type: sdk.ActPlay, Cards: cards("AS"), Args: map[string]string{sdk.ArgChoice: "R"}}, CodeBadSuit},
		{sdk.Action{Seat: 0, Type: sdk.ActPlay, Cards: cards("AS"), Suit: "R"}, CodeBadSuit},
		{sdk.Action{Seat: 0, Type: sdk.ActPlay, Cards: cards("AS")}, CodeNeedSuit},
	} {
		_, err := New().Apply(t.Context(), sdk.ApplyRequest[*State]{State: deal(t, nil, "7H", "AS 9C 5D", "3C 4C"), Action: c.a})
		if re, ok := sdk.AsRefusal(err); !ok || re.Code != c.code {
			t.Errorf("%+v: %v, want a refusal %q", c.a, err, c.code)
		}
	}
}
