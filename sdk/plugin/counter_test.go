package plugin_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
)

// counter is the tiny ruleset the tests serve across the boundary. Seats take turns playing one
// card from their hand onto the pile; the game ends when the pile holds `target` cards. A few
// action types misbehave on purpose: "panic" panics in the ruleset, "error" fails, "exit" ends
// the plugin process, "hang" never returns (and says so on stderr first).
type counter struct{}

type counterState struct {
	Seats  int          `json:"seats"`
	Turn   int          `json:"turn"`
	Target int          `json:"target"`
	Hands  [][]sdk.Card `json:"hands"`
	Pile   []sdk.Card   `json:"pile"`
	Deck   []sdk.Card   `json:"deck"`
	Now    int64        `json:"now"`
}

var _ sdk.Ruleset[counterState] = counter{}
var _ sdk.Bots = counter{}

// origStderr is the plugin's real stderr, kept before go-plugin's Serve redirects os.Stderr.
var origStderr = os.Stderr

func (counter) Info() sdk.Info {
	return sdk.Info{
		ID: "counter", Name: "Counter", Version: "1.0.0", Summary: "Play cards until the pile is high enough.",
		Rules: "# Counter\nPlay one card a turn.", MinSeats: 2, MaxSeats: 4, BotLevels: []int{1}, StateVersion: 1,
		Options: []sdk.Option{
			{Name: "target", Label: "Target", Type: sdk.OptionInt, Default: 5, Min: 1, Max: 30},
			{Name: "speed", Label: "Speed", Type: sdk.OptionChoice, Default: "normal", Choices: []string{"normal", "fast"}},
		},
	}
}

func (counter) Start(_ context.Context, req sdk.StartRequest) (counterState, error) {
	s := counterState{Seats: req.Seats, Target: req.Options.Int("target"), Now: req.Now}
	var l sdk.Layout
	deal := req.Deal
	if deal == nil {
		deal = &sdk.Deal{}
	}
	l, err := deal.Layout(sdk.FrenchDeck(1, 0), req.Seats, &req.RNG)
	if err != nil {
		return s, err
	}
	s.Pile, s.Deck = l.Pile, l.Deck
	s.Hands = l.Hands
	if s.Hands == nil {
		s.Hands = make([][]sdk.Card, req.Seats)
		for i := range s.Hands {
			s.Hands[i], s.Deck = slices.Clone(s.Deck[:3]), s.Deck[3:]
		}
	}
	switch {
	case l.First != sdk.NoSeat:
		s.Turn = l.First
	case req.Opener != nil:
		s.Turn = *req.Opener
	}
	return s, nil
}

func (counter) clone(s counterState) counterState {
	c := s
	c.Hands = make([][]sdk.Card, len(s.Hands))
	for i, h := range s.Hands {
		c.Hands[i] = slices.Clone(h)
	}
	c.Pile, c.Deck = slices.Clone(s.Pile), slices.Clone(s.Deck)
	return c
}

func (r counter) Apply(ctx context.Context, req sdk.ApplyRequest[counterState]) (sdk.ApplyResponse[counterState], error) {
	s := r.clone(req.State)
	s.Now = req.Now
	a := req.Action
	var none sdk.ApplyResponse[counterState]
	switch a.Type {
	case "panic":
		panic("boom: the counter ruleset panicked on purpose")
	case "error":
		return none, errors.New("the counter ruleset failed on purpose")
	case "exit":
		os.Exit(3)
	case "hang":
		fmt.Fprintf(origStderr, "counter: hanging pid=%d\n", os.Getpid())
		select {} // never returns: the host must time out and kill this process
	case sdk.ActPlay:
	default:
		return none, sdk.Refuse(sdk.CodeBadAction, "counter has no action %q", a.Type)
	}
	if len(s.Pile) >= s.Target {
		return none, sdk.Refuse(sdk.CodeGameOver, "the game is over")
	}
	if a.Seat != s.Turn {
		return none, sdk.Refuse(sdk.CodeNotYourTurn, "it is seat %d's turn, not seat %d's", s.Turn, a.Seat)
	}
	if len(a.Cards) != 1 {
		return none, sdk.Refuse(sdk.CodeBadAction, "play exactly one card, not %d", len(a.Cards))
	}
	hand, ok := sdk.RemoveCards(s.Hands[a.Seat], a.Cards)
	if !ok {
		// With a ruling of its own ("C-1", no ruling page's), so that a refusal's Ruling is seen
		// to cross the plugin boundary.
		return none, sdk.RefuseUnder("C-1", sdk.CodeNotHeld, "seat %d holds no %s", a.Seat, a.Cards[0])
	}
	s.Hands[a.Seat] = hand
	s.Pile = append(s.Pile, a.Cards[0])
	events := []sdk.Event{{Name: "played", Seat: a.Seat, Cards: slices.Clone(a.Cards), Data: map[string]string{"pile": fmt.Sprint(len(s.Pile))}}}
	if len(hand) == 0 && len(s.Deck) > 0 {
		s.Hands[a.Seat], s.Deck = append(hand, s.Deck[0]), s.Deck[1:]
		events = append(events, sdk.Event{Name: "drew", Seat: a.Seat, Cards: []sdk.Card{s.Hands[a.Seat][0]}, Private: true})
	}
	s.Turn = (s.Turn + 1) % s.Seats
	return sdk.ApplyResponse[counterState]{State: s, Events: events}, nil
}

