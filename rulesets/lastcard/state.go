package lastcard

import (
	"slices"

	"cardhouse/sdk"
)

// Penalty kinds: what a pending penalty came from decides what may answer it (L-4).
const (
	kindDrawTwo  = "draw_two"
	kindDrawFour = "draw_four"
)

// logLimit bounds the log of a round kept in the state for Historian: long enough for a bot to
// remember most rounds whole (a draw or a play makes one or two logged events), short enough that
// the state blob stays small (about 5 KB of log when full).
const logLimit = 256

// Settings are a game's validated options, kept in the state so that every step reads them
// without the host passing them again.
type Settings struct {
	// StackDrawTwo lets a player facing a Draw Two answer with a Draw Two (L-4).
	StackDrawTwo bool `json:"stack_draw_two"`
	// DrawFour is "no_colour_match" or "any_time" (L-5).
	DrawFour string `json:"draw_four"`
	// LastCardMode is "catch" or "auto" (L-8).
	LastCardMode string `json:"last_card_mode"`
	// Target is "500", "200" or "single" (L-9).
	Target string `json:"target"`
}

// State is a game of Last Card: plain data, JSON-encodable (cards as codes), holding the RNG every
// random draw comes from. Apply never modifies a State it is given; it works on a clone.
type State struct {
	Settings Settings `json:"settings"`
	RNG      sdk.RNG  `json:"rng"`
	// Phase is sdk.PhasePlaying, sdk.PhaseRoundOver or sdk.PhaseGameOver.
	Phase string `json:"phase"`
	// Round counts the rounds of this game from 1.
	Round int `json:"round"`
	// Opener is the seat that opened this round (L-10).
	Opener int `json:"opener"`
	// Hands holds every seat's cards; a drawn card goes to the end.
	Hands [][]sdk.Card `json:"hands"`
	// Pile is the discard pile, bottom first: its last card is the top.
	Pile []sdk.Card `json:"pile"`
	// Deck is the draw pile, top first.
	Deck []sdk.Card `json:"deck"`
	// Out holds cards out of play (a scenario deal with rest: out).
	Out []sdk.Card `json:"out,omitempty"`
	// Turn is the seat in turn while playing.
	Turn int `json:"turn"`
	// Direction is 1 (seat numbers go up) or -1.
	Direction int `json:"direction"`
	// Color is the active colour ("R", "Y", "G", "B"); "" only when a fixed deal starts the pile
	// with a Joker, and then any card matches.
	Color string `json:"color"`
	// Penalty is the number of cards pending for the seat in turn; PenaltyKind says whether a Draw
	// Two (stackable) or a Draw Four (not) set it.
	Penalty     int    `json:"penalty,omitempty"`
	PenaltyKind string `json:"penalty_kind,omitempty"`
	// Drawn is the card the seat in turn has just drawn and may still play (L-3), or nil.
	Drawn *sdk.Card `json:"drawn,omitempty"`
	// Called marks the seats that have announced "Last card!"; a draw into the hand voids it.
	Called []bool `json:"called"`
	// Exposed is the seat holding one card uncalled that an opponent may still catch (L-8, catch
	// mode): open until the next player acts. sdk.NoSeat when none.
	Exposed int `json:"exposed"`
	// Scores are this game's points per seat.
	Scores []int `json:"scores"`
	// Winner is the seat that won the round just ended (or the game), sdk.NoSeat while playing.
	Winner int `json:"winner"`
	// Log is this round's log, one encodeEvent line per event (private events kept whole and
	// filtered per seat on the way out; "turn" events left out), at most logLimit, oldest first.
	Log []string `json:"log,omitempty"`
	// logQuoted holds Log's lines as JSON strings, quoted once when logged, so that AppendState
	// does not escape the whole log again on every action. It is in step with Log when it has as
	// many lines (a decoded state has none until its next logged event: logLine fills it).
	logQuoted []string
	// Simulated marks a world a search bot sampled (sampleState): its steps keep no log, which
	// makes Apply about a fifth cheaper in the search's playouts. Never stored (json "-"); false
	// in every real game.
	Simulated bool `json:"-"`
}

// seats is the number of seats of the game.
func (s *State) seats() int { return len(s.Hands) }

// top is the top card of the pile, or 0 when the pile is empty.
func (s *State) top() sdk.Card {
	if len(s.Pile) == 0 {
		return 0
	}
	return s.Pile[len(s.Pile)-1]
}

