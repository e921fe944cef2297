package ginrummy

import (
	"slices"
	"strconv"

	"cardhouse/sdk"
)

// Seats is the number of players: Gin Rummy is a game for two (GR-1).
const Seats = 2

// HandSize is the cards each player is dealt (GR-1).
const HandSize = 10

// Stages of a hand, as the observation key `stage` names them.
const (
	// StageUpcard is the first turn's offer of the upcard (GR-4).
	StageUpcard = "upcard"
	// StagePlay is the turns of drawing and discarding (GR-5).
	StagePlay = "play"
	// StageLayoff is the defender's laying off after a knock (GR-6).
	StageLayoff = "layoff"
	// StageOver is a hand scored or void, until the host deals the next one.
	StageOver = "over"
)

// State is one game of Gin Rummy: plain data, JSON-encodable (cards encode as codes). Apply never
// changes a State it is given; it works on a clone.
type State struct {
	KnockLimit int  `json:"knock_limit"`
	BigGin     bool `json:"big_gin,omitempty"`
	Target     int  `json:"target"`

	// Hands are the cards held, in the order they came; empty once laid out after a knock.
	Hands [][]sdk.Card `json:"hands"`
	// Stock is the draw pile, top first.
	Stock []sdk.Card `json:"stock"`
	// Pile is the discard pile, bottom first: its last card is the top. Every card in it was
	// discarded face up, so all of it is public.
	Pile []sdk.Card `json:"pile"`
	// Out holds cards a scenario deal put out of play (rest: out).
	Out []sdk.Card `json:"out,omitempty"`
	// Known are, per seat, the cards it took from the discard pile and still holds: both players
	// know them (GR-10).
	Known [][]sdk.Card `json:"known"`
	// Shed are, per seat, the cards it discarded face up this hand, in order (nil before the
	// first): public, as both players saw them go (GR-10); the bots' History.
	Shed [][]sdk.Card `json:"shed,omitempty"`

	// Melds and Dead are, per seat, the hand laid out after a knock (GR-6, GR-11): the melds in the
	// order of their lowest card, each in rank order (a meld keeps its index as cards are laid off
	// onto it), and the deadwood left.
	Melds [][][]sdk.Card `json:"melds,omitempty"`
	Dead  [][]sdk.Card   `json:"dead,omitempty"`
	// KnockCard is the card the knocker discarded face down (0 for none): the knocker sees it, the
	// others once the hand is over.
	KnockCard sdk.Card `json:"knock_card,omitempty"`
	// Knocker is the seat that knocked this hand, or sdk.NoSeat.
	Knocker int `json:"knocker"`
	// Gin is "", "gin" or "big gin": how the knocker went out.
	Gin string `json:"gin,omitempty"`

	Dealer int    `json:"dealer"`
	Turn   int    `json:"turn"`
	Stage  string `json:"stage"`
	// Passes counts the upcard's refusals (GR-4): 1 after the non-dealer's, 2 after both.
	Passes int `json:"passes,omitempty"`
	// Drawn is true once the seat in turn has drawn: it must now discard or knock.
	Drawn bool `json:"drawn,omitempty"`
	// MustStock is true when both players passed on the upcard: the non-dealer draws from the
	// stock (GR-4).
	MustStock bool `json:"must_stock,omitempty"`
	// Taken is the card the seat in turn took from the discard pile this turn: it may not be
	// discarded in the same turn (GR-5).
	Taken sdk.Card `json:"taken,omitempty"`
	// Void is true when the last hand ended void (GR-8): the same dealer deals again.
	Void bool `json:"void,omitempty"`

	Phase  string `json:"phase"`
	Winner int    `json:"winner"`
	// Scores are the game's totals per seat (with the bonuses once the game is over); HandsWon the
	// hands each seat won this game (GR-9).
	Scores   []int          `json:"scores"`
	HandsWon []int          `json:"hands_won"`
	Rows     []sdk.ScoreRow `json:"rows,omitempty"`
	// Hand counts this game's hands from 1; Game counts games from 1.
	Hand int     `json:"hand"`
	Game int     `json:"game"`
	RNG  sdk.RNG `json:"rng"`
}

