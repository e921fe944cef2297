package hotspot

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"cardhouse/sdk"
)

// deal starts a game of len(hands) seats on pile with hands, first seat 0, the rest in the deck.
func deal(t testing.TB, opts sdk.Options, pile string, hands ...string) *State {
	t.Helper()
	first := 0
	d := &sdk.Deal{Pile: cards(pile), First: &first}
	for _, h := range hands {
		d.Hands = append(d.Hands, cards(h))
	}
	s, err := New().Start(context.Background(), sdk.StartRequest{Seats: len(hands), Options: opts, Deal: d, RNG: sdk.NewRNG(1)})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	return s
}

func act(t testing.TB, s *State, a sdk.Action, now int64) (*State, []sdk.Event) {
	t.Helper()
	res, err := New().Apply(context.Background(), sdk.ApplyRequest[*State]{State: s, Action: a, Now: now})
	if err != nil {
		t.Fatalf("apply %+v: %v", a, err)
	}
	return res.State, res.Events
}

func play(seat int, codes string) sdk.Action {
	return sdk.Action{Seat: seat, Type: sdk.ActPlay, Cards: cards(codes)}
}

func eventNames(evs []sdk.Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Name)
	}
	return out
}

func TestCheckOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		seats   int
		in      sdk.Options
		want    sdk.Options
		wantErr string
	}{
		{"4 seats default one deck (H-1)", 4, sdk.Options{}, sdk.Options{"decks": 1, "hand_size": 7, "last_card_seconds": 5, "play_after_draw": false}, ""},
		{"5 seats default two decks (H-1)", 5, sdk.Options{}, sdk.Options{"decks": 2, "hand_size": 7, "last_card_seconds": 5, "play_after_draw": false}, ""},
		{"a chosen deck count stays", 5, sdk.Options{"decks": 1}, sdk.Options{"decks": 1, "hand_size": 7, "last_card_seconds": 5, "play_after_draw": false}, ""},
		{"8 seats of 7 do not fit one deck (HS-11)", 8, sdk.Options{"decks": 1}, nil, "hand_size"},
		{"too many cards for two decks", 8, sdk.Options{"hand_size": 13}, nil, "105 cards"},
		{"9 seats", 9, sdk.Options{}, nil, "seats"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := New().CheckOptions(tt.seats, tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("CheckOptions error = %v, want one naming %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("options (-want +got):\n%s", d)
			}
		})
	}
	// Through the SDK's schema validation too: a bad deck count names the field.
	_, err := sdk.CheckOptions(New().Info(), New(), 4, map[string]any{"decks": 3})
	if err == nil || !strings.Contains(err.Error(), "decks") {
		t.Errorf("decks 3: error %v, want one naming decks", err)
	}
}

func TestRefusals(t *testing.T) {
	t.Parallel()
	s := deal(t, nil, "7H", "8H 9S", "5C 8S 4D")
	win := deal(t, nil, "7H", "8H", "5C 8S 4D")
	win, _ = act(t, win, play(0, "8H"), 0)
	tests := []struct {
		name string
		s    *State
		a    sdk.Action
		code string
	}{
		{"no such seat", s, play(5, "8H"), sdk.CodeBadAction},
		{"spectator", s, sdk.Action{Seat: sdk.Spectator, Type: sdk.ActDraw}, sdk.CodeBadAction},
		{"unknown type", s, sdk.Action{Seat: 0, Type: "flip"}, sdk.CodeBadAction},
		{"out of turn", s, play(1, "5C"), sdk.CodeNotYourTurn},
		{"not held", s, play(0, "AS"), sdk.CodeNotHeld},
		{"no match", s, play(0, "9S"), CodeNoMatch},
		{"pass with nothing to pass", s, sdk.Action{Seat: 0, Type: sdk.ActPass}, CodeNothingToPass},
		{"call with two cards", s, sdk.Action{Seat: 0, Type: sdk.ActCall}, CodeNotLastCard},
		{"deadline from a seat", s, sdk.Action{Seat: 0, Type: sdk.ActDeadline, Deadline: "x"}, sdk.CodeBadAction},
		{"unknown deadline", s, sdk.Action{Seat: sdk.Clock, Type: sdk.ActDeadline, Deadline: "last_card.0.9"}, CodeNoDeadline},
		{"deal by a seat", s, sdk.Action{Seat: 0, Type: sdk.ActDeal}, sdk.CodeBadAction},
		{"deal mid-game (HS-10)", s, sdk.Action{Seat: sdk.Host, Type: sdk.ActDeal}, CodeGameOn},
		{"play after the game", win, play(1, "8S"), sdk.CodeGameOver},
		{"suit with a plain card (HS-7)", s, sdk.Action{Seat: 0, Type: sdk.ActPlay, Cards: cards("8H"), Suit: "S"}, CodeBadSuit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			before, _ := json.Marshal(tt.s)
			res, err := New().Apply(context.Background(), sdk.ApplyRequest[*State]{State: tt.s, Action: tt.a})
			re, ok := sdk.AsRefusal(err)
			if !ok || !errors.Is(err, sdk.ErrIllegal) {
				t.Fatalf("Apply(%+v) = %v, want a refusal %s", tt.a, err, tt.code)
			}
			if re.Code != tt.code || re.Reason == "" {
				t.Errorf("refusal %s %q, want code %s and a reason", re.Code, re.Reason, tt.code)
			}
			after, _ := json.Marshal(tt.s)
			if string(before) != string(after) || res.State != tt.s || len(res.Events) > 0 {
				t.Errorf("a refused action changed the state or produced events")
			}
		})
	}
}

