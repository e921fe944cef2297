package drugs

import (
	"slices"
	"strconv"

	"cardhouse/sdk"
)

// value orders ranks for "equal or higher" (D-2): 2 < 3 < ... < 10 < J < Q < K < A. Jokers have
// no rank (0).
func value(c sdk.Card) int {
	switch r := c.Rank(); r {
	case 0:
		return 0
	case 1:
		return 14
	default:
		return r
	}
}

// anywhere reports whether c may be played on any pile: a 2 (reset), a 3 (transparent), a 10
// (burn) and a Joker (D-4, D-10). These are also the answers to a time bomb.
func anywhere(c sdk.Card) bool {
	r := c.Rank()
	return c == sdk.Joker || r == 2 || r == 3 || r == 10
}

// legal reports whether c may be played on the pile now, and if not, why.
func (s *State) legal(c sdk.Card) (bool, string) {
	if anywhere(c) {
		return true, ""
	}
	if s.Armed {
		return false, "the pile is armed (time bomb): answer with a 2, 3, 10 or Joker, or pick up the pile"
	}
	e := s.effective()
	if e.Rank() == 7 {
		if value(c) <= 7 {
			return true, ""
		}
		return false, c.String() + " is higher than 7: after a 7 play 7 or lower (2-7), a 10 or a Joker"
	}
	if e == 0 || e == sdk.Joker || e.Rank() == 2 {
		return true, ""
	}
	if value(c) >= value(e) {
		return true, ""
	}
	return false, c.String() + " is lower than " + e.String() + ": play equal or higher, a 2, 3 or 10, or pick up the pile"
}

// apply dispatches one action on s (already a clone) and returns its events.
func (s *State) apply(a sdk.Action) ([]sdk.Event, error) {
	if a.Type == sdk.ActDeal {
		return s.deal(a)
	}
	if s.Phase != sdk.PhasePlaying {
		return nil, sdk.Refuse(sdk.CodeGameOver, "the game is over: the host deals the next one")
	}
	switch a.Type {
	case sdk.ActPlay, sdk.ActPickup, sdk.ActFlip, sdk.ActGift:
	case sdk.ActDeadline:
		return nil, sdk.Refuse(sdk.CodeBadAction, "DRUGS sets no deadlines: nothing is due")
	default:
		return nil, sdk.Refuse(sdk.CodeBadAction, "DRUGS has no action %q (it has play, pickup, flip, gift)", a.Type)
	}
	if a.Seat < 0 || a.Seat >= s.Seats {
		return nil, sdk.Refuse(sdk.CodeNotYourTurn, "seat %d does not play in this %d-seat game", a.Seat, s.Seats)
	}
	if a.Seat != s.Turn {
		return nil, sdk.Refuse(sdk.CodeNotYourTurn, "not your turn: seat %d is to play", s.Turn)
	}
	if s.GiftPending != sdk.NoSeat && a.Type != sdk.ActGift {
		return nil, sdk.Refuse(CodeGiftPending, "give a card first: the Joker's gift is pending (action gift)")
	}
	var evs []sdk.Event
	var err error
	switch a.Type {
	case sdk.ActPlay:
		err = s.playAction(a, &evs)
	case sdk.ActPickup:
		err = s.pickupAction(a, &evs)
	case sdk.ActFlip:
		err = s.flipAction(a, &evs)
	case sdk.ActGift:
		err = s.giftAction(a, &evs)
	}
	if err != nil {
		return nil, err
	}
	return evs, nil
}

// deal starts the next game after a finished one (the host's Deal).
func (s *State) deal(a sdk.Action) ([]sdk.Event, error) {
	if a.Seat != sdk.Host {
		return nil, sdk.Refuse(sdk.CodeBadAction, "only the host deals")
	}
	if s.Phase == sdk.PhasePlaying {
		return nil, sdk.Refuse(sdk.CodeBadAction, "the game is still being played: deal when it is over")
	}
	game := s.Game + 1
	*s = State{
		Seats: s.Seats, Overdose: s.Overdose, Chaos: s.Chaos, Game: game, Direction: 1,
		GiftPending: sdk.NoSeat, Winner: sdk.NoSeat, Phase: sdk.PhasePlaying, RNG: s.RNG,
	}
	s.dealRandom()
	var evs []sdk.Event
	s.begin(sdk.NoSeat, &evs) // D-9: every game's first player is drawn
	return evs, nil
}

