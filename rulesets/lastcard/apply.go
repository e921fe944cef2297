package lastcard

import (
	"slices"
	"strconv"

	"cardhouse/sdk"
)

// Refusal codes of Last Card, besides the SDK's own (not_your_turn, not_held, bad_action, ...).
const (
	CodeNoMatch        = "no_match"
	CodeWrongCount     = "wrong_count"
	CodeNoColor        = "no_color"
	CodeDrawFourColour = "draw_four_colour"
	CodePenalty        = "penalty_pending"
	CodeMustPlayDrawn  = "must_play_drawn"
	CodeAlreadyDrew    = "already_drew"
	CodeCannotPass     = "cannot_pass"
	CodeCannotCall     = "cannot_call"
	CodeCannotCatch    = "cannot_catch"
	CodeRoundOver      = "round_over"
	CodeNotOver        = "not_over"
	CodeNoDeadline     = "no_deadline"
)

// ArgCall is the Action.Args key that announces "Last card!" with a play (value "true"): the
// "with the action" of L-8, one action instead of a call then a play.
const ArgCall = "call"

// turn is one action being applied to a cloned state, with the events it produces.
type turn struct {
	s      *State
	events []sdk.Event
}

// emit records an event for the step and the round's log.
func (t *turn) emit(e sdk.Event) {
	t.events = append(t.events, e)
	if !logged(e) || t.s.Simulated {
		return
	}
	t.s.logLine(encodeEvent(e))
}

// apply dispatches an action. Checks come before changes where it reads easily; a refusal after
// a change is harmless too, because the clone is thrown away.
func (t *turn) apply(a sdk.Action) error {
	s := t.s
	switch a.Type {
	case sdk.ActDeal:
		if a.Seat != sdk.Host {
			return sdk.Refuse(sdk.CodeBadAction, "only the host deals")
		}
		return t.deal()
	case sdk.ActDeadline:
		return sdk.Refuse(CodeNoDeadline, "Last Card sets no deadlines: nothing is due (deadline %q)", a.Deadline)
	}
	if a.Seat < 0 || a.Seat >= s.seats() {
		return sdk.Refuse(sdk.CodeBadAction, "%s: no seat %d in this %d-seat game", a.Type, a.Seat, s.seats())
	}
	switch s.Phase {
	case sdk.PhaseGameOver:
		return sdk.Refuse(sdk.CodeGameOver, "the game is over: the host deals a new game")
	case sdk.PhaseRoundOver:
		return sdk.Refuse(CodeRoundOver, "the round is over: the host deals the next round")
	}
	switch a.Type {
	case sdk.ActPlay:
		return t.play(a, a.Args[ArgCall] == "true")
	case sdk.ActDraw:
		return t.draw(a)
	case sdk.ActPass:
		return t.pass(a)
	case sdk.ActCall:
		return t.call(a)
	case sdk.ActCatch:
		return t.catch(a)
	}
	return sdk.Refuse(sdk.CodeBadAction, "unknown action %q: Last Card knows play, draw, pass, call and catch", a.Type)
}

// inTurn refuses an action of a seat not in turn.
func (t *turn) inTurn(a sdk.Action) error {
	if a.Seat != t.s.Turn {
		return sdk.Refuse(sdk.CodeNotYourTurn, "%s: it is seat %d's turn, not seat %d's", a.Type, t.s.Turn, a.Seat)
	}
	return nil
}

// checkCall refuses a "Last card!" that does not come with two cards in hand (L-8).
func (t *turn) checkCall(seat int) error {
	s := t.s
	switch n := len(s.Hands[seat]); {
	case s.Called[seat]:
		return sdk.Refuse(CodeCannotCall, "you have already called \"Last card!\"")
	case n == 1:
		return sdk.RefuseUnder("L-8", CodeCannotCall, "too late: \"Last card!\" is called before or with the play that leaves one card")
	case n != 2:
		return sdk.Refuse(CodeCannotCall, "you hold %d cards: \"Last card!\" is called with two cards, before or with playing the second-to-last", n)
	}
	return nil
}

// announce records the call of seat.
func (t *turn) announce(seat int) {
	t.s.Called[seat] = true
	t.emit(sdk.Event{Name: "last_card", Seat: seat})
}

