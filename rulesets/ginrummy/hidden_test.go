package ginrummy

import (
	"context"
	"slices"
	"testing"

	"cardhouse/sdk"
)

// visible lists every card view shows its viewer.
func visible(v sdk.View) []sdk.Card {
	var out []sdk.Card
	for _, z := range v.Zones {
		out = append(out, z.Cards...)
	}
	return out
}

// TestEventsShowOnlyWhatTheViewShows plays whole games with level-1 and level-2 bots and checks,
// after every action, for both seats and the spectators: every card an event shows the viewer is
// one its view shows (a card drawn from the stock is the drawer's alone; one taken from the
// discard pile is shown to all, in the zone taken.N); the view's hidden zones carry no cards; the
// knock card is hidden from all but the knocker until the hand is over.
func TestEventsShowOnlyWhatTheViewShows(t *testing.T) {
	t.Parallel()
	r := New()
	ctx := context.Background()
	taken := 0
	for seed := range uint64(6) {
		s, err := r.Start(ctx, sdk.StartRequest{Seats: 2, Options: sdk.Options{}, Seed: seed, RNG: sdk.NewRNG(seed)})
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; step < 3000 && s.Phase != sdk.PhaseGameOver; step++ {
			var a *sdk.Action
			if s.Phase == sdk.PhaseRoundOver {
				a = &sdk.Action{Seat: sdk.Host, Type: sdk.ActDeal}
			} else {
				rng := sdk.NewRNG(seed*1000 + uint64(step))
				a, err = r.Bot(ctx, sdk.BotRequest{Seat: s.Turn, Level: 1 + int(seed%2), View: r.View(s, s.Turn), RNG: &rng})
				if err != nil || a == nil {
					t.Fatalf("seed %d step %d: bot gave %v, %v", seed, step, a, err)
				}
			}
			res, err := r.Apply(ctx, sdk.ApplyRequest[*State]{State: s, Action: *a})
			if err != nil {
				t.Fatalf("seed %d step %d: %+v refused: %v", seed, step, a, err)
			}
			s = res.State
			for _, viewer := range []int{sdk.Spectator, 0, 1} {
				v := r.View(s, viewer)
				shown := visible(v)
				for _, e := range res.Events {
					for _, c := range e.For(viewer).Cards {
						if !slices.Contains(shown, c) {
							t.Fatalf("seed %d step %d: event %s shows viewer %d the card %s its view does not show", seed, step, e.Name, viewer, c)
						}
					}
					if e.Name == EvDrew && e.Data["from"] == "discard pile" && viewer != e.Seat && s.playing() && !s.laidOut() {
						z, ok := v.Zone(takenZone(e.Seat))
						if !ok || !slices.Contains(z.Cards, e.Cards[0]) {
							t.Fatalf("seed %d step %d: viewer %d's view does not show the card %s seat %d took", seed, step, viewer, e.Cards[0], e.Seat)
						}
						taken++
					}
				}
				for _, z := range v.Zones {
					if z.Hidden && len(z.Cards) > 0 {
						t.Fatalf("seed %d step %d: hidden zone %s shows cards", seed, step, z.ID)
					}
					if z.ID == "knock" && s.playing() && viewer != s.Knocker && len(z.Cards) > 0 {
						t.Fatalf("seed %d step %d: the knock card shows to viewer %d", seed, step, viewer)
					}
				}
			}
		}
	}
	if taken == 0 {
		t.Error("no card was taken from the discard pile in these games")
	}
}
