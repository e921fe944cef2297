package hotspot

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"cardhouse/sdk"
)

// ID is the ruleset id rooms, scenarios and plugins name.
const ID = "hotspot"

// Option names (docs/rulings/hotspot.md, H-1, H-2, H-4, H-10).
const (
	OptDecks           = "decks"
	OptHandSize        = "hand_size"
	OptLastCardSeconds = "last_card_seconds"
	OptPlayAfterDraw   = "play_after_draw"
)

// Event names: the generic ones of docs/scenarios.md and Hotspot's own.
const (
	EvPlayed         = "played"           // Cards laid as one play (a single card or a group)
	EvDrew           = "drew"             // Private: the cards drawn; others see Count
	EvTurn           = "turn"             // Seat is now in turn
	EvSkipped        = "skipped"          // Seat was skipped by a King
	EvReversed       = "reversed"         // a Jack; Data "direction" is the new direction
	EvWon            = "won"              // Seat went out
	EvSuitChosen     = "suit_chosen"      // an Ace; Data "suit" names the suit
	EvPenaltyDrawn   = "penalty_drawn"    // Seat drew the pickup penalty (Count cards)
	EvLastCard       = "last_card"        // Seat called LAST CARD in time
	EvMissedLastCard = "missed_last_card" // Seat's window ran out: one penalty card follows
	EvPassed         = "passed"           // Seat ended the turn after a Queen or a draw
	EvShuffled       = "shuffled"         // the pile under its top became the deck (H-11)
	EvDealt          = "dealt"            // a new game was dealt; Data "opener"
)

// DrawPutBack is the label of the random place a power card turned as the starting card goes back
// into the deck (H-3): a scenario forces it with `random: {put_back: [N]}`, N from 0 (the top) to
// the number of cards left in the deck.
const DrawPutBack = "put_back"

// Refusal codes of the actions other than plays (see play.go for those of plays).
const (
	CodeNothingToPass = "nothing_to_pass"
	CodeNotLastCard   = "not_last_card"
	CodeNoWindow      = "no_window"
	CodeNoDeadline    = "no_deadline"
	CodeGameOn        = "game_in_progress"
)

// maxSeats is the document's "up to 8 active players".
const maxSeats = 8

// Rules is the Hotspot ruleset. The zero value is ready to use.
type Rules struct{}

// New returns the Hotspot ruleset.
func New() *Rules { return &Rules{} }

var (
	_ sdk.Ruleset[*State]     = (*Rules)(nil)
	_ sdk.OptionChecker       = (*Rules)(nil)
	_ sdk.Redealer[*State]    = (*Rules)(nil)
	_ sdk.Bots                = (*Rules)(nil)
	_ sdk.Historian[*State]   = (*Rules)(nil)
	_ sdk.TableEditor[*State] = (*Rules)(nil)
)

var options = []sdk.Option{
	{Name: OptDecks, Label: "Decks", Type: sdk.OptionInt, Min: 1, Max: 2,
		Description: "How many 52-card decks are shuffled together (no jokers).",
		DefaultText: "1 deck for 2–4 players, 2 decks for 5–8"},
	{Name: OptHandSize, Label: "Cards dealt", Type: sdk.OptionInt, Min: 1, Max: 20, Default: 7,
		Description: "Cards dealt to each player."},
	{Name: OptLastCardSeconds, Label: "LAST CARD seconds", Type: sdk.OptionInt, Min: 1, Max: 60, Default: 5,
		Description: "How long a player left with one card has to press LAST CARD."},
	{Name: OptPlayAfterDraw, Label: "Play after drawing", Type: sdk.OptionBool, Default: false,
		Description: "A player who draws a card they can play may play it at once (otherwise drawing ends the turn)."},
}

