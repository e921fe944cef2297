package sdk_test

import (
	"testing"

	"cardhouse/sdk"

	"github.com/google/go-cmp/cmp"
)

func TestOptionTrials(t *testing.T) {
	t.Parallel()
	schema := []sdk.Option{
		{Name: "steps", Type: sdk.OptionInt, Default: float64(1), Min: 1, Max: 3},
		{Name: "free", Type: sdk.OptionInt, Default: 5},
		{Name: "loud", Type: sdk.OptionBool, Default: false},
		{Name: "who", Type: sdk.OptionChoice, Default: "winner", Choices: []string{"winner", "everyone"}},
	}
	for _, tc := range []struct {
		name string
		raw  map[string]any
		want []sdk.Options
	}{
		{"defaults", nil, []sdk.Options{
			{"steps": float64(1), "free": 5, "loud": false, "who": "winner"},
			{"steps": 3, "free": 5, "loud": false, "who": "winner"},
			{"steps": float64(1), "free": 5, "loud": true, "who": "winner"},
			{"steps": float64(1), "free": 5, "loud": false, "who": "everyone"},
		}},
		{"given", map[string]any{"steps": "2", "who": "everyone"}, []sdk.Options{
			{"steps": 2, "free": 5, "loud": false, "who": "everyone"},
			{"steps": 1, "free": 5, "loud": false, "who": "everyone"},
			{"steps": 3, "free": 5, "loud": false, "who": "everyone"},
			{"steps": 2, "free": 5, "loud": true, "who": "everyone"},
			{"steps": 2, "free": 5, "loud": false, "who": "winner"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base, err := sdk.ValidateOptions(schema, tc.raw)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, sdk.OptionTrials(schema, base)); diff != "" {
				t.Errorf("trials (-want +got):\n%s", diff)
			}
		})
	}
	if got, want := sdk.DescribeOptions(schema, map[string]any{"who": "winner", "steps": 2, "zz": 1}), "steps=2, who=winner, zz=1"; got != want {
		t.Errorf("DescribeOptions = %q, want %q", got, want)
	}
}
