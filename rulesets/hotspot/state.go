package hotspot

import (
	"slices"

	"cardhouse/sdk"
)

// logLimit bounds the public log a State keeps for bots (Historian): enough for a few rounds of
// the table, small enough that cloning the state stays cheap.
const logLimit = 48

// State is one game of Hotspot: plain data, JSON-encodable (cards encode as codes). Apply never
// changes a State it is given; it works on a clone.
type State struct {
	Seats         int   `json:"seats"`
	Decks         int   `json:"decks"`
	HandSize      int   `json:"hand_size"`
	LastCardMS    int64 `json:"last_card_ms"`
	PlayAfterDraw bool  `json:"play_after_draw,omitempty"`

	Hands [][]sdk.Card `json:"hands"`
	// Pile is the discard pile, bottom first: its last card is the top.
	Pile []sdk.Card `json:"pile"`
	// Deck is the draw pile, top first.
	Deck []sdk.Card `json:"deck"`
	// Out holds cards a scenario deal put out of play (rest: out).
	Out []sdk.Card `json:"out,omitempty"`

	Turn      int `json:"turn"`
	Direction int `json:"direction"`
	// Suit is the active suit ("S", "H", "D", "C"; "" on an empty pile).
	Suit string `json:"suit,omitempty"`
	// Penalty is the pickup penalty pending for the seat in turn (H-6).
	Penalty int `json:"penalty,omitempty"`
	// ExtraGo is true when the seat in turn has just played a Queen and may follow it (H-9).
	ExtraGo bool `json:"extra_go,omitempty"`
	// Drawn is the card the seat in turn has just drawn and may still play (play_after_draw, H-4).
	Drawn sdk.Card `json:"drawn,omitempty"`
	// Windows are the open LAST CARD windows, oldest first (H-10).
	Windows []Window `json:"windows,omitempty"`
	// Called lists the seats that called LAST CARD and still hold their one card.
	Called []int `json:"called,omitempty"`

	Phase  string `json:"phase"`
	Winner int    `json:"winner"`
	// Opener is the seat that opened this game (H-12); Game counts games from 1.
	Opener int `json:"opener"`
	Game   int `json:"game"`
	// Seq numbers the deadlines, so every window's ID is new.
	Seq int     `json:"seq"`
	RNG sdk.RNG `json:"rng"`
	// Log is this game's events, newest last, at most logLimit (see History).
	Log []sdk.Event `json:"log,omitempty"`
	// Simulated marks a world a search bot sampled (Sample): its steps keep no log, which spares
	// the search a copy of the log on every simulated action. Never stored (json "-"); false in
	// every real game.
	Simulated bool `json:"-"`
}

// Window is an open LAST CARD window: Seat may call until the clock reaches At (ms).
type Window struct {
	Seat int    `json:"seat"`
	ID   string `json:"id"`
	At   int64  `json:"at"`
}

func (s *State) clone() *State {
	c := *s
	c.Hands = make([][]sdk.Card, len(s.Hands))
	for i, h := range s.Hands {
		c.Hands[i] = slices.Clone(h)
	}
	c.Pile = slices.Clone(s.Pile)
	c.Deck = slices.Clone(s.Deck)
	c.Out = slices.Clone(s.Out)
	c.Windows = slices.Clone(s.Windows)
	c.Called = slices.Clone(s.Called)
	c.RNG = s.RNG.Clone()
	c.Log = slices.Clone(s.Log) // events are values; their slices are never written to
	return &c
}

// top is the top card of the pile, or 0.
func (s *State) top() sdk.Card {
	if len(s.Pile) == 0 {
		return 0
	}
	return s.Pile[len(s.Pile)-1]
}

func (s *State) suit() sdk.Suit {
	if s.Suit == "" {
		return 0
	}
	return sdk.Suit(s.Suit[0])
}

func (s *State) over() bool { return s.Phase == sdk.PhaseGameOver }

// win ends the game with seat the winner: pending penalties, Queen follow-ups and LAST CARD
// windows close. It returns the won event.
func (s *State) win(seat int) sdk.Event {
	s.Phase, s.Winner = sdk.PhaseGameOver, seat
	s.Penalty, s.ExtraGo, s.Drawn, s.Windows, s.Called = 0, false, 0, nil, nil
	return sdk.Event{Name: EvWon, Seat: seat}
}

// position is what decides the legality of seat's next play.
func (s *State) position() Position {
	return Position{Top: s.top(), Suit: s.suit(), Penalty: s.Penalty, ExtraGo: s.ExtraGo, Drawn: s.Drawn}
}

// next is the seat steps seats on in the direction of play.
func (s *State) next(from, steps int) int {
	n := s.Seats
	return ((from+steps*s.Direction)%n + n) % n
}

func (s *State) window(seat int) int {
	return slices.IndexFunc(s.Windows, func(w Window) bool { return w.Seat == seat })
}

