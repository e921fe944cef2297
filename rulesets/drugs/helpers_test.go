package drugs

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"cardhouse/sdk"
)

func cards(s string) []sdk.Card {
	if s == "" {
		return []sdk.Card{}
	}
	return sdk.MustParseCards(s)
}

func rows(ss ...string) [][]sdk.Card {
	out := make([][]sdk.Card, len(ss))
	for i, s := range ss {
		out[i] = cards(s)
	}
	return out
}

func intp(i int) *int { return &i }

// setup describes a fixed game for a test.
type setup struct {
	seats    int
	opts     sdk.Options
	pile     string
	hands    []string
	faceUp   []string
	faceDown []string
	deck     string
	first    int
	rest     string
	forced   map[string][]string
}

// start starts the game a setup describes (options checked as a room's are).
func start(t testing.TB, g setup) *State {
	t.Helper()
	if g.seats == 0 {
		g.seats = 2
	}
	r := New()
	raw := map[string]any{}
	for k, v := range g.opts {
		raw[k] = v
	}
	opts, err := sdk.CheckOptions(r.Info(), r, g.seats, raw)
	if err != nil {
		t.Fatal(err)
	}
	rng := sdk.NewRNG(1)
	for k, v := range g.forced {
		rng.Force(k, v...)
	}
	d := &sdk.Deal{Pile: cards(g.pile), Deck: cards(g.deck), First: intp(g.first), Rest: g.rest}
	if g.hands != nil {
		d.Hands = rows(g.hands...)
	}
	if g.faceUp != nil {
		d.FaceUp = rows(g.faceUp...)
	}
	if g.faceDown != nil {
		d.FaceDown = rows(g.faceDown...)
	}
	s, err := r.Start(context.Background(), sdk.StartRequest{Seats: g.seats, Options: opts, Seed: 1, RNG: rng, Deal: d})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func encode(t testing.TB, s *State) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// act applies a and fails the test if it is refused; it checks the input was not changed.
func act(t testing.TB, s *State, a sdk.Action) (*State, []sdk.Event) {
	t.Helper()
	before := encode(t, s)
	res, err := New().Apply(context.Background(), sdk.ApplyRequest[*State]{State: s, Action: a})
	if err != nil {
		t.Fatalf("%s by seat %d %v refused: %v", a.Type, a.Seat, sdk.CardStrings(a.Cards), err)
	}
	if encode(t, s) != before {
		t.Fatalf("Apply changed its input state")
	}
	if d := sdk.CardDiff(s.allCards(), res.State.allCards()); d != "" {
		t.Fatalf("%s: %s", a.Type, d)
	}
	return res.State, res.Events
}

// refuse applies a, wants a refusal with code, and checks nothing changed.
func refuse(t testing.TB, s *State, a sdk.Action, code string) {
	t.Helper()
	before := encode(t, s)
	res, err := New().Apply(context.Background(), sdk.ApplyRequest[*State]{State: s, Action: a})
	if err == nil {
		t.Fatalf("%s by seat %d %v accepted, want refusal %q", a.Type, a.Seat, sdk.CardStrings(a.Cards), code)
	}
	re, ok := sdk.AsRefusal(err)
	if !ok || !errors.Is(err, sdk.ErrIllegal) {
		t.Fatalf("%s: error %v is not a refusal", a.Type, err)
	}
	if re.Code != code {
		t.Fatalf("%s by seat %d %v: refusal code %q (%s), want %q", a.Type, a.Seat, sdk.CardStrings(a.Cards), re.Code, re.Reason, code)
	}
	if res.State != nil || encode(t, s) != before {
		t.Fatalf("a refused %s changed the state", a.Type)
	}
}

func play(seat int, cs string) sdk.Action {
	return sdk.Action{Seat: seat, Type: sdk.ActPlay, Cards: cards(cs)}
}

func playUp(seat int, cs string) sdk.Action {
	return sdk.Action{Seat: seat, Type: sdk.ActPlay, Cards: cards(cs), From: "face_up"}
}

func pickup(seat int) sdk.Action { return sdk.Action{Seat: seat, Type: sdk.ActPickup} }

func flip(seat, i int) sdk.Action { return sdk.Action{Seat: seat, Type: sdk.ActFlip, Index: intp(i)} }

func gift(seat int, c string, to int) sdk.Action {
	return sdk.Action{Seat: seat, Type: sdk.ActGift, Cards: cards(c), Target: intp(to)}
}

func names(evs []sdk.Event) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Name
	}
	return out
}

// obs is the scenario observation of s.
func obs(s *State) sdk.Observation { return New().Observe(s) }
