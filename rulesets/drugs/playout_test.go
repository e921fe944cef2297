package drugs

import (
	"context"
	"encoding/json"
	"testing"

	"cardhouse/sdk"
)

// playout plays one game with bots of level at every seat from seed and returns the final state
// and the number of actions. It fails the test on any refused bot action, a lost or invented card
// or a bot with nothing to do in turn.
func playout(tb testing.TB, seats int, chaos bool, level int, seed uint64) (*State, int, int) {
	tb.Helper()
	r := New()
	ctx := context.Background()
	opts, err := r.CheckOptions(seats, sdk.Options{OptChaos: chaos})
	if err != nil {
		tb.Fatal(err)
	}
	s, err := r.Start(ctx, sdk.StartRequest{Seats: seats, Options: opts, Seed: seed, RNG: sdk.NewRNG(seed)})
	if err != nil {
		tb.Fatal(err)
	}
	all := r.Cards(s)
	brng := sdk.NewRNG(seed ^ 0xb07)
	maxStall := 0
	for n := 0; ; n++ {
		st := r.Status(s)
		if st.Phase != sdk.PhasePlaying {
			return s, n, maxStall
		}
		if n > 20000 {
			b, _ := json.Marshal(s)
			tb.Fatalf("seed %d: game did not end after %d actions: %s", seed, n, b)
		}
		seat := st.Turn
		a, err := r.Bot(ctx, sdk.BotRequest{Seat: seat, Level: level, View: r.View(s, seat), History: r.History(s, seat), RNG: &brng})
		if err != nil || a == nil {
			tb.Fatalf("seed %d step %d: bot for seat %d: %v, %v", seed, n, seat, a, err)
		}
		res, err := r.Apply(ctx, sdk.ApplyRequest[*State]{State: s, Action: *a})
		if err != nil {
			b, _ := json.Marshal(s)
			tb.Fatalf("seed %d step %d: bot action %+v refused: %v\nstate %s", seed, n, *a, err, b)
		}
		if d := sdk.CardDiff(all, r.Cards(res.State)); d != "" {
			tb.Fatalf("seed %d step %d: %+v: %s", seed, n, *a, d)
		}
		s = res.State
		maxStall = max(maxStall, s.Stall)
	}
}

func TestRandomPlayouts(t *testing.T) {
	t.Parallel()
	worst := 0
	for _, seats := range []int{2, 3, 4, 5, 8} {
		for _, chaos := range []bool{false, true} {
			for _, level := range []int{1, 2} {
				for seed := uint64(1); seed <= 12; seed++ {
					s, _, st := playout(t, seats, chaos, level, seed)
					worst = max(worst, st)
					if s.Winner == sdk.NoSeat {
						t.Fatalf("seats %d seed %d: no winner", seats, seed)
					}
				}
			}
		}
	}
	t.Logf("longest stretch of pick-ups without a burn: %d (StallLimit %d)", worst, StallLimit)
}
