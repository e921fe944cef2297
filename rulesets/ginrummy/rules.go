package ginrummy

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"cardhouse/sdk"
)

// ID is the ruleset id rooms, scenarios and plugins name.
const ID = "ginrummy"

// Option names (GR-6, GR-7, GR-9).
const (
	OptKnockLimit = "knock_limit"
	OptBigGin     = "big_gin"
	OptTarget     = "target"
)

// Points of the scoring (GR-7, GR-9).
const (
	ginBonus      = 25
	bigGinBonus   = 31
	undercutBonus = 25
	gameBonus     = 100
	lineBonus     = 25
)

// Event names: the generic ones of SCENARIOS.md and those of its melds section.
const (
	EvDrew        = "drew"        // Data "from": stock or discard; the card is public from the discard pile
	EvPlayed      = "played"      // a discard, face up on the pile
	EvPassed      = "passed"      // the upcard declined (Data "stage" upcard), or laying off ended (layoff)
	EvTurn        = "turn"        // Seat is now in turn
	EvKnocked     = "knocked"     // Seat knocked; Data "deadwood"
	EvGin         = "gin"         // Seat went gin; Data "big" "true" for big gin
	EvLaidOff     = "laid_off"    // Seat laid Cards off onto Data "target"'s meld Data "meld" (from 0)
	EvUndercut    = "undercut"    // Seat, the defender, undercut the knocker
	EvVoidHand    = "void_hand"   // two cards left in the stock after a discard: no score (GR-8)
	EvHandScored  = "hand_scored" // Seat scored Count points; Data "scores" the totals
	EvWon         = "won"         // Seat won the hand (Data "game" "true": and the game)
	EvGameBonuses = "game_scored" // the game's bonuses are added (GR-9); Data "winner", "shutout"
	EvDealt       = "dealt"       // a new hand is dealt; Seat the dealer, Cards the upcard
)

// Refusal codes of Gin Rummy's own refusals.
const (
	CodeWrongStage  = "wrong_stage"
	CodeMustDraw    = "must_draw"
	CodeMustDiscard = "must_discard"
	CodeTakenCard   = "taken_card"
	CodeEmptyPile   = "empty_pile"
	CodeTooMuch     = "too_much_deadwood"
	CodeNoMeld      = "no_meld"
	CodeHandOver    = "hand_over"
	CodeGameOn      = "hand_in_progress"
)

// HookMayKnock is the question Gin Rummy asks house rules before a knock: may seat knock with
// this deadwood? Answering "yes" or "no" overrides the knock limit.
const HookMayKnock = "may_knock"

// Rules is the Gin Rummy ruleset. The zero value is ready to use; it holds no game.
type Rules struct{}

// New returns the Gin Rummy ruleset.
func New() *Rules { return &Rules{} }

var (
	_ sdk.Ruleset[*State]     = (*Rules)(nil)
	_ sdk.OptionChecker       = (*Rules)(nil)
	_ sdk.Redealer[*State]    = (*Rules)(nil)
	_ sdk.TableEditor[*State] = (*Rules)(nil)
	_ sdk.HouseHooks          = (*Rules)(nil)
)

var options = []sdk.Option{
	{Name: OptTarget, Label: "Play to", Type: sdk.OptionInt, Min: 10, Max: 500, Default: 100,
		Description: "The score that ends the game. The winner then gets 100 points more (200 if the other player won no hand) and each player 25 points per hand won."},
	{Name: OptKnockLimit, Label: "Knock with at most", Type: sdk.OptionInt, Min: 0, Max: 10, Default: 10,
		Description: "The most deadwood points a player may hold when knocking. 0 allows only gin."},
	{Name: OptBigGin, Label: "Big gin", Type: sdk.OptionBool, Default: false,
		Description: "A player whose eleven cards all make melds after drawing may lay them all down at once for 31 points plus the other player's deadwood."},
}

// Info describes Gin Rummy: two seats, its options and presets, its rules page and event words.
func (r *Rules) Info() sdk.Info {
	return sdk.Info{
		ID: ID, Name: "Gin Rummy", Version: "1.0.0",
		Summary:  "Draw and discard to build sets and runs, then knock when your loose cards are low, or go gin with none.",
		Rules:    rulesMarkdown,
		MinSeats: Seats, MaxSeats: Seats, Options: slices.Clone(options),
		Presets: []sdk.Preset{
			{Name: "Classic", Description: "First to 100 points; knock with 10 or less.", Options: map[string]any{OptTarget: 100}},
			{Name: "Quick game", Description: "First to 50 points.", Options: map[string]any{OptTarget: 50}},
			{Name: "Long game with big gin", Description: "First to 250 points; eleven cards in melds score big gin.", Options: map[string]any{OptTarget: 250, OptBigGin: true}},
			{Name: "Gin only", Description: "No knocking: only gin ends a hand; first to 100.", Options: map[string]any{OptKnockLimit: 0}},
		},
		BotLevels: []int{1, 2, 3, 4, 5}, StateVersion: 1, CardBack: "french", Texts: texts(),
		EventTexts: map[string]string{
			EvDrew:        "{seat} drew {cards} from the {from}",
			EvPlayed:      "{seat} discarded {cards}",
			EvPassed:      "{seat} passed",
			EvKnocked:     "{seat} knocked with {deadwood} deadwood",
			EvGin:         "{seat} went gin!",
			EvLaidOff:     "{seat} laid off {cards}",
			EvUndercut:    "{seat} undercut the knock!",
			EvVoidHand:    "Only two cards are left in the stock: the hand is void",
			EvHandScored:  "{seat} scored {count} points",
			EvWon:         "{seat} won the hand",
			EvGameBonuses: "The game is over: bonuses are added",
			EvDealt:       "{seat} dealt a new hand",
		},
	}
}