// play lays one card (L-3..L-7); withCall announces "Last card!" with it (L-8).
func (t *turn) play(a sdk.Action, withCall bool) error {
	s := t.s
	if err := t.inTurn(a); err != nil {
		return err
	}
	if len(a.Cards) != 1 {
		return sdk.Refuse(CodeWrongCount, "play one card at a time, got %d", len(a.Cards))
	}
	c := a.Cards[0]
	if !c.IsColorCard() {
		return sdk.Refuse(sdk.CodeUnknownCard, "%s is not a Last Card card", c)
	}
	hand := s.Hands[a.Seat]
	if !slices.Contains(hand, c) {
		return sdk.Refuse(sdk.CodeNotHeld, "you do not hold %s", c)
	}
	if s.Drawn != nil && c != *s.Drawn {
		return sdk.Refuse(CodeMustPlayDrawn, "after drawing you may play only the card drawn (%s) or pass", *s.Drawn)
	}
	if s.Penalty > 0 && !s.playable(c, hand) {
		if s.PenaltyKind == kindDrawFour {
			return sdk.RefuseUnder("L-4", CodePenalty, "a Draw Four penalty is pending: nothing can be played on it, draw %d cards", s.Penalty)
		}
		if s.Settings.StackDrawTwo {
			return sdk.RefuseUnder("L-4", CodePenalty, "a Draw Two penalty of %d is pending: answer with a Draw Two or draw the %d cards", s.Penalty, s.Penalty)
		}
		return sdk.Refuse(CodePenalty, "a Draw Two penalty of %d is pending: draw the cards (stacking is off)", s.Penalty)
	}
	if !s.matches(c) {
		return sdk.Refuse(CodeNoMatch, "%s matches neither the colour in play (%s) nor the value of %s", c, colorName(s.Color), s.top())
	}
	if !s.playable(c, hand) {
		return sdk.RefuseUnder("L-5", CodeDrawFourColour, "a Joker Draw Four may be played only when you hold no card of the colour in play (%s)", colorName(s.Color))
	}
	last := len(hand) == 1
	color := a.Choice()
	switch {
	case isJoker(c) && color == "" && !last:
		return sdk.Refuse(CodeNoColor, "name the colour for the Joker: R, Y, G or B")
	case isJoker(c) && color != "" && !validColor(color):
		return sdk.Refuse(CodeNoColor, "unknown colour %q: name R, Y, G or B", color)
	case !isJoker(c) && color != "":
		return sdk.Refuse(sdk.CodeBadAction, "only a Joker names a colour; %s has its own", c)
	}
	if withCall {
		if err := t.checkCall(a.Seat); err != nil {
			return err
		}
		t.announce(a.Seat)
	}

	// The card goes down; the next player's move closes any catch window (L-8).
	s.Hands[a.Seat], _ = sdk.RemoveCards(hand, a.Cards)
	s.Pile = append(s.Pile, c)
	s.Drawn = nil
	s.Exposed = sdk.NoSeat
	played := sdk.Event{Name: "played", Seat: a.Seat, Cards: []sdk.Card{c}}
	if isJoker(c) && color != "" {
		played.Data = map[string]string{"color": color}
	}
	t.emit(played)
	if len(s.Hands[a.Seat]) == 0 {
		// L-7: the very last card ends the round at once, with no effect.
		t.endRound(a.Seat)
		return nil
	}
	if isJoker(c) {
		s.Color = color
		t.emit(sdk.Event{Name: "color_chosen", Seat: a.Seat, Data: map[string]string{"color": color}})
	} else {
		s.Color = colorOf(c)
	}
	if len(s.Hands[a.Seat]) == 1 && !s.Called[a.Seat] {
		if s.Settings.LastCardMode == modeAuto {
			// L-8 auto: ending a turn on one card uncalled draws two penalty cards at once.
			t.penaltyDraw(a.Seat, 2, "no_call")
		} else {
			s.Exposed = a.Seat
		}
	}

	n := s.seats()
	switch c.Value() {
	case sdk.ValueSkip:
		t.skip(a.Seat)
	case sdk.ValueReverse:
		if n == 2 {
			// L-6: with two players a Reverse acts as a Skip; the direction stays.
			t.emit(sdk.Event{Name: "reversed", Seat: a.Seat, Data: map[string]string{"as": "skip"}})
			t.skip(a.Seat)
		} else {
			s.Direction = -s.Direction
			t.emit(sdk.Event{Name: "reversed", Seat: a.Seat, Data: map[string]string{"direction": strconv.Itoa(s.Direction)}})
			t.moveTo(s.next(a.Seat, 1))
		}
	case sdk.ValueDrawTwo:
		s.Penalty += 2
		s.PenaltyKind = kindDrawTwo
		t.moveTo(s.next(a.Seat, 1))
	default:
		if c == sdk.WildDrawFour {
			s.Penalty = 4
			s.PenaltyKind = kindDrawFour
		}
		t.moveTo(s.next(a.Seat, 1))
	}
	return nil
}

