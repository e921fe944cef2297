package hearts

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"cardhouse/sdk"
)

// ID is the ruleset id of Hearts.
const ID = "hearts"

// Refusal codes of Hearts, beside the SDK's own.
const (
	CodeWrongStage   = "wrong_stage"
	CodeWrongCount   = "wrong_count"
	CodeAlreadyChose = "already_chosen"
	CodeTwoClubs     = "two_of_clubs_leads"
	CodeFollowSuit   = "follow_suit"
	CodeFirstTrick   = "no_points_first_trick"
	CodeNotBroken    = "hearts_not_broken"
	CodeHandOver     = "hand_over"
	CodeNotOver      = "hand_in_progress"
	CodeNoDeadline   = "no_deadline"
)

// HookScoreHand is the question Hearts asks house rules at the end of every hand, once per seat:
// what does this seat score for the hand?
const HookScoreHand = "score_hand"

// Rules is the Hearts ruleset; it keeps nothing between calls.
type Rules struct{}

// New returns the Hearts ruleset.
func New() *Rules { return &Rules{} }

var (
	_ sdk.Ruleset[*State]     = (*Rules)(nil)
	_ sdk.Redealer[*State]    = (*Rules)(nil)
	_ sdk.TableEditor[*State] = (*Rules)(nil)
	_ sdk.Ender[*State]       = (*Rules)(nil)
	_ sdk.Historian[*State]   = (*Rules)(nil)
	_ sdk.Bots                = (*Rules)(nil)
	_ sdk.HouseHooks          = (*Rules)(nil)
)

// Info describes Hearts: four seats, its options (HE-3, HE-8, HE-9), presets, the rules page,
// the move log's sentences and the bot levels.
func (r *Rules) Info() sdk.Info {
	return sdk.Info{
		ID: ID, Name: "Hearts", Version: "1.0.0",
		Summary:  "Avoid taking hearts and the queen of spades; the lowest score wins.",
		Rules:    rulesText,
		MinSeats: Seats, MaxSeats: Seats,
		Options: []sdk.Option{
			{Name: "passing", Label: "Pass three cards", Type: sdk.OptionBool, Default: true,
				Description: "Before each hand everyone passes three cards: to the left, to the right, across, then no pass, and round again. Off: every hand is played as dealt."},
			{Name: "moon", Label: "Shooting the moon", Type: sdk.OptionChoice, Default: MoonAdd,
				Choices:      []string{MoonAdd, MoonSubtract},
				ChoiceLabels: map[string]string{MoonAdd: "Everyone else scores 26", MoonSubtract: "The shooter takes 26 off"},
				Description:  "What happens when one player takes every heart and the queen of spades."},
			{Name: "target", Label: "Game ends at", Type: sdk.OptionInt, Default: 100, Min: 10, Max: 500,
				Description: "The game ends after the hand in which someone reaches this many points; the lowest score wins."},
		},
		Presets: []sdk.Preset{
			{Name: "Classic", Description: "Pass three cards, game to 100, a moon shot gives everyone else 26.", Options: map[string]any{}},
			{Name: "Quick game", Description: "The classic rules, but the game ends at 50 points.", Options: map[string]any{"target": 50}},
			{Name: "No passing", Description: "Every hand is played as dealt, game to 100.", Options: map[string]any{"passing": false}},
			{Name: "Old moon", Description: "A moon shot takes 26 off the shooter's score instead.", Options: map[string]any{"moon": MoonSubtract}},
		},
		BotLevels:    []int{1, 2, 3, 4, 5},
		StateVersion: 1, Texts: texts(),
		CardBack: "french",
		EventTexts: map[string]string{
			"dealt":         "Hand {hand} is dealt: {pass}",
			"passed":        "{seat} passed {cards} to {target}",
			"received":      "{seat} received {cards} from {target}",
			"played":        "{seat} played {cards}",
			"hearts_broken": "Hearts are broken",
			"trick_won":     "{seat} took the trick ({points} points)",
			"moon":          "{seat} shot the moon!",
			"hand_scored":   "Hand {hand} is scored",
			"won":           "{seat} wins with {score} points",
		},
	}
}

