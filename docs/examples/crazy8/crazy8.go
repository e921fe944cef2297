package crazy8

import (
	"context"
	"fmt"
	"slices"

	"cardhouse/sdk"
)

// ID is the ruleset's id.
const ID = "crazy8"

// ActKeep keeps the card just drawn instead of playing it, ending the turn: the variant's own
// action type (the scenario step for it is `act: {type: keep}`).
const ActKeep = "keep"

// suits are the names an eight may choose, as the action spec offers them.
var suits = []string{"S", "H", "D", "C"}

// Ruleset is Crazy Eights; its zero value is ready to use.
type Ruleset struct{}

var (
	_ sdk.Ruleset[State]  = Ruleset{}
	_ sdk.Redealer[State] = Ruleset{}
	_ sdk.Bots            = Ruleset{}
)

// State is one game of Crazy Eights. Every field is exported: the host stores it as JSON.
type State struct {
	Seats    int          `json:"seats"`
	HandSize int          `json:"hand_size"`
	Hands    [][]sdk.Card `json:"hands"`
	Pile     []sdk.Card   `json:"pile"`
	Deck     []sdk.Card   `json:"deck"`
	// Out are cards out of play (a scenario's `rest: out`).
	Out []sdk.Card `json:"out,omitempty"`
	// Suit is the suit to follow: the top card's, or the one an eight named.
	Suit string `json:"suit"`
	// Drawn is the card the seat in turn has just drawn and may still play ("" when none).
	Drawn  sdk.Card `json:"drawn"`
	Turn   int      `json:"turn"`
	Winner int      `json:"winner"`
	Phase  string   `json:"phase"`
	Opener int      `json:"opener"`
	Games  int      `json:"games"`
	RNG    sdk.RNG  `json:"rng"`
}

func (s State) clone() State {
	c := s
	c.Hands = make([][]sdk.Card, len(s.Hands))
	for i, h := range s.Hands {
		c.Hands[i] = slices.Clone(h)
	}
	c.Pile, c.Deck, c.Out = slices.Clone(s.Pile), slices.Clone(s.Deck), slices.Clone(s.Out)
	c.RNG = s.RNG.Clone()
	return c
}

const rules = `# Crazy Eights

Match the top card of the pile by **suit** or by **rank**, or play an **eight** on anything and
name the suit to follow. Can't (or won't) play? **Draw** one card: if it fits you may play it at
once, or keep it. The first to empty their hand wins.`

// Info describes Crazy Eights.
func (Ruleset) Info() sdk.Info {
	return sdk.Info{
		ID: ID, Name: "Crazy Eights", Version: "1.0.0", Summary: "Match suit or rank; eights are wild.",
		Rules: rules, MinSeats: 2, MaxSeats: 4,
		Options:   []sdk.Option{{Name: "hand_size", Label: "Hand size", Type: sdk.OptionInt, Default: 5, Min: 1, Max: 10}},
		BotLevels: []int{1, 2}, StateVersion: 1,
		// The move log's words for each event ("turn" writes no line).
		EventTexts: map[string]string{"played": "{seat} played {cards}", "suit_chosen": "{seat} named {suit:choice}",
			"drew": "{seat} drew {cards}", "kept": "{seat} kept the card drawn", "won": "{seat} wins!", "dealt": "New deal"},
	}
}

// Start deals a game: the fixed deal when given (a scenario's), else a shuffled deck.
func (Ruleset) Start(_ context.Context, req sdk.StartRequest) (State, error) {
	s := State{Seats: req.Seats, HandSize: req.Options.Int("hand_size"), Winner: sdk.NoSeat, RNG: req.RNG}
	if req.Opener != nil {
		s.Opener = *req.Opener
	}
	if req.Deal == nil {
		s.deal(s.Opener)
		return s, nil
	}
	l, err := req.Deal.Layout(sdk.FrenchDeck(1, 0), req.Seats, &s.RNG)
	if err != nil {
		return s, err
	}
	if len(l.FaceUp) > 0 || len(l.FaceDown) > 0 {
		return s, sdk.Refuse(sdk.CodeBadDeal, "deal: crazy8 has no face_up or face_down rows")
	}
	if len(l.Pile) == 0 {
		return s, sdk.Refuse(sdk.CodeBadDeal, "deal: crazy8 needs a pile card to follow")
	}
	s.Hands, s.Pile, s.Deck, s.Out = l.Hands, l.Pile, l.Deck, l.Out
	if s.Hands == nil {
		s.Hands = make([][]sdk.Card, req.Seats)
	}
	if l.First != sdk.NoSeat {
		s.Opener = l.First
	}
	s.Phase, s.Turn, s.Suit = sdk.PhasePlaying, s.Opener, suitOf(s.top())
	return s, nil
}

