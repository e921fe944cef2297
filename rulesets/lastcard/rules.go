package lastcard

import (
	"context"
	"errors"
	"maps"
	"slices"

	"cardhouse/sdk"
)

// ID is the ruleset id: scenarios, rooms and the plugin name it.
const ID = "lastcard"

// HandSize is the number of cards each player is dealt (document: "Each player is dealt 7 cards").
const HandSize = 7

// Option names and their choices (L-4, L-5, L-8, L-9).
const (
	OptStackDrawTwo = "stack_draw_two"
	OptDrawFour     = "draw_four"
	OptLastCardMode = "last_card_mode"
	OptTarget       = "target"

	drawFourNoColourMatch = "no_colour_match"
	drawFourAnyTime       = "any_time"
	modeCatch             = "catch"
	modeAuto              = "auto"
	targetSingle          = "single"
)

// Labels of this ruleset's own random draws, besides sdk.DrawShuffle.
const (
	// DrawStartCard places a special card turned up to start the pile back into the deck (L-2):
	// the draw picks its position, 0 being the top.
	DrawStartCard = "start_card"
)

// Rules is the Last Card ruleset. The zero value is ready to use; it holds no game (the state
// does), so one Rules serves any number of games at once.
type Rules struct{}

// New returns the Last Card ruleset.
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
	{
		Name: OptStackDrawTwo, Label: "Stack Draw Twos", Type: sdk.OptionBool, Default: true,
		Description: "A player facing a Draw Two may answer with a Draw Two of any colour, passing the penalty on increased by two.",
	},
	{
		Name: OptDrawFour, Label: "Joker Draw Four", Type: sdk.OptionChoice, Default: drawFourNoColourMatch,
		Choices:      []string{drawFourNoColourMatch, drawFourAnyTime},
		ChoiceLabels: map[string]string{drawFourNoColourMatch: "Only without the colour in play", drawFourAnyTime: "Any time"},
		Description:  "When a Joker Draw Four may be played: only when you hold no card of the colour in play, or whenever you like.",
	},
	{
		Name: OptLastCardMode, Label: "Forgotten \"Last card!\"", Type: sdk.OptionChoice, Default: modeCatch,
		Choices:      []string{modeCatch, modeAuto},
		ChoiceLabels: map[string]string{modeCatch: "Others may catch you out", modeAuto: "Automatic penalty"},
		Description:  "Forget to call and an opponent may catch you out until the next player moves (two penalty cards), or you draw the two penalty cards at once (online rooms).",
	},
	{
		Name: OptTarget, Label: "Play to", Type: sdk.OptionChoice, Default: "500",
		Choices:      []string{"500", "200", targetSingle},
		ChoiceLabels: map[string]string{"500": "500 points", "200": "200 points", targetSingle: "One round"},
		Description:  "The score that wins the game, or a single round.",
	},
}

// Info describes Last Card: 2 to 4 seats (L-1), its options, bots of levels 1 to 5 (L-11).
func (r *Rules) Info() sdk.Info {
	return sdk.Info{
		ID:       ID,
		Name:     "Last Card",
		Version:  "1.0.0",
		Summary:  "Match the colour or the value, play your Jokers well, and call \"Last card!\" before you go out.",
		Rules:    rulesMarkdown,
		MinSeats: 2,
		MaxSeats: 4,
		Options:  slices.Clone(options),
		Presets: []sdk.Preset{
			{Name: "Classic", Description: "First to 500 points; Draw Twos stack; a Joker Draw Four only without the colour in play.", Options: map[string]any{OptTarget: "500"}},
			{Name: "Quick game", Description: "First to 200 points.", Options: map[string]any{OptTarget: "200"}},
			{Name: "One round", Description: "A single round: the first out wins.", Options: map[string]any{OptTarget: targetSingle}},
			{Name: "Wild", Description: "Joker Draw Fours any time, first to 200.", Options: map[string]any{OptTarget: "200", OptDrawFour: drawFourAnyTime}},
		},
		BotLevels:    slices.Clone(BotLevels),
		StateVersion: 1, Texts: texts(), RulesText: map[string]string{"fr": rulesFR},
		// The coloured cards' back, and a coloured number, action and Joker in the lobby.
		CardBack:   "color",
		Sample:     []sdk.Card{sdk.LC(sdk.Red, 7), sdk.LC(sdk.Green, sdk.ValueSkip), sdk.Wild},
		EventTexts: maps.Clone(eventTexts),
	}
}

