package hearts

import (
	"slices"

	"cardhouse/sdk"
)

// Stages of a hand, as the scenario key `stage` names them.
const (
	StagePass = "pass"
	StagePlay = "play"
)

// Pass directions, as the scenario key `pass_direction` names them (HE-3).
const (
	PassLeft   = "left"
	PassRight  = "right"
	PassAcross = "across"
	PassNone   = "none"
)

// Moon scoring choices of the option `moon` (HE-8).
const (
	MoonAdd      = "add"
	MoonSubtract = "subtract"
)

// Seats is the only table size Hearts is played at (HE-1).
const Seats = 4

// HandSize is the cards each seat is dealt (HE-1).
const HandSize = 13

// PassSize is how many cards each seat passes (HE-3).
const PassSize = 3

// MoonPoints is what a shot moon is worth: every heart and the queen of spades (HE-8).
const MoonPoints = 26

var (
	twoClubs    = sdk.French(2, sdk.Clubs)
	queenSpades = sdk.French(12, sdk.Spades)
)

// Play is one card played to a trick by Seat: the SDK's trick play (its JSON, {"seat","card"}, is
// the state's).
type Play = sdk.TrickPlay

// trickRules take tricks: no trumps, the highest card of the suit led, aces high (HE-2, HE-6).
var trickRules = sdk.TrickRules{}

// Row is one hand's line of the score sheet: what each seat scored and who shot the moon.
type Row struct {
	Cells []int `json:"cells"`
	// Moon is the seat that shot the moon this hand, or sdk.NoSeat.
	Moon int `json:"moon"`
}

