package drugs

import (
	"context"
	_ "embed"
	"fmt"
	"maps"
	"slices"

	"cardhouse/sdk"
)

// ID is the ruleset id of DRUGS.
const ID = "drugs"

// Limits of the game.
const (
	// HandTarget is the hand a player draws back up to after playing (D-6), and the number of
	// cards dealt to each hand, face-up row and face-down row.
	HandTarget = 3
	// StallLimit ends a game that no longer moves: after this many pick-ups with no burn in
	// between, the game is over and the seat holding the fewest cards wins (DR-11 in doc.go).
	// Measured over 200 bot games per setting (2, 4, 8 seats, chaos off and on): at 4-8 seats no
	// game came near it (longest stretch 68); at 2 seats level-1 (random) bots reached it in 1-3
	// games of 200, and two level-2 bots once fell into a true cycle (seed 131: the same cards
	// passed back and forth forever), which this rule ends.
	StallLimit = 200
	// LogLimit bounds the event log kept in the state for Historian: about the last 20 plays. The
	// log travels in every state blob (JSON-encoded on every call), so it is kept short.
	LogLimit = 64
)

// Names of the option fields.
const (
	OptOverdose = "overdose"
	OptChaos    = "chaos"
	// OptPauseMinutes is how long a game with every player dropped waits before it is abandoned
	// (D-12). The platform keeps that clock; the rules never read it.
	OptPauseMinutes = "pause_minutes"
)

// DefaultPauseMinutes is D-12's pause before an abandoned game ends.
const DefaultPauseMinutes = 5

// Labelled draws of DRUGS beyond sdk.DrawShuffle and sdk.DrawFirstPlayer.
const (
	// DrawJokerEffect rolls the effect of a Joker play (D-10).
	DrawJokerEffect = "joker_effect"
	// DrawJokerReturn places a Joker turned up for a face-up or face-down row back into the deck
	// (D-11).
	DrawJokerReturn = "joker_return"
)

// Joker effects (D-10), in the order the labelled draw `joker_effect` chooses among them.
const (
	EffectHandSwap       = "hand_swap"
	EffectEveryonePasses = "everyone_passes"
	EffectSkip           = "skip"
	EffectEverybodyPays  = "everybody_pays"
	EffectEveryoneDumps  = "everyone_dumps"
	EffectTimeBomb       = "time_bomb"
	EffectGift           = "gift"
)

// Effects lists the Joker effects in the order of the `joker_effect` draw.
var Effects = []string{EffectHandSwap, EffectEveryonePasses, EffectSkip, EffectEverybodyPays, EffectEveryoneDumps, EffectTimeBomb, EffectGift}

// Event names DRUGS adds to the SDK's common ones.
const (
	EvPlayed   = "played"
	EvDrew     = "drew"
	EvTurn     = "turn"
	EvSkipped  = "skipped"
	EvReversed = "reversed"
	EvWon      = "won"
	EvBurned   = "burned"
	EvOverdose = "overdose"
	EvPickedUp = "picked_up"
	EvFlipped  = "flipped"
	EvJoker    = "joker"
	EvGift     = "gift"
	EvDumped   = "dumped"
)

// Refusal codes of DRUGS (the SDK's own: sdk.CodeNotYourTurn, sdk.CodeGameOver, ...).
const (
	CodeNoMatch     = "no_match"
	CodeMixedRanks  = "mixed_ranks"
	CodeGiftPending = "gift_pending"
	CodeWrongZone   = "wrong_zone"
	CodeEmptySlot   = "empty_slot"
	CodePileEmpty   = "pile_empty"
	CodeBadTarget   = "bad_target"
)

//go:embed rules.md
var rulesText string

// Rules is the DRUGS ruleset; the zero value is ready to use.
type Rules struct{}

// New returns the DRUGS ruleset.
func New() *Rules { return &Rules{} }

var (
	_ sdk.Ruleset[*State]     = (*Rules)(nil)
	_ sdk.OptionChecker       = (*Rules)(nil)
	_ sdk.Redealer[*State]    = (*Rules)(nil)
	_ sdk.Bots                = (*Rules)(nil)
	_ sdk.Historian[*State]   = (*Rules)(nil)
	_ sdk.TableEditor[*State] = (*Rules)(nil)
)