// CheckOptions completes options already validated field by field with the defaults, and refuses
// a seat count other than two.
func (r *Rules) CheckOptions(seats int, opts sdk.Options) (sdk.Options, error) {
	if seats != Seats {
		return nil, sdk.OptionErrors{{Field: "seats", Reason: fmt.Sprintf("Gin Rummy is for 2 players, got %d", seats)}}
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

// HouseHooks declares the question a house rule may answer: may_knock (args seat, deadwood,
// limit; answer "yes" or "no").
func (r *Rules) HouseHooks() []sdk.HouseHook {
	return []sdk.HouseHook{{Name: HookMayKnock, Description: "May this player knock with this much deadwood? Answer yes or no; no answer keeps the knock limit.",
		Args: []string{"seat", "deadwood", "limit"}}}
}

// Start deals the first hand: the scenario's deal when given (a scenario's first seat is the
// non-dealer; missing hands are dealt from its deck and a missing pile is turned from it),
// otherwise a shuffled deal of ten cards each and an upcard. The non-dealer is Deal.First, else
// req.Opener, else seat 0.
func (r *Rules) Start(ctx context.Context, req sdk.StartRequest) (*State, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	opts, err := r.CheckOptions(req.Seats, req.Options)
	if err != nil {
		return nil, &sdk.RuleError{Code: sdk.CodeBadOption, Reason: err.Error()}
	}
	s := &State{
		KnockLimit: opts.Int(OptKnockLimit), BigGin: opts.Bool(OptBigGin), Target: opts.Int(OptTarget),
		RNG: req.RNG.Clone(), Game: 1, Hand: 1, Scores: make([]int, Seats), HandsWon: make([]int, Seats),
	}
	first := 0
	if req.Opener != nil {
		if *req.Opener < 0 || *req.Opener >= Seats {
			return nil, sdk.Refuse(sdk.CodeBadDeal, "opener %d is not a seat of this 2-seat game", *req.Opener)
		}
		first = *req.Opener
	}
	if req.Deal == nil {
		s.Dealer = 1 - first
		s.dealRandom()
		return s, nil
	}
	l, err := req.Deal.Layout(sdk.FrenchDeck(1, 0), Seats, &s.RNG)
	if err != nil {
		return nil, err
	}
	if len(l.FaceUp) > 0 || len(l.FaceDown) > 0 {
		return nil, sdk.Refuse(sdk.CodeBadDeal, "deal: Gin Rummy has no face_up or face_down rows")
	}
	if l.First != sdk.NoSeat {
		first = l.First
	}
	s.Dealer = 1 - first
	s.reset()
	s.Stock, s.Pile, s.Out = l.Deck, l.Pile, l.Out
	if l.Hands != nil {
		s.Hands = l.Hands
	} else {
		s.dealHands()
	}
	if len(s.Pile) == 0 && len(s.Stock) > 0 {
		s.Pile = []sdk.Card{s.Stock[0]}
		s.Stock = s.Stock[1:]
	}
	return s, nil
}

// reset clears the table for a new hand dealt by s.Dealer (no cards moved).
func (s *State) reset() {
	s.Hands = [][]sdk.Card{{}, {}}
	s.Known = [][]sdk.Card{{}, {}}
	s.Melds, s.Dead, s.KnockCard, s.Knocker, s.Gin = nil, nil, 0, sdk.NoSeat, ""
	s.Stock, s.Pile, s.Out = []sdk.Card{}, []sdk.Card{}, nil
	s.Turn, s.Stage, s.Passes, s.Drawn, s.Taken, s.Void, s.MustStock = s.nonDealer(), StageUpcard, 0, false, 0, false, false
	s.Phase, s.Winner = sdk.PhasePlaying, sdk.NoSeat
}

// dealRandom shuffles the 52 cards, deals ten to each seat one at a time from the non-dealer on
// and turns the upcard (GR-1).
func (s *State) dealRandom() {
	s.reset()
	s.Stock = sdk.FrenchDeck(1, 0)
	s.RNG.ShuffleCards(sdk.DrawShuffle, s.Stock)
	s.dealHands()
	s.Pile = []sdk.Card{s.Stock[0]}
	s.Stock = s.Stock[1:]
}

func (s *State) dealHands() {
	for range HandSize {
		for i := range Seats {
			seat := (s.nonDealer() + i) % Seats
			if len(s.Stock) == 0 {
				return
			}
			s.Hands[seat] = append(s.Hands[seat], s.Stock[0])
			s.Stock = s.Stock[1:]
		}
	}
}

// Apply applies one action to a clone of the state: the input is never modified, and a refused
// action returns the input state and an error wrapping *sdk.RuleError.
func (r *Rules) Apply(ctx context.Context, req sdk.ApplyRequest[*State]) (sdk.ApplyResponse[*State], error) {
	if err := ctx.Err(); err != nil {
		return sdk.ApplyResponse[*State]{State: req.State}, err
	}
	if req.State == nil {
		return sdk.ApplyResponse[*State]{}, errors.New("ginrummy: no state to apply an action to")
	}
	t := &turn{s: req.State.clone(), ask: req.AskHouse}
	if err := t.apply(req.Action); err != nil {
		return sdk.ApplyResponse[*State]{State: req.State}, err
	}
	return sdk.ApplyResponse[*State]{State: t.s, Events: t.evs}, nil
}

// turn is one action being applied: the state (a clone) and the events so far.
type turn struct {
	s   *State
	evs []sdk.Event
	ask func(string, map[string]string) (string, bool)
}

func (t *turn) emit(e sdk.Event) { t.evs = append(t.evs, e) }

func refuse(code, format string, args ...any) error { return sdk.Refuse(code, format, args...) }

func (t *turn) apply(a sdk.Action) error {
	s := t.s
	if a.Type == sdk.ActDeal {
		if a.Seat != sdk.Host {
			return refuse(sdk.CodeBadAction, "only the host deals")
		}
		return t.deal()
	}
	if a.Seat < 0 || a.Seat >= Seats {
		return refuse(sdk.CodeBadAction, "seat %d is not a seat of this 2-player game", a.Seat)
	}
	switch s.Phase {
	case sdk.PhaseGameOver:
		return refuse(sdk.CodeGameOver, "the game is over: the host deals a new one")
	case sdk.PhaseRoundOver:
		return refuse(CodeHandOver, "the hand is over: the host deals the next one")
	}
	switch a.Type {
	case sdk.ActDraw, sdk.ActPass, sdk.ActDiscard, sdk.ActKnock, sdk.ActLayoff:
	default:
		return refuse(sdk.CodeBadAction, "Gin Rummy has no action %q (it has draw, pass, discard, knock and layoff)", a.Type)
	}
	if a.Seat != s.Turn {
		return refuse(sdk.CodeNotYourTurn, "it is the other player's turn")
	}
	switch a.Type {
	case sdk.ActDraw:
		return t.draw(a)
	case sdk.ActPass:
		return t.pass(a)
	case sdk.ActDiscard:
		return t.discard(a)
	case sdk.ActKnock:
		return t.knock(a)
	}
	return t.layoff(a)
}

// drawFrom is the pile a draw names: From, or the choice of a generic client (Args["choice"]).
func drawFrom(a sdk.Action) string {
	if a.From != "" {
		return a.From
	}
	return a.Args["choice"]
}

func (t *turn) draw(a sdk.Action) error {
	s := t.s
	from := drawFrom(a)
	if from != sdk.FromStock && from != sdk.FromDiscard {
		return refuse(sdk.CodeBadAction, "draw from the stock or the discard pile (got %q)", from)
	}
	switch {
	case s.Stage == StageLayoff:
		return refuse(CodeWrongStage, "the hand is being laid off: lay off or pass")
	case s.Drawn:
		return refuse(CodeMustDiscard, "you have drawn already: discard a card or knock")
	case s.Stage == StageUpcard && from == sdk.FromStock:
		return refuse(CodeWrongStage, "first take the upcard or pass")
	case s.MustStock && from == sdk.FromDiscard:
		return refuse(CodeWrongStage, "both players passed on the upcard: draw from the stock")
	}
	seat := a.Seat
	var c sdk.Card
	if from == sdk.FromDiscard {
		if len(s.Pile) == 0 {
			return refuse(CodeEmptyPile, "the discard pile is empty: draw from the stock")
		}
		c = s.Pile[len(s.Pile)-1]
		s.Pile = s.Pile[:len(s.Pile)-1]
		s.Taken = c
		s.Known[seat] = append(s.Known[seat], c)
		t.emit(sdk.Event{Name: EvDrew, Seat: seat, Cards: []sdk.Card{c}, Count: 1, Data: map[string]string{"from": "discard pile"}})
	} else {
		if len(s.Stock) == 0 {
			return refuse(CodeEmptyPile, "the stock is empty")
		}
		c = s.Stock[0]
		s.Stock = s.Stock[1:]
		t.emit(sdk.Event{Name: EvDrew, Seat: seat, Cards: []sdk.Card{c}, Count: 1, Private: true, Data: map[string]string{"from": "stock"}})
	}
	s.Hands[seat] = append(s.Hands[seat], c)
	s.Drawn, s.Stage, s.MustStock = true, StagePlay, false
	return nil
}
