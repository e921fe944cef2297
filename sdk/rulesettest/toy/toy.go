package toy

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"cardhouse/sdk"
)

// ID is the toy ruleset's id.
const ID = "toy"

// WindowMS is how long a player left with one card has to call, in milliseconds (unless the
// option call_seconds, which Ruleset.CallOption declares, says otherwise).
const WindowMS = 5000

// Ruleset is the toy ruleset; its zero value is ready to use. Its fields vary the game for tests
// that need another shape of it (the server's and the plugin boundary's); a zero field keeps the
// toy's own.
type Ruleset struct {
	// HandSize is the default of the option hand_size; 0 is 5.
	HandSize int
	// CallOption declares the option call_seconds (default 5, 0 to 30): the seconds a player left
	// with one card has to call, 0 opening no window (tests that play by hand).
	CallOption bool
	// BotLevels are the bot levels declared; nil is [1]. Every level plays as the toy's bot.
	BotLevels []int
}

var (
	_ sdk.Ruleset[State]     = Ruleset{}
	_ sdk.Redealer[State]    = Ruleset{}
	_ sdk.TableEditor[State] = Ruleset{}
	_ sdk.Bots               = Ruleset{}
)

// Window is an open "last card" window of Seat, expiring at At (game clock, ms).
type Window struct {
	Seat int   `json:"seat"`
	At   int64 `json:"at"`
}

// State is a toy game.
type State struct {
	Seats    int          `json:"seats"`
	HandSize int          `json:"hand_size"`
	Hands    [][]sdk.Card `json:"hands"`
	Pile     []sdk.Card   `json:"pile"`
	Deck     []sdk.Card   `json:"deck"`
	Out      []sdk.Card   `json:"out,omitempty"`
	Turn     int          `json:"turn"`
	Winner   int          `json:"winner"`
	Phase    string       `json:"phase"`
	Opener   int          `json:"opener"`
	Games    int          `json:"games"`
	Windows  []Window     `json:"windows,omitempty"`
	// CallMS is the length of a call window in ms (0: WindowMS); NoCall opens none (the option
	// call_seconds at 0).
	CallMS int64   `json:"call_ms,omitempty"`
	NoCall bool    `json:"no_call,omitempty"`
	RNG    sdk.RNG `json:"rng"`
}

func (s State) clone() State {
	c := s
	c.Hands = make([][]sdk.Card, len(s.Hands))
	for i, h := range s.Hands {
		c.Hands[i] = slices.Clone(h)
	}
	c.Pile, c.Deck, c.Out = slices.Clone(s.Pile), slices.Clone(s.Deck), slices.Clone(s.Out)
	c.Windows = slices.Clone(s.Windows)
	c.RNG = s.RNG.Clone()
	return c
}

// Info describes the toy ruleset.
func (r Ruleset) Info() sdk.Info {
	hand, levels := r.HandSize, r.BotLevels
	if hand == 0 {
		hand = 5
	}
	if levels == nil {
		levels = []int{1}
	}
	opts := []sdk.Option{{Name: "hand_size", Label: "Hand size", Type: sdk.OptionInt, Default: hand, Min: 1, Max: 10}}
	if r.CallOption {
		opts = append(opts, sdk.Option{Name: "call_seconds", Label: "Call window", Type: sdk.OptionInt, Default: WindowMS / 1000, Min: 0, Max: 30,
			Description: "Seconds a player left with one card has to call; 0: no call."})
	}
	return sdk.Info{
		ID: ID, Name: "Toy", Version: "1.0.0", Summary: "Match suit or rank; empty your hand.",
		Rules: "Play a card of the top's suit or rank, or draw one.", MinSeats: 2, MaxSeats: 4,
		Options: opts, BotLevels: slices.Clone(levels), StateVersion: 1,
	}
}