// clone returns a deep copy: Apply works on it so that a refused action changes nothing.
func (s *State) clone() *State {
	c := *s
	c.RNG = s.RNG.Clone()
	c.Hands = make([][]sdk.Card, len(s.Hands))
	for i, h := range s.Hands {
		c.Hands[i] = slices.Clone(h)
	}
	c.Pile = slices.Clone(s.Pile)
	c.Deck = slices.Clone(s.Deck)
	c.Out = slices.Clone(s.Out)
	if s.Drawn != nil {
		d := *s.Drawn
		c.Drawn = &d
	}
	c.Called = slices.Clone(s.Called)
	c.Scores = slices.Clone(s.Scores)
	c.Log = slices.Clone(s.Log)
	c.logQuoted = slices.Clone(s.logQuoted)
	return &c
}

// logLine adds line to the round's log, keeping the newest logLimit lines and logQuoted in step.
func (s *State) logLine(line string) {
	if len(s.logQuoted) != len(s.Log) {
		s.logQuoted = make([]string, 0, len(s.Log)+1)
		for _, l := range s.Log {
			s.logQuoted = append(s.logQuoted, string(sdk.AppendJSONString(nil, l)))
		}
	}
	s.Log = append(s.Log, line)
	s.logQuoted = append(s.logQuoted, string(sdk.AppendJSONString(nil, line)))
	if over := len(s.Log) - logLimit; over > 0 {
		s.Log = slices.Delete(s.Log, 0, over)
		s.logQuoted = slices.Delete(s.logQuoted, 0, over)
	}
}

// next is the seat steps places on from seat in the direction of play.
func (s *State) next(seat, steps int) int {
	n := s.seats()
	return ((seat+s.Direction*steps)%n + n) % n
}

// allCards lists every card of the game wherever it lies.
func (s *State) allCards() []sdk.Card {
	out := make([]sdk.Card, 0, 108)
	for _, h := range s.Hands {
		out = append(out, h...)
	}
	out = append(out, s.Pile...)
	out = append(out, s.Deck...)
	return append(out, s.Out...)
}

// isJoker reports whether c is one of Last Card's Jokers.
func isJoker(c sdk.Card) bool { return c == sdk.Wild || c == sdk.WildDrawFour }

// isNumber reports whether c is a digit card (L-2: only these start the pile).
func isNumber(c sdk.Card) bool { v := c.Value(); return v >= 0 && v <= 9 }

// isSpecial reports whether c has an effect: Skip, Reverse, Draw Two or a Joker.
func isSpecial(c sdk.Card) bool { return c.IsColorCard() && !isNumber(c) }

// Points is what card c scores for the round's winner when left in an opponent's hand (L-9):
// digits at face value, 20 for Skip, Reverse and Draw Two, 40 for a Joker, 60 for a Joker Draw Four.
func Points(c sdk.Card) int {
	switch {
	case c == sdk.WildDrawFour:
		return 60
	case c == sdk.Wild:
		return 40
	case isNumber(c):
		return c.Value()
	case c.IsColorCard():
		return 20
	}
	return 0
}

// validColor reports whether name is one of the four colour codes.
func validColor(name string) bool {
	return name == "R" || name == "Y" || name == "G" || name == "B"
}

// colorName is the colour's name for messages.
func colorName(code string) string {
	switch code {
	case "R":
		return "red"
	case "Y":
		return "yellow"
	case "G":
		return "green"
	case "B":
		return "blue"
	}
	return "any colour"
}

// matches reports whether c may go on the pile by colour, value or as a Joker, leaving aside the
// Draw Four's condition on the hand and pending penalties.
func (s *State) matches(c sdk.Card) bool {
	if isJoker(c) || s.Color == "" {
		return true
	}
	if string(rune(c.Color())) == s.Color {
		return true
	}
	top := s.top()
	return !isJoker(top) && top != 0 && c.Value() == top.Value()
}

// holdsColor reports whether hand holds a card of the active colour.
func (s *State) holdsColor(hand []sdk.Card) bool {
	for _, c := range hand {
		if !isJoker(c) && string(rune(c.Color())) == s.Color {
			return true
		}
	}
	return false
}

// playable reports whether the seat holding hand may play c now, penalties included (L-4, L-5).
func (s *State) playable(c sdk.Card, hand []sdk.Card) bool {
	if s.Penalty > 0 {
		return s.PenaltyKind == kindDrawTwo && s.Settings.StackDrawTwo && c.Value() == sdk.ValueDrawTwo
	}
	if c == sdk.WildDrawFour && s.Settings.DrawFour != drawFourAnyTime && s.Color != "" && s.holdsColor(hand) {
		return false
	}
	return s.matches(c)
}

// playableCards lists the distinct cards of the seat in turn that may be played now, in hand order.
func (s *State) playableCards() []sdk.Card {
	hand := s.Hands[s.Turn]
	if s.Drawn != nil {
		return []sdk.Card{*s.Drawn}
	}
	var out []sdk.Card
	for _, c := range hand {
		if !slices.Contains(out, c) && s.playable(c, hand) {
			out = append(out, c)
		}
	}
	return out
}