func TestApplyDoesNotMutateInput(t *testing.T) {
	t.Parallel()
	s := deal(t, nil, "7H", "QH QC 3C 3H 3S 3D 9S", "2C 8S", "KC 2H")
	before, _ := json.Marshal(s)
	s2, _ := act(t, s, play(0, "QH QC 3C 3H 3S 3D"), 100)
	after, _ := json.Marshal(s)
	if string(before) != string(after) {
		t.Fatalf("Apply changed its input state")
	}
	if len(s2.Hands[0]) != 1 || len(s.Hands[0]) != 7 {
		t.Fatalf("hands: new %v, old %v", s2.Hands[0], s.Hands[0])
	}
	if d := cmp.Diff([]Window{{Seat: 0, ID: "last_card.0.1", At: 5100}}, s2.Windows); d != "" {
		t.Errorf("window (-want +got):\n%s", d)
	}
}

func TestLastCardDeadline(t *testing.T) {
	t.Parallel()
	r := New()
	s := deal(t, sdk.Options{"last_card_seconds": 3}, "7H", "8H 9S", "5C 8S 4D")
	s, _ = act(t, s, play(0, "8H"), 1000)
	st := r.Status(s)
	want := sdk.Status{Phase: sdk.PhasePlaying, Seats: 2, Turn: 1, Winner: sdk.NoSeat, Round: 1, Actors: []int{1, 0},
		Deadlines: []sdk.Deadline{{ID: "last_card.0.1", Seat: 0, At: 4000, Kind: "last_card"}}}
	if d := cmp.Diff(want, st); d != "" {
		t.Fatalf("status (-want +got):\n%s", d)
	}
	if !slices.ContainsFunc(r.View(s, 0).Actions, func(a sdk.ActionSpec) bool { return a.Type == sdk.ActCall }) {
		t.Errorf("seat 0's view offers no call during its window")
	}
	s2, evs := act(t, s, sdk.Action{Seat: sdk.Clock, Type: sdk.ActDeadline, Deadline: "last_card.0.1"}, 4000)
	if d := cmp.Diff([]string{EvMissedLastCard, EvDrew}, eventNames(evs)); d != "" {
		t.Errorf("events (-want +got):\n%s", d)
	}
	if len(s2.Hands[0]) != 2 || len(r.Status(s2).Deadlines) != 0 {
		t.Errorf("after expiry: hand %v, deadlines %v", s2.Hands[0], r.Status(s2).Deadlines)
	}
	// The drawn penalty card is private to its seat.
	if e := evs[1].For(1); len(e.Cards) != 0 || e.Count != 1 {
		t.Errorf("seat 1 sees the penalty draw as %+v, want only its count", e)
	}
	// A call closes the window: the deadline is gone and a late firing is refused.
	s3, _ := act(t, s, sdk.Action{Seat: 0, Type: sdk.ActCall}, 2000)
	if _, err := r.Apply(context.Background(), sdk.ApplyRequest[*State]{State: s3, Action: sdk.Action{Seat: sdk.Clock, Type: sdk.ActDeadline, Deadline: "last_card.0.1"}}); err == nil {
		t.Errorf("a closed window's deadline was accepted")
	}
	if got := r.View(s3, 1).Players[0].Tags; !slices.Contains(got, "called") {
		t.Errorf("seat 0's tags %v after calling, want called", got)
	}
}

