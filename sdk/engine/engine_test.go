package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"cardhouse/sdk"
)

// tiny is a small real ruleset for the engine's tests: each seat holds cards, in turn a seat plays
// one onto the pile or draws one. Actions "boom" (panic) and "lose" (drop a card) misbehave on
// purpose, to check the engine's guards.
type tiny struct{}

type tinyState struct {
	Hands [][]sdk.Card `json:"hands"`
	Pile  []sdk.Card   `json:"pile"`
	Deck  []sdk.Card   `json:"deck"`
	Turn  int          `json:"turn"`
	RNG   sdk.RNG      `json:"rng"`
}

func (tiny) Info() sdk.Info {
	return sdk.Info{ID: "tiny", Name: "Tiny", Version: "1.0.0", MinSeats: 2, MaxSeats: 3, StateVersion: 1,
		Options: []sdk.Option{{Name: "hand_size", Type: sdk.OptionInt, Default: 3, Min: 1, Max: 5}}}
}

func (tiny) Start(_ context.Context, req sdk.StartRequest) (*tinyState, error) {
	s := &tinyState{RNG: req.RNG}
	deck := sdk.FrenchDeck(1, 0)
	s.RNG.ShuffleCards(sdk.DrawShuffle, deck)
	for range req.Seats {
		n := req.Options.Int("hand_size")
		s.Hands = append(s.Hands, slices.Clone(deck[:n]))
		deck = deck[n:]
	}
	s.Deck = deck
	return s, nil
}

func (tiny) Apply(_ context.Context, req sdk.ApplyRequest[*tinyState]) (sdk.ApplyResponse[*tinyState], error) {
	in := req.State
	s := &tinyState{Pile: slices.Clone(in.Pile), Deck: slices.Clone(in.Deck), Turn: in.Turn, RNG: in.RNG.Clone()}
	for _, h := range in.Hands {
		s.Hands = append(s.Hands, slices.Clone(h))
	}
	a := req.Action
	if a.Seat != s.Turn {
		return sdk.ApplyResponse[*tinyState]{}, sdk.Refuse(sdk.CodeNotYourTurn, "it is seat %d's turn", s.Turn)
	}
	var ev []sdk.Event
	switch a.Type {
	case sdk.ActPlay:
		rest, ok := sdk.RemoveCards(s.Hands[a.Seat], a.Cards)
		if !ok || len(a.Cards) != 1 {
			return sdk.ApplyResponse[*tinyState]{}, sdk.Refuse(sdk.CodeNotHeld, "play one card you hold")
		}
		s.Hands[a.Seat] = rest
		s.Pile = append(s.Pile, a.Cards...)
		ev = append(ev, sdk.Event{Name: "played", Seat: a.Seat, Cards: a.Cards})
	case sdk.ActDraw:
		c := s.Deck[0]
		s.Deck = s.Deck[1:]
		s.Hands[a.Seat] = append(s.Hands[a.Seat], c)
		ev = append(ev, sdk.Event{Name: "drew", Seat: a.Seat, Cards: []sdk.Card{c}, Private: true})
	case "boom":
		panic("boom")
	case "lose":
		s.Hands[a.Seat] = s.Hands[a.Seat][1:]
	default:
		return sdk.ApplyResponse[*tinyState]{}, sdk.Refuse(sdk.CodeBadAction, "no action %q", a.Type)
	}
	s.Turn = (s.Turn + 1) % len(s.Hands)
	return sdk.ApplyResponse[*tinyState]{State: s, Events: ev}, nil
}

func (tiny) View(s *tinyState, viewer int) sdk.View {
	v := sdk.View{Turn: s.Turn, Direction: 1, Winner: sdk.NoSeat}
	for i, h := range s.Hands {
		z := sdk.Zone{ID: "hand." + string(rune('0'+i)), Kind: sdk.ZoneHand, Owner: i, Count: len(h)}
		if i == viewer {
			z.Cards = h
		} else {
			z.Hidden = true
		}
		v.Zones = append(v.Zones, z)
		v.Players = append(v.Players, sdk.PlayerView{Seat: i, HandCount: len(h)})
		if i == viewer && i == s.Turn {
			v.Actions = []sdk.ActionSpec{{Type: sdk.ActPlay, Cards: h}, {Type: sdk.ActDraw}}
		}
	}
	return v
}