// Info describes Hotspot: 2 to 8 seats, its options, bots of levels 1 to 5 and its rules page.
func (r *Rules) Info() sdk.Info {
	return sdk.Info{
		ID: ID, Name: "Hotspot", Version: "1.0.0",
		Summary:  "Match suit or rank and be first to empty your hand: wild Aces, skipping Kings, reversing Jacks, Queens that give an extra go and 2s that stack.",
		Rules:    rulesText,
		MinSeats: 2, MaxSeats: maxSeats, Options: slices.Clone(options),
		BotLevels: []int{1, 2, 3, 4, 5}, StateVersion: 1, Texts: texts(),
		// A wild Ace, an extra-go Queen and a 2 to pick up, for the lobby.
		Sample:     []sdk.Card{sdk.French(1, sdk.Spades), sdk.French(12, sdk.Hearts), sdk.French(2, sdk.Clubs)},
		EventTexts: maps.Clone(eventTexts),
	}
}

// eventTexts word Hotspot's events for the move log (sdk.Info.EventTexts).
var eventTexts = map[string]string{
	EvPlayed:                    "{seat} played {cards}",
	EvDrew:                      "{seat} drew {cards}",
	EvSkipped:                   "{seat} is skipped",
	EvReversed:                  "Direction reversed",
	EvReversed + " effect=pass": "{seat}'s Jack passes the turn", // two players (H-8)
	EvWon:                       "{seat} wins!",
	EvSuitChosen:                "{seat} chose {suit:choice}",
	EvPenaltyDrawn:              "{seat} picked up {count:cards} for the 2s",
	EvLastCard:                  "{seat}: LAST CARD!",
	EvMissedLastCard:            "{seat} forgot to call LAST CARD in time: +{count:cards}",
	EvPassed:                    "{seat} ends the turn",
	EvShuffled:                  "The pile is shuffled into a new deck",
	EvDealt:                     "New deal: {opener:seat} opens",
}

// CheckOptions fills in the seat-dependent default of `decks` (H-1) and checks that the deal fits:
// every seat's hand and a starting card must come out of the decks.
func (r *Rules) CheckOptions(seats int, opts sdk.Options) (sdk.Options, error) {
	out := sdk.Options{}
	for k, v := range opts {
		out[k] = v
	}
	for _, o := range options {
		if !out.Has(o.Name) && o.Default != nil {
			out[o.Name] = o.Default
		}
	}
	if seats < 2 || seats > maxSeats {
		return nil, sdk.OptionErrors{{Field: "seats", Reason: fmt.Sprintf("Hotspot is for 2 to %d seats, got %d", maxSeats, seats)}}
	}
	if !out.Has(OptDecks) {
		out[OptDecks] = 1
		if seats >= 5 {
			out[OptDecks] = 2
		}
	}
	decks, hand := out.Int(OptDecks), out.Int(OptHandSize)
	if decks < 1 || decks > 2 {
		return nil, sdk.OptionErrors{{Field: OptDecks, Reason: fmt.Sprintf("want 1 or 2, got %d", decks)}}
	}
	if need := seats*hand + 1; need > 52*decks {
		return nil, sdk.OptionErrors{{Field: OptHandSize, Reason: fmt.Sprintf(
			"%d seats with %d cards each and a starting card need %d cards; %d deck(s) hold %d: deal fewer cards or use 2 decks",
			seats, hand, need, decks, 52*decks)}}
	}
	return out, nil
}

// Start deals a game: the scenario's deal when given (its hands, pile and deck; a missing pile
// is turned from the deck by H-3, missing hands are dealt), otherwise a shuffled deal of
// hand_size cards each and a plain starting card (H-3). The opener is Deal.First, else
// req.Opener, else seat 0 (H-12).
func (r *Rules) Start(ctx context.Context, req sdk.StartRequest) (*State, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	opts, err := r.CheckOptions(req.Seats, req.Options)
	if err != nil {
		return nil, &sdk.RuleError{Code: sdk.CodeBadOption, Reason: err.Error()}
	}
	s := &State{
		Seats: req.Seats, Decks: opts.Int(OptDecks), HandSize: opts.Int(OptHandSize),
		LastCardMS: int64(opts.Int(OptLastCardSeconds)) * 1000, PlayAfterDraw: opts.Bool(OptPlayAfterDraw),
		RNG: req.RNG.Clone(), Game: 1,
	}
	opener := 0
	if req.Opener != nil {
		if *req.Opener < 0 || *req.Opener >= req.Seats {
			return nil, sdk.Refuse(sdk.CodeBadDeal, "opener %d is not a seat of this %d-seat game", *req.Opener, req.Seats)
		}
		opener = *req.Opener
	}
	if req.Deal == nil {
		s.dealRandom(opener)
		return s, nil
	}
	l, err := req.Deal.Layout(sdk.FrenchDeck(s.Decks, 0), req.Seats, &s.RNG)
	if err != nil {
		return nil, err
	}
	if l.First != sdk.NoSeat {
		opener = l.First
	}
	s.reset(opener)
	s.Deck, s.Pile, s.Out = l.Deck, l.Pile, l.Out
	if l.Hands != nil {
		s.Hands = l.Hands
	} else {
		s.dealHands()
	}
	if len(s.Pile) == 0 {
		s.turnStarter()
	}
	s.Suit = suitCode(s.top())
	return s, nil
}

