package simple

import (
	"encoding/json"
	"slices"

	"cardhouse/sdk"
)

// Game declares a variant: who it is, how it is dealt, its moves and its end. Only ID, Name,
// MinSeats, MaxSeats, Moves and End are required; [New] makes the ruleset of it.
type Game[S any] struct {
	// ID, Name, Version ("" is "1.0.0"), Summary and Rules (Markdown) are the variant's sdk.Info.
	ID, Name, Version, Summary, Rules string
	// MinSeats and MaxSeats bound the number of seats.
	MinSeats, MaxSeats int
	// Options are the room's options, passed to Setup validated.
	Options []sdk.Option
	// EventTexts word the events the moves record for the move log (sdk.Info.EventTexts).
	EventTexts map[string]string
	// Deck is every card of the game; nil is one French deck without jokers.
	Deck []sdk.Card
	// HandSize is how many cards each seat is dealt from the shuffled deck; the rest is the stock.
	// Nil deals nothing (Setup may deal).
	HandSize func(seats int) int
	// Setup finishes a new game after the deal, or after a scenario's fixed deal (sdk.Deal): the
	// place to lay down what the deal made or to fill in Data. Nil does nothing.
	Setup func(s *State[S], opts sdk.Options)
	// OnTurn runs whenever a seat's turn begins (s.Turn), before the package looks for its moves:
	// the place to draw for an empty hand. A seat left with no open move sits the turn out.
	OnTurn func(s *State[S])
	// Moves are the moves of the game; each is an action type the views offer when it is open.
	Moves []Move[S]
	// End reports whether the game is over and who won it (sdk.NoSeat for a draw). It is asked
	// after every move; a game in which no seat has an open move ends too.
	End func(s *State[S]) (over bool, winner int)
	// Score, when set, is a seat's score as the table shows it beside the seat.
	Score func(s *State[S], seat int) int
	// Sees says whether viewer sees seat's hand while the game is played; nil: only its own.
	// Every other card the views show is face up (pile, laid) or counted (stock, out).
	Sees func(s *State[S], viewer, seat int) bool
	// LaidLabel names a group of cards laid before a seat ("Book"); "" is "Laid".
	LaidLabel string
}

// Move is one kind of action of a game. A move is open to a seat when Who allows it and every
// part it takes (Cards, Targets, Choices) has at least one option; the views offer it then, the
// bot picks among them, and Apply accepts it only then, with options it offered.
type Move[S any] struct {
	// Type is the action type (sdk.ActPlay, sdk.ActDraw or a word of the game's own, "ask").
	Type string
	// Label is the button's text ("Ask").
	Label string
	// Who says whether seat may make the move now; nil: the seat in turn.
	Who func(s *State[S], seat int) bool
	// Cards, when set, lists the cards of seat's hand the move may take: the action takes exactly
	// one of them, or with Multi one or more.
	Cards func(s *State[S], seat int) []sdk.Card
	Multi bool
	// Targets, when set, lists the seats the move may aim at (Action.Target).
	Targets func(s *State[S], seat int) []int
	// Choices, when set, lists the names the move chooses among (Action.Args["choice"]).
	Choices func(s *State[S], seat int) []string
	// Do makes the move on a copy of the state; it returns sdk.Refuse(...) to refuse it, and the
	// copy is then dropped (any other error is a ruleset failure: the host pauses the game). The
	// turn passes to the next seat afterwards unless Do calls GoAgain.
	Do func(s *State[S], a sdk.Action) error
}