// Start deals a game: the fixed deal when given, else a shuffled deck.
func (r Ruleset) Start(_ context.Context, req sdk.StartRequest) (State, error) {
	s := State{Seats: req.Seats, HandSize: req.Options.Int("hand_size"), Winner: sdk.NoSeat, RNG: req.RNG}
	if r.CallOption {
		if sec := req.Options.Int("call_seconds"); sec > 0 {
			s.CallMS = int64(sec) * 1000
		} else {
			s.NoCall = true
		}
	}
	if req.Opener != nil {
		s.Opener = *req.Opener
	}
	if req.Deal != nil {
		l, err := req.Deal.Layout(sdk.FrenchDeck(1, 0), req.Seats, &s.RNG)
		if err != nil {
			return s, err
		}
		if len(l.FaceUp) > 0 || len(l.FaceDown) > 0 {
			return s, sdk.Refuse(sdk.CodeBadDeal, "deal: toy has no face_up or face_down rows")
		}
		s.Hands, s.Pile, s.Deck, s.Out = l.Hands, l.Pile, l.Deck, l.Out
		if s.Hands == nil {
			s.Hands = make([][]sdk.Card, req.Seats)
		}
		if l.First != sdk.NoSeat {
			s.Opener = l.First
		}
		s.Phase, s.Turn = sdk.PhasePlaying, s.Opener
		return s, nil
	}
	s.deal(s.Opener)
	return s, nil
}

// deal shuffles every card of the game and deals a new game opened by opener.
func (s *State) deal(opener int) {
	cards := sdk.FrenchDeck(1, 0)
	s.RNG.ShuffleCards(sdk.DrawShuffle, cards)
	s.Hands = make([][]sdk.Card, s.Seats)
	for i := range s.Hands {
		s.Hands[i], cards = slices.Clone(cards[:s.HandSize]), cards[s.HandSize:]
	}
	s.Pile, s.Deck, s.Out = []sdk.Card{cards[0]}, cards[1:], nil
	s.Opener, s.Turn, s.Winner, s.Phase, s.Windows = opener, opener, sdk.NoSeat, sdk.PhasePlaying, nil
}

func (s *State) top() sdk.Card {
	if len(s.Pile) == 0 {
		return 0
	}
	return s.Pile[len(s.Pile)-1]
}

func (s *State) playable(c sdk.Card) bool {
	t := s.top()
	return t == 0 || c.Suit() == t.Suit() || c.Rank() == t.Rank()
}

// draw moves one card from the deck to seat's hand, turning the pile but its top into a new deck
// when the deck is empty; false when there is nothing to draw.
func (s *State) draw(seat int) (sdk.Card, bool) {
	if len(s.Deck) == 0 && len(s.Pile) > 1 {
		s.Deck = slices.Clone(s.Pile[:len(s.Pile)-1])
		s.Pile = []sdk.Card{s.top()}
		s.RNG.ShuffleCards(sdk.DrawShuffle, s.Deck)
	}
	if len(s.Deck) == 0 {
		return 0, false
	}
	c := s.Deck[0]
	s.Deck = s.Deck[1:]
	s.Hands[seat] = append(s.Hands[seat], c)
	return c, true
}

// callMS is the length of a call window.
func (s *State) callMS() int64 {
	if s.CallMS > 0 {
		return s.CallMS
	}
	return WindowMS
}

func (s *State) window(seat int) int {
	return slices.IndexFunc(s.Windows, func(w Window) bool { return w.Seat == seat })
}