func (tiny) Status(s *tinyState) sdk.Status {
	return sdk.Status{Phase: sdk.PhasePlaying, Seats: len(s.Hands), Turn: s.Turn, Winner: sdk.NoSeat, Actors: []int{s.Turn}}
}

func (tiny) Observe(s *tinyState) sdk.Observation {
	return sdk.Observation{"turn": s.Turn, "pile_count": len(s.Pile)}
}

func (tiny) Cards(s *tinyState) []sdk.Card {
	var all []sdk.Card
	for _, h := range s.Hands {
		all = append(all, h...)
	}
	return append(append(all, s.Pile...), s.Deck...)
}

func newTiny(t *testing.T) (Engine, *Step) {
	t.Helper()
	e := New[*tinyState](tiny{})
	st, err := e.NewGame(context.Background(), &NewGameRequest{Seats: 2, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	return e, st
}

func TestEngineStepCarriesViewsAndPrivateEvents(t *testing.T) {
	t.Parallel()
	e, st := newTiny(t)
	if len(st.Views) != 2 || st.Spectator == nil || st.Status.Seats != 2 {
		t.Fatalf("views %d, spectator %v, seats %d", len(st.Views), st.Spectator != nil, st.Status.Seats)
	}
	st2, err := e.Act(context.Background(), &ActRequest{State: st.State, Action: sdk.Action{Seat: 0, Type: sdk.ActDraw}})
	if err != nil {
		t.Fatal(err)
	}
	var own, other, spec sdk.View
	for b, v := range map[*[]byte]*sdk.View{&st2.Views[0]: &own, &st2.Views[1]: &other, &st2.Spectator: &spec} {
		if err := json.Unmarshal(*b, v); err != nil {
			t.Fatal(err)
		}
	}
	if len(own.Events) != 1 || len(own.Events[0].Cards) != 1 {
		t.Errorf("drawer's event = %+v, want the card", own.Events)
	}
	if len(other.Events) != 1 || other.Events[0].Cards != nil || other.Events[0].Count != 1 {
		t.Errorf("other seat's event = %+v, want only a count", other.Events)
	}
	if spec.Viewer != sdk.Spectator || spec.Ruleset != "tiny" {
		t.Errorf("spectator view: viewer %d ruleset %q", spec.Viewer, spec.Ruleset)
	}
	for _, z := range spec.Zones {
		if z.Kind == sdk.ZoneHand && len(z.Cards) > 0 {
			t.Errorf("spectator sees hand %s", z.ID)
		}
	}
}

// NoSpectator leaves out the spectators' view only; the seats' views are the same bytes.
func TestEngineNoSpectator(t *testing.T) {
	t.Parallel()
	e, st := newTiny(t)
	a := sdk.Action{Seat: 0, Type: sdk.ActDraw}
	all, err := e.Act(context.Background(), &ActRequest{State: st.State, Action: a})
	if err != nil {
		t.Fatal(err)
	}
	seats, err := e.Act(context.Background(), &ActRequest{State: st.State, Action: a, NoSpectator: true})
	if err != nil {
		t.Fatal(err)
	}
	if seats.Spectator != nil || all.Spectator == nil {
		t.Fatalf("spectator view: %q with NoSpectator, %q without", seats.Spectator, all.Spectator)
	}
	if len(seats.Views) != 2 || !bytes.Equal(seats.Views[0], all.Views[0]) || !bytes.Equal(seats.Views[1], all.Views[1]) || !bytes.Equal(seats.State, all.State) {
		t.Fatalf("seats' views or state differ with NoSpectator:\n%s\n%s", seats.Views, all.Views)
	}
}

func TestEngineErrors(t *testing.T) {
	t.Parallel()
	e, st := newTiny(t)
	ctx := context.Background()

	_, err := e.NewGame(ctx, &NewGameRequest{Seats: 2, Options: map[string]any{"hand_size": 9}})
	if re, ok := sdk.AsRefusal(err); !ok || re.Code != sdk.CodeBadOption || !strings.Contains(re.Reason, "hand_size") {
		t.Errorf("bad option: err = %v, want a bad_option refusal naming hand_size", err)
	}
	_, err = e.NewGame(ctx, &NewGameRequest{Seats: 4})
	if re, ok := sdk.AsRefusal(err); !ok || !strings.Contains(re.Reason, "2 to 3 seats") {
		t.Errorf("too many seats: err = %v", err)
	}

	_, err = e.Act(ctx, &ActRequest{State: st.State, Action: sdk.Action{Seat: 1, Type: sdk.ActDraw}})
	if re, ok := sdk.AsRefusal(err); !ok || re.Code != sdk.CodeNotYourTurn {
		t.Errorf("out of turn: err = %v, want not_your_turn", err)
	}

	_, err = e.Act(ctx, &ActRequest{State: st.State, Action: sdk.Action{Seat: 0, Type: "boom"}})
	if !errors.Is(err, sdk.ErrRuleset) || errors.Is(err, sdk.ErrIllegal) || !strings.Contains(err.Error(), "panic: boom") {
		t.Errorf("panic: err = %v, want a ruleset failure", err)
	}

	_, err = e.Act(ctx, &ActRequest{State: st.State, Action: sdk.Action{Seat: 0, Type: "lose"}})
	if !errors.Is(err, sdk.ErrRuleset) || !strings.Contains(err.Error(), "broke the card invariant: lost") {
		t.Errorf("lost card: err = %v, want a ruleset failure naming the lost card", err)
	}

	_, err = e.Act(ctx, &ActRequest{State: []byte("{\"r\":\"other\",\"v\":1}\n{}"), Action: sdk.Action{Seat: 0, Type: sdk.ActDraw}})
	if !errors.Is(err, sdk.ErrRuleset) || !strings.Contains(err.Error(), `belongs to ruleset "other"`) {
		t.Errorf("foreign state: err = %v", err)
	}
	_, err = e.Act(ctx, &ActRequest{State: []byte(`{"not":"a state"}`), Action: sdk.Action{Seat: 0, Type: sdk.ActDraw}})
	if !errors.Is(err, sdk.ErrRuleset) || !strings.Contains(err.Error(), "no header line") {
		t.Errorf("garbage state: err = %v", err)
	}

	_, err = e.Bot(ctx, &BotCall{State: st.State, Seat: 0, Level: 2})
	if re, ok := sdk.AsRefusal(err); !ok || re.Code != sdk.CodeNotAvailable || !strings.Contains(re.Reason, "no bot of level 2 (it has [1])") {
		t.Errorf("bot of level 2 of a ruleset without bots: err = %v, want a refusal naming level 1", err)
	}

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := e.Act(cctx, &ActRequest{State: st.State, Action: sdk.Action{Seat: 0, Type: sdk.ActDraw}}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: err = %v", err)
	}
}

func TestEngineInspect(t *testing.T) {
	t.Parallel()
	e, st := newTiny(t)
	in, err := e.Inspect(context.Background(), &InspectRequest{State: st.State, Views: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Cards) != 52 || in.Observation["turn"] != 0 || len(in.Views) != 2 {
		t.Errorf("inspection: %d cards, turn %v, %d views", len(in.Cards), in.Observation["turn"], len(in.Views))
	}
}

// A state decoded once is reused for the same bytes; the result must be identical to a fresh decode.
func TestEngineCachedStateGivesSameResult(t *testing.T) {
	t.Parallel()
	e, st := newTiny(t)
	fresh := New[*tinyState](tiny{}) // its own, empty cache
	ctx := context.Background()
	a := &ActRequest{State: st.State, Action: sdk.Action{Seat: 0, Type: sdk.ActDraw}, NoViews: true}
	warm, err := e.Act(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	cold, err := fresh.Act(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	if string(warm.State) != string(cold.State) {
		t.Errorf("cached and fresh decode gave different states:\n%s\n%s", warm.State, cold.State)
	}
	// And the input state still reads as it did (nothing shared was modified).
	again, err := fresh.Act(ctx, a)
	if err != nil || string(again.State) != string(cold.State) {
		t.Errorf("replaying the same action gave another state: %v", err)
	}
}

func BenchmarkEngineAct(b *testing.B) {
	e := New[*tinyState](tiny{})
	ctx := context.Background()
	st, err := e.NewGame(ctx, &NewGameRequest{Seats: 2, Seed: 5, NoViews: true})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Act(ctx, &ActRequest{State: st.State, Action: sdk.Action{Seat: 0, Type: sdk.ActDraw}, NoViews: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// The views of a step share one buffer: each must be exactly its own view's JSON, and appending to
// one must leave the others as they were.
func TestEngineViewsAreSeparate(t *testing.T) {
	t.Parallel()
	e, st := newTiny(t)
	for range 3 { // the buffer is sized from the step before: check a few steps
		next, err := e.Act(context.Background(), &ActRequest{State: st.State, Action: sdk.Action{Seat: st.Status.Turn, Type: sdk.ActDraw}})
		if err != nil {
			t.Fatal(err)
		}
		st = next
		all := append(slices.Clone(st.Views), st.Spectator)
		want := make([][]byte, len(all))
		for i, v := range all {
			want[i] = slices.Clone(v)
			var decoded sdk.View
			if err := json.Unmarshal(v, &decoded); err != nil {
				t.Fatalf("view %d is not one JSON value: %v\n%s", i, err, v)
			}
			if i < len(st.Views) && decoded.Viewer != i || i == len(st.Views) && decoded.Viewer != sdk.Spectator {
				t.Fatalf("view %d is the view of %d", i, decoded.Viewer)
			}
		}
		for i, v := range all {
			if cap(v) != len(v) {
				t.Fatalf("view %d has room to grow into the next (len %d, cap %d)", i, len(v), cap(v))
			}
			_ = append(v, "overwritten"...)
		}
		for i, v := range all {
			if !bytes.Equal(v, want[i]) {
				t.Fatalf("view %d changed when the others were appended to:\n%s\nwant\n%s", i, v, want[i])
			}
		}
	}
}

// ActRequest.ViewBuf: the views are written into the buffer given when it is large enough, and are
// the same views either way.
func TestEngineViewBuf(t *testing.T) {
	t.Parallel()
	e, st := newTiny(t)
	a := sdk.Action{Seat: st.Status.Turn, Type: sdk.ActDraw}
	plain, err := e.Act(context.Background(), &ActRequest{State: st.State, Action: a})
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{0, 16, 64 << 10} {
		buf := make([]byte, 0, size)
		got, err := e.Act(context.Background(), &ActRequest{State: st.State, Action: a, ViewBuf: buf})
		if err != nil {
			t.Fatal(err)
		}
		for i := range plain.Views {
			if !bytes.Equal(got.Views[i], plain.Views[i]) {
				t.Fatalf("buffer of %d bytes: view %d differs:\n%s\nwant\n%s", size, i, got.Views[i], plain.Views[i])
			}
		}
		if !bytes.Equal(got.Spectator, plain.Spectator) {
			t.Fatalf("buffer of %d bytes: the spectators' view differs", size)
		}
		inBuf := size > 0 && &buf[:1][0] == &got.Views[0][0]
		if size == 64<<10 && !inBuf {
			t.Errorf("a buffer of %d bytes was given and not used", size)
		}
		if size == 16 && inBuf {
			t.Errorf("views of %d bytes were written into a buffer of %d", len(got.Views[0]), size)
		}
	}
}

// TestHouseRuleHints: the failures modders meet most get the hint that names their cause.
func TestHouseRuleHints(t *testing.T) {
	for msg, want := range map[string]string{
		"syntax error: the bracket ( opened here is never closed (a ) is missing)": "closing ) ] }",
		"syntax error near 'then'":                                                 "a closing bracket",
		"bad argument #2 to random (number expected, got nil)":                     "game.random(label, n) draws 1..n",
		"bad argument #1 to random (number expected, got nil)":                     "game.random(label, n) draws 1..n",
		"bad argument #2 to choose (table expected, got nil)":                      "game.choose(label",
		"bad argument #1 to move (string expected, got nil)":                       "was handed nil",
		"after_acton looks like a hook but is not one: did you mean after_action?": "a misspelt hook would never run",
	} {
		if got := HouseRuleHint(msg); !strings.Contains(got, want) {
			t.Errorf("hint for %q = %q, want one saying %q", msg, got, want)
		}
	}
}
