package rulesettest

import (
	"testing"

	"cardhouse/sdk"
)

func TestViewNullNamesThePath(t *testing.T) {
	t.Parallel()
	one := 1
	full := func() sdk.View {
		return sdk.View{
			Players: []sdk.PlayerView{{Seat: 0}}, Zones: []sdk.Zone{{ID: "hand.0"}},
			Trick: &sdk.Trick{Plays: []sdk.TrickPlay{}}, LastTrick: &sdk.Trick{Plays: []sdk.TrickPlay{}, Winner: &one},
			Teams: []sdk.Team{{ID: 0, Seats: []int{0}}, {ID: 1, Seats: []int{1}}},
			Sheet: &sdk.ScoreSheet{Columns: []string{}, Rows: []sdk.ScoreRow{{Cells: []int{1}}, {Cells: []int{2}}}, Totals: []int{}},
		}
	}
	tests := []struct {
		name string
		edit func(v *sdk.View)
		want string
	}{
		{"none", func(v *sdk.View) {}, ""},
		{"optional parts absent", func(v *sdk.View) { v.Trick, v.LastTrick, v.Teams, v.Sheet = nil, nil, nil, nil }, ""},
		{"players", func(v *sdk.View) { v.Players = nil }, "players"},
		{"zones", func(v *sdk.View) { v.Zones = nil }, "zones"},
		{"a trick's plays", func(v *sdk.View) { v.LastTrick.Plays = nil }, "last_trick.plays"},
		{"a team's seats", func(v *sdk.View) { v.Teams[1].Seats = nil }, "teams[1].seats"},
		{"the sheet's rows", func(v *sdk.View) { v.Sheet.Rows = nil }, "sheet.rows"},
		{"a row's cells", func(v *sdk.View) { v.Sheet.Rows[1].Cells = nil }, "sheet.rows[1].cells"},
		{"the totals", func(v *sdk.View) { v.Sheet.Totals = nil }, "sheet.totals"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := full()
			tt.edit(&v)
			got, err := viewNull(v.AppendJSON(nil))
			if err != nil || got != tt.want {
				t.Errorf("viewNull = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	if _, err := viewNull([]byte(`{"players":`)); err == nil {
		t.Errorf("viewNull of broken JSON: no error")
	}
}