// Apply plays one action on a copy of the state.
func (r Ruleset) Apply(_ context.Context, req sdk.ApplyRequest[State]) (sdk.ApplyResponse[State], error) {
	s := req.State.clone()
	a := req.Action
	var evs []sdk.Event
	switch a.Type {
	case sdk.ActDeal:
		if a.Seat != sdk.Host {
			return sdk.ApplyResponse[State]{}, sdk.Refuse(sdk.CodeBadAction, "only the host deals")
		}
		if s.Phase != sdk.PhaseGameOver {
			return sdk.ApplyResponse[State]{}, sdk.Refuse(sdk.CodeBadAction, "the game is still being played")
		}
		s.Games++
		s.deal((s.Opener + 1) % s.Seats)
		return sdk.ApplyResponse[State]{State: s, Events: []sdk.Event{{Name: "dealt", Seat: sdk.Host}}}, nil
	case sdk.ActDeadline:
		if a.Seat != sdk.Clock {
			return sdk.ApplyResponse[State]{}, sdk.Refuse(sdk.CodeBadAction, "only the clock sends deadlines")
		}
		seat, err := strconv.Atoi(strings.TrimPrefix(a.Deadline, "last_card."))
		i := s.window(seat)
		if err != nil || !strings.HasPrefix(a.Deadline, "last_card.") || i < 0 {
			return sdk.ApplyResponse[State]{}, sdk.Refuse(sdk.CodeBadAction, "no deadline %q is open", a.Deadline)
		}
		if req.Now < s.Windows[i].At {
			return sdk.ApplyResponse[State]{}, sdk.Refuse(sdk.CodeBadAction, "deadline %q is not due before %d ms", a.Deadline, s.Windows[i].At)
		}
		s.Windows = slices.Delete(s.Windows, i, i+1)
		evs = append(evs, sdk.Event{Name: "missed_last_card", Seat: seat})
		if c, ok := s.draw(seat); ok {
			evs = append(evs, sdk.Event{Name: "drew", Seat: seat, Cards: []sdk.Card{c}, Private: true})
		}
		return sdk.ApplyResponse[State]{State: s, Events: evs}, nil
	case sdk.ActCall:
		i := s.window(a.Seat)
		if i < 0 {
			return sdk.ApplyResponse[State]{}, sdk.Refuse("no_window", "only a player left with one card may call, and only once")
		}
		s.Windows = slices.Delete(s.Windows, i, i+1)
		return sdk.ApplyResponse[State]{State: s, Events: []sdk.Event{{Name: "last_card", Seat: a.Seat}}}, nil
	}
	if s.Phase != sdk.PhasePlaying {
		return sdk.ApplyResponse[State]{}, sdk.Refuse(sdk.CodeGameOver, "the game is over")
	}
	if a.Seat != s.Turn {
		return sdk.ApplyResponse[State]{}, sdk.Refuse(sdk.CodeNotYourTurn, "it is seat %d's turn", s.Turn)
	}
	switch a.Type {
	case sdk.ActPlay:
		if len(a.Cards) != 1 {
			return sdk.ApplyResponse[State]{}, sdk.Refuse(sdk.CodeBadAction, "play exactly one card")
		}
		c := a.Cards[0]
		hand, ok := sdk.RemoveCards(s.Hands[a.Seat], a.Cards)
		if !ok {
			return sdk.ApplyResponse[State]{}, sdk.Refuse(sdk.CodeNotHeld, "you do not hold %s", c)
		}
		if !s.playable(c) {
			return sdk.ApplyResponse[State]{}, sdk.Refuse("no_match", "%s matches neither the suit nor the rank of %s", c, s.top())
		}
		s.Hands[a.Seat] = hand
		s.Pile = append(s.Pile, c)
		evs = append(evs, sdk.Event{Name: "played", Seat: a.Seat, Cards: []sdk.Card{c}})
		switch len(hand) {
		case 0:
			s.Phase, s.Winner, s.Turn, s.Windows = sdk.PhaseGameOver, a.Seat, sdk.NoSeat, nil
			return sdk.ApplyResponse[State]{State: s, Events: append(evs, sdk.Event{Name: "won", Seat: a.Seat})}, nil
		case 1:
			if s.window(a.Seat) < 0 && !s.NoCall {
				s.Windows = append(s.Windows, Window{Seat: a.Seat, At: req.Now + s.callMS()})
			}
		}
	case sdk.ActDraw:
		if c, ok := s.draw(a.Seat); ok {
			evs = append(evs, sdk.Event{Name: "drew", Seat: a.Seat, Cards: []sdk.Card{c}, Private: true})
		}
		if i := s.window(a.Seat); i >= 0 {
			s.Windows = slices.Delete(s.Windows, i, i+1)
		}
	default:
		return sdk.ApplyResponse[State]{}, sdk.Refuse(sdk.CodeBadAction, "toy has no action %q", a.Type)
	}
	s.Turn = (s.Turn + 1) % s.Seats
	evs = append(evs, sdk.Event{Name: "turn", Seat: s.Turn})
	return sdk.ApplyResponse[State]{State: s, Events: evs}, nil
}