// reset clears the table for a game opened by opener (no cards moved).
func (s *State) reset(opener int) {
	s.Hands = make([][]sdk.Card, s.Seats)
	for i := range s.Hands {
		s.Hands[i] = []sdk.Card{}
	}
	s.Pile, s.Deck, s.Out = []sdk.Card{}, []sdk.Card{}, nil
	s.Opener, s.Turn, s.Direction = opener, opener, 1
	s.Suit, s.Penalty, s.ExtraGo, s.Drawn = "", 0, false, 0
	s.Windows, s.Called, s.Log = nil, nil, nil
	s.Phase, s.Winner = sdk.PhasePlaying, sdk.NoSeat
}

// dealRandom shuffles all the game's cards, deals hand_size to each seat and turns the starting
// card.
func (s *State) dealRandom(opener int) {
	s.reset(opener)
	s.Deck = sdk.FrenchDeck(s.Decks, 0)
	s.RNG.ShuffleCards(sdk.DrawShuffle, s.Deck)
	s.dealHands()
	s.turnStarter()
	s.Suit = suitCode(s.top())
}

// dealHands deals hand_size cards to every seat, one at a time from the opener on.
func (s *State) dealHands() {
	for range s.HandSize {
		for i := range s.Seats {
			seat := (s.Opener + i) % s.Seats
			if len(s.Deck) == 0 {
				return
			}
			s.Hands[seat] = append(s.Hands[seat], s.Deck[0])
			s.Deck = s.Deck[1:]
		}
	}
}

// turnStarter turns the starting card (H-3): a power card goes back at a random place in the deck
// (label put_back) and the next is turned, until a plain card starts the pile. When the deck holds
// no plain card at all the turned card starts the pile whatever it is (HS-6).
func (s *State) turnStarter() {
	for len(s.Deck) > 0 {
		c := s.Deck[0]
		s.Deck = s.Deck[1:]
		if !isPower(c) || !slices.ContainsFunc(s.Deck, func(d sdk.Card) bool { return !isPower(d) }) {
			s.Pile = append(s.Pile, c)
			return
		}
		at := s.RNG.Intn(DrawPutBack, len(s.Deck)+1)
		s.Deck = slices.Insert(s.Deck, at, c)
	}
}

func suitCode(c sdk.Card) string {
	if c == 0 {
		return ""
	}
	return string(rune(c.Suit()))
}

// Apply applies one action to a clone of the state: the input is never modified, and a refused
// action returns the input state and an error wrapping *sdk.RuleError.
func (r *Rules) Apply(ctx context.Context, req sdk.ApplyRequest[*State]) (sdk.ApplyResponse[*State], error) {
	if err := ctx.Err(); err != nil {
		return sdk.ApplyResponse[*State]{State: req.State}, err
	}
	if req.State == nil {
		return sdk.ApplyResponse[*State]{}, errors.New("hotspot: no state to apply an action to")
	}
	s := req.State.clone()
	evs, rerr := s.apply(req.Action, req.Now)
	if rerr != nil {
		return sdk.ApplyResponse[*State]{State: req.State}, rerr
	}
	s.record(evs)
	return sdk.ApplyResponse[*State]{State: s, Events: evs}, nil
}

