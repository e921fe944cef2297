package rulesettest

import (
	"strings"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
)

func TestEndingChecksPhaseEventsSeatAndData(t *testing.T) {
	t.Parallel()
	step := &engine.Step{
		Status: sdk.Status{Phase: sdk.PhaseRoundOver, Winner: 2},
		Events: []sdk.Event{
			{Name: "hand_scored", Seat: sdk.NoSeat},
			{Name: "won", Seat: 2, Data: map[string]string{"reason": "house_rule"}},
		},
	}
	tests := []struct {
		name string
		want Ending
		fail string // "" when the step shows it
	}{
		{"phase and events by the winner", Ending{Phase: sdk.PhaseRoundOver, Events: []string{"won"}}, ""},
		{"any phase", Ending{Events: []string{"won"}}, ""},
		{"data carried", Ending{Events: []string{"won"}, Data: map[string]string{"reason": "house_rule"}}, ""},
		{"an event by no seat, any seat accepted", Ending{Events: []string{"hand_scored"}, AnySeat: true}, ""},
		{"another phase", Ending{Phase: sdk.PhaseGameOver}, `end_round: phase "round_over"`},
		{"an event not by the winner", Ending{Events: []string{"hand_scored"}}, "want the events hand_scored by the winner (seat 2)"},
		{"a missing event", Ending{Phase: sdk.PhaseRoundOver, Events: []string{"won", "game_scored"}}, "want round_over with the events won, game_scored"},
		{"other data", Ending{Events: []string{"won"}, AnySeat: true, Data: map[string]string{"reason": "out"}}, "carrying map[reason:out]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := &fakeTB{}
			f.run(func() { tt.want.check(f, "end_round", step) })
			switch {
			case tt.fail == "" && f.Failed():
				t.Errorf("failed on a step that shows it:\n%s", f.output())
			case tt.fail != "" && !f.Failed():
				t.Errorf("passed; want a failure mentioning %q", tt.fail)
			case tt.fail != "" && !strings.Contains(f.output(), tt.fail):
				t.Errorf("failure does not mention %q:\n%s", tt.fail, f.output())
			}
		})
	}
}