// skip passes over the next player: the turn goes to the one after (with two players, back to
// the player who skipped).
func (t *turn) skip(from int) {
	t.emit(sdk.Event{Name: "skipped", Seat: t.s.next(from, 1)})
	t.moveTo(t.s.next(from, 2))
}

// moveTo gives the turn to seat.
func (t *turn) moveTo(seat int) {
	t.s.Turn = seat
	t.s.Drawn = nil
	t.emit(sdk.Event{Name: "turn", Seat: seat})
}

// draw takes the pending penalty, or one card that may then be played or kept (L-3, L-4).
func (t *turn) draw(a sdk.Action) error {
	s := t.s
	if err := t.inTurn(a); err != nil {
		return err
	}
	if s.Drawn != nil {
		return sdk.Refuse(CodeAlreadyDrew, "you have drawn already: play %s or pass to keep it", *s.Drawn)
	}
	s.Exposed = sdk.NoSeat
	if s.Penalty > 0 {
		n, kind := s.Penalty, s.PenaltyKind
		s.Penalty, s.PenaltyKind = 0, ""
		t.penaltyDraw(a.Seat, n, kind)
		t.moveTo(s.next(a.Seat, 1))
		return nil
	}
	got := t.drawInto(a.Seat, 1)
	if len(got) == 1 && s.playable(got[0], s.Hands[a.Seat]) {
		c := got[0]
		s.Drawn = &c
		return nil
	}
	t.moveTo(s.next(a.Seat, 1))
	return nil
}

// pass keeps the card just drawn and ends the turn (L-3).
func (t *turn) pass(a sdk.Action) error {
	s := t.s
	if err := t.inTurn(a); err != nil {
		return err
	}
	if s.Drawn == nil {
		return sdk.Refuse(CodeCannotPass, "you may pass only to keep a card you have just drawn: play or draw")
	}
	s.Exposed = sdk.NoSeat
	t.moveTo(s.next(a.Seat, 1))
	return nil
}

// call announces "Last card!" (L-8); with cards, it is the call and the play in one action.
func (t *turn) call(a sdk.Action) error {
	if err := t.inTurn(a); err != nil {
		return err
	}
	if len(a.Cards) > 0 {
		return t.play(a, true)
	}
	if err := t.checkCall(a.Seat); err != nil {
		return err
	}
	t.announce(a.Seat)
	return nil
}

// catch catches out a seat holding one card it did not announce: two penalty cards (L-8).
func (t *turn) catch(a sdk.Action) error {
	s := t.s
	if s.Settings.LastCardMode != modeCatch {
		return sdk.Refuse(CodeCannotCatch, "catching is off: in this room a forgotten \"Last card!\" is penalised automatically")
	}
	if a.Target == nil {
		return sdk.Refuse(sdk.CodeBadAction, "catch: name the seat to catch out")
	}
	target := *a.Target
	switch {
	case target < 0 || target >= s.seats():
		return sdk.Refuse(sdk.CodeBadAction, "catch: no seat %d in this %d-seat game", target, s.seats())
	case target == a.Seat:
		return sdk.Refuse(CodeCannotCatch, "you cannot catch yourself out")
	case len(s.Hands[target]) != 1:
		return sdk.Refuse(CodeCannotCatch, "seat %d holds %d cards, not one: nothing to catch", target, len(s.Hands[target]))
	case s.Called[target]:
		return sdk.Refuse(CodeCannotCatch, "seat %d called \"Last card!\": nothing to catch", target)
	case s.Exposed != target:
		return sdk.Refuse(CodeCannotCatch, "too late: the next player has acted since seat %d went down to one card", target)
	}
	s.Exposed = sdk.NoSeat
	t.emit(sdk.Event{Name: "caught", Seat: target, Data: map[string]string{"by": strconv.Itoa(a.Seat)}})
	t.penaltyDraw(target, 2, "caught")
	return nil
}

// penaltyDraw draws n penalty cards into seat's hand; reason names why ("draw_two",
// "draw_four", "caught", "no_call").
func (t *turn) penaltyDraw(seat, n int, reason string) {
	got := t.drawInto(seat, n)
	t.emit(sdk.Event{Name: "penalty_drawn", Seat: seat, Count: len(got), Data: map[string]string{"reason": reason}})
}