func (s *State) clone() *State {
	c := *s
	c.Hands = cloneRows(s.Hands)
	c.Known = cloneRows(s.Known)
	c.Shed = cloneRows(s.Shed)
	c.Dead = cloneRows(s.Dead)
	if s.Melds != nil {
		c.Melds = make([][][]sdk.Card, len(s.Melds))
		for i, ms := range s.Melds {
			c.Melds[i] = cloneRows(ms)
		}
	}
	c.Stock = slices.Clone(s.Stock)
	c.Pile = slices.Clone(s.Pile)
	c.Out = slices.Clone(s.Out)
	c.Scores = slices.Clone(s.Scores)
	c.HandsWon = slices.Clone(s.HandsWon)
	c.Rows = slices.Clone(s.Rows) // rows are never written to once added
	c.RNG = s.RNG.Clone()
	return &c
}

func cloneRows(rows [][]sdk.Card) [][]sdk.Card {
	if rows == nil {
		return nil
	}
	out := make([][]sdk.Card, len(rows))
	for i, r := range rows {
		out[i] = slices.Clone(r)
	}
	return out
}

// top is the top card of the discard pile, or 0.
func (s *State) top() sdk.Card {
	if len(s.Pile) == 0 {
		return 0
	}
	return s.Pile[len(s.Pile)-1]
}

func (s *State) playing() bool { return s.Phase == sdk.PhasePlaying }

// laidOut reports whether the hands are laid out (after a knock).
func (s *State) laidOut() bool { return s.Melds != nil }

// nonDealer is the seat that acts first in the hand (GR-1).
func (s *State) nonDealer() int { return 1 - s.Dealer }

// knockShown reports whether viewer sees the knock card: the knocker does, and everyone once the
// hand is over.
func (s *State) knockShown(viewer int) bool {
	return viewer == s.Knocker || !s.playing()
}

// Cards returns every card of the game: hands, melds and deadwood laid out, the knock card, the
// stock, the pile and cards out of play.
func (r *Rules) Cards(s *State) []sdk.Card {
	out := make([]sdk.Card, 0, 52)
	for _, h := range s.Hands {
		out = append(out, h...)
	}
	for _, ms := range s.Melds {
		for _, m := range ms {
			out = append(out, m...)
		}
	}
	for _, d := range s.Dead {
		out = append(out, d...)
	}
	if s.KnockCard != 0 {
		out = append(out, s.KnockCard)
	}
	out = append(out, s.Stock...)
	out = append(out, s.Pile...)
	return append(out, s.Out...)
}

// Status is the phase, the seat in turn (NoSeat when the hand is over), the hand's or the game's
// winner, the hand number as Round and the one actor, the seat in turn. Gin Rummy has no
// deadlines.
func (r *Rules) Status(s *State) sdk.Status {
	st := sdk.Status{Phase: s.Phase, Seats: Seats, Turn: sdk.NoSeat, Winner: s.Winner, Round: s.Hand}
	if s.playing() {
		st.Turn = s.Turn
		st.Actors = []int{s.Turn}
	}
	return st
}

// meldsOf is seat's melds and deadwood: as laid out after a knock, else its hand's best
// arrangement.
func (s *State) meldsOf(seat int) ([][]sdk.Card, []sdk.Card) {
	if s.laidOut() {
		return s.Melds[seat], s.Dead[seat]
	}
	return Arrange(s.Hands[seat])
}

// Observe returns the scenario observation: the generic keys of SCENARIOS.md and those of its
// "Tricks, bids and melds" section Gin Rummy has: stage, dealer, melds.N, deadwood, hands_won,
// scores.
func (r *Rules) Observe(s *State) sdk.Observation {
	hands := make([][]string, Seats)
	counts := make([]int, Seats)
	dead := make([]int, Seats)
	o := sdk.Observation{
		"turn": nil, "top": nil, "winner": nil, "phase": s.Phase,
		"pile": sdk.CardStrings(s.Pile), "pile_count": len(s.Pile), "deck_count": len(s.Stock),
		"stage": s.Stage, "dealer": s.Dealer,
		"scores": slices.Clone(s.Scores), "hands_won": slices.Clone(s.HandsWon),
	}
	for seat := range Seats {
		hands[seat] = sdk.CardStrings(s.Hands[seat])
		counts[seat] = len(s.Hands[seat])
		melds, d := s.meldsOf(seat)
		rows := make([][]string, len(melds))
		for i, m := range melds {
			rows[i] = sdk.CardStrings(m)
		}
		o["melds."+strconv.Itoa(seat)] = rows
		dead[seat] = Points(d)
	}
	o["hands"], o["hand_count"], o["deadwood"] = hands, counts, dead
	if s.playing() {
		o["turn"] = s.Turn
	}
	if t := s.top(); t != 0 {
		o["top"] = t.String()
	}
	if s.Winner != sdk.NoSeat {
		o["winner"] = s.Winner
	}
	return o
}