// tidyLastCard closes the windows and forgets the calls of seats that no longer hold exactly one
// card (HS-3).
func (s *State) tidyLastCard() {
	s.Windows = slices.DeleteFunc(s.Windows, func(w Window) bool { return len(s.Hands[w.Seat]) != 1 })
	s.Called = slices.DeleteFunc(s.Called, func(seat int) bool { return len(s.Hands[seat]) != 1 })
}

// record appends events to the bounded log.
func (s *State) record(evs []sdk.Event) {
	if s.Simulated {
		return
	}
	s.Log = append(s.Log, evs...)
	if over := len(s.Log) - logLimit; over > 0 {
		s.Log = slices.Delete(s.Log, 0, over)
	}
}

// draw moves up to n cards from the deck into seat's hand, turning the pile under its top card
// into a new deck when the deck runs out (H-11). It returns the cards drawn and the events.
func (s *State) draw(seat, n int) ([]sdk.Card, []sdk.Event) {
	var got []sdk.Card
	var evs []sdk.Event
	for len(got) < n {
		if len(s.Deck) == 0 {
			if len(s.Pile) <= 1 {
				break // nothing left anywhere: draw what there is (H-11)
			}
			top := s.Pile[len(s.Pile)-1]
			s.Deck = slices.Clone(s.Pile[:len(s.Pile)-1])
			s.Pile = []sdk.Card{top}
			s.RNG.ShuffleCards(sdk.DrawShuffle, s.Deck)
			evs = append(evs, sdk.Event{Name: EvShuffled, Seat: sdk.NoSeat, Count: len(s.Deck)})
		}
		take := min(n-len(got), len(s.Deck))
		got = append(got, s.Deck[:take]...)
		s.Deck = s.Deck[take:]
	}
	s.Hands[seat] = append(s.Hands[seat], got...)
	evs = append(evs, sdk.Event{Name: EvDrew, Seat: seat, Cards: got, Count: len(got), Private: true})
	return got, evs
}

// Cards returns every card of the game: hands, pile, deck and cards out of play.
func (r *Rules) Cards(s *State) []sdk.Card {
	n := len(s.Pile) + len(s.Deck) + len(s.Out)
	for _, h := range s.Hands {
		n += len(h)
	}
	out := make([]sdk.Card, 0, n)
	for _, h := range s.Hands {
		out = append(out, h...)
	}
	out = append(out, s.Pile...)
	out = append(out, s.Deck...)
	return append(out, s.Out...)
}

// Status is the phase, the seat in turn (NoSeat when over), the winner, the game number as
// Round, the actors (the seat in turn, then seats with an open LAST CARD window) and the windows'
// deadlines.
func (r *Rules) Status(s *State) sdk.Status {
	st := sdk.Status{Phase: s.Phase, Seats: s.Seats, Turn: s.Turn, Winner: s.Winner, Round: s.Game}
	if s.over() {
		st.Turn = sdk.NoSeat
		return st
	}
	st.Actors = []int{s.Turn}
	for _, w := range s.Windows {
		if w.Seat != s.Turn {
			st.Actors = append(st.Actors, w.Seat)
		}
		st.Deadlines = append(st.Deadlines, sdk.Deadline{ID: w.ID, Seat: w.Seat, At: w.At, Kind: "last_card"})
	}
	return st
}

// Observe returns the scenario observation: the generic keys of docs/scenarios.md and Hotspot's own
// `suit`, `penalty`, `extra_go`, `last_card_open` and `opener`.
func (r *Rules) Observe(s *State) sdk.Observation {
	hands := make([][]string, s.Seats)
	counts := make([]int, s.Seats)
	for i, h := range s.Hands {
		hands[i] = sdk.CardStrings(h)
		counts[i] = len(h)
	}
	open := []int{}
	for _, w := range s.Windows {
		open = append(open, w.Seat)
	}
	slices.Sort(open)
	o := sdk.Observation{
		"turn": s.Turn, "direction": s.Direction, "top": nil,
		"pile": sdk.CardStrings(s.Pile), "pile_count": len(s.Pile), "deck_count": len(s.Deck),
		"hands": hands, "hand_count": counts, "winner": nil, "phase": s.Phase,
		"suit": nil, "penalty": s.Penalty, "extra_go": s.ExtraGo, "last_card_open": open,
		"opener": s.Opener,
	}
	if s.over() {
		o["turn"] = nil
	}
	if t := s.top(); t != 0 {
		o["top"] = t.String()
	}
	if s.Winner != sdk.NoSeat {
		o["winner"] = s.Winner
	}
	if s.Suit != "" {
		o["suit"] = s.Suit
	}
	return o
}

// History is seat's view of this game's log (at most the last logLimit events), each event as
// Event.For shows it to that seat.
func (r *Rules) History(s *State, seat int) []sdk.Event {
	out := make([]sdk.Event, len(s.Log))
	for i, e := range s.Log {
		out[i] = e.For(seat)
	}
	return out
}