func TestViewHidesHands(t *testing.T) {
	t.Parallel()
	r := New()
	s := deal(t, nil, "7H", "QH AS 9S", "5C 8S 4D", "2H 3H")
	for viewer := sdk.Spectator; viewer < 3; viewer++ {
		v := r.View(s, viewer)
		for _, z := range v.Zones {
			switch {
			case z.Kind == sdk.ZoneHand && z.Owner != viewer && len(z.Cards) > 0:
				t.Errorf("viewer %d sees %s: %v", viewer, z.ID, z.Cards)
			case z.Kind == sdk.ZoneDeck && len(z.Cards) > 0:
				t.Errorf("viewer %d sees the deck", viewer)
			case z.Kind == sdk.ZoneHand && z.Owner == viewer && !sdk.SameCards(z.Cards, s.Hands[viewer]):
				t.Errorf("viewer %d sees its hand as %v", viewer, z.Cards)
			}
		}
	}
	want := []sdk.ActionSpec{
		{Type: sdk.ActPlay, Label: "Play", Cards: cards("AS QH"), Multi: true, Choices: []string{"S", "H", "D", "C"}, ChoiceFor: cards("AS")},
		{Type: sdk.ActDraw, Label: "Draw"},
	}
	if d := cmp.Diff(want, r.View(s, 0).Actions); d != "" {
		t.Errorf("seat 0's actions (-want +got):\n%s", d)
	}
	if a := r.View(s, 1).Actions; len(a) != 0 {
		t.Errorf("seat 1, not in turn, is offered %v", a)
	}
	// PositionOf reads back what CheckPlay needs.
	if d := cmp.Diff(s.position(), PositionOf(r.View(s, 0))); d != "" {
		t.Errorf("PositionOf (-want +got):\n%s", d)
	}
	// Under a penalty: only the 2s and the pick-up.
	s2, _ := act(t, s, play(0, "QH"), 0)
	s2, _ = act(t, s2, sdk.Action{Seat: 0, Type: sdk.ActPass}, 0)
	s2, _ = act(t, s2, sdk.Action{Seat: 1, Type: sdk.ActDraw}, 0)
	s2, _ = act(t, s2, play(2, "2H"), 0)
	want = []sdk.ActionSpec{{Type: sdk.ActDraw, Label: "Pick up 2"}}
	if d := cmp.Diff(want, r.View(s2, 0).Actions); d != "" {
		t.Errorf("seat 0 under a penalty without 2s (-want +got):\n%s", d)
	}
}

func TestRedealKeepsView(t *testing.T) {
	t.Parallel()
	r := New()
	s := deal(t, sdk.Options{"play_after_draw": true}, "7H", "QH AS 9S", "5C 8S 4D", "2H 3H")
	s, _ = act(t, s, sdk.Action{Seat: 0, Type: sdk.ActDraw}, 0)
	for viewer := sdk.Spectator; viewer < 3; viewer++ {
		rng := sdk.NewRNG(uint64(viewer + 10))
		red := r.Redeal(s, viewer, &rng)
		if diff := sdk.CardDiff(r.Cards(s), r.Cards(red)); diff != "" {
			t.Fatalf("redeal for %d: %s", viewer, diff)
		}
		a, _ := json.Marshal(r.View(s, viewer))
		b, _ := json.Marshal(r.View(red, viewer))
		if string(a) != string(b) {
			t.Errorf("viewer %d's view changed after a redeal:\n%s\n%s", viewer, a, b)
		}
	}
}

