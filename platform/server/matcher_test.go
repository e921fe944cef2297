package server_test

// Matcher is the small card game the server's tests play, so the server is tested in-process (and
// through a real plugin process: this test binary, re-executed) without a real variant. Unlike
// sdk/rulesettest/toy it has a configurable call window (call_seconds; 0 turns it off, which the
// tests that play by hand use) and two bot levels, which the room and bot tests need.
//
// Rules: 2-4 seats, one 52-card deck, hand_size cards each (option, default 3), one card turned
// to start the pile. On your turn play one card matching the top card's suit or rank, or draw one
// card (drawing ends the turn). Left with one card, you must "call" before the window closes
// (option call_seconds, default 5; 0 turns it off) or draw one penalty card when the clock action
// for the deadline comes. The first to empty their hand wins the game (one round). A seat sees its
// own hand, counts of the others, the pile top.

import (
	"context"
	"fmt"
	"slices"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
)

// matcherID is the ruleset id of Matcher.
const matcherID = "matcher"

// matcher is the Matcher ruleset.
type matcher struct{}

// matcherEngine returns Matcher as an engine.Engine.
func matcherEngine() engine.Engine { return engine.New[matcherState](matcher{}) }

var _ sdk.Ruleset[matcherState] = matcher{}
var _ sdk.Bots = matcher{}

// matcherWindow is an open "call" window for Seat, closing at At.
type matcherWindow struct {
	Seat int    `json:"seat"`
	ID   string `json:"id"`
	At   int64  `json:"at"`
}

// matcherState is Matcher's state.
type matcherState struct {
	Hands   [][]sdk.Card   `json:"hands"`
	Pile    []sdk.Card     `json:"pile"`
	Deck    []sdk.Card     `json:"deck"`
	Turn    int            `json:"turn"`
	Phase   string         `json:"phase"`
	Winner  int            `json:"winner"`
	Called  []bool         `json:"called"`
	Window  *matcherWindow `json:"window,omitempty"`
	CallMs  int64          `json:"call_ms"`
	Windows int            `json:"windows"`
	RNG     sdk.RNG        `json:"rng"`
}

// Info describes Matcher.
func (matcher) Info() sdk.Info {
	return sdk.Info{
		ID: matcherID, Name: "Matcher", Version: "1.0.0", Summary: "Match suit or rank; a test game.",
		Rules: "Match the top card's suit or rank, or draw.", MinSeats: 2, MaxSeats: 4,
		Options: []sdk.Option{
			{Name: "hand_size", Label: "Hand size", Type: sdk.OptionInt, Default: 3, Min: 1, Max: 10},
			{Name: "call_seconds", Label: "Call window", Type: sdk.OptionInt, Default: 5, Min: 0, Max: 30},
			{Name: "mode", Label: "Mode", Type: sdk.OptionChoice, Default: "catch", Choices: []string{"catch", "auto"}},
		},
		BotLevels: []int{1, 2}, StateVersion: 1,
	}
}

// Start deals a game.
func (matcher) Start(_ context.Context, req sdk.StartRequest) (matcherState, error) {
	s := matcherState{RNG: req.RNG, Phase: sdk.PhasePlaying, Winner: sdk.NoSeat, CallMs: int64(req.Options.Int("call_seconds")) * 1000}
	deck := sdk.FrenchDeck(1, 0)
	s.RNG.ShuffleCards(sdk.DrawShuffle, deck)
	n := req.Options.Int("hand_size")
	s.Hands = make([][]sdk.Card, req.Seats)
	s.Called = make([]bool, req.Seats)
	for i := range req.Seats {
		s.Hands[i] = slices.Clone(deck[:n])
		deck = deck[n:]
	}
	s.Pile = []sdk.Card{deck[0]}
	s.Deck = slices.Clone(deck[1:])
	if req.Opener != nil {
		s.Turn = *req.Opener % req.Seats
	}
	return s, nil
}

func (s matcherState) clone() matcherState {
	c := s
	c.Hands = make([][]sdk.Card, len(s.Hands))
	for i, h := range s.Hands {
		c.Hands[i] = slices.Clone(h)
	}
	c.Pile, c.Deck, c.Called = slices.Clone(s.Pile), slices.Clone(s.Deck), slices.Clone(s.Called)
	if s.Window != nil {
		w := *s.Window
		c.Window = &w
	}
	c.RNG = s.RNG.Clone()
	return c
}