// HouseHooks declares the question Hearts asks house rules: score_hand, once per seat at the end
// of each hand, answered with the number of points the seat scores for the hand (a classic house
// rule: the jack of diamonds takes 10 off).
func (r *Rules) HouseHooks() []sdk.HouseHook {
	return []sdk.HouseHook{{
		Name: HookScoreHand,
		Description: "At the end of each hand, once per seat: the points this seat scores for the hand. " +
			"Args: seat, points (the score by the rules, moon included), cards (the cards the seat took, codes " +
			"separated by spaces), moon (\"true\" when this seat shot the moon). Answer a whole number; no answer keeps the rules' score.",
		Args: []string{"seat", "points", "cards", "moon"},
	}}
}

// Start deals the first hand: a fixed deal (a scenario's) when given, else a shuffled deck.
func (r *Rules) Start(_ context.Context, req sdk.StartRequest) (*State, error) {
	if req.Seats != Seats {
		return nil, sdk.Refuse(sdk.CodeBadOption, "Hearts is played by exactly 4 players, not %d", req.Seats)
	}
	s := &State{
		Passing: req.Options.Bool("passing"), Moon: req.Options.String("moon"), Target: req.Options.Int("target"),
		Scores: make([]int, Seats), Winner: sdk.NoSeat, RNG: req.RNG,
	}
	if !req.Options.Has("passing") {
		s.Passing = true
	}
	if s.Moon == "" {
		s.Moon = MoonAdd
	}
	if s.Target == 0 {
		s.Target = 100
	}
	s.Hand = 1
	if req.Deal == nil {
		s.dealHand()
		return s, nil
	}
	l, err := req.Deal.Layout(sdk.FrenchDeck(1, 0), Seats, &s.RNG)
	if err != nil {
		return nil, err
	}
	if len(l.Pile) > 0 || len(l.FaceUp) > 0 || len(l.FaceDown) > 0 {
		return nil, sdk.Refuse(sdk.CodeBadDeal, "deal: Hearts has only hands (no pile, face_up or face_down)")
	}
	hands := l.Hands
	if hands == nil {
		return nil, sdk.Refuse(sdk.CodeBadDeal, "deal: Hearts needs the players' hands")
	}
	for seat, h := range hands {
		if len(h) != len(hands[0]) || len(h) == 0 {
			return nil, sdk.Refuse(sdk.CodeBadDeal, "deal: every hand must hold the same number of cards (at least one); seat %d holds %d, seat 0 %d", seat, len(h), len(hands[0]))
		}
	}
	s.Out = append(slices.Clone(l.Deck), l.Out...)
	first := 0
	if l.First != sdk.NoSeat {
		first = l.First
	}
	s.Opener = first
	s.beginHand(hands)
	return s, nil
}

// dealHand shuffles all 52 cards and deals 13 to each seat.
func (s *State) dealHand() {
	cards := sdk.FrenchDeck(1, 0)
	s.RNG.ShuffleCards(sdk.DrawShuffle, cards)
	hands := make([][]sdk.Card, Seats)
	for i := range hands {
		hands[i] = slices.Clone(cards[i*HandSize : (i+1)*HandSize])
	}
	s.Out = nil
	s.beginHand(hands)
}

// beginHand starts a hand with these hands: the pass when this hand has one (and every hand holds
// at least three cards, HR-4), else the play.
func (s *State) beginHand(hands [][]sdk.Card) {
	s.Hands = hands
	s.Chosen, s.Passed = nil, nil
	s.Trick, s.Played, s.Takers = nil, nil, nil
	s.Broken = false
	s.Phase, s.Winner, s.Winners = sdk.PhasePlaying, sdk.NoSeat, nil
	if s.passDirection() != PassNone && len(hands[0]) >= PassSize {
		s.Stage, s.Turn = StagePass, sdk.NoSeat
		s.Chosen = make([][]sdk.Card, Seats)
		return
	}
	s.startPlay()
}

