package toy

import (
	"context"
	"slices"
	"testing"

	"cardhouse/sdk"
)

// TestConfigured: the fields of Ruleset change the options, the bot levels and the call window;
// the zero value keeps the toy's own.
func TestConfigured(t *testing.T) {
	t.Parallel()
	zero := Ruleset{}.Info()
	if len(zero.Options) != 1 || zero.Options[0].Default != 5 || !slices.Equal(zero.BotLevels, []int{1}) {
		t.Errorf("the zero toy: options %+v, bot levels %v; want hand_size (5) only, level 1", zero.Options, zero.BotLevels)
	}
	r := Ruleset{HandSize: 3, CallOption: true, BotLevels: []int{1, 2}}
	info := r.Info()
	if len(info.Options) != 2 || info.Options[0].Default != 3 || info.Options[1].Name != "call_seconds" || info.Options[1].Default != 5 || !slices.Equal(info.BotLevels, []int{1, 2}) {
		t.Errorf("configured: options %+v, bot levels %v", info.Options, info.BotLevels)
	}
	// Seat 0 plays its second last card at 1000 ms: the window closes call_seconds later, or none opens.
	deal := &sdk.Deal{Hands: [][]sdk.Card{sdk.MustParseCards("2S 3S"), sdk.MustParseCards("2H 3H")}, Pile: sdk.MustParseCards("4S")}
	for _, tt := range []struct {
		name    string
		r       Ruleset
		options map[string]any
		want    []Window
	}{
		{"the toy", Ruleset{}, nil, []Window{{Seat: 0, At: 1000 + WindowMS}}},
		{"call_seconds 2", r, map[string]any{"call_seconds": 2}, []Window{{Seat: 0, At: 3000}}},
		{"call_seconds default", r, nil, []Window{{Seat: 0, At: 1000 + WindowMS}}},
		{"call_seconds 0", r, map[string]any{"call_seconds": 0}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			opts, err := sdk.CheckOptions(tt.r.Info(), tt.r, 2, tt.options)
			if err != nil {
				t.Fatal(err)
			}
			s, err := tt.r.Start(context.Background(), sdk.StartRequest{Seats: 2, Options: opts, Deal: deal, RNG: sdk.NewRNG(1)})
			if err != nil {
				t.Fatal(err)
			}
			res, err := tt.r.Apply(context.Background(), sdk.ApplyRequest[State]{State: s, Action: sdk.Action{Seat: 0, Type: sdk.ActPlay, Cards: sdk.MustParseCards("2S")}, Now: 1000})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.State.Windows, tt.want) {
				t.Errorf("windows %+v, want %+v", res.State.Windows, tt.want)
			}
		})
	}
}