func (s *State) playAction(a sdk.Action, evs *[]sdk.Event) error {
	if len(a.Cards) == 0 {
		return sdk.Refuse(sdk.CodeBadAction, "play which cards? name one or more cards of one rank")
	}
	first := a.Cards[0]
	for _, c := range a.Cards {
		if !c.IsFrench() {
			return sdk.Refuse(sdk.CodeUnknownCard, "%s is not a card of DRUGS", c)
		}
		if c.RankCode() != first.RankCode() {
			return sdk.Refuse(CodeMixedRanks, "cards played together must share one rank: %s and %s differ", first, c)
		}
	}
	var zone *[]sdk.Card
	switch a.From {
	case "", "hand":
		if len(s.Hands[a.Seat]) == 0 {
			if st := s.stage(a.Seat); st == "face_up" {
				return sdk.Refuse(CodeWrongZone, "your hand is empty: play from your face-up cards (from face_up)")
			}
			return sdk.Refuse(CodeWrongZone, "your hand and face-up cards are empty: flip a face-down card")
		}
		zone = &s.Hands[a.Seat]
	case "face_up":
		switch {
		case len(s.Hands[a.Seat]) > 0:
			return sdk.Refuse(CodeWrongZone, "play from your hand first: face-up cards come once hand and deck are empty")
		case len(s.Deck) > 0:
			return sdk.Refuse(CodeWrongZone, "face-up cards come once the deck is empty too")
		case len(s.FaceUp[a.Seat]) == 0:
			return sdk.Refuse(CodeWrongZone, "you have no face-up cards left: flip a face-down card")
		}
		zone = &s.FaceUp[a.Seat]
	case "face_down":
		return sdk.Refuse(CodeWrongZone, "face-down cards are played blind: action flip with a position")
	default:
		return sdk.Refuse(sdk.CodeBadAction, "cards come from the hand or from face_up, not %q", a.From)
	}
	rest, ok := sdk.RemoveCards(*zone, a.Cards)
	if !ok {
		where := "your hand"
		if a.From == "face_up" {
			where = "your face-up cards"
		}
		return sdk.Refuse(sdk.CodeNotHeld, "%s does not hold %v", where, sdk.CardStrings(a.Cards))
	}
	if ok, why := s.legal(first); !ok {
		return sdk.Refuse(CodeNoMatch, "%s", why)
	}
	*zone = rest
	from := a.From
	if from == "" {
		from = "hand"
	}
	s.resolve(a.Seat, a.Cards, from, evs)
	return nil
}

// resolve lays cards (already taken from the player) on the pile and carries out everything that
// follows: the card's power, an overdose, the draw back up to three, the winner, the next turn.
func (s *State) resolve(seat int, cards []sdk.Card, from string, evs *[]sdk.Event) {
	s.Pile = append(s.Pile, cards...)
	*evs = append(*evs, sdk.Event{Name: EvPlayed, Seat: seat, Cards: slices.Clone(cards), Data: map[string]string{"from": from}})
	wasArmed := s.Armed
	s.Armed = false
	again, skip := false, false
	switch c := cards[0]; {
	case c == sdk.Joker:
		if s.holding(seat) == 0 {
			s.win(seat, "last_card", evs) // D-10: the last card wins at once, no effect
			return
		}
		var stop bool
		skip, stop = s.joker(seat, len(cards), evs)
		if stop {
			return // the gift is pending: the player gives, then draws
		}
	case c.Rank() == 10:
		s.burn(seat, EvBurned, evs)
		again = true
	case c.Rank() == 3:
		s.Armed = wasArmed // D-10: a 3 passes the armed pile on
	case c.Rank() == 11:
		if s.Seats > 2 { // D-8: several Jacks reverse once; two players: the turn just passes
			s.Direction = -s.Direction
			*evs = append(*evs, sdk.Event{Name: EvReversed, Seat: seat, Data: map[string]string{"direction": strconv.Itoa(s.Direction)}})
		}
	}
	if c := cards[0]; c != sdk.Joker && c.Rank() != 10 && s.run() >= s.Overdose {
		s.burn(seat, EvOverdose, evs) // D-5
		again = true
	}
	s.finish(seat, again, skip, evs)
}