// deal shuffles every card and deals a new game opened by opener.
func (s *State) deal(opener int) {
	cards := sdk.FrenchDeck(1, 0)
	s.RNG.ShuffleCards(sdk.DrawShuffle, cards)
	s.Hands = make([][]sdk.Card, s.Seats)
	for i := range s.Hands {
		s.Hands[i], cards = slices.Clone(cards[:s.HandSize]), cards[s.HandSize:]
	}
	s.Pile, s.Deck, s.Out = []sdk.Card{cards[0]}, cards[1:], nil
	s.Suit, s.Drawn = suitOf(cards[0]), 0
	s.Opener, s.Turn, s.Winner, s.Phase = opener, opener, sdk.NoSeat, sdk.PhasePlaying
}

func suitOf(c sdk.Card) string { return string(rune(c.Suit())) }

func isEight(c sdk.Card) bool { return c.Rank() == 8 }

func (s *State) top() sdk.Card { return s.Pile[len(s.Pile)-1] }

// playable says whether c may go on the pile now: an eight always, else the suit to follow or
// the top's rank.
func (s *State) playable(c sdk.Card) bool {
	return isEight(c) || suitOf(c) == s.Suit || c.Rank() == s.top().Rank()
}

// draw moves the deck's top card to seat's hand, first shuffling the pile but its top into a new
// deck when the deck is empty; false when there is nothing to draw.
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

func refuse(code, format string, args ...any) (sdk.ApplyResponse[State], error) {
	return sdk.ApplyResponse[State]{}, sdk.Refuse(code, format, args...)
}

// Apply plays one action on a copy of the state: a refusal changes nothing by construction.
func (Ruleset) Apply(_ context.Context, req sdk.ApplyRequest[State]) (sdk.ApplyResponse[State], error) {
	s := req.State.clone()
	a := req.Action
	if a.Type == sdk.ActDeal {
		if a.Seat != sdk.Host {
			return refuse(sdk.CodeBadAction, "only the host deals")
		}
		if s.Phase != sdk.PhaseGameOver {
			return refuse(sdk.CodeBadAction, "the game is still being played")
		}
		s.Games++
		s.deal((s.Opener + 1) % s.Seats)
		return sdk.ApplyResponse[State]{State: s, Events: []sdk.Event{{Name: "dealt", Seat: sdk.Host}}}, nil
	}
	if s.Phase != sdk.PhasePlaying {
		return refuse(sdk.CodeGameOver, "the game is over")
	}
	if a.Seat != s.Turn {
		return refuse(sdk.CodeNotYourTurn, "it is seat %d's turn", s.Turn)
	}
	var evs []sdk.Event
	switch a.Type {
	case sdk.ActPlay:
		if len(a.Cards) != 1 {
			return refuse(sdk.CodeBadAction, "play exactly one card")
		}
		c, suit := a.Cards[0], a.Choice() // the suit an eight names: Args["choice"]
		hand, ok := sdk.RemoveCards(s.Hands[a.Seat], a.Cards)
		switch {
		case !ok:
			return refuse(sdk.CodeNotHeld, "you do not hold %s", c)
		case s.Drawn != 0 && c != s.Drawn:
			return refuse(sdk.CodeBadAction, "after drawing you may play only %s, or keep it", s.Drawn)
		case !s.playable(c):
			return refuse("no_match", "%s matches neither the suit %s nor the rank of %s", c, s.Suit, s.top())
		case isEight(c) && !slices.Contains(suits, suit):
			return refuse(sdk.CodeBadAction, "an eight names the suit to follow: S, H, D or C")
		case !isEight(c) && suit != "":
			return refuse(sdk.CodeBadAction, "only an eight names a suit")
		}
		s.Hands[a.Seat], s.Pile, s.Drawn = hand, append(s.Pile, c), 0
		evs = append(evs, sdk.Event{Name: "played", Seat: a.Seat, Cards: []sdk.Card{c}})
		s.Suit = suitOf(c)
		if isEight(c) {
			s.Suit = suit
			evs = append(evs, sdk.Event{Name: "suit_chosen", Seat: a.Seat, Data: map[string]string{"suit": suit}})
		}
		if len(hand) == 0 {
			s.Phase, s.Winner, s.Turn = sdk.PhaseGameOver, a.Seat, sdk.NoSeat
			return sdk.ApplyResponse[State]{State: s, Events: append(evs, sdk.Event{Name: "won", Seat: a.Seat})}, nil
		}
	case sdk.ActDraw:
		if s.Drawn != 0 {
			return refuse(sdk.CodeBadAction, "you have drawn already: play %s or keep it", s.Drawn)
		}
		if c, ok := s.draw(a.Seat); ok {
			evs = append(evs, sdk.Event{Name: "drew", Seat: a.Seat, Cards: []sdk.Card{c}, Private: true})
			if s.playable(c) {
				s.Drawn = c // the turn stays: play it or keep it
				return sdk.ApplyResponse[State]{State: s, Events: evs}, nil
			}
		}
	case ActKeep:
		if s.Drawn == 0 {
			return refuse(sdk.CodeBadAction, "keep is for the card you have just drawn")
		}
		s.Drawn = 0
		evs = append(evs, sdk.Event{Name: "kept", Seat: a.Seat})
	default:
		return refuse(sdk.CodeBadAction, "crazy8 has no action %q", a.Type)
	}
	s.Turn = (s.Turn + 1) % s.Seats
	return sdk.ApplyResponse[State]{State: s, Events: append(evs, sdk.Event{Name: "turn", Seat: s.Turn})}, nil
}