// eventTexts word DRUGS' events for the move log (sdk.Info.EventTexts), a Chaos Joker's by its
// effect.
var eventTexts = map[string]string{
	EvPlayed:                              "{seat} played {cards}",
	EvDrew:                                "{seat} drew {cards}",
	EvSkipped:                             "{seat} is skipped",
	EvReversed:                            "Direction reversed",
	EvWon:                                 "{seat} wins!",
	EvBurned:                              "{seat} burned the pile!",
	EvOverdose:                            "OVERDOSE! {seat} burns the pile",
	EvPickedUp:                            "{seat} picked up the pile ({count})",
	EvFlipped:                             "{seat} flipped {cards}",
	EvGift:                                "{seat} gave {cards} to {to:seat}",
	EvDumped:                              "{seat} dumped {cards}",
	EvJoker:                               "Chaos Joker: {effect}",
	EvJoker + " effect=" + EffectHandSwap: "Chaos Joker: Hand swap! Hands trade with the next player",
	EvJoker + " effect=" + EffectEveryonePasses: "Chaos Joker: Everyone passes! Every hand moves one seat along",
	EvJoker + " effect=" + EffectSkip:           "Chaos Joker: Skip! The next player loses their turn",
	EvJoker + " effect=" + EffectEverybodyPays:  "Chaos Joker: Everybody pays! Every other player draws a card",
	EvJoker + " effect=" + EffectEveryoneDumps:  "Chaos Joker: Everyone dumps! Lowest cards onto the pile",
	EvJoker + " effect=" + EffectTimeBomb:       "Chaos Joker: Time bomb! Answer with 2, 3, 10 or Joker, or eat the pile",
	EvJoker + " effect=" + EffectGift:           "Chaos Joker: Gift! A card is given away",
}

// Info describes DRUGS: 2-8 seats, options `overdose`, `chaos` and `pause_minutes`, bots of levels 1 to 5.
func (*Rules) Info() sdk.Info {
	return sdk.Info{
		ID:      ID,
		Name:    "DRUGS",
		Version: "1.0.0",
		Summary: "Shithead/Palace: play equal or higher, burn with 10s and overdoses, and in Chaos mode roll a Joker's effect.",
		Rules:   rulesText,
		// D-1.
		MinSeats: 2,
		MaxSeats: 8,
		// A burning 10, a resetting 2 and a 7, for the lobby.
		Sample:     []sdk.Card{sdk.French(10, sdk.Spades), sdk.French(2, sdk.Hearts), sdk.French(7, sdk.Diamonds)},
		EventTexts: maps.Clone(eventTexts),
		Options: []sdk.Option{
			{Name: OptOverdose, Label: "Overdose", Type: sdk.OptionInt, Default: 4, Min: 3, Max: 8,
				Description: "This many cards of one rank in a row on top of the pile burn it, and the player who completed the run goes again. With one deck (2-4 players) at most 4."},
			{Name: OptChaos, Label: "Chaos mode", Type: sdk.OptionBool, Default: false,
				Description: "Two Jokers per deck; each Joker played does something random."},
			{Name: OptPauseMinutes, Label: "Wait for dropped players (minutes)", Type: sdk.OptionInt, Default: DefaultPauseMinutes, Min: 1, Max: 60,
				Description: "When everyone has dropped, the game waits this long for someone to come back before it is given up."},
		},
		Presets: []sdk.Preset{
			{Name: "Classic", Description: "The game as the rules tell it: no Jokers, four of a kind overdose.", Options: map[string]any{OptChaos: false, OptOverdose: 4}},
			{Name: "Chaos", Description: "Jokers in the deck, each rolling a random effect.", Options: map[string]any{OptChaos: true, OptOverdose: 4}},
			{Name: "Quick burns", Description: "Chaos, and three of a kind already overdose.", Options: map[string]any{OptChaos: true, OptOverdose: 3}},
		},
		BotLevels:    []int{1, 2, 3, 4, 5},
		StateVersion: 1, Texts: texts(),
	}
}

// decks is the number of 52-card decks for a table of seats (D-1).
func decks(seats int) int {
	if seats >= 5 {
		return 2
	}
	return 1
}

