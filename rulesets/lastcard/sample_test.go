package lastcard

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"cardhouse/sdk"
)

// TestSampleStateMatchesTheView checks the level 5 sampling step at every decision of whole games
// (seats 2 to 4, both Last card modes, two seeds each): a world sampled from a seat's view shows that seat the
// same view, holds the game's 108 cards, and accepts the move the seat's bot makes.
func TestSampleStateMatchesTheView(t *testing.T) {
	t.Parallel()
	r := New()
	ctx := context.Background()
	checked := 0
	for seats := 2; seats <= 4; seats++ {
		for i, mode := range []string{modeCatch, modeAuto, modeCatch, modeAuto} {
			opts, err := sdk.CheckOptions(r.Info(), r, seats, map[string]any{"last_card_mode": mode, "target": targetSingle})
			if err != nil {
				t.Fatal(err)
			}
			seed := uint64(seats*10 + i)
			s, err := r.Start(ctx, sdk.StartRequest{Seats: seats, Options: opts, Seed: seed, RNG: sdk.NewRNG(seed)})
			if err != nil {
				t.Fatal(err)
			}
			rng := sdk.NewRNG(seed)
			for step := 0; s.Phase == sdk.PhasePlaying && step < 2000; step++ {
				var next *sdk.Action
				for _, seat := range r.Status(s).Actors {
					view := r.View(s, seat)
					k, err := perceive(sdk.BotRequest{Seat: seat, Level: 2, View: view})
					if err != nil {
						t.Fatal(err)
					}
					w := sampleState(k, &rng)
					want, _ := json.Marshal(view)
					got, _ := json.Marshal(r.View(w, seat))
					if diff := cmp.Diff(string(want), string(got)); diff != "" {
						t.Fatalf("seats %d step %d seat %d: the sampled world shows another view:\n%s", seats, step, seat, diff)
					}
					if d := sdk.CardDiff(Deck(), r.Cards(w)); d != "" {
						t.Fatalf("seats %d step %d: the sampled world %s", seats, step, d)
					}
					a := simplePolicy{}.choose(k, &rng)
					if a == nil {
						continue
					}
					if _, err := r.Apply(ctx, sdk.ApplyRequest[*State]{State: w, Action: *a}); err != nil {
						t.Fatalf("seats %d step %d: the sampled world refuses %+v: %v", seats, step, *a, err)
					}
					checked++
					if next == nil {
						next = a
					}
				}
				res, err := r.Apply(ctx, sdk.ApplyRequest[*State]{State: s, Action: *next})
				if err != nil {
					t.Fatal(err)
				}
				s = res.State
			}
		}
	}
	if checked < 300 {
		t.Errorf("only %d decisions checked", checked)
	}
}

// TestEventLines checks that the log's line encoding gives every event back as it was.
func TestEventLines(t *testing.T) {
	t.Parallel()
	events := []sdk.Event{
		{Name: "played", Seat: 2, Cards: sdk.MustParseCards("W+4"), Data: map[string]string{"color": "G"}},
		{Name: "drew", Seat: 0, Cards: sdk.MustParseCards("R1 Y+2 W"), Count: 3, Private: true},
		{Name: "drew", Seat: 1, Count: 0, Private: true},
		{Name: "reshuffled", Seat: sdk.NoSeat, Count: 40},
		{Name: "won", Seat: 3, Data: map[string]string{"round": "4", "game": "true"}},
	}
	for _, e := range events {
		got, err := decodeEvent(encodeEvent(e))
		if err != nil {
			t.Fatalf("%+v: %v", e, err)
		}
		if diff := cmp.Diff(e, got); diff != "" {
			t.Errorf("round trip of %s (-want +got):\n%s", encodeEvent(e), diff)
		}
	}
	for _, bad := range []string{"", "played|x|0|||", "played|0|0||QX|", "played|0|0|||color"} {
		if _, err := decodeEvent(bad); err == nil {
			t.Errorf("decodeEvent(%q) read a bad line", bad)
		}
	}
}