// startPlay opens the first trick: the holder of the 2♣ leads (HE-4), else the deal's first seat.
func (s *State) startPlay() {
	s.Stage = StagePlay
	s.Leader = s.holder(twoClubs)
	if s.Leader == sdk.NoSeat {
		s.Leader = s.Opener
	}
	s.Turn = s.Leader
}

// turn is one action being applied to a cloned state, with the events it produces.
type turn struct {
	s   *State
	evs []sdk.Event
	ask func(question string, args map[string]string) (string, bool)
}

func (t *turn) emit(e sdk.Event) { t.evs = append(t.evs, e) }

// Apply applies one action to a copy of the state; a refusal leaves the input as it was.
func (r *Rules) Apply(_ context.Context, req sdk.ApplyRequest[*State]) (sdk.ApplyResponse[*State], error) {
	t := &turn{s: req.State.clone(), ask: req.AskHouse}
	if err := t.apply(req.Action); err != nil {
		return sdk.ApplyResponse[*State]{}, err
	}
	return sdk.ApplyResponse[*State]{State: t.s, Events: t.evs}, nil
}

func (t *turn) apply(a sdk.Action) error {
	s := t.s
	switch a.Type {
	case sdk.ActDeal:
		if a.Seat != sdk.Host {
			return sdk.Refuse(sdk.CodeBadAction, "only the host deals")
		}
		return t.deal()
	case sdk.ActDeadline:
		return sdk.Refuse(CodeNoDeadline, "Hearts sets no deadlines: nothing is due (deadline %q)", a.Deadline)
	}
	if a.Seat < 0 || a.Seat >= Seats {
		return sdk.Refuse(sdk.CodeBadAction, "%s: there is no seat %d at a table of 4", a.Type, a.Seat)
	}
	switch s.Phase {
	case sdk.PhaseGameOver:
		return sdk.Refuse(sdk.CodeGameOver, "the game is over: the host deals a new game")
	case sdk.PhaseRoundOver:
		return sdk.Refuse(CodeHandOver, "the hand is over: the host deals the next hand")
	}
	switch a.Type {
	case sdk.ActPassCards:
		return t.pass(a)
	case sdk.ActPlay:
		return t.play(a)
	}
	return sdk.Refuse(sdk.CodeBadAction, "Hearts has no action %q: players pass three cards (pass_cards) and play one card at a time (play)", a.Type)
}

// pass records a seat's choice of three cards (HE-3); the last choice makes the pass.
func (t *turn) pass(a sdk.Action) error {
	s := t.s
	if s.Stage != StagePass {
		return sdk.Refuse(CodeWrongStage, "there is no pass now: play a card")
	}
	if s.Chosen[a.Seat] != nil {
		return sdk.Refuse(CodeAlreadyChose, "you have already passed your three cards: wait for the others")
	}
	if len(a.Cards) != PassSize {
		return sdk.Refuse(CodeWrongCount, "choose exactly three cards to pass, not %d", len(a.Cards))
	}
	hand, ok := sdk.RemoveCards(s.Hands[a.Seat], a.Cards)
	if !ok {
		return sdk.Refuse(sdk.CodeNotHeld, "you can only pass cards you hold (%s)", strings.Join(sdk.CardStrings(a.Cards), " "))
	}
	dir := s.passDirection()
	s.Hands[a.Seat] = hand
	s.Chosen[a.Seat] = slices.Clone(a.Cards)
	t.emit(sdk.Event{Name: "passed", Seat: a.Seat, Cards: slices.Clone(a.Cards), Private: true,
		Data: map[string]string{"target": strconv.Itoa(receiver(a.Seat, dir)), "direction": dir}})
	for _, c := range s.Chosen {
		if c == nil {
			return nil
		}
	}
	// Every seat has chosen: the cards move, and only now does each receiver see them.
	s.Passed = s.Chosen
	s.Chosen = nil
	for from, cards := range s.Passed {
		to := receiver(from, dir)
		s.Hands[to] = append(s.Hands[to], cards...)
	}
	for from, cards := range s.Passed {
		to := receiver(from, dir)
		t.emit(sdk.Event{Name: "received", Seat: to, Cards: slices.Clone(cards), Private: true,
			Data: map[string]string{"target": strconv.Itoa(from)}})
	}
	s.startPlay()
	t.emit(sdk.Event{Name: "turn", Seat: s.Turn})
	return nil
}