func (s *matcherState) draw(seat int) sdk.Card {
	if len(s.Deck) == 0 && len(s.Pile) > 1 {
		s.Deck = slices.Clone(s.Pile[:len(s.Pile)-1])
		s.Pile = s.Pile[len(s.Pile)-1:]
		s.RNG.ShuffleCards(sdk.DrawShuffle, s.Deck)
	}
	if len(s.Deck) == 0 {
		return 0
	}
	c := s.Deck[0]
	s.Deck = s.Deck[1:]
	s.Hands[seat] = append(s.Hands[seat], c)
	return c
}

func matcherPlayable(top, c sdk.Card) bool { return c.Suit() == top.Suit() || c.Rank() == top.Rank() }

// Apply applies one action.
func (matcher) Apply(_ context.Context, req sdk.ApplyRequest[matcherState]) (sdk.ApplyResponse[matcherState], error) {
	s := req.State.clone()
	a := req.Action
	var res sdk.ApplyResponse[matcherState]
	if s.Phase != sdk.PhasePlaying {
		return res, sdk.Refuse(sdk.CodeGameOver, "the game is over")
	}
	switch {
	case a.Type == sdk.ActDeadline && a.Seat == sdk.Clock:
		if s.Window == nil || s.Window.ID != a.Deadline {
			return res, sdk.Refuse(sdk.CodeBadAction, "no deadline %q is open", a.Deadline)
		}
		seat := s.Window.Seat
		s.Window = nil
		c := s.draw(seat)
		res.Events = append(res.Events, sdk.Event{Name: "missed_call", Seat: seat, Cards: []sdk.Card{c}, Private: true})
	case a.Seat < 0 || a.Seat >= len(s.Hands):
		return res, sdk.Refuse(sdk.CodeBadAction, "no seat %d", a.Seat)
	case a.Type == sdk.ActCall:
		if s.Window == nil || s.Window.Seat != a.Seat || len(s.Hands[a.Seat]) != 1 {
			return res, sdk.Refuse("no_call", "you can call only with one card left, before the window closes")
		}
		s.Window = nil
		s.Called[a.Seat] = true
		res.Events = append(res.Events, sdk.Event{Name: "called", Seat: a.Seat})
	case a.Seat != s.Turn:
		return res, sdk.Refuse(sdk.CodeNotYourTurn, "it is seat %d's turn, not seat %d's", s.Turn, a.Seat)
	case a.Type == sdk.ActDraw:
		c := s.draw(a.Seat)
		s.Called[a.Seat] = false
		res.Events = append(res.Events, sdk.Event{Name: "drew", Seat: a.Seat, Cards: []sdk.Card{c}, Private: true})
		s.Turn = (s.Turn + 1) % len(s.Hands)
	case a.Type == sdk.ActPlay:
		if len(a.Cards) != 1 {
			return res, sdk.Refuse(sdk.CodeBadAction, "play exactly one card, not %d", len(a.Cards))
		}
		c := a.Cards[0]
		hand, ok := sdk.RemoveCards(s.Hands[a.Seat], a.Cards)
		if !ok {
			return res, sdk.Refuse(sdk.CodeNotHeld, "you do not hold %s", c)
		}
		top := s.Pile[len(s.Pile)-1]
		if !matcherPlayable(top, c) {
			return res, sdk.Refuse("no_match", "%s matches neither the suit nor the rank of %s", c, top)
		}
		s.Hands[a.Seat] = hand
		s.Pile = append(s.Pile, c)
		res.Events = append(res.Events, sdk.Event{Name: "played", Seat: a.Seat, Cards: []sdk.Card{c}})
		switch len(hand) {
		case 0:
			s.Phase, s.Winner, s.Window = sdk.PhaseGameOver, a.Seat, nil
			res.Events = append(res.Events, sdk.Event{Name: "won", Seat: a.Seat})
		case 1:
			if s.CallMs > 0 && !s.Called[a.Seat] {
				s.Windows++
				s.Window = &matcherWindow{Seat: a.Seat, ID: fmt.Sprintf("call-%d", s.Windows), At: req.Now + s.CallMs}
			}
		}
		s.Turn = (s.Turn + 1) % len(s.Hands)
	default:
		return res, sdk.Refuse(sdk.CodeBadAction, "unknown action %q", a.Type)
	}
	res.State = s
	return res, nil
}