func (s *State) apply(a sdk.Action, now int64) ([]sdk.Event, *sdk.RuleError) {
	switch a.Type {
	case sdk.ActDeal:
		return s.deal(a)
	case sdk.ActDeadline:
		return s.expire(a)
	}
	if a.Seat < 0 || a.Seat >= s.Seats {
		return nil, refusal(sdk.CodeBadAction, "seat %d is not a seat of this %d-seat game", a.Seat, s.Seats)
	}
	if s.over() {
		return nil, refusal(sdk.CodeGameOver, "the game is over: the host deals the next one")
	}
	switch a.Type {
	case sdk.ActCall:
		return s.call(a)
	case sdk.ActPlay, sdk.ActDraw, sdk.ActPass:
	default:
		return nil, refusal(sdk.CodeBadAction, "Hotspot has no action %q (it has play, draw, pass and call)", a.Type)
	}
	if a.Seat != s.Turn {
		return nil, refusal(sdk.CodeNotYourTurn, "it is seat %d's turn, not seat %d's", s.Turn, a.Seat)
	}
	switch a.Type {
	case sdk.ActPlay:
		return s.play(a, now)
	case sdk.ActDraw:
		return s.drawAction(a)
	}
	return s.pass(a)
}

func (s *State) play(a sdk.Action, now int64) ([]sdk.Event, *sdk.RuleError) {
	seat := a.Seat
	pl, err := planPlay(s.position(), s.Hands[seat], a.Cards)
	if err != nil {
		return nil, err
	}
	wins := len(a.Cards) == len(s.Hands[seat])
	var named sdk.Suit
	if choice := a.Choice(); choice != "" {
		var ok bool
		if named, ok = ParseSuit(choice); !ok {
			return nil, refusal(CodeBadSuit, "%q is not a suit: name S, H, D or C", choice)
		}
		if !pl.needSuit {
			return nil, refusal(CodeBadSuit, "a suit is named only when the play ends with an Ace")
		}
	} else if pl.needSuit && !wins {
		return nil, refusal(CodeNeedSuit, "name the suit the Ace makes active (S, H, D or C) in the same action")
	}

	s.Hands[seat], _ = sdk.RemoveCards(s.Hands[seat], a.Cards)
	var evs []sdk.Event
	for _, seg := range pl.segs {
		s.Pile = append(s.Pile, seg...)
		evs = append(evs, sdk.Event{Name: EvPlayed, Seat: seat, Cards: slices.Clone(seg), Count: len(seg)})
	}
	s.Drawn = 0
	s.Suit = suitCode(pl.after.Top)
	if named != 0 {
		s.Suit = string(rune(named))
		evs = append(evs, sdk.Event{Name: EvSuitChosen, Seat: seat, Data: map[string]string{"suit": s.Suit}})
	}
	if wins {
		// Straight to zero: the game is won, no LAST CARD needed, no power acts.
		return append(evs, s.win(seat)), nil
	}
	s.Penalty = pl.after.Penalty
	s.ExtraGo = pl.after.ExtraGo
	if len(s.Hands[seat]) == 1 && s.window(seat) < 0 {
		s.Seq++
		s.Windows = append(s.Windows, Window{Seat: seat, ID: "last_card." + strconv.Itoa(seat) + "." + strconv.Itoa(s.Seq), At: now + s.LastCardMS})
	}
	if s.ExtraGo {
		return evs, nil // the Queen's player goes on, or passes (H-9)
	}
	switch top := pl.after.Top; top.Rank() {
	case rankKing:
		skipped := s.next(seat, 1)
		evs = append(evs, sdk.Event{Name: EvSkipped, Seat: skipped})
		return s.handOn(evs, s.next(seat, 2)), nil
	case rankJack:
		if s.Seats == 2 {
			// H-8: with two players a Jack simply passes the turn; the direction stays.
			evs = append(evs, sdk.Event{Name: EvReversed, Seat: seat, Data: map[string]string{"direction": strconv.Itoa(s.Direction), "effect": "pass"}})
		} else {
			s.Direction = -s.Direction
			evs = append(evs, sdk.Event{Name: EvReversed, Seat: seat, Data: map[string]string{"direction": strconv.Itoa(s.Direction)}})
		}
	}
	return s.handOn(evs, s.next(seat, 1)), nil
}

