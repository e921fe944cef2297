package sdk

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var testSchema = []Option{
	{Name: "hand_size", Type: OptionInt, Default: 7, Min: 3, Max: 12},
	{Name: "chaos", Type: OptionBool, Default: false},
	{Name: "target", Type: OptionChoice, Default: "500", Choices: []string{"500", "200", "single"}},
	{Name: "decks", Type: OptionInt, Min: 1, Max: 2, DefaultText: "1 for 2-4 seats, 2 for 5-8"},
}

func TestValidateOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		raw  map[string]any
		want Options
	}{
		{"defaults", nil, Options{"hand_size": 7, "chaos": false, "target": "500"}},
		{"given", map[string]any{"hand_size": 5, "chaos": true, "target": "single", "decks": 2},
			Options{"hand_size": 5, "chaos": true, "target": "single", "decks": 2}},
		{"json numbers", map[string]any{"hand_size": float64(9), "target": float64(200)},
			Options{"hand_size": 9, "chaos": false, "target": "200"}},
		{"strings from forms", map[string]any{"hand_size": "4", "chaos": "true"},
			Options{"hand_size": 4, "chaos": true, "target": "500"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ValidateOptions(testSchema, tt.raw)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestValidateOptionsReportsEveryField(t *testing.T) {
	t.Parallel()
	_, err := ValidateOptions(testSchema, map[string]any{"hand_size": 99, "chaos": "maybe", "target": "1000", "colour": "red"})
	var errs OptionErrors
	if !errors.As(err, &errs) {
		t.Fatalf("err = %v, want OptionErrors", err)
	}
	got := map[string]string{}
	for _, e := range errs {
		got[e.Field] = e.Reason
	}
	for field, want := range map[string]string{
		"hand_size": "from 3 to 12", "chaos": "true or false", "target": "one of 500, 200, single", "colour": "no such option",
	} {
		if !strings.Contains(got[field], want) {
			t.Errorf("%s: reason %q, want it to contain %q", field, got[field], want)
		}
	}
}