// play lays one card on the trick (HE-4 to HE-7); the fourth card is taken (HE-6), the last
// trick ends the hand (HE-8, HE-9).
func (t *turn) play(a sdk.Action) error {
	s := t.s
	if s.Stage == StagePass {
		return sdk.Refuse(CodeWrongStage, "first everyone passes three cards")
	}
	if a.Seat != s.Turn {
		return sdk.Refuse(sdk.CodeNotYourTurn, "it is seat %d's turn, not seat %d's", s.Turn, a.Seat)
	}
	if len(a.Cards) != 1 {
		return sdk.Refuse(CodeWrongCount, "play one card at a time, not %d", len(a.Cards))
	}
	c := a.Cards[0]
	if !slices.Contains(s.Hands[a.Seat], c) {
		return sdk.Refuse(sdk.CodeNotHeld, "you do not hold %s", c)
	}
	if !slices.Contains(s.Legal(a.Seat), c) {
		return s.whyNot(a.Seat, c)
	}
	broke, taker, points := s.lay(a.Seat, c)
	t.emit(sdk.Event{Name: "played", Seat: a.Seat, Cards: []sdk.Card{c}})
	if broke {
		t.emit(sdk.Event{Name: "hearts_broken", Seat: a.Seat})
	}
	if taker == sdk.NoSeat {
		t.emit(sdk.Event{Name: "turn", Seat: s.Turn})
		return nil
	}
	t.emit(sdk.Event{Name: "trick_won", Seat: taker, Data: map[string]string{
		"seat": strconv.Itoa(taker), "points": strconv.Itoa(points), "trick": strconv.Itoa(len(s.Takers)),
	}})
	if len(s.Hands[taker]) > 0 {
		t.emit(sdk.Event{Name: "turn", Seat: s.Turn})
		return nil
	}
	t.endHand()
	return nil
}

// lay moves c from seat's hand onto the trick, in place (the caller has checked it is legal), and
// takes the trick when it is full (HE-6): it reports whether the card broke hearts, the trick's
// taker (sdk.NoSeat while the trick goes on) and the points in it.
func (s *State) lay(seat int, c sdk.Card) (broke bool, taker, points int) {
	// In place: Apply and Simulate work on clones whose hands they own.
	h := s.Hands[seat]
	s.Hands[seat] = slices.Delete(h, slices.Index(h, c), slices.Index(h, c)+1)
	s.Trick = append(s.Trick, Play{Seat: seat, Card: c})
	if c.Suit() == sdk.Hearts && !s.Broken {
		s.Broken, broke = true, true
	}
	if len(s.Trick) < Seats {
		s.Turn = (s.Turn + 1) % Seats
		return broke, sdk.NoSeat, 0
	}
	taker = trickTaker(s.Trick)
	for _, p := range s.Trick {
		points += cardPoints(p.Card)
	}
	s.Played = append(s.Played, s.Trick...)
	s.Takers = append(s.Takers, taker)
	s.Trick = nil
	s.Leader, s.Turn = taker, taker
	return broke, taker, points
}

// whyNot is the refusal of a held card that may not be played now, in the player's words.
func (s *State) whyNot(seat int, c sdk.Card) error {
	hand := s.Hands[seat]
	if len(s.Trick) == 0 {
		switch {
		case s.firstTrick() && slices.Contains(hand, twoClubs):
			return sdk.Refuse(CodeTwoClubs, "the 2♣ leads the first trick")
		case s.firstTrick() && isPoint(c):
			return sdk.Refuse(CodeFirstTrick, "no hearts and not the Q♠ on the first trick while you hold another card")
		default:
			return sdk.Refuse(CodeNotBroken, "hearts are not broken yet: lead another suit")
		}
	}
	if led := sdk.Led(s.Trick); !sdk.FollowsSuit(hand, led, c) {
		return sdk.Refuse(CodeFollowSuit, "you must follow suit: play a %s", suitName(led))
	}
	return sdk.Refuse(CodeFirstTrick, "no hearts and not the Q♠ on the first trick while you hold another card")
}