func (counter) over(s counterState) bool { return len(s.Pile) >= s.Target }

func (r counter) Status(s counterState) sdk.Status {
	st := sdk.Status{Phase: sdk.PhasePlaying, Seats: s.Seats, Turn: s.Turn, Winner: sdk.NoSeat}
	if r.over(s) {
		st.Phase, st.Turn, st.Winner = sdk.PhaseGameOver, sdk.NoSeat, (s.Turn+s.Seats-1)%s.Seats
		return st
	}
	st.Actors = []int{s.Turn}
	st.Deadlines = []sdk.Deadline{{ID: "turn", Seat: s.Turn, At: s.Now + 30000, Kind: "turn"}}
	return st
}

func (r counter) View(s counterState, viewer int) sdk.View {
	st := r.Status(s)
	v := sdk.View{Phase: st.Phase, Turn: st.Turn, Direction: 1, Winner: st.Winner, Deadlines: st.Deadlines}
	for seat, h := range s.Hands {
		v.Players = append(v.Players, sdk.PlayerView{Seat: seat, HandCount: len(h)})
		z := sdk.Zone{ID: fmt.Sprintf("hand.%d", seat), Kind: sdk.ZoneHand, Owner: seat, Count: len(h)}
		if seat == viewer {
			z.Cards = slices.Clone(h)
		} else {
			z.Hidden = true
		}
		v.Zones = append(v.Zones, z)
	}
	v.Zones = append(v.Zones,
		sdk.Zone{ID: "pile", Kind: sdk.ZonePile, Owner: sdk.NoSeat, Cards: slices.Clone(s.Pile), Count: len(s.Pile)},
		sdk.Zone{ID: "deck", Kind: sdk.ZoneDeck, Owner: sdk.NoSeat, Count: len(s.Deck), Hidden: true})
	v.Indicators = []sdk.Indicator{{ID: "target", Label: "Target", Value: fmt.Sprint(s.Target), Kind: "count"}}
	if !r.over(s) && viewer == s.Turn {
		v.Actions = []sdk.ActionSpec{{Type: sdk.ActPlay, Label: "Play", Cards: slices.Clone(s.Hands[viewer])}}
	}
	return v
}

func (r counter) Observe(s counterState) sdk.Observation {
	hands := make([][]string, len(s.Hands))
	for i, h := range s.Hands {
		hands[i] = sdk.CardStrings(h)
	}
	var top any
	if len(s.Pile) > 0 {
		top = s.Pile[len(s.Pile)-1].String()
	}
	return sdk.Observation{
		"turn": s.Turn, "count": len(s.Pile), "hands": hands, "top": top, "over": r.over(s),
		"actors": r.Status(s).Actors, "pile": sdk.CardStrings(s.Pile),
		"score": map[string]any{"target": s.Target}, // no scenario type: travels as JSON
	}
}

func (counter) Cards(s counterState) []sdk.Card {
	var all []sdk.Card
	for _, h := range s.Hands {
		all = append(all, h...)
	}
	all = append(all, s.Pile...)
	return append(all, s.Deck...)
}

// Bot plays the first playable card, or nothing when the seat is not in turn.
func (counter) Bot(_ context.Context, req sdk.BotRequest) (*sdk.Action, error) {
	spec, ok := req.View.Action(sdk.ActPlay)
	if !ok || len(spec.Cards) == 0 {
		return nil, nil
	}
	i := req.RNG.Intn("bot", len(spec.Cards))
	return &sdk.Action{Type: sdk.ActPlay, Cards: []sdk.Card{spec.Cards[i]}}, nil
}

// panicky wraps an engine and panics outside the SDK's own guard, in the plugin server itself,
// when asked to act "server_panic".
type panicky struct{ engine.Engine }

func (p panicky) Act(ctx context.Context, req *engine.ActRequest) (*engine.Step, error) {
	if req.Action.Type == "server_panic" {
		panic("boom: the engine wrapper panicked outside the SDK's guard")
	}
	return p.Engine.Act(ctx, req)
}

// testEngine is what the test plugin serves, and what the in-process comparisons call.
func testEngine() engine.Engine { return panicky{engine.New[counterState](counter{})} }
