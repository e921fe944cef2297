package sdk

// Trick-taking: the mechanics every trick game shares (Hearts, Spades), for a ruleset to build its
// own rules on. A trick being played is its plays in order, a []TrickPlay whose first play led it;
// a ruleset keeps its tricks in its state as suits it (TrickPlay encodes as {"seat":0,"card":"2C"},
// so a state's own play type with those two fields may become an alias of it without changing
// the stored JSON). What varies between games stays the ruleset's: what may be led, which cards
// score, who leads first.

// AceHigh ranks a French card for taking tricks: 2 low, then 3 to King (13), Ace highest (14).
func AceHigh(c Card) int {
	if r := c.Rank(); r != 1 {
		return r
	}
	return 14
}

// TrickRules say which card takes a trick: the highest trump when any was played, else the highest
// card of the suit led; a card of any other suit never takes it. The zero value is "no trumps,
// aces high" (Hearts); Spades is TrickRules{Trump: Spades}.
type TrickRules struct {
	// Trump is the trump suit; 0 for none.
	Trump Suit
	// Rank orders the cards of one suit, higher taking; nil is AceHigh.
	Rank func(Card) int
}

// Beats reports whether c, played to a trick whose suit led is led, takes it from best, the card
// taking it so far (itself of the suit led or a trump).
func (r TrickRules) Beats(c, best Card, led Suit) bool {
	switch {
	case c.Suit() == best.Suit():
		return r.rank(c) > r.rank(best)
	case r.Trump != 0 && c.Suit() == r.Trump:
		return true
	case r.Trump != 0 && best.Suit() == r.Trump:
		return false
	default:
		return c.Suit() == led && best.Suit() != led
	}
}

// Winning returns the play taking plays so far: the trick's winner once every seat has played.
// For no plays it returns TrickPlay{Seat: NoSeat}.
func (r TrickRules) Winning(plays []TrickPlay) TrickPlay {
	if len(plays) == 0 {
		return TrickPlay{Seat: NoSeat}
	}
	best := plays[0]
	led := best.Card.Suit()
	for _, p := range plays[1:] {
		if r.Beats(p.Card, best.Card, led) {
			best = p
		}
	}
	return best
}

func (r TrickRules) rank(c Card) int {
	if r.Rank == nil {
		return AceHigh(c)
	}
	return r.Rank(c)
}

// Led returns the suit led to a trick: its first card's suit, 0 while nothing is played.
func Led(plays []TrickPlay) Suit {
	if len(plays) == 0 {
		return 0
	}
	return plays[0].Card.Suit()
}

// Following returns the cards of hand of suit led, in hand order: the cards a seat must choose
// from when it holds any. nil when it holds none (or led is 0: nothing to follow).
func Following(hand []Card, led Suit) []Card {
	if led == 0 {
		return nil
	}
	var out []Card
	for _, c := range hand {
		if c.Suit() == led {
			out = append(out, c)
		}
	}
	return out
}

// FollowsSuit reports whether playing c from hand keeps the rule to follow suit: nothing is led
// (led is 0), c is of the suit led, or hand holds no card of it. It does not check that hand holds c.
func FollowsSuit(hand []Card, led Suit, c Card) bool {
	if led == 0 || c.Suit() == led {
		return true
	}
	for _, h := range hand {
		if h.Suit() == led {
			return false
		}
	}
	return true
}

// TrickView returns a trick as a View shows it (View.Trick, View.LastTrick): its leader, a copy of
// its plays (empty, never nil: a view holds no null) and its winner, unless winner is NoSeat (a
// trick still being played).
func TrickView(leader int, plays []TrickPlay, winner int) *Trick {
	t := &Trick{Leader: leader, Plays: append(make([]TrickPlay, 0, len(plays)), plays...)}
	if winner != NoSeat {
		t.Winner = &winner
	}
	return t
}

// TricksTaken counts the tricks each of seats seats has taken, given the seat that took each
// trick (in any order).
func TricksTaken(seats int, takers []int) []int {
	out := make([]int, seats)
	for _, t := range takers {
		out[t]++
	}
	return out
}