func suitName(su sdk.Suit) string {
	switch su {
	case sdk.Spades:
		return "spade"
	case sdk.Hearts:
		return "heart"
	case sdk.Diamonds:
		return "diamond"
	}
	return "club"
}

// endHand scores the hand (HE-8), asking house rules' score_hand, and ends it, or the game when a
// total reaches the target (HE-9).
func (t *turn) endHand() {
	s := t.s
	taken := s.Taken()
	cells, shooter := ScoreHand(taken, s.Moon)
	if t.ask != nil && !s.Simulated {
		for seat := range cells {
			ans, ok := t.ask(HookScoreHand, map[string]string{
				"seat": strconv.Itoa(seat), "points": strconv.Itoa(cells[seat]),
				"cards": strings.Join(sdk.CardStrings(taken[seat]), " "), "moon": strconv.FormatBool(seat == shooter),
			})
			if n, err := strconv.Atoi(strings.TrimSpace(ans)); ok && err == nil {
				cells[seat] = n
			}
		}
	}
	s.closeHand(cells, shooter)
	t.announceHand(cells, shooter)
}

// closeHand adds a hand's scores, writes its row of the sheet and ends the hand, or the game when
// a total reaches the target (HE-9): the lowest totals win.
func (s *State) closeHand(cells []int, shooter int) {
	for seat, v := range cells {
		s.Scores[seat] += v
	}
	s.Sheet = append(s.Sheet, Row{Cells: cells, Moon: shooter})
	s.Turn = sdk.NoSeat
	if slices.Max(s.Scores) < s.Target {
		s.Phase = sdk.PhaseRoundOver
		return
	}
	s.Phase = sdk.PhaseGameOver
	s.Winners = lowest(s.Scores)
	s.Winner = s.Winners[0]
}

// announceHand emits the events of a hand's end, closed by closeHand.
func (t *turn) announceHand(cells []int, shooter int) {
	s := t.s
	if shooter != sdk.NoSeat {
		t.emit(sdk.Event{Name: "moon", Seat: shooter, Data: map[string]string{"hand": strconv.Itoa(s.Hand)}})
	}
	data := map[string]string{"hand": strconv.Itoa(s.Hand)}
	for seat, v := range cells {
		data["points."+strconv.Itoa(seat)] = strconv.Itoa(v)
		data["score."+strconv.Itoa(seat)] = strconv.Itoa(s.Scores[seat])
	}
	t.emit(sdk.Event{Name: "hand_scored", Seat: sdk.NoSeat, Data: data})
	for _, w := range s.Winners {
		d := map[string]string{"score": strconv.Itoa(s.Scores[w]), "game": "true"}
		if len(s.Winners) > 1 {
			d["shared"] = "true"
		}
		t.emit(sdk.Event{Name: "won", Seat: w, Data: d})
	}
}

// deal is the host's Deal: the next hand after a hand, a new game after a game.
func (t *turn) deal() error {
	s := t.s
	switch s.Phase {
	case sdk.PhasePlaying:
		return sdk.Refuse(CodeNotOver, "the hand is still being played: deal when it is over")
	case sdk.PhaseGameOver:
		s.Games++
		s.Hand = 1
		s.Scores = make([]int, Seats)
		s.Sheet = nil
	default:
		s.Hand++
	}
	s.dealHand()
	t.emit(sdk.Event{Name: "dealt", Seat: sdk.NoSeat, Data: map[string]string{"hand": strconv.Itoa(s.Hand), "pass": passWords[s.passDirection()]}})
	if s.Stage == StagePlay {
		t.emit(sdk.Event{Name: "turn", Seat: s.Turn})
	}
	return nil
}
