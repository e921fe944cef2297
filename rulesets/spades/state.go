package spades

import (
	"slices"

	"cardhouse/sdk"
)

// Stages of a hand, as the scenario key `stage` names them.
const (
	StageBid  = "bid"
	StagePlay = "play"
)

// Bids that are not a number of tricks, as Action.Args["choice"] and the scenario key `bids`
// spell them. A bid of "0" is taken as BidNil.
const (
	BidNil      = "nil"
	BidBlindNil = "blind_nil"
)

// Codes of this ruleset's refusals.
const (
	codeWrongStage = "wrong_stage"
	codeBadBid     = "bad_bid"
	codeFollow     = "must_follow"
	codeSpades     = "spades_not_broken"
)

// Bid values kept in State.Bids: a number of tricks 1..13, or one of these.
const (
	noBid       = -1
	bidNil      = 0
	bidBlindNil = -2
)

// Play is one card played to a trick: the SDK's trick play (its JSON, {"seat","card"}, is the
// state's).
type Play = sdk.TrickPlay

// trickRules take tricks: spades are trumps, aces high (SP-3, SP-5).
var trickRules = sdk.TrickRules{Trump: sdk.Spades}

// Trick is a trick of this hand: its leader, the cards in the order played, and its taker
// (NoSeat while it is played).
type Trick struct {
	Leader int    `json:"leader"`
	Plays  []Play `json:"plays"`
	Winner int    `json:"winner"`
}

// HandScore is one hand's line of the score sheet: what each team scored and why.
type HandScore struct {
	Points [2]int    `json:"points"`
	Notes  [2]string `json:"notes"`
}

// State is one game of Spades: plain data, JSON-encodable. Apply never changes a State it is
// given; it works on a clone.
type State struct {
	Target   int  `json:"target"`
	Mercy    bool `json:"mercy"`
	BlindNil bool `json:"blind_nil"`

	// Hands are the cards each seat holds.
	Hands [][]sdk.Card `json:"hands"`
	// Done are this hand's taken tricks in order; Cur the trick being played (nil between tricks).
	Done []Trick `json:"done,omitempty"`
	Cur  *Trick  `json:"cur,omitempty"`
	// Out holds cards a scenario deal put out of play (rest: out).
	Out []sdk.Card `json:"out,omitempty"`

	Stage  string `json:"stage"`
	Dealer int    `json:"dealer"`
	Turn   int    `json:"turn"`
	// Bids per seat (noBid before it bids; bidNil, bidBlindNil or 1..13).
	Bids []int `json:"bids"`
	// Looked per seat: whether the seat has seen its cards this hand (blind nil, SP-2).
	Looked []bool `json:"looked"`
	// Broken is true once a spade has been played this hand (SP-4).
	Broken bool `json:"broken,omitempty"`

	// Scores and Bags per team (team 0 is seats 0 and 2).
	Scores [2]int `json:"scores"`
	Bags   [2]int `json:"bags"`
	// Sheet is every scored hand of this game.
	Sheet []HandScore `json:"sheet,omitempty"`

	Phase  string `json:"phase"`
	Winner int    `json:"winner"`
	// FirstDealer is the dealer of this game's first hand; Game counts games from 1.
	FirstDealer int     `json:"first_dealer"`
	Game        int     `json:"game"`
	RNG         sdk.RNG `json:"rng"`
	// Simulated marks a world a search bot sampled: nothing of it is stored.
	Simulated bool `json:"-"`
}

func (s *State) clone() *State {
	c := *s
	c.Hands = make([][]sdk.Card, len(s.Hands))
	for i, h := range s.Hands {
		c.Hands[i] = slices.Clone(h)
	}
	c.Done = slices.Clone(s.Done) // tricks of Done are never written to once taken
	if s.Cur != nil {
		t := *s.Cur
		t.Plays = slices.Clone(s.Cur.Plays)
		c.Cur = &t
	}
	c.Out = slices.Clone(s.Out)
	c.Bids = slices.Clone(s.Bids)
	c.Looked = slices.Clone(s.Looked)
	c.Sheet = slices.Clone(s.Sheet)
	c.RNG = s.RNG.Clone()
	return &c
}