// View shows the viewer's own hand, the pile and every count.
func (Ruleset) View(s State, viewer int) sdk.View {
	v := sdk.View{Ruleset: ID, Viewer: viewer, Phase: s.Phase, Turn: s.Turn, Direction: 1, Winner: s.Winner}
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
		sdk.Zone{ID: "pile", Kind: sdk.ZonePile, Owner: sdk.NoSeat, Cards: slices.Clone(s.Pile), Count: len(s.Pile)},
		sdk.Zone{ID: "deck", Kind: sdk.ZoneDeck, Owner: sdk.NoSeat, Count: len(s.Deck), Hidden: true})
	if len(s.Out) > 0 {
		v.Zones = append(v.Zones, sdk.Zone{ID: "out", Kind: sdk.ZoneBurned, Owner: sdk.NoSeat, Count: len(s.Out), Hidden: true})
	}
	for _, w := range s.Windows {
		v.Deadlines = append(v.Deadlines, sdk.Deadline{ID: fmt.Sprintf("last_card.%d", w.Seat), Seat: w.Seat, At: w.At, Kind: "last_card"})
	}
	if viewer < 0 || viewer >= s.Seats {
		return v
	}
	if s.Phase == sdk.PhasePlaying && viewer == s.Turn {
		var ok []sdk.Card
		for _, c := range s.Hands[viewer] {
			if s.playable(c) && !slices.Contains(ok, c) {
				ok = append(ok, c)
			}
		}
		if len(ok) > 0 {
			v.Actions = append(v.Actions, sdk.ActionSpec{Type: sdk.ActPlay, Label: "Play", Cards: ok})
		}
		v.Actions = append(v.Actions, sdk.ActionSpec{Type: sdk.ActDraw, Label: "Draw"})
	}
	if s.window(viewer) >= 0 {
		v.Actions = append(v.Actions, sdk.ActionSpec{Type: sdk.ActCall, Label: "Last card!"})
	}
	return v
}

// Status says whose move it is and which windows are due when.
func (Ruleset) Status(s State) sdk.Status {
	st := sdk.Status{Phase: s.Phase, Seats: s.Seats, Turn: s.Turn, Winner: s.Winner, Round: s.Games + 1}
	if s.Phase == sdk.PhasePlaying {
		st.Actors = append(st.Actors, s.Turn)
	}
	for _, w := range s.Windows {
		if w.Seat != s.Turn {
			st.Actors = append(st.Actors, w.Seat)
		}
		st.Deadlines = append(st.Deadlines, sdk.Deadline{ID: fmt.Sprintf("last_card.%d", w.Seat), Seat: w.Seat, At: w.At, Kind: "last_card"})
	}
	return st
}

// Observe gives the scenario keys turn, direction, top, pile, pile_count, deck, deck_count, hands,
// hand_count, winner, phase, last_card_open and opener.
func (Ruleset) Observe(s State) sdk.Observation {
	o := sdk.Observation{
		"direction": 1, "pile": sdk.CardStrings(s.Pile), "pile_count": len(s.Pile),
		"deck": sdk.CardStrings(s.Deck), "deck_count": len(s.Deck), "phase": s.Phase, "opener": s.Opener,
		"turn": nil, "winner": nil, "top": nil,
	}
	if s.Phase == sdk.PhasePlaying {
		o["turn"] = s.Turn
	}
	if s.Winner != sdk.NoSeat {
		o["winner"] = s.Winner
	}
	if t := s.top(); t != 0 {
		o["top"] = t.String()
	}
	hands := make([][]string, len(s.Hands))
	counts := make([]int, len(s.Hands))
	for i, h := range s.Hands {
		hands[i], counts[i] = sdk.CardStrings(h), len(h)
	}
	o["hands"], o["hand_count"] = hands, counts
	open := []int{}
	for _, w := range s.Windows {
		open = append(open, w.Seat)
	}
	o["last_card_open"] = open
	return o
}

// Cards lists every card of the game.
func (Ruleset) Cards(s State) []sdk.Card {
	var out []sdk.Card
	for _, h := range s.Hands {
		out = append(out, h...)
	}
	out = append(out, s.Pile...)
	out = append(out, s.Deck...)
	return append(out, s.Out...)
}

// Bot plays the first playable card of its hand, else draws; it calls when it may. It reads only
// its view.
func (Ruleset) Bot(_ context.Context, req sdk.BotRequest) (*sdk.Action, error) {
	if req.View.Has(sdk.ActCall) {
		return &sdk.Action{Seat: req.Seat, Type: sdk.ActCall}, nil
	}
	if p, ok := req.View.Action(sdk.ActPlay); ok {
		return &sdk.Action{Seat: req.Seat, Type: sdk.ActPlay, Cards: []sdk.Card{p.Cards[req.RNG.Intn("bot", len(p.Cards))]}}, nil
	}
	if req.View.Has(sdk.ActDraw) {
		return &sdk.Action{Seat: req.Seat, Type: sdk.ActDraw}, nil
	}
	return nil, nil
}