// drawInto moves up to n cards from the deck to seat's hand, turning the discard pile (but its
// top) into a new deck when the deck runs out; with both empty it draws what there is. The drawn
// cards are told to seat alone (event "drew", private). A draw voids a "Last card!" call.
func (t *turn) drawInto(seat, n int) []sdk.Card {
	s := t.s
	got := make([]sdk.Card, 0, n)
	for range n {
		if len(s.Deck) == 0 {
			t.reshuffle()
		}
		if len(s.Deck) == 0 {
			break
		}
		got = append(got, s.Deck[0])
		s.Deck = s.Deck[1:]
	}
	s.Hands[seat] = append(s.Hands[seat], got...)
	if len(got) > 0 {
		s.Called[seat] = false
	}
	t.emit(sdk.Event{Name: "drew", Seat: seat, Cards: got, Count: len(got), Private: true})
	return got
}

// reshuffle turns the discard pile, except its top card, into a new shuffled deck.
func (t *turn) reshuffle() {
	s := t.s
	if len(s.Pile) <= 1 {
		return
	}
	top := s.top()
	rest := slices.Clone(s.Pile[:len(s.Pile)-1])
	s.RNG.ShuffleCards(sdk.DrawShuffle, rest)
	s.Deck = append(s.Deck, rest...)
	s.Pile = []sdk.Card{top}
	t.emit(sdk.Event{Name: "reshuffled", Seat: sdk.NoSeat, Count: len(rest)})
}

// endRound scores the round for its winner (L-9) and ends it, or the game at the target.
func (t *turn) endRound(winner int) { t.announceEnd(winner, t.s.scoreRound(winner)) }

// announceEnd emits the events of a round's end: its winner (and whether the game is over) and
// the points scored.
func (t *turn) announceEnd(winner, points int) {
	s := t.s
	won := map[string]string{"round": strconv.Itoa(s.Round)}
	if s.Phase == sdk.PhaseGameOver {
		won["game"] = "true"
	}
	t.emit(sdk.Event{Name: "won", Seat: winner, Data: won})
	t.emit(sdk.Event{Name: "round_scored", Seat: winner, Count: points, Data: map[string]string{
		"score": strconv.Itoa(s.Scores[winner]), "round": strconv.Itoa(s.Round),
	}})
}

// scoreRound gives winner the points of the cards the others hold (L-9) and ends the round, or
// the game when the winner reaches the target (or it is a single round); it returns the points.
func (s *State) scoreRound(winner int) int {
	points := 0
	for seat, h := range s.Hands {
		if seat != winner {
			points += handPoints(h)
		}
	}
	s.Scores[winner] += points
	s.Winner = winner
	s.Penalty, s.PenaltyKind = 0, ""
	s.Drawn = nil
	s.Exposed = sdk.NoSeat
	s.Phase = sdk.PhaseRoundOver
	switch s.Settings.Target {
	case targetSingle:
		s.Phase = sdk.PhaseGameOver
	default:
		if target, err := strconv.Atoi(s.Settings.Target); err == nil && s.Scores[winner] >= target {
			s.Phase = sdk.PhaseGameOver
		}
	}
	return points
}

// deal is the host's Deal: the next round after a round, a new game after a game (L-10). The
// opener moves one seat on each time, also from one game to the next.
func (t *turn) deal() error {
	s := t.s
	switch s.Phase {
	case sdk.PhasePlaying:
		return sdk.Refuse(CodeNotOver, "the round is still being played: deal when it is over")
	case sdk.PhaseGameOver:
		s.Round = 1
		for i := range s.Scores {
			s.Scores[i] = 0
		}
	default:
		s.Round++
	}
	cards := s.allCards()
	slices.Sort(cards)
	s.RNG.ShuffleCards(sdk.DrawShuffle, cards)
	s.Opener = (s.Opener + 1) % s.seats()
	for i := range s.Hands {
		s.Hands[i] = make([]sdk.Card, 0, HandSize+8)
		s.Called[i] = false
	}
	s.Pile, s.Deck, s.Out = nil, cards, nil
	s.dealHands()
	if err := s.turnStartCard(); err != nil {
		return err
	}
	s.Phase = sdk.PhasePlaying
	s.Winner = sdk.NoSeat
	s.Direction = 1
	s.Color = colorOf(s.top())
	s.Penalty, s.PenaltyKind, s.Drawn, s.Exposed = 0, "", nil, sdk.NoSeat
	s.Log, s.logQuoted = nil, nil
	t.emit(sdk.Event{Name: "dealt", Seat: s.Opener, Cards: []sdk.Card{s.top()}, Data: map[string]string{"round": strconv.Itoa(s.Round)}})
	t.moveTo(s.Opener)
	return nil
}