// team is seat's partnership: 0 for seats 0 and 2, 1 for seats 1 and 3 (SP-1).
func team(seat int) int { return seat % 2 }

// power is a card's rank for taking tricks: 2 low, Ace high (SP-3).
func power(c sdk.Card) int { return sdk.AceHigh(c) }

// beats reports whether card c wins over best in a trick led with suit led (SP-5).
func beats(c, best sdk.Card, led sdk.Suit) bool { return trickRules.Beats(c, best, led) }

// winning is the seat and card winning trick t so far.
func (t *Trick) winning() (int, sdk.Card) {
	best := trickRules.Winning(t.Plays)
	return best.Seat, best.Card
}

// tricks counts the tricks seat has taken this hand.
func (s *State) tricks(seat int) int {
	n := 0
	for _, t := range s.Done {
		if t.Winner == seat {
			n++
		}
	}
	return n
}

// led is the suit led in the trick being played, or 0.
func (s *State) led() sdk.Suit {
	if s.Cur == nil {
		return 0
	}
	return sdk.Led(s.Cur.Plays)
}

// legal says whether seat may play c now (it holds it), and why not (SP-3, SP-4).
func (s *State) legal(seat int, c sdk.Card) (bool, string, string) {
	hand := s.Hands[seat]
	if !slices.Contains(hand, c) {
		return false, sdk.CodeNotHeld, "you do not hold " + c.String()
	}
	if led := s.led(); led != 0 {
		if !sdk.FollowsSuit(hand, led, c) {
			return false, codeFollow, "you must follow suit: " + suitName(led) + " were led"
		}
		return true, "", ""
	}
	if c.Suit() == sdk.Spades && !s.Broken && slices.ContainsFunc(hand, func(d sdk.Card) bool { return d.Suit() != sdk.Spades }) {
		return false, codeSpades, "spades may not be led until a spade has been played (spades are not broken)"
	}
	return true, "", ""
}

// legalCards lists the cards seat may play now, in hand order.
func (s *State) legalCards(seat int) []sdk.Card {
	var out []sdk.Card
	for _, c := range s.Hands[seat] {
		if ok, _, _ := s.legal(seat, c); ok {
			out = append(out, c)
		}
	}
	return out
}

// suitName is a suit in words, plural.
func suitName(su sdk.Suit) string {
	switch su {
	case sdk.Spades:
		return "spades"
	case sdk.Hearts:
		return "hearts"
	case sdk.Diamonds:
		return "diamonds"
	case sdk.Clubs:
		return "clubs"
	}
	return "cards"
}

// bidCode is a bid as the scenario key `bids` and the events spell it.
func bidCode(b int) any {
	switch b {
	case noBid:
		return nil
	case bidNil:
		return BidNil
	case bidBlindNil:
		return BidBlindNil
	}
	return b
}

// bidWords is a bid as the table shows it ("4", "Nil", "Blind nil"), "" before it is made.
func bidWords(b int) string {
	switch b {
	case noBid:
		return ""
	case bidNil:
		return "Nil"
	case bidBlindNil:
		return "Blind nil"
	}
	return itoa(b)
}

// contract is team tm's contract: the sum of its seats' number bids (nil bids count nothing).
func (s *State) contract(tm int) int {
	n := 0
	for seat := tm; seat < 4; seat += 2 {
		if s.Bids[seat] > 0 {
			n += s.Bids[seat]
		}
	}
	return n
}

// teamTricks are the tricks team tm took this hand toward its contract (its nil bidders' aside).
func (s *State) teamTricks(tm int) int {
	n := 0
	for seat := tm; seat < 4; seat += 2 {
		if s.Bids[seat] > 0 || s.Bids[seat] == noBid {
			n += s.tricks(seat)
		}
	}
	return n
}

// biddingDone reports whether every seat has bid.
func (s *State) biddingDone() bool { return !slices.Contains(s.Bids, noBid) }

// over reports whether the hand (or the game) is over: no decision is left in it.
func (s *State) over() bool { return s.Phase != sdk.PhasePlaying }