// Redeal shuffles the cards viewer cannot see (other hands, the deck, the out cards) among those
// places, keeping each place's size.
func (Ruleset) Redeal(s State, viewer int, rng *sdk.RNG) State {
	c := s.clone()
	var hidden []sdk.Card
	for i, h := range c.Hands {
		if i != viewer {
			hidden = append(hidden, h...)
		}
	}
	hidden = append(hidden, c.Deck...)
	hidden = append(hidden, c.Out...)
	rng.ShuffleCards("redeal", hidden)
	take := func(n int) []sdk.Card {
		out := slices.Clone(hidden[:n])
		hidden = hidden[n:]
		return out
	}
	for i := range c.Hands {
		if i != viewer {
			c.Hands[i] = take(len(c.Hands[i]))
		}
	}
	c.Deck = take(len(c.Deck))
	c.Out = take(len(c.Out))
	return c
}

// Table exposes hands, pile, deck and out cards, the turn and the phase.
func (Ruleset) Table(s State) sdk.Table {
	t := sdk.Table{Zones: map[string][]sdk.Card{}, Turn: s.Turn, Direction: 1, Values: map[string]string{"phase": s.Phase}}
	for i, h := range s.Hands {
		t.Zones[fmt.Sprintf("hand.%d", i)] = slices.Clone(h)
	}
	t.Zones["pile"], t.Zones["deck"], t.Zones["out"] = slices.Clone(s.Pile), slices.Clone(s.Deck), slices.Clone(s.Out)
	return t
}

// SetTable returns a copy of s with the table's zones and turn; it refuses unknown zones, a turn
// that is no seat, a direction other than 1 and any counter or value it does not keep.
func (Ruleset) SetTable(s State, t sdk.Table) (State, error) {
	c := s.clone()
	for k, cards := range t.Zones {
		switch {
		case k == "pile":
			c.Pile = slices.Clone(cards)
		case k == "deck":
			c.Deck = slices.Clone(cards)
		case k == "out":
			c.Out = slices.Clone(cards)
		case strings.HasPrefix(k, "hand."):
			i, err := strconv.Atoi(k[len("hand."):])
			if err != nil || i < 0 || i >= c.Seats {
				return s, sdk.Refuse(sdk.CodeHouseRule, "table: no zone %q", k)
			}
			c.Hands[i] = slices.Clone(cards)
		default:
			return s, sdk.Refuse(sdk.CodeHouseRule, "table: no zone %q", k)
		}
	}
	if t.Turn != sdk.NoSeat && (t.Turn < 0 || t.Turn >= c.Seats) {
		return s, sdk.Refuse(sdk.CodeHouseRule, "table: turn %d is no seat", t.Turn)
	}
	if t.Direction != 1 {
		return s, sdk.Refuse(sdk.CodeHouseRule, "table: toy plays in direction 1 only, got %d", t.Direction)
	}
	if len(t.Counters) > 0 {
		return s, sdk.Refuse(sdk.CodeHouseRule, "table: toy keeps no counters")
	}
	for k, v := range t.Values {
		if k != "phase" || v != s.Phase {
			return s, sdk.Refuse(sdk.CodeHouseRule, "table: value %s=%q cannot be set", k, v)
		}
	}
	c.Turn = t.Turn
	return c, nil
}

var _ sdk.Ender[State] = Ruleset{}

// End ends the game for a house rule, as when winner plays their last card: the toy has no
// rounds, so ending the round ends the game.
func (Ruleset) End(s State, req sdk.EndRequest) (State, []sdk.Event, error) {
	if s.Phase != sdk.PhasePlaying {
		return s, nil, sdk.Refuse(sdk.CodeGameOver, "the game is over")
	}
	if req.Winner < 0 || req.Winner >= s.Seats {
		return s, nil, sdk.Refuse(sdk.CodeHouseRule, "winner %d is no seat of this %d-seat game", req.Winner, s.Seats)
	}
	c := s.clone()
	c.Phase, c.Winner, c.Turn, c.Windows = sdk.PhaseGameOver, req.Winner, sdk.NoSeat, nil
	return c, []sdk.Event{{Name: "won", Seat: req.Winner}}, nil
}