// CheckOptions completes the options and refuses an overdose no table of that size can reach:
// one deck (2-4 seats) holds only four cards of a rank.
func (*Rules) CheckOptions(seats int, opts sdk.Options) (sdk.Options, error) {
	out := sdk.Options{}
	for k, v := range opts {
		out[k] = v
	}
	if !out.Has(OptOverdose) {
		out[OptOverdose] = 4
	}
	if !out.Has(OptChaos) {
		out[OptChaos] = false
	}
	if !out.Has(OptPauseMinutes) {
		out[OptPauseMinutes] = DefaultPauseMinutes
	}
	if od, most := out.Int(OptOverdose), 4*decks(seats); od > most {
		return nil, sdk.OptionErrors{{Field: OptOverdose, Reason: fmt.Sprintf("%d can never happen at %d seats: %d deck(s) hold only %d cards of a rank; choose 3 to %d", od, seats, decks(seats), most, most)}}
	}
	return out, nil
}

// cardSet is every card of a game at seats seats.
func cardSet(seats int, chaos bool) []sdk.Card {
	jokers := 0
	if chaos {
		jokers = 2
	}
	return sdk.FrenchDeck(decks(seats), jokers)
}

// Start deals a game: at random from the seeded RNG, or the scenario's Deal. The first player is
// Deal.First, else drawn with the label `first_player` (D-9): every game, so StartRequest.Opener
// (a host's rotation carried over from the last game) is not used.
func (r *Rules) Start(ctx context.Context, req sdk.StartRequest) (*State, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if req.Seats < 2 || req.Seats > 8 {
		return nil, sdk.Refuse(sdk.CodeBadOption, "DRUGS is for 2 to 8 seats, got %d", req.Seats)
	}
	od := req.Options.Int(OptOverdose)
	if od == 0 {
		od = 4
	}
	s := &State{
		Seats:       req.Seats,
		Overdose:    od,
		Chaos:       req.Options.Bool(OptChaos),
		Game:        1,
		Direction:   1,
		GiftPending: sdk.NoSeat,
		Winner:      sdk.NoSeat,
		Phase:       sdk.PhasePlaying,
		RNG:         req.RNG.Clone(),
	}
	first := sdk.NoSeat
	if req.Deal != nil {
		f, err := s.dealFixed(req.Deal)
		if err != nil {
			return nil, err
		}
		if f != sdk.NoSeat {
			first = f
		}
	} else {
		s.dealRandom()
	}
	var evs []sdk.Event
	s.begin(first, &evs)
	s.record(evs)
	return s, nil
}

// dealRandom shuffles the game's cards and deals 3 face-down, 3 face-up and 3 in hand to each
// seat, putting back any Joker turned up for a row (D-11).
func (s *State) dealRandom() {
	s.Deck = cardSet(s.Seats, s.Chaos)
	s.RNG.ShuffleCards(sdk.DrawShuffle, s.Deck)
	s.Hands = make([][]sdk.Card, s.Seats)
	s.FaceUp = make([][]sdk.Card, s.Seats)
	s.FaceDown = make([]Row, s.Seats)
	for i := range s.Seats {
		s.FaceDown[i] = Row(s.takeRow(HandTarget))
	}
	for i := range s.Seats {
		s.FaceUp[i] = s.takeRow(HandTarget)
	}
	for i := range s.Seats {
		s.Hands[i] = s.takeDeck(HandTarget)
	}
	s.Pile = []sdk.Card{}
	s.Burned = []sdk.Card{}
}

// takeDeck takes up to n cards from the top of the deck.
func (s *State) takeDeck(n int) []sdk.Card {
	n = min(n, len(s.Deck))
	out := append([]sdk.Card{}, s.Deck[:n]...)
	s.Deck = s.Deck[n:]
	return out
}

// takeRow takes up to n cards for a face-up or face-down row: a Joker turned up goes back into
// the deck at a random place and another card is taken (D-11). It stops when only Jokers are left.
func (s *State) takeRow(n int) []sdk.Card {
	out := []sdk.Card{}
	for len(out) < n && len(s.Deck) > 0 {
		c := s.Deck[0]
		if c != sdk.Joker {
			out = append(out, c)
			s.Deck = s.Deck[1:]
			continue
		}
		rest := s.Deck[1:]
		j := slices.IndexFunc(rest, func(c sdk.Card) bool { return c != sdk.Joker })
		if j < 0 {
			break // only Jokers left
		}
		// Back in at random below the first card that is not a Joker, so the next card taken
		// differs and the loop ends whatever the draws are.
		at := j + 1 + s.RNG.Intn(DrawJokerReturn, len(rest)-j)
		d := make([]sdk.Card, 0, len(s.Deck))
		d = append(d, rest[:at]...)
		d = append(d, sdk.Joker)
		d = append(d, rest[at:]...)
		s.Deck = d
	}
	return out
}