// State is a Hearts game. Every field is public: the host stores it as JSON.
type State struct {
	// Settings (the options, HE-3, HE-8, HE-9).
	Passing bool   `json:"passing"`
	Moon    string `json:"moon"`
	Target  int    `json:"target"`

	// Games counts the games finished before this one; Hand numbers this game's hands from 1.
	Games int `json:"games"`
	Hand  int `json:"hand"`
	// Phase is sdk.PhasePlaying, sdk.PhaseRoundOver (a hand is over) or sdk.PhaseGameOver.
	Phase string `json:"phase"`
	// Stage is StagePass or StagePlay while a hand is played.
	Stage string `json:"stage"`

	Hands [][]sdk.Card `json:"hands"`
	// Chosen are the cards each seat has chosen to pass, in its passing zone until every seat has
	// chosen (nil: not chosen yet).
	Chosen [][]sdk.Card `json:"chosen"`
	// Passed are the cards each seat passed this hand, kept after the pass for the seat's own
	// history (nil before the pass, or in a hand without one).
	Passed [][]sdk.Card `json:"passed"`
	// Out holds cards a scenario's deal left out of play.
	Out []sdk.Card `json:"out,omitempty"`

	// Leader led the current trick; Trick is its plays so far.
	Leader int    `json:"leader"`
	Trick  []Play `json:"trick"`
	// Played is every play of this hand's finished tricks, four per trick in order; Takers the
	// seat that took each of them.
	Played []Play `json:"played"`
	Takers []int  `json:"takers"`
	// Broken says a heart has been played this hand (HE-7).
	Broken bool `json:"broken"`
	Turn   int  `json:"turn"`
	// Opener leads the first trick when no hand holds the 2♣ (a scenario's deal, HE-4).
	Opener int `json:"opener"`

	Scores []int `json:"scores"`
	Sheet  []Row `json:"sheet"`
	// Winner is the first of Winners, the seats sharing the lowest total when the game is over.
	Winner  int   `json:"winner"`
	Winners []int `json:"winners,omitempty"`

	RNG sdk.RNG `json:"rng"`
	// Simulated marks a search bot's sampled world: it skips what only a real game needs.
	Simulated bool `json:"simulated,omitempty"`
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

func (s *State) clone() *State {
	c := *s
	c.Hands = cloneRows(s.Hands)
	c.Chosen = cloneRows(s.Chosen)
	c.Passed = cloneRows(s.Passed)
	c.Out = slices.Clone(s.Out)
	c.Trick = slices.Clone(s.Trick)
	c.Played = slices.Clone(s.Played)
	c.Takers = slices.Clone(s.Takers)
	c.Scores = slices.Clone(s.Scores)
	c.Sheet = slices.Clone(s.Sheet)
	c.Winners = slices.Clone(s.Winners)
	c.RNG = s.RNG.Clone()
	return &c
}

// over reports whether no hand is being played.
func (s *State) over() bool { return s.Phase != sdk.PhasePlaying }

// passDirection is this hand's pass (HE-3): left, right, across, none, then again.
func (s *State) passDirection() string {
	if !s.Passing {
		return PassNone
	}
	return passCycle[(s.Hand-1+4)%4]
}

var passCycle = [4]string{PassLeft, PassRight, PassAcross, PassNone}

// passWords says a pass direction in player words.
var passWords = map[string]string{PassLeft: "to the left", PassRight: "to the right", PassAcross: "across", PassNone: "no pass"}

// receiver is the seat that gets seat's passed cards in direction dir.
func receiver(seat int, dir string) int {
	switch dir {
	case PassLeft:
		return (seat + 1) % Seats
	case PassRight:
		return (seat + Seats - 1) % Seats
	case PassAcross:
		return (seat + 2) % Seats
	}
	return seat
}

// firstTrick reports whether the trick being played is the hand's first.
func (s *State) firstTrick() bool { return len(s.Played) == 0 }

// isPoint reports whether c scores: a heart or the queen of spades (HE-8).
func isPoint(c sdk.Card) bool { return c.Suit() == sdk.Hearts || c == queenSpades }

// cardPoints is what c is worth to its taker (HE-8).
func cardPoints(c sdk.Card) int {
	switch {
	case c == queenSpades:
		return 13
	case c.Suit() == sdk.Hearts:
		return 1
	}
	return 0
}

// rank orders cards within a suit: 2 low, Ace high (HE-2).
func rank(c sdk.Card) int { return sdk.AceHigh(c) }

// Legal lists the cards seat may play now (HE-4, HE-5, HE-7), in hand order; nil when seat is not
// to play.
func (s *State) Legal(seat int) []sdk.Card {
	if s.over() || s.Stage != StagePlay || seat != s.Turn {
		return nil
	}
	return legalCards(s.Hands[seat], s.Trick, s.firstTrick(), s.Broken)
}

// legalCards is the rule of play on its own, for the ruleset and for bots reading a view: hand
// is the player's hand, trick the plays so far, first whether it is the hand's first trick,
// broken whether hearts are broken.
func legalCards(hand []sdk.Card, trick []Play, first, broken bool) []sdk.Card {
	keep := func(cards []sdk.Card, ok func(sdk.Card) bool) []sdk.Card {
		var out []sdk.Card
		for _, c := range cards {
			if ok(c) {
				out = append(out, c)
			}
		}
		if len(out) == 0 {
			return cards // the hand holds nothing else
		}
		return out
	}
	if len(trick) == 0 {
		if first && slices.Contains(hand, twoClubs) {
			return []sdk.Card{twoClubs} // HE-4
		}
		out := slices.Clone(hand)
		if first {
			out = keep(out, func(c sdk.Card) bool { return !isPoint(c) }) // HE-5 (HR-2)
		}
		if !broken {
			out = keep(out, func(c sdk.Card) bool { return c.Suit() != sdk.Hearts }) // HE-7
		}
		return out
	}
	if follow := sdk.Following(hand, sdk.Led(trick)); len(follow) > 0 {
		return follow // HE-5: follow suit (HR-1)
	}
	if first {
		return keep(slices.Clone(hand), func(c sdk.Card) bool { return !isPoint(c) }) // HE-5
	}
	return slices.Clone(hand)
}

// trickTaker is the seat whose card takes trick: the highest of the suit led (HE-6).
func trickTaker(trick []Play) int { return trickRules.Winning(trick).Seat }

// Taken returns the cards each seat has taken in this hand's finished tricks.
func (s *State) Taken() [][]sdk.Card {
	out := make([][]sdk.Card, Seats)
	for t, taker := range s.Takers {
		for _, p := range s.Played[4*t : 4*t+4] {
			out[taker] = append(out[taker], p.Card)
		}
	}
	return out
}

// Points returns the points each seat has taken this hand (HE-8: hearts and the queen of spades).
func (s *State) Points() []int {
	out := make([]int, Seats)
	for t, taker := range s.Takers {
		for _, p := range s.Played[4*t : 4*t+4] {
			out[taker] += cardPoints(p.Card)
		}
	}
	return out
}

// TricksTaken returns how many tricks each seat has taken this hand.
func (s *State) TricksTaken() []int { return sdk.TricksTaken(Seats, s.Takers) }

// ScoreHand is HE-8's scoring of one hand from the cards each seat took: the points each seat
// scores and the seat that shot the moon (sdk.NoSeat when nobody did). A seat shoots the moon only
// by taking every heart and the queen of spades itself; every other seat scores as it would
// without the shot, moon rule aside, whatever its place at the table.
func ScoreHand(taken [][]sdk.Card, moon string) (scores []int, shooter int) {
	scores = make([]int, len(taken))
	shooter = sdk.NoSeat
	for seat, cards := range taken {
		hearts, queen := 0, false
		for _, c := range cards {
			scores[seat] += cardPoints(c)
			if c.Suit() == sdk.Hearts {
				hearts++
			}
			queen = queen || c == queenSpades
		}
		if hearts == 13 && queen {
			shooter = seat
		}
	}
	if shooter == sdk.NoSeat {
		return scores, shooter
	}
	for seat := range scores {
		switch {
		case moon == MoonSubtract && seat == shooter:
			scores[seat] = -MoonPoints
		case moon == MoonSubtract:
			scores[seat] = 0
		case seat == shooter:
			scores[seat] = 0
		default:
			scores[seat] = MoonPoints
		}
	}
	return scores, shooter
}

// lowest returns the seats whose total is lowest, in seat order (HE-9).
func lowest(scores []int) []int {
	m := slices.Min(scores)
	var out []int
	for seat, v := range scores {
		if v == m {
			out = append(out, seat)
		}
	}
	return out
}

// holder is the seat holding c, or sdk.NoSeat.
func (s *State) holder(c sdk.Card) int {
	for seat, h := range s.Hands {
		if slices.Contains(h, c) {
			return seat
		}
	}
	return sdk.NoSeat
}