// View shows the viewer's own hand, the pile and every count, the suit to follow, and the
// actions open to the viewer.
func (Ruleset) View(s State, viewer int) sdk.View {
	v := sdk.View{Ruleset: ID, Viewer: viewer, Phase: s.Phase, Turn: s.Turn, Direction: 1, Winner: s.Winner, Round: s.Games + 1,
		Roles: map[string]string{"8": "wild"}}
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
		v.Zones = append(v.Zones, sdk.Zone{ID: "out", Kind: sdk.ZoneBurned, Label: "Out of play", Owner: sdk.NoSeat, Count: len(s.Out), Hidden: true})
	}
	if s.Phase != sdk.PhasePlaying {
		return v
	}
	v.Indicators = append(v.Indicators, sdk.Indicator{ID: "suit", Label: "Suit", Value: s.Suit, Kind: "suit"})
	if viewer != s.Turn {
		return v
	}
	var ok, eights []sdk.Card
	for _, c := range s.Hands[viewer] {
		if (s.Drawn == 0 || c == s.Drawn) && s.playable(c) && !slices.Contains(ok, c) {
			ok = append(ok, c)
			if isEight(c) {
				eights = append(eights, c)
			}
		}
	}
	if len(ok) > 0 {
		play := sdk.ActionSpec{Type: sdk.ActPlay, Label: "Play", Cards: ok}
		if len(eights) > 0 {
			play.Choices, play.ChoiceFor = suits, eights
		}
		v.Actions = append(v.Actions, play)
	}
	if s.Drawn != 0 {
		v.Indicators = append(v.Indicators, sdk.Indicator{ID: "drawn", Label: "Just drawn", Value: s.Drawn.String(), Kind: "text"})
		v.Actions = append(v.Actions, sdk.ActionSpec{Type: ActKeep, Label: "Keep it"})
	} else {
		v.Actions = append(v.Actions, sdk.ActionSpec{Type: sdk.ActDraw, Label: "Draw"})
	}
	return v
}

// Status says whose move it is.
func (Ruleset) Status(s State) sdk.Status {
	st := sdk.Status{Phase: s.Phase, Seats: s.Seats, Turn: s.Turn, Winner: s.Winner, Round: s.Games + 1}
	if s.Phase == sdk.PhasePlaying {
		st.Actors = []int{s.Turn}
	}
	return st
}

// Observe gives the scenario keys of Cardhouse's docs/scenarios.md (turn, direction, top, pile,
// pile_count, deck, deck_count, hands, hand_count, winner, phase, opener) and this variant's own:
// suit (the suit to follow) and drawn (the card just drawn that may still be played, or null).
func (Ruleset) Observe(s State) sdk.Observation {
	o := sdk.Observation{
		"direction": 1, "pile": sdk.CardStrings(s.Pile), "pile_count": len(s.Pile), "top": nil,
		"deck": sdk.CardStrings(s.Deck), "deck_count": len(s.Deck), "phase": s.Phase, "opener": s.Opener,
		"turn": nil, "winner": nil, "suit": s.Suit, "drawn": nil,
	}
	if s.Phase == sdk.PhasePlaying {
		o["turn"] = s.Turn
	}
	if s.Winner != sdk.NoSeat {
		o["winner"] = s.Winner
	}
	if len(s.Pile) > 0 {
		o["top"] = s.top().String()
	}
	if s.Drawn != 0 {
		o["drawn"] = s.Drawn.String()
	}
	hands := make([][]string, len(s.Hands))
	counts := make([]int, len(s.Hands))
	for i, h := range s.Hands {
		hands[i], counts[i] = sdk.CardStrings(h), len(h)
	}
	o["hands"], o["hand_count"] = hands, counts
	return o
}

