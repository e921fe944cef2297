package spades

import (
	"context"
	"testing"

	"cardhouse/sdk"
)

func start(t *testing.T, opts sdk.Options) *State {
	t.Helper()
	if !opts.Has("target") {
		opts["target"] = 500
	}
	s, err := New().Start(context.Background(), sdk.StartRequest{Seats: 4, Options: opts, RNG: sdk.NewRNG(7)})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func act(t *testing.T, s *State, a sdk.Action) (*State, []sdk.Event) {
	t.Helper()
	res, err := New().Apply(context.Background(), sdk.ApplyRequest[*State]{State: s, Action: a})
	if err != nil {
		t.Fatalf("%+v: %v", a, err)
	}
	return res.State, res.Events
}

// seen lists the cards of viewer's view that lie in hand zones.
func seen(v sdk.View) map[int]int {
	out := map[int]int{}
	for _, z := range v.Zones {
		if z.Kind == sdk.ZoneHand {
			out[z.Owner] = len(z.Cards)
		}
	}
	return out
}

// TestBlindNilHidesOwnHand: with blind nil on, a seat sees none of its cards until it looks or
// bids; the spectators never see a hand while the hand is played; no event of the bidding
// carries a card.
func TestBlindNilHidesOwnHand(t *testing.T) {
	t.Parallel()
	r := New()
	s := start(t, sdk.Options{"blind_nil": true, "mercy": true})
	first := s.Turn
	for viewer := sdk.Spectator; viewer < Seats; viewer++ {
		for owner, n := range seen(r.View(s, viewer)) {
			if n != 0 {
				t.Errorf("viewer %d sees %d cards of seat %d before anyone looked", viewer, n, owner)
			}
		}
	}
	v := r.View(s, first)
	spec, ok := v.Action(sdk.ActBid)
	if !ok || spec.Choices[0] != BidBlindNil || spec.ChoiceLabels[0] != "Blind nil" || !v.Has(actLook) {
		t.Fatalf("seat in turn's actions %+v: want a bid with blind nil first, and look", v.Actions)
	}
	other := (first + 1) % Seats
	s, evs := act(t, s, sdk.Action{Seat: other, Type: actLook})
	for _, e := range evs {
		if len(e.Cards) > 0 {
			t.Errorf("event %+v carries cards", e)
		}
	}
	if n := seen(r.View(s, other))[other]; n != HandSize {
		t.Errorf("seat %d sees %d of its cards after looking, want %d", other, n, HandSize)
	}
	if n := seen(r.View(s, first))[other]; n != 0 {
		t.Errorf("seat %d sees %d of seat %d's cards", first, n, other)
	}
	if ov := r.View(s, other); ov.Has(sdk.ActBid) {
		t.Errorf("seat %d may bid out of turn", other)
	}
	s, _ = act(t, s, sdk.Action{Seat: first, Type: sdk.ActBid, Args: map[string]string{"choice": BidBlindNil}})
	if n := seen(r.View(s, first))[first]; n != 0 {
		t.Errorf("the blind nil bidder sees %d of its cards during the bidding", n)
	}
	for seat := (first + 1) % Seats; seat != first; seat = (seat + 1) % Seats {
		s, _ = act(t, s, sdk.Action{Seat: seat, Type: sdk.ActBid, Args: map[string]string{"choice": "3"}})
	}
	if n := seen(r.View(s, first))[first]; n != HandSize {
		t.Errorf("the blind nil bidder sees %d of its cards once the bidding is over, want %d", n, HandSize)
	}
	if got := seen(r.View(s, sdk.Spectator)); got[0]+got[1]+got[2]+got[3] != 0 {
		t.Errorf("the spectators see hands: %v", got)
	}
	v = r.View(s, sdk.Spectator)
	if v.Players[first].Bid != "Blind nil" || v.Players[(first+1)%Seats].Bid != "3" || *v.Teams[team(first)].Contract != 3 || *v.Teams[1-team(first)].Contract != 6 {
		t.Errorf("players %+v, teams %+v: want the bids in words and the contracts", v.Players, v.Teams)
	}
}

// TestTrickStaysUntilNextCard: the view keeps the trick just taken, with its taker, as the trick
// on the table and as the last trick, until the next card is played.
func TestTrickStaysUntilNextCard(t *testing.T) {
	t.Parallel()
	r := New()
	s := start(t, sdk.Options{"mercy": true, "blind_nil": false})
	for range Seats {
		s, _ = act(t, s, sdk.Action{Seat: s.Turn, Type: sdk.ActBid, Args: map[string]string{"choice": "3"}})
	}
	for range Seats {
		s, _ = act(t, s, sdk.Action{Seat: s.Turn, Type: sdk.ActPlay, Cards: s.legalCards(s.Turn)[:1]})
	}
	v := r.View(s, sdk.Spectator)
	if v.Trick == nil || v.Trick.Winner == nil || len(v.Trick.Plays) != 4 || v.LastTrick == nil || *v.LastTrick.Winner != s.Turn {
		t.Fatalf("after the first trick: trick %+v, last %+v", v.Trick, v.LastTrick)
	}
	s, _ = act(t, s, sdk.Action{Seat: s.Turn, Type: sdk.ActPlay, Cards: s.legalCards(s.Turn)[:1]})
	v = r.View(s, sdk.Spectator)
	if v.Trick == nil || v.Trick.Winner != nil || len(v.Trick.Plays) != 1 || v.LastTrick == nil || len(v.LastTrick.Plays) != 4 {
		t.Fatalf("after the next card: trick %+v, last %+v", v.Trick, v.LastTrick)
	}
}

// TestEveryEventHasText: every event a whole game emits (blind nil on, level-2 bots) has a
// sentence in Info.EventTexts, except turn, which the log does not write.
func TestEveryEventHasText(t *testing.T) {
	t.Parallel()
	r := New()
	texts := r.Info().EventTexts
	s := start(t, sdk.Options{"blind_nil": true, "mercy": true, "target": 200})
	seen := map[string]bool{}
	for step := 0; s.Phase != sdk.PhaseGameOver; step++ {
		if step > 5000 {
			t.Fatal("the game did not end")
		}
		var a sdk.Action
		if s.Phase == sdk.PhaseRoundOver {
			a = sdk.Action{Seat: sdk.Host, Type: sdk.ActDeal}
		} else {
			rng := sdk.NewRNG(uint64(step))
			p, err := r.Bot(context.Background(), sdk.BotRequest{Seat: s.Turn, Level: 2, View: r.View(s, s.Turn), History: r.History(s, s.Turn), RNG: &rng})
			if err != nil || p == nil {
				t.Fatalf("step %d: bot: %v, %v", step, p, err)
			}
			a = *p
		}
		var evs []sdk.Event
		s, evs = act(t, s, a)
		for _, e := range evs {
			seen[e.Name] = true
		}
	}
	for name := range seen {
		if _, ok := texts[name]; !ok && name != "turn" {
			t.Errorf("event %q has no text", name)
		}
	}
	for _, name := range []string{"bid", "looked", "played", "spades_broken", "trick_won", "hand_scored", "won", "dealt"} {
		if !seen[name] {
			t.Errorf("the game emitted no %q event", name)
		}
	}
}