// eventTexts word Last Card's events for the move log (sdk.Info.EventTexts); a penalty's line
// says why by its reason.
var eventTexts = map[string]string{
	"played":       "{seat} played {cards}",
	"drew":         "{seat} drew {cards}",
	"last_card":    "{seat}: LAST CARD!",
	"color_chosen": "{seat} chose {color:choice}",
	"reversed":     "Direction reversed",
	// L-6: with two players a Reverse is a Skip.
	"reversed as=skip":               "{seat} reversed: with two players that skips, {seat} goes again",
	"skipped":                        "{seat} is skipped",
	"caught":                         "{seat} forgot to call LAST CARD: caught out by {by:seat}, +{count:cards}",
	"penalty_drawn":                  "{seat} picked up {count:cards} as a penalty",
	"penalty_drawn reason=no_call":   "{seat} forgot to call LAST CARD: +{count:cards}",
	"penalty_drawn reason=draw_two":  "{seat} picked up {count:cards} for the Draw Two",
	"penalty_drawn reason=draw_four": "{seat} picked up {count:cards} for the Draw Four",
	"penalty_drawn reason=caught":    "{seat} picked up {count:cards} for being caught out",
	"reshuffled":                     "The pile is shuffled into a new deck",
	"won":                            "{seat} wins!",
	"round_scored":                   "{seat} scores {count} points",
	"dealt":                          "Round {round} is dealt",
}

// CheckOptions completes options already validated field by field: every option gets its value
// (a default where none was given). Last Card has no seat-dependent defaults and no option that
// depends on another; it refuses a seat count outside 2-4 (L-1).
func (r *Rules) CheckOptions(seats int, opts sdk.Options) (sdk.Options, error) {
	if seats < 2 || seats > 4 {
		return nil, sdk.OptionErrors{{Field: "seats", Reason: "Last Card is for 2 to 4 seats"}}
	}
	out := sdk.Options{}
	for _, o := range options {
		if v, ok := opts[o.Name]; ok {
			out[o.Name] = v
		} else {
			out[o.Name] = o.Default
		}
	}
	return out, nil
}

// settingsFrom reads the options into Settings, defaults filling any gap.
func settingsFrom(opts sdk.Options) Settings {
	s := Settings{StackDrawTwo: true, DrawFour: drawFourNoColourMatch, LastCardMode: modeCatch, Target: "500"}
	if opts.Has(OptStackDrawTwo) {
		s.StackDrawTwo = opts.Bool(OptStackDrawTwo)
	}
	if v := opts.String(OptDrawFour); v != "" {
		s.DrawFour = v
	}
	if v := opts.String(OptLastCardMode); v != "" {
		s.LastCardMode = v
	}
	if v := opts.String(OptTarget); v != "" {
		s.Target = v
	}
	return s
}

// Start deals the first round: the scenario's deal when given (its pile as laid, or a number card
// turned up when it has none), otherwise seven cards each from the seeded deck and a number card
// turned to start the pile (L-2). The opener is Deal.First, else req.Opener, else seat 0 (L-10).
func (r *Rules) Start(ctx context.Context, req sdk.StartRequest) (*State, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if req.Seats < 2 || req.Seats > 4 {
		return nil, sdk.Refuse(sdk.CodeBadOption, "Last Card is for 2 to 4 seats, got %d", req.Seats)
	}
	s := &State{
		Settings:  settingsFrom(req.Options),
		RNG:       req.RNG.Clone(),
		Phase:     sdk.PhasePlaying,
		Round:     1,
		Direction: 1,
		Called:    make([]bool, req.Seats),
		Exposed:   sdk.NoSeat,
		Scores:    make([]int, req.Seats),
		Winner:    sdk.NoSeat,
	}
	if req.Opener != nil {
		if *req.Opener < 0 || *req.Opener >= req.Seats {
			return nil, sdk.Refuse(sdk.CodeBadAction, "opener %d is not a seat of this %d-seat game", *req.Opener, req.Seats)
		}
		s.Opener = *req.Opener
	}
	if req.Deal == nil {
		deck := Deck()
		s.RNG.ShuffleCards(sdk.DrawShuffle, deck)
		s.Hands = make([][]sdk.Card, req.Seats)
		s.Deck = deck
		s.dealHands()
		if err := s.turnStartCard(); err != nil {
			return nil, err
		}
	} else {
		l, err := req.Deal.Layout(Deck(), req.Seats, &s.RNG)
		if err != nil {
			return nil, err
		}
		if len(l.FaceUp) > 0 || len(l.FaceDown) > 0 {
			return nil, sdk.Refuse(sdk.CodeBadDeal, "deal: Last Card has no face_up or face_down rows")
		}
		s.Hands, s.Pile, s.Deck, s.Out = l.Hands, l.Pile, l.Deck, l.Out
		if s.Hands == nil {
			s.Hands = make([][]sdk.Card, req.Seats)
			s.dealHands()
		}
		for i := range s.Hands {
			if s.Hands[i] == nil {
				s.Hands[i] = []sdk.Card{}
			}
		}
		if len(s.Pile) == 0 {
			if err := s.turnStartCard(); err != nil {
				return nil, err
			}
		}
		if l.First != sdk.NoSeat {
			s.Opener = l.First
		}
	}
	s.Color = colorOf(s.top())
	s.Turn = s.Opener
	return s, nil
}