// State is a game as the package keeps it: the cards, the turn and the game's own Data. The host
// stores it as JSON, so S must encode with encoding/json; it must hold no card (cards live in
// the zones here, where the package can count, show and hide them).
type State[S any] struct {
	Seats int `json:"seats"`
	// Hands are the seats' hands, in the order cards came in.
	Hands [][]sdk.Card `json:"hands"`
	// Stock is the face-down draw pile, its top first.
	Stock []sdk.Card `json:"stock"`
	// Pile is the face-up discard pile, its top last.
	Pile []sdk.Card `json:"pile"`
	// Laid are the groups of cards each seat has laid face up before it (books, melds), in the
	// order laid; the views show each as a meld (sdk.ZoneMeld).
	Laid [][][]sdk.Card `json:"laid"`
	// Out are cards out of play, face down (a scenario's `rest: out`).
	Out []sdk.Card `json:"out"`
	// Turn is the seat in turn, sdk.NoSeat once the game is over.
	Turn   int    `json:"turn"`
	Opener int    `json:"opener"`
	Phase  string `json:"phase"`
	Winner int    `json:"winner"`
	// Games counts the games dealt before this one (a rematch deals the next).
	Games int `json:"games"`
	// Options are the room's options, for the Setup of the next game.
	Options sdk.Options `json:"options,omitempty"`
	Data    S           `json:"data"`
	RNG     sdk.RNG     `json:"rng"`

	again  bool
	events []sdk.Event
}

// clone returns a deep copy (Data through its JSON, as the host stores it).
func (s *State[S]) clone() *State[S] {
	c := *s
	c.Hands, c.Laid = cloneRows(s.Hands), make([][][]sdk.Card, len(s.Laid))
	for i, groups := range s.Laid {
		c.Laid[i] = cloneRows(groups)
	}
	c.Stock, c.Pile, c.Out = slices.Clone(s.Stock), slices.Clone(s.Pile), slices.Clone(s.Out)
	c.RNG = s.RNG.Clone()
	c.events = nil
	if b, err := json.Marshal(s.Data); err == nil {
		var d S
		if json.Unmarshal(b, &d) == nil {
			c.Data = d
		}
	}
	return &c
}

func cloneRows(rows [][]sdk.Card) [][]sdk.Card {
	out := make([][]sdk.Card, len(rows))
	for i, r := range rows {
		out[i] = slices.Clone(r)
	}
	return out
}

// Event records an event of the move being made, for the log and the players' animations.
func (s *State[S]) Event(e sdk.Event) { s.events = append(s.events, e) }

// GoAgain keeps the turn with the seat that moved, once the move is made.
func (s *State[S]) GoAgain() { s.again = true }

// Draw moves the stock's top card to seat's hand and records a private "drew" event; false when
// the stock is empty.
func (s *State[S]) Draw(seat int) (sdk.Card, bool) {
	if len(s.Stock) == 0 {
		return 0, false
	}
	c := s.Stock[0]
	s.Stock = s.Stock[1:]
	s.Hands[seat] = append(s.Hands[seat], c)
	s.Event(sdk.Event{Name: "drew", Seat: seat, Cards: []sdk.Card{c}, Private: true})
	return c, true
}

// Give moves cards from seat from's hand to seat to's hand; false (and nothing moved) when from
// does not hold them all.
func (s *State[S]) Give(from, to int, cards []sdk.Card) bool {
	hand, ok := sdk.RemoveCards(s.Hands[from], cards)
	if ok {
		s.Hands[from], s.Hands[to] = hand, append(s.Hands[to], cards...)
	}
	return ok
}

// Lay moves cards from seat's hand to a new group laid face up before it; false (and nothing
// moved) when the seat does not hold them all.
func (s *State[S]) Lay(seat int, cards []sdk.Card) bool {
	hand, ok := sdk.RemoveCards(s.Hands[seat], cards)
	if ok {
		s.Hands[seat], s.Laid[seat] = hand, append(s.Laid[seat], slices.Clone(cards))
	}
	return ok
}

// LaidCards returns every card seat has laid, group after group.
func (s *State[S]) LaidCards(seat int) []sdk.Card { return slices.Concat(s.Laid[seat]...) }

// Discard moves cards from seat's hand to the top of the pile; false (and nothing moved) when
// the seat does not hold them all.
func (s *State[S]) Discard(seat int, cards []sdk.Card) bool {
	hand, ok := sdk.RemoveCards(s.Hands[seat], cards)
	if ok {
		s.Hands[seat], s.Pile = hand, append(s.Pile, cards...)
	}
	return ok
}