// dealFixed lays out a scenario's deal. A zone the deal leaves out entirely (hands, face_up or
// face_down) is dealt from the deck as a random deal would; a zone it names is taken as given.
func (s *State) dealFixed(d *sdk.Deal) (int, error) {
	l, err := d.Layout(cardSet(s.Seats, s.Chaos), s.Seats, &s.RNG)
	if err != nil {
		return sdk.NoSeat, err
	}
	for name, rows := range map[string][][]sdk.Card{"face_up": l.FaceUp, "face_down": l.FaceDown} {
		for seat, row := range rows {
			for _, c := range row {
				if c == sdk.Joker {
					return sdk.NoSeat, sdk.RefuseUnder("D-11", sdk.CodeBadDeal, "deal: %s of seat %d names JK: Jokers are never dealt face up or face down", name, seat)
				}
			}
		}
	}
	s.Pile = append([]sdk.Card{}, l.Pile...)
	s.Deck = append([]sdk.Card{}, l.Deck...)
	s.Out = l.Out
	s.Burned = []sdk.Card{}
	s.FaceDown = make([]Row, s.Seats)
	for i := range s.Seats {
		if l.FaceDown != nil {
			s.FaceDown[i] = Row(l.FaceDown[i])
		} else {
			s.FaceDown[i] = Row(s.takeRow(HandTarget))
		}
	}
	s.FaceUp = make([][]sdk.Card, s.Seats)
	for i := range s.Seats {
		if l.FaceUp != nil {
			s.FaceUp[i] = l.FaceUp[i]
		} else {
			s.FaceUp[i] = s.takeRow(HandTarget)
		}
	}
	s.Hands = make([][]sdk.Card, s.Seats)
	for i := range s.Seats {
		if l.Hands != nil {
			s.Hands[i] = l.Hands[i]
		} else {
			s.Hands[i] = s.takeDeck(HandTarget)
		}
	}
	return l.First, nil
}

// begin opens the game with first (drawing one with `first_player` when it is NoSeat). A seat
// dealt no card at all has won before anyone moves.
func (s *State) begin(first int, evs *[]sdk.Event) {
	if first == sdk.NoSeat {
		first = s.RNG.Intn(sdk.DrawFirstPlayer, s.Seats)
	}
	s.Turn = first
	for k := range s.Seats {
		if seat := s.next(first, k); s.holding(seat) == 0 {
			s.win(seat, "no_cards", evs)
			return
		}
	}
	s.startTurn(evs)
}

// Cards returns every card of the game wherever it lies.
func (*Rules) Cards(s *State) []sdk.Card { return s.allCards() }

// Apply applies one action to a clone of the state. A refused action returns an error wrapping
// *sdk.RuleError and leaves the state as it was.
func (r *Rules) Apply(ctx context.Context, req sdk.ApplyRequest[*State]) (sdk.ApplyResponse[*State], error) {
	if err := ctx.Err(); err != nil {
		return sdk.ApplyResponse[*State]{}, err
	}
	if req.State == nil {
		return sdk.ApplyResponse[*State]{}, fmt.Errorf("drugs: Apply without a state")
	}
	s := req.State.Clone()
	evs, err := s.apply(req.Action)
	if err != nil {
		return sdk.ApplyResponse[*State]{}, err
	}
	s.record(evs)
	return sdk.ApplyResponse[*State]{State: s, Events: evs}, nil
}

// record appends events to the bounded log, all but "turn" (the next event says whose it was).
func (s *State) record(evs []sdk.Event) {
	if s.Simulated {
		return
	}
	for _, e := range evs {
		if e.Name != EvTurn {
			s.Log = append(s.Log, e)
		}
	}
	if over := len(s.Log) - LogLimit; over > 0 {
		s.Log = append([]sdk.Event(nil), s.Log[over:]...)
	}
}