// handOn gives the turn to seat.
func (s *State) handOn(evs []sdk.Event, seat int) []sdk.Event {
	s.Turn, s.ExtraGo, s.Drawn = seat, false, 0
	s.tidyLastCard()
	return append(evs, sdk.Event{Name: EvTurn, Seat: seat})
}

func (s *State) drawAction(a sdk.Action) ([]sdk.Event, *sdk.RuleError) {
	seat := a.Seat
	if s.Drawn != 0 {
		return nil, refusal(sdk.CodeBadAction, "you have drawn already: play %s or pass", s.Drawn)
	}
	if s.Penalty > 0 {
		n := s.Penalty
		got, evs := s.draw(seat, n)
		s.Penalty = 0
		evs = append(evs, sdk.Event{Name: EvPenaltyDrawn, Seat: seat, Count: len(got), Data: map[string]string{"penalty": strconv.Itoa(n)}})
		return s.handOn(evs, s.next(seat, 1)), nil
	}
	extra := s.ExtraGo
	got, evs := s.draw(seat, 1)
	s.ExtraGo = false
	if s.PlayAfterDraw && !extra && len(got) == 1 && s.position().Legal(got[0]) {
		s.Drawn = got[0] // H-4 option: the seat may play it now, or pass
		s.tidyLastCard()
		return evs, nil
	}
	return s.handOn(evs, s.next(seat, 1)), nil
}

func (s *State) pass(a sdk.Action) ([]sdk.Event, *sdk.RuleError) {
	if !s.ExtraGo && s.Drawn == 0 {
		return nil, refusal(CodeNothingToPass, "you can pass only after a Queen or after drawing a card you may play: play a card or draw")
	}
	evs := []sdk.Event{{Name: EvPassed, Seat: a.Seat}}
	return s.handOn(evs, s.next(a.Seat, 1)), nil
}

func (s *State) call(a sdk.Action) ([]sdk.Event, *sdk.RuleError) {
	if n := len(s.Hands[a.Seat]); n != 1 {
		return nil, ruled("H-10", CodeNotLastCard, "LAST CARD is called with exactly one card in hand; you hold %d", n)
	}
	i := s.window(a.Seat)
	if i < 0 {
		return nil, refusal(CodeNoWindow, "no LAST CARD window is open for you")
	}
	s.Windows = slices.Delete(s.Windows, i, i+1)
	s.Called = append(s.Called, a.Seat)
	return []sdk.Event{{Name: EvLastCard, Seat: a.Seat}}, nil
}

// expire is the clock's action when a LAST CARD window runs out: one penalty card (H-10).
func (s *State) expire(a sdk.Action) ([]sdk.Event, *sdk.RuleError) {
	if a.Seat != sdk.Clock {
		return nil, refusal(sdk.CodeBadAction, "only the clock sends deadlines")
	}
	i := slices.IndexFunc(s.Windows, func(w Window) bool { return w.ID == a.Deadline })
	if i < 0 || s.over() {
		return nil, refusal(CodeNoDeadline, "no open deadline %q", a.Deadline)
	}
	seat := s.Windows[i].Seat
	s.Windows = slices.Delete(s.Windows, i, i+1)
	evs := []sdk.Event{{Name: EvMissedLastCard, Seat: seat}}
	_, drew := s.draw(seat, 1)
	evs = append(evs, drew...)
	s.tidyLastCard()
	return evs, nil
}

// deal is the host's Deal after a finished game: a new shuffled game opened one seat on (H-12).
func (s *State) deal(a sdk.Action) ([]sdk.Event, *sdk.RuleError) {
	if a.Seat != sdk.Host {
		return nil, refusal(sdk.CodeBadAction, "only the host deals")
	}
	if !s.over() {
		return nil, refusal(CodeGameOn, "the game is still being played: deal after someone wins")
	}
	opener := (s.Opener + 1) % s.Seats
	s.Game++
	s.dealRandom(opener)
	return []sdk.Event{
		{Name: EvDealt, Seat: sdk.NoSeat, Data: map[string]string{"opener": strconv.Itoa(opener), "game": strconv.Itoa(s.Game)}},
		{Name: EvTurn, Seat: opener},
	}, nil
}