func TestStartingCardIsPlain(t *testing.T) {
	t.Parallel()
	r := New()
	for seed := range uint64(200) {
		seats := 2 + int(seed%7)
		opts, err := r.CheckOptions(seats, sdk.Options{})
		if err != nil {
			t.Fatal(err)
		}
		s, err := r.Start(context.Background(), sdk.StartRequest{Seats: seats, Options: opts, RNG: sdk.NewRNG(seed)})
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Pile) != 1 || isPower(s.Pile[0]) {
			t.Fatalf("seed %d: starting pile %v, want one plain card (H-3)", seed, s.Pile)
		}
		if want := sdk.FrenchDeck(opts.Int(OptDecks), 0); !sdk.SameCards(want, r.Cards(s)) {
			t.Fatalf("seed %d: %s", seed, sdk.CardDiff(want, r.Cards(s)))
		}
	}
}

func TestTableRoundTrip(t *testing.T) {
	t.Parallel()
	r := New()
	s := deal(t, nil, "7H", "QH AS 9S", "5C 8S 4D")
	s, _ = act(t, s, play(0, "QH"), 0)
	back, err := r.SetTable(s, r.Table(s))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(r.Observe(s), r.Observe(back)); d != "" {
		t.Errorf("SetTable(Table(s)) (-want +got):\n%s", d)
	}
	edit := r.Table(s)
	edit.Counters["penalty"] = 4
	edit.Values["suit"] = "C"
	edit.Zones["hand.1"] = append(edit.Zones["hand.1"], edit.Zones["deck"][0])
	edit.Zones["deck"] = edit.Zones["deck"][1:]
	got, err := r.SetTable(s, edit)
	if err != nil {
		t.Fatal(err)
	}
	if got.Penalty != 4 || got.Suit != "C" || len(got.Hands[1]) != 4 || s.Penalty != 0 {
		t.Errorf("edited state: penalty %d suit %s hand.1 %v; input penalty %d", got.Penalty, got.Suit, got.Hands[1], s.Penalty)
	}
	for name, bad := range map[string]func(*sdk.Table){
		"unknown zone":    func(t *sdk.Table) { t.Zones["burned"] = nil },
		"no such hand":    func(t *sdk.Table) { t.Zones["hand.7"] = nil },
		"turn":            func(t *sdk.Table) { t.Turn = 2 },
		"direction":       func(t *sdk.Table) { t.Direction = 0 },
		"unknown counter": func(t *sdk.Table) { t.Counters["run"] = 1 },
		"unknown value":   func(t *sdk.Table) { t.Values["color"] = "R" },
		"bad suit":        func(t *sdk.Table) { t.Values["suit"] = "X" },
		"phase":           func(t *sdk.Table) { t.Values["phase"] = sdk.PhaseGameOver },
		"joker":           func(t *sdk.Table) { t.Zones["pile"] = append(t.Zones["pile"], sdk.Joker) },
	} {
		tb := r.Table(s)
		bad(&tb)
		if _, err := r.SetTable(s, tb); !errors.Is(err, sdk.ErrIllegal) {
			t.Errorf("%s: SetTable error %v, want a refusal", name, err)
		}
	}
}

func TestHistory(t *testing.T) {
	t.Parallel()
	r := New()
	s := deal(t, nil, "7H", "8C 9S", "5C 8S 4D")
	s, _ = act(t, s, sdk.Action{Seat: 0, Type: sdk.ActDraw}, 0)
	mine, theirs := r.History(s, 0), r.History(s, 1)
	if len(mine) != 2 || mine[0].Name != EvDrew || len(mine[0].Cards) != 1 {
		t.Fatalf("seat 0's history %+v", mine)
	}
	if len(theirs[0].Cards) != 0 || theirs[0].Count != 1 {
		t.Errorf("seat 1 sees seat 0's draw as %+v", theirs[0])
	}
	for range 100 {
		s, _ = act(t, s, sdk.Action{Seat: s.Turn, Type: sdk.ActDraw}, 0)
	}
	if n := len(r.History(s, 0)); n != logLimit {
		t.Errorf("history holds %d events, want the bound %d", n, logLimit)
	}
}

func TestBotOutOfTurn(t *testing.T) {
	t.Parallel()
	r := New()
	s := deal(t, nil, "7H", "8H 9S", "5C 8S 4D", "3C 4C")
	for level := 1; level <= 2; level++ {
		rng := sdk.NewRNG(1)
		a, err := r.Bot(context.Background(), sdk.BotRequest{Seat: 1, Level: level, View: r.View(s, 1), RNG: &rng})
		if err != nil || a != nil {
			t.Errorf("level %d bot for a seat not in turn: %+v, %v; want nil", level, a, err)
		}
	}
}