// finish ends an accepted play or gift: the player draws back up to three (D-6), a seat holding
// nothing wins, else the turn moves (or stays, after a burn).
func (s *State) finish(seat int, again, skip bool, evs *[]sdk.Event) {
	s.drawUp(seat, evs)
	if s.checkWinner(seat, evs) {
		return
	}
	switch {
	case again:
		s.Turn = seat
	case skip:
		skipped := s.next(seat, 1)
		*evs = append(*evs, sdk.Event{Name: EvSkipped, Seat: skipped})
		s.Turn = s.next(seat, 2)
	default:
		s.Turn = s.next(seat, 1)
	}
	s.startTurn(evs)
}

// startTurn announces the turn; a seat whose turn begins with an empty hand while the deck lasts
// first draws up to three (a ruling: Joker effects can empty a hand mid-deck).
func (s *State) startTurn(evs *[]sdk.Event) {
	if len(s.Hands[s.Turn]) == 0 && len(s.Deck) > 0 {
		s.drawUp(s.Turn, evs)
	}
	*evs = append(*evs, sdk.Event{Name: EvTurn, Seat: s.Turn})
}

// drawUp draws seat's hand back up to three while the deck lasts.
func (s *State) drawUp(seat int, evs *[]sdk.Event) {
	n := HandTarget - len(s.Hands[seat])
	if n <= 0 || len(s.Deck) == 0 {
		return
	}
	s.draw(seat, n, evs)
}

// draw moves up to n cards from the deck to seat's hand, with a private event.
func (s *State) draw(seat, n int, evs *[]sdk.Event) {
	got := s.takeDeck(n)
	if len(got) == 0 {
		return
	}
	s.Hands[seat] = append(s.Hands[seat], got...)
	*evs = append(*evs, sdk.Event{Name: EvDrew, Seat: seat, Cards: got, Count: len(got), Private: true})
}

// burn takes the pile out of the game (10 or overdose) and clears the time bomb.
func (s *State) burn(seat int, name string, evs *[]sdk.Event) {
	*evs = append(*evs, sdk.Event{Name: name, Seat: seat, Cards: slices.Clone(s.Pile), Count: len(s.Pile)})
	s.Burned = append(s.Burned, s.Pile...)
	s.Pile = []sdk.Card{}
	s.Armed = false
	s.Stall = 0
}

// checkWinner ends the game when a seat holds no card anywhere (D-9): the acting seat first, then
// the others in turn order (Joker effects can empty another seat).
func (s *State) checkWinner(seat int, evs *[]sdk.Event) bool {
	for k := range s.Seats {
		if p := s.next(seat, k); s.holding(p) == 0 {
			s.win(p, "no_cards", evs)
			return true
		}
	}
	return false
}

func (s *State) win(seat int, reason string, evs *[]sdk.Event) {
	s.Winner = seat
	s.Phase = sdk.PhaseGameOver
	s.Armed = false
	s.GiftPending = sdk.NoSeat
	*evs = append(*evs, sdk.Event{Name: EvWon, Seat: seat, Data: map[string]string{"reason": reason}})
}

func (s *State) pickupAction(a sdk.Action, evs *[]sdk.Event) error {
	if len(s.Pile) == 0 {
		return sdk.Refuse(CodePileEmpty, "the pile is empty: play any card")
	}
	if s.stage(a.Seat) == "face_down" {
		return sdk.Refuse(CodeWrongZone, "with only face-down cards left you flip one (an illegal flip picks up the pile)")
	}
	s.pickup(a.Seat, evs)
	if s.Phase == sdk.PhasePlaying {
		s.Turn = s.next(a.Seat, 1)
		s.startTurn(evs)
	}
	return nil
}