// Cards lists every card of the game.
func (Ruleset) Cards(s State) []sdk.Card {
	var out []sdk.Card
	for _, h := range s.Hands {
		out = append(out, h...)
	}
	return slices.Concat(out, s.Pile, s.Deck, s.Out)
}

// Bot chooses from its view alone. Level 1 plays a random playable card (an eight names a random
// suit) and keeps a drawn card half the time; level 2 keeps its eights for last, plays the card
// of the suit it holds most, names that suit with an eight, and always plays a drawn card.
func (Ruleset) Bot(_ context.Context, req sdk.BotRequest) (*sdk.Action, error) {
	v := req.View
	p, canPlay := v.Action(sdk.ActPlay)
	switch {
	case canPlay && (req.Level >= 2 || !v.Has(ActKeep) || req.RNG.Intn("bot", 2) == 0):
		c := p.Cards[req.RNG.Intn("bot", len(p.Cards))]
		hand, _ := v.Zone(fmt.Sprintf("hand.%d", req.Seat))
		if req.Level >= 2 {
			c = bestCard(p.Cards, hand.Cards)
		}
		a := &sdk.Action{Seat: req.Seat, Type: sdk.ActPlay, Cards: []sdk.Card{c}}
		if slices.Contains(p.ChoiceFor, c) {
			suit := p.Choices[req.RNG.Intn("bot", len(p.Choices))]
			if req.Level >= 2 {
				suit = longestSuit(hand.Cards, c)
			}
			*a = a.WithChoice(suit)
		}
		return a, nil
	case v.Has(ActKeep):
		return &sdk.Action{Seat: req.Seat, Type: ActKeep}, nil
	case v.Has(sdk.ActDraw):
		return &sdk.Action{Seat: req.Seat, Type: sdk.ActDraw}, nil
	}
	return nil, nil
}

// bestCard is level 2's play: a card that is no eight, of the suit held most, else an eight.
func bestCard(playable, hand []sdk.Card) sdk.Card {
	best, bestN := playable[0], -1
	for _, c := range playable {
		n := -1 // an eight only when nothing else goes
		if !isEight(c) {
			n = countSuit(hand, suitOf(c))
		}
		if n > bestN {
			best, bestN = c, n
		}
	}
	return best
}

// longestSuit is the suit hand holds most of, not counting the eight being played.
func longestSuit(hand []sdk.Card, playing sdk.Card) string {
	best, bestN := suits[0], -1
	for _, s := range suits {
		n := countSuit(hand, s)
		if s == suitOf(playing) {
			n--
		}
		if n > bestN {
			best, bestN = s, n
		}
	}
	return best
}

func countSuit(hand []sdk.Card, suit string) int {
	n := 0
	for _, c := range hand {
		if !isEight(c) && suitOf(c) == suit {
			n++
		}
	}
	return n
}

// Redeal shuffles the cards viewer cannot see (other hands, the deck, the out cards) among those
// places, keeping each place's size, and the drawn card in the hand of the seat that drew it.
func (Ruleset) Redeal(s State, viewer int, rng *sdk.RNG) State {
	c := s.clone()
	var hidden []sdk.Card
	for i, h := range c.Hands {
		if i == viewer {
			continue
		}
		if i == c.Turn && c.Drawn != 0 {
			h, _ = sdk.RemoveCards(h, []sdk.Card{c.Drawn})
		}
		hidden = append(hidden, h...)
	}
	hidden = slices.Concat(hidden, c.Deck, c.Out)
	rng.ShuffleCards("redeal", hidden)
	take := func(n int) []sdk.Card {
		out := slices.Clone(hidden[:n])
		hidden = hidden[n:]
		return out
	}
	for i := range c.Hands {
		switch {
		case i == viewer:
		case i == c.Turn && c.Drawn != 0:
			c.Hands[i] = append(take(len(c.Hands[i])-1), c.Drawn)
		default:
			c.Hands[i] = take(len(c.Hands[i]))
		}
	}
	c.Deck, c.Out = take(len(c.Deck)), take(len(c.Out))
	return c
}