// View shows a seat its own hand and everyone the counts.
func (matcher) View(s matcherState, viewer int) sdk.View {
	v := sdk.View{Ruleset: matcherID, Viewer: viewer, Phase: s.Phase, Turn: s.Turn, Direction: 1, Winner: s.Winner}
	for i, h := range s.Hands {
		v.Players = append(v.Players, sdk.PlayerView{Seat: i, HandCount: len(h)})
		z := sdk.Zone{ID: fmt.Sprintf("hand.%d", i), Kind: sdk.ZoneHand, Owner: i, Count: len(h)}
		if i == viewer {
			z.Cards = slices.Clone(h)
		} else {
			z.Hidden = true
		}
		v.Zones = append(v.Zones, z)
	}
	v.Zones = append(v.Zones,
		sdk.Zone{ID: "pile", Kind: sdk.ZonePile, Owner: sdk.NoSeat, Cards: s.Pile[len(s.Pile)-1:], Count: len(s.Pile)},
		sdk.Zone{ID: "deck", Kind: sdk.ZoneDeck, Owner: sdk.NoSeat, Count: len(s.Deck), Hidden: true})
	if s.Window != nil {
		v.Deadlines = []sdk.Deadline{{ID: s.Window.ID, Seat: s.Window.Seat, At: s.Window.At, Kind: "call"}}
	}
	if s.Phase == sdk.PhasePlaying && viewer >= 0 {
		if viewer == s.Turn {
			top := s.Pile[len(s.Pile)-1]
			var ok []sdk.Card
			for _, c := range s.Hands[viewer] {
				if matcherPlayable(top, c) {
					ok = append(ok, c)
				}
			}
			if len(ok) > 0 {
				v.Actions = append(v.Actions, sdk.ActionSpec{Type: sdk.ActPlay, Label: "Play", Cards: ok})
			}
			v.Actions = append(v.Actions, sdk.ActionSpec{Type: sdk.ActDraw, Label: "Draw"})
		}
		if s.Window != nil && s.Window.Seat == viewer {
			v.Actions = append(v.Actions, sdk.ActionSpec{Type: sdk.ActCall, Label: "Call"})
		}
	}
	return v
}

// Status says whose move it is and what is due.
func (matcher) Status(s matcherState) sdk.Status {
	st := sdk.Status{Phase: s.Phase, Seats: len(s.Hands), Turn: s.Turn, Winner: s.Winner}
	if s.Phase == sdk.PhasePlaying {
		st.Actors = []int{s.Turn}
		if s.Window != nil {
			if s.Window.Seat != s.Turn {
				st.Actors = append(st.Actors, s.Window.Seat)
			}
			st.Deadlines = []sdk.Deadline{{ID: s.Window.ID, Seat: s.Window.Seat, At: s.Window.At, Kind: "call"}}
		}
	} else {
		st.Turn = sdk.NoSeat
	}
	return st
}

// Observe returns the scenario observation.
func (matcher) Observe(s matcherState) sdk.Observation {
	hands := make([][]string, len(s.Hands))
	for i, h := range s.Hands {
		hands[i] = sdk.CardStrings(h)
	}
	return sdk.Observation{"turn": s.Turn, "hands": hands, "top": s.Pile[len(s.Pile)-1].String()}
}

// Cards returns every card.
func (matcher) Cards(s matcherState) []sdk.Card {
	var all []sdk.Card
	for _, h := range s.Hands {
		all = append(all, h...)
	}
	all = append(all, s.Pile...)
	return append(all, s.Deck...)
}

// Bot plays the first playable card (level 2 prefers calling first), else draws; it calls when it
// may.
func (matcher) Bot(_ context.Context, req sdk.BotRequest) (*sdk.Action, error) {
	v := req.View
	if v.Has(sdk.ActCall) {
		return &sdk.Action{Type: sdk.ActCall}, nil
	}
	if p, ok := v.Action(sdk.ActPlay); ok {
		return &sdk.Action{Type: sdk.ActPlay, Cards: p.Cards[:1]}, nil
	}
	if v.Has(sdk.ActDraw) {
		return &sdk.Action{Type: sdk.ActDraw}, nil
	}
	return nil, nil
}
