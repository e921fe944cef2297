package main

import (
	"context"
	"slices"
	"testing"

	"cardhouse/rulesets/ginrummy"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"
)

// upcardToHand turns seat 0's first card up in place of the upcard the deal turned, which goes
// into seat 0's hand; and ends each hand at its first action, so the host deals the next.
const upcardToHand = `name = "upcard-to-hand"
description = "The deal's upcard goes into seat 0's hand; each hand ends at its first move."
function on_start(game)
  local hand = game.zones["hand.0"]
  local up = game.zones.pile[1]
  game.zones.pile = {hand[1]}
  hand[1] = up
  game.zones["hand.0"] = hand
end
function after_action(game, action)
  if game.phase == "playing" and action.seat >= 0 then game.end_round(action.seat) end
end
`

// TestStartHookAfterADealLeaksNoCard: a house rule whose on_start moves the card a deal turned
// up into a hand must not leave the deal's event naming it: every viewer gets the events, and
// the card now lies hidden in a hand.
func TestStartHookAfterADealLeaksNoCard(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	eng := engine.New(ginrummy.New(), houserules.Enable())
	st, err := eng.NewGame(ctx, &engine.NewGameRequest{Seats: 2, Seed: 3, HouseRules: []sdk.HouseRule{{Version: 1, Source: upcardToHand}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []sdk.Action{{Seat: 0, Type: sdk.ActPass}, {Seat: sdk.Host, Type: sdk.ActDeal}} {
		if st, err = eng.Act(ctx, &engine.ActRequest{State: st.State, Action: a}); err != nil {
			t.Fatalf("%+v: %v", a, err)
		}
	}
	in, err := eng.Inspect(ctx, &engine.InspectRequest{State: st.State})
	if err != nil {
		t.Fatal(err)
	}
	hands, _ := in.Observation["hands"].([][]string)
	if len(hands) != 2 || len(hands[0]) != ginrummy.HandSize {
		t.Fatalf("hands after the deal: %v", in.Observation["hands"])
	}
	dealt := false
	for _, ev := range st.Events {
		dealt = dealt || ev.Name == ginrummy.EvDealt
		for _, c := range ev.Cards {
			for seat, h := range hands {
				if slices.Contains(h, c.String()) {
					t.Errorf("event %s names %s, which lies hidden in seat %d's hand", ev.Name, c, seat)
				}
			}
		}
	}
	if !dealt {
		t.Errorf("the deal's events %+v have no %s", st.Events, ginrummy.EvDealt)
	}
}