// pickup moves the whole pile into seat's hand (D-6); the stall counter counts it.
func (s *State) pickup(seat int, evs *[]sdk.Event) {
	*evs = append(*evs, sdk.Event{Name: EvPickedUp, Seat: seat, Cards: slices.Clone(s.Pile), Count: len(s.Pile)})
	s.Hands[seat] = append(s.Hands[seat], s.Pile...)
	s.Pile = []sdk.Card{}
	s.Armed = false
	s.Stall++
	if s.Stall >= StallLimit {
		s.stalled(evs)
	}
}

// stalled ends a game that no longer moves (StallLimit): the seat holding the fewest cards wins,
// ties going to the first of them in turn order from the seat in turn.
func (s *State) stalled(evs *[]sdk.Event) {
	best := sdk.NoSeat
	for k := range s.Seats {
		p := s.next(s.Turn, k)
		if best == sdk.NoSeat || s.holding(p) < s.holding(best) {
			best = p
		}
	}
	s.win(best, "stalled", evs)
}

func (s *State) flipAction(a sdk.Action, evs *[]sdk.Event) error {
	if a.Index == nil {
		return sdk.Refuse(sdk.CodeBadAction, "flip which face-down card? give its position (index 0, 1 or 2)")
	}
	switch s.stage(a.Seat) {
	case "hand":
		return sdk.Refuse(CodeWrongZone, "play from your hand first: face-down cards come last")
	case "face_up":
		return sdk.Refuse(CodeWrongZone, "play your face-up cards first: face-down cards come last")
	}
	row := s.FaceDown[a.Seat]
	i := *a.Index
	if i < 0 || i >= len(row) {
		return sdk.Refuse(CodeEmptySlot, "no face-down position %d: positions are 0 to %d", i, len(row)-1)
	}
	c := row[i]
	if c == 0 {
		return sdk.Refuse(CodeEmptySlot, "face-down position %d is already empty: flip another", i)
	}
	s.FaceDown[a.Seat][i] = 0
	*evs = append(*evs, sdk.Event{Name: EvFlipped, Seat: a.Seat, Cards: []sdk.Card{c}, Data: map[string]string{"index": strconv.Itoa(i)}})
	if ok, _ := s.legal(c); ok {
		s.resolve(a.Seat, []sdk.Card{c}, "face_down", evs)
		return nil
	}
	// D-7: an illegal flip takes the card and the pile into the hand and ends the turn.
	s.Hands[a.Seat] = append(s.Hands[a.Seat], c)
	s.pickup(a.Seat, evs)
	if s.Phase == sdk.PhasePlaying {
		s.Turn = s.next(a.Seat, 1)
		s.startTurn(evs)
	}
	return nil
}

func (s *State) giftAction(a sdk.Action, evs *[]sdk.Event) error {
	if s.GiftPending != a.Seat {
		return sdk.Refuse(sdk.CodeBadAction, "no gift is pending: a gift follows a Joker that rolled gift")
	}
	if len(a.Cards) != 1 {
		return sdk.Refuse(sdk.CodeBadAction, "give exactly one hand card, got %d", len(a.Cards))
	}
	if a.Target == nil {
		return sdk.Refuse(CodeBadTarget, "give the card to whom? name a target seat")
	}
	to := *a.Target
	if to < 0 || to >= s.Seats || to == a.Seat {
		return sdk.Refuse(CodeBadTarget, "give the card to another player: seat %d is not one", to)
	}
	rest, ok := sdk.RemoveCards(s.Hands[a.Seat], a.Cards)
	if !ok {
		return sdk.Refuse(sdk.CodeNotHeld, "your hand does not hold %s", a.Cards[0])
	}
	s.Hands[a.Seat] = rest
	s.Hands[to] = append(s.Hands[to], a.Cards[0])
	s.GiftPending = sdk.NoSeat
	*evs = append(*evs, sdk.Event{Name: EvGift, Seat: a.Seat, Cards: []sdk.Card{a.Cards[0]}, Count: 1, Private: true, Data: map[string]string{"to": strconv.Itoa(to)}})
	s.finish(a.Seat, false, false, evs)
	return nil
}