// colorOf is the colour code of a card, "" for a Joker.
func colorOf(c sdk.Card) string {
	if isJoker(c) || c == 0 {
		return ""
	}
	return string(rune(c.Color()))
}

// dealHands deals HandSize cards to every seat from the top of the deck, one at a time from the
// opener round the table.
func (s *State) dealHands() {
	for i := range s.Hands {
		if s.Hands[i] == nil {
			s.Hands[i] = make([]sdk.Card, 0, HandSize+8)
		}
	}
	for range HandSize {
		for k := range s.seats() {
			seat := (s.Opener + k) % s.seats()
			if len(s.Deck) == 0 {
				return
			}
			s.Hands[seat] = append(s.Hands[seat], s.Deck[0])
			s.Deck = s.Deck[1:]
		}
	}
}

// errNoStartCard is refused when a fixed deal leaves no number card to start the pile with.
var errNoStartCard = sdk.RefuseUnder("L-2", sdk.CodeBadDeal, "deal: the pile is empty and the deck holds no number card to turn up")

// turnStartCard turns cards from the deck until a number card turns up; each special card goes
// back into the deck at a random place (L-2).
func (s *State) turnStartCard() error {
	if !slices.ContainsFunc(s.Deck, isNumber) {
		return errNoStartCard
	}
	for {
		c := s.Deck[0]
		s.Deck = s.Deck[1:]
		if isNumber(c) {
			s.Pile = append(s.Pile, c)
			return nil
		}
		at := s.RNG.Intn(DrawStartCard, len(s.Deck)+1)
		s.Deck = slices.Insert(s.Deck, at, c)
	}
}

// Status tells the host whose move it is: the seat in turn, then (catch mode) every opponent of a
// seat that may be caught out. Last Card sets no deadlines: a catch window closes when the next
// player acts, not on a clock (L-8).
func (r *Rules) Status(s *State) sdk.Status {
	st := sdk.Status{Phase: s.Phase, Seats: s.seats(), Turn: sdk.NoSeat, Winner: s.Winner, Round: s.Round}
	if s.Phase != sdk.PhasePlaying {
		return st
	}
	st.Turn = s.Turn
	st.Actors = []int{s.Turn}
	if s.Exposed != sdk.NoSeat {
		for seat := range s.seats() {
			if seat != s.Turn && seat != s.Exposed {
				st.Actors = append(st.Actors, seat)
			}
		}
	}
	return st
}

// Cards lists every card of the game: hands, pile, deck and out of play.
func (r *Rules) Cards(s *State) []sdk.Card { return s.allCards() }

// Apply applies one action to a clone of the state. A refusal wraps *sdk.RuleError and the state
// given is untouched (it is never touched: the clone takes every change).
func (r *Rules) Apply(ctx context.Context, req sdk.ApplyRequest[*State]) (sdk.ApplyResponse[*State], error) {
	if err := ctx.Err(); err != nil {
		return sdk.ApplyResponse[*State]{}, err
	}
	if req.State == nil {
		return sdk.ApplyResponse[*State]{}, errors.New("lastcard: Apply was given no state")
	}
	t := &turn{s: req.State.clone()}
	if err := t.apply(req.Action); err != nil {
		return sdk.ApplyResponse[*State]{}, err
	}
	return sdk.ApplyResponse[*State]{State: t.s, Events: t.events}, nil
}