// TestCheckPlayAgreesWithApply plays random selections of the seat in turn through both CheckPlay
// (from its view alone) and Apply: they must agree on every one.
func TestCheckPlayAgreesWithApply(t *testing.T) {
	t.Parallel()
	r := New()
	ctx := context.Background()
	checked := 0
	for seed := range uint64(20) {
		opts, _ := r.CheckOptions(4, sdk.Options{"play_after_draw": seed%2 == 0})
		s, err := r.Start(ctx, sdk.StartRequest{Seats: 4, Options: opts, RNG: sdk.NewRNG(seed)})
		if err != nil {
			t.Fatal(err)
		}
		rng := sdk.NewRNG(seed + 100)
		for step := 0; step < 200 && !s.over(); step++ {
			v := r.View(s, s.Turn)
			hand := HandOf(v)
			for range 5 {
				n := 1 + rng.Intn("n", min(4, len(hand)))
				sel := slices.Clone(hand)
				rng.ShuffleCards("sel", sel)
				sel = sel[:n]
				pc := CheckPlay(PositionOf(v), hand, sel)
				a := sdk.Action{Seat: s.Turn, Type: sdk.ActPlay, Cards: sel}
				if pc.NeedSuit {
					a.Suit = "S"
				}
				_, err := r.Apply(ctx, sdk.ApplyRequest[*State]{State: s, Action: a})
				if pc.Legal != (err == nil) {
					t.Fatalf("seed %d step %d: %v on %v: CheckPlay legal=%v (%s), Apply err=%v", seed, step, sel, PositionOf(v), pc.Legal, pc.Reason, err)
				}
				checked++
			}
			b, _ := r.Bot(ctx, sdk.BotRequest{Seat: s.Turn, Level: 1, View: v, RNG: &rng})
			s, _ = act(t, s, *b, int64(step))
		}
	}
	if checked < 1000 {
		t.Errorf("only %d selections checked", checked)
	}
}

func TestOpener(t *testing.T) {
	t.Parallel()
	r := New()
	opts, _ := r.CheckOptions(3, sdk.Options{})
	two := 2
	s, err := r.Start(context.Background(), sdk.StartRequest{Seats: 3, Options: opts, RNG: sdk.NewRNG(4), Opener: &two})
	if err != nil {
		t.Fatal(err)
	}
	if s.Turn != 2 || r.Observe(s)["opener"] != 2 {
		t.Errorf("opener from the host: turn %d, opener %v; want 2", s.Turn, r.Observe(s)["opener"])
	}
	bad := 3
	if _, err := r.Start(context.Background(), sdk.StartRequest{Seats: 3, Options: opts, RNG: sdk.NewRNG(4), Opener: &bad}); !errors.Is(err, sdk.ErrIllegal) {
		t.Errorf("opener 3 of 3 seats: %v, want a refusal", err)
	}
}

// TestRevealAtGameEnd: once the game is over every viewer, the spectators too, sees every hand
// left, and a redeal for any viewer keeps them (they are no longer hidden).
func TestRevealAtGameEnd(t *testing.T) {
	t.Parallel()
	r := New()
	s := deal(t, nil, "7H", "8H", "5C 8S 4D", "2H 3H")
	s, _ = act(t, s, play(0, "8H"), 0)
	if s.Phase != sdk.PhaseGameOver {
		t.Fatalf("phase %s after the last card, want game_over", s.Phase)
	}
	for viewer := sdk.Spectator; viewer < 3; viewer++ {
		v := r.View(s, viewer)
		for _, z := range v.Zones {
			if z.Kind == sdk.ZoneHand && (z.Hidden || !sdk.SameCards(z.Cards, s.Hands[z.Owner])) {
				t.Errorf("viewer %d sees %s as %v (hidden %v), want %v", viewer, z.ID, z.Cards, z.Hidden, s.Hands[z.Owner])
			}
		}
		rng := sdk.NewRNG(uint64(viewer + 10))
		a, _ := json.Marshal(v)
		b, _ := json.Marshal(r.View(r.Redeal(s, viewer, &rng), viewer))
		if string(a) != string(b) {
			t.Errorf("viewer %d's view at the game's end changed after a redeal:\n%s\n%s", viewer, a, b)
		}
	}
}
