package simple

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"cardhouse/sdk"
)

// Ruleset is the sdk.Ruleset of a Game, with the optional extras the package can give every game:
// sdk.Redealer and sdk.Bots (level 1, a random legal move).
type Ruleset[S any] struct {
	g Game[S]
}

// The extras a game gets from the package.
var (
	_ sdk.Ruleset[State[struct{}]]  = (*Ruleset[struct{}])(nil)
	_ sdk.Redealer[State[struct{}]] = (*Ruleset[struct{}])(nil)
	_ sdk.Bots                      = (*Ruleset[struct{}])(nil)
)

// New returns the ruleset of g. It panics when g lacks what every game needs (an ID, a name, the
// seats, a move, an end), as a program with a broken declaration should stop at once.
func New[S any](g Game[S]) *Ruleset[S] {
	switch {
	case g.ID == "" || g.Name == "":
		panic("simple.New: a game needs an ID and a Name")
	case g.MinSeats < 1 || g.MaxSeats < g.MinSeats:
		panic(fmt.Sprintf("simple.New: %s: seats %d to %d is no range of seats", g.ID, g.MinSeats, g.MaxSeats))
	case len(g.Moves) == 0 || g.End == nil:
		panic(fmt.Sprintf("simple.New: %s: a game needs Moves and an End", g.ID))
	}
	for _, m := range g.Moves {
		if m.Type == "" || m.Do == nil {
			panic(fmt.Sprintf("simple.New: %s: every move needs a Type and a Do", g.ID))
		}
	}
	return &Ruleset[S]{g: g}
}

// Info describes the game; its only bot level is 1.
func (r *Ruleset[S]) Info() sdk.Info {
	version := r.g.Version
	if version == "" {
		version = "1.0.0"
	}
	return sdk.Info{ID: r.g.ID, Name: r.g.Name, Version: version, Summary: r.g.Summary, Rules: r.g.Rules,
		MinSeats: r.g.MinSeats, MaxSeats: r.g.MaxSeats, Options: r.g.Options, BotLevels: []int{1},
		StateVersion: 1, EventTexts: r.g.EventTexts}
}

func (r *Ruleset[S]) deck() []sdk.Card {
	if r.g.Deck == nil {
		return sdk.FrenchDeck(1, 0)
	}
	return slices.Clone(r.g.Deck)
}

// Start deals a game: req.Deal's layout when given (a seat's face_up row is one group laid
// before it; face_down rows are refused), else the shuffled deck, HandSize cards each. Setup runs
// after either, then the opener's turn begins.
func (r *Ruleset[S]) Start(_ context.Context, req sdk.StartRequest) (State[S], error) {
	s := &State[S]{Seats: req.Seats, RNG: req.RNG}
	if req.Opener != nil {
		s.Opener = *req.Opener
	}
	if len(req.Options) > 0 {
		s.Options = req.Options
	}
	if req.Deal == nil {
		r.deal(s, req.Options)
		return *s, nil
	}
	l, err := req.Deal.Layout(r.deck(), req.Seats, &s.RNG)
	if err != nil {
		return *s, err
	}
	if len(l.FaceDown) > 0 {
		return *s, sdk.Refuse(sdk.CodeBadDeal, "deal: %s has no face_down rows", r.g.ID)
	}
	s.Hands, s.Laid = rows(l.Hands, s.Seats), laid(s.Seats)
	for i, row := range l.FaceUp {
		if len(row) > 0 {
			s.Laid[i] = [][]sdk.Card{slices.Clone(row)}
		}
	}
	s.Stock, s.Pile, s.Out = nonNil(l.Deck), nonNil(l.Pile), nonNil(l.Out)
	if l.First != sdk.NoSeat {
		s.Opener = l.First
	}
	r.open(s, req.Options)
	return *s, nil
}

// wholeNumbers returns opts as Setup saw them at the start: the state's JSON reads numbers back
// as float64, options' whole numbers are ints.
func wholeNumbers(opts sdk.Options) sdk.Options {
	out := sdk.Options{}
	for k, v := range opts {
		if f, ok := v.(float64); ok && f == float64(int(f)) {
			v = int(f)
		}
		out[k] = v
	}
	return out
}

// rows returns in with a (non-nil) row per seat.
func rows(in [][]sdk.Card, seats int) [][]sdk.Card {
	out := make([][]sdk.Card, seats)
	for i := range out {
		if i < len(in) {
			out[i] = nonNil(in[i])
		} else {
			out[i] = []sdk.Card{}
		}
	}
	return out
}

// laid returns no group laid for each of seats.
func laid(seats int) [][][]sdk.Card {
	out := make([][][]sdk.Card, seats)
	for i := range out {
		out[i] = [][]sdk.Card{}
	}
	return out
}

func nonNil(cards []sdk.Card) []sdk.Card {
	if cards == nil {
		return []sdk.Card{}
	}
	return slices.Clone(cards)
}

// deal shuffles the game's cards under sdk.DrawShuffle and deals HandSize each, the rest the stock.
func (r *Ruleset[S]) deal(s *State[S], opts sdk.Options) {
	cards := r.deck()
	s.RNG.ShuffleCards(sdk.DrawShuffle, cards)
	n := 0
	if r.g.HandSize != nil {
		n = r.g.HandSize(s.Seats)
	}
	s.Hands, s.Laid = rows(nil, s.Seats), laid(s.Seats)
	for i := range s.Hands {
		k := min(n, len(cards))
		s.Hands[i], cards = slices.Clone(cards[:k]), cards[k:]
	}
	s.Stock, s.Pile, s.Out = nonNil(cards), []sdk.Card{}, []sdk.Card{}
	r.open(s, opts)
}

// open begins a dealt game: the game's Setup, then the opener's turn.
func (r *Ruleset[S]) open(s *State[S], opts sdk.Options) {
	s.Phase, s.Winner = sdk.PhasePlaying, sdk.NoSeat
	var zero S
	s.Data = zero
	if r.g.Setup != nil {
		r.g.Setup(s, opts)
	}
	r.begin(s, s.Opener)
}

// begin hands the turn to seat, or the first seat after it that has an open move once its OnTurn
// has run, and ends the game when End says so or no seat has a move.
func (r *Ruleset[S]) begin(s *State[S], seat int) {
	for i := range s.Seats {
		if r.ended(s) {
			return
		}
		s.Turn = (seat + i) % s.Seats
		if r.g.OnTurn != nil {
			r.g.OnTurn(s)
		}
		if r.ended(s) {
			return
		}
		if len(r.moves(s, s.Turn)) > 0 {
			s.Event(sdk.Event{Name: "turn", Seat: s.Turn})
			return
		}
	}
	_, w := r.g.End(s)
	r.finish(s, w)
}

// ended ends the game when End says it is over.
func (r *Ruleset[S]) ended(s *State[S]) bool {
	over, w := r.g.End(s)
	if over {
		r.finish(s, w)
	}
	return over
}

func (r *Ruleset[S]) finish(s *State[S], winner int) {
	s.Phase, s.Winner, s.Turn = sdk.PhaseGameOver, winner, sdk.NoSeat
	if winner >= 0 && winner < s.Seats {
		s.Event(sdk.Event{Name: "won", Seat: winner})
	} else {
		s.Winner = sdk.NoSeat
		s.Event(sdk.Event{Name: "drawn", Seat: sdk.NoSeat})
	}
}

// opts is what a move offers seat now; ok is false when the move is not open to it.
type opts struct {
	cards   []sdk.Card
	targets []int
	choices []string
}

func (r *Ruleset[S]) offer(s *State[S], m *Move[S], seat int) (o opts, ok bool) {
	if s.Phase != sdk.PhasePlaying || seat < 0 || seat >= s.Seats {
		return o, false
	}
	if m.Who == nil && seat != s.Turn || m.Who != nil && !m.Who(s, seat) {
		return o, false
	}
	if m.Cards != nil {
		if o.cards = m.Cards(s, seat); len(o.cards) == 0 {
			return o, false
		}
	}
	if m.Targets != nil {
		if o.targets = m.Targets(s, seat); len(o.targets) == 0 {
			return o, false
		}
	}
	if m.Choices != nil {
		if o.choices = m.Choices(s, seat); len(o.choices) == 0 {
			return o, false
		}
	}
	return o, true
}

// moves lists the action specs of the moves open to seat.
func (r *Ruleset[S]) moves(s *State[S], seat int) []sdk.ActionSpec {
	var out []sdk.ActionSpec
	for i := range r.g.Moves {
		m := &r.g.Moves[i]
		if o, ok := r.offer(s, m, seat); ok {
			out = append(out, sdk.ActionSpec{Type: m.Type, Label: m.Label, Cards: slices.Clone(o.cards),
				Multi: m.Multi, Targets: slices.Clone(o.targets), Choices: slices.Clone(o.choices)})
		}
	}
	return out
}

// Apply makes one move on a copy of the state, after checking that the move is open to the seat
// and that its cards, target and choice are among those offered; the host's sdk.ActDeal deals
// the next game once one is over. A move by the seat in turn passes the turn on (unless it called
// GoAgain); a move by another seat leaves the turn where it was.
func (r *Ruleset[S]) Apply(_ context.Context, req sdk.ApplyRequest[State[S]]) (sdk.ApplyResponse[State[S]], error) {
	a := req.Action
	s := req.State.clone()
	no := func(code, format string, args ...any) (sdk.ApplyResponse[State[S]], error) {
		return sdk.ApplyResponse[State[S]]{}, sdk.Refuse(code, format, args...)
	}
	if a.Type == sdk.ActDeal {
		if a.Seat != sdk.Host || s.Phase != sdk.PhaseGameOver {
			return no(sdk.CodeBadAction, "only the host deals, once a game is over")
		}
		s.Games++
		s.Opener = (s.Opener + 1) % s.Seats
		r.deal(s, wholeNumbers(s.Options))
		return sdk.ApplyResponse[State[S]]{State: *s, Events: append([]sdk.Event{{Name: "dealt", Seat: sdk.Host}}, s.events...)}, nil
	}
	if s.Phase != sdk.PhasePlaying {
		return no(sdk.CodeGameOver, "the game is over")
	}
	i := slices.IndexFunc(r.g.Moves, func(m Move[S]) bool { return m.Type == a.Type })
	if i < 0 {
		return no(sdk.CodeBadAction, "%s has no move %q", r.g.ID, a.Type)
	}
	m := &r.g.Moves[i]
	o, ok := r.offer(s, m, a.Seat)
	switch {
	case !ok && m.Who == nil && a.Seat != s.Turn:
		return no(sdk.CodeNotYourTurn, "it is seat %d's turn", s.Turn)
	case !ok:
		return no(sdk.CodeNotAvailable, "you cannot %s now", strings.ToLower(m.Label))
	case m.Cards == nil && len(a.Cards) > 0:
		return no(sdk.CodeBadAction, "%s takes no cards", m.Label)
	case m.Cards != nil && len(a.Cards) == 0:
		return no(sdk.CodeBadAction, "%s takes a card", m.Label)
	case m.Cards != nil && !m.Multi && len(a.Cards) > 1:
		return no(sdk.CodeBadAction, "%s takes one card", m.Label)
	case m.Targets == nil && a.Target != nil:
		return no(sdk.CodeBadAction, "%s aims at nobody", m.Label)
	case m.Targets != nil && (a.Target == nil || !slices.Contains(o.targets, *a.Target)):
		return no(sdk.CodeBadAction, "%s: choose one of seats %v", m.Label, o.targets)
	case m.Choices != nil && !slices.Contains(o.choices, a.Args["choice"]):
		return no(sdk.CodeBadAction, "%s: choose one of %v", m.Label, o.choices)
	}
	if _, held := sdk.RemoveCards(s.Hands[a.Seat], a.Cards); !held {
		return no(sdk.CodeNotHeld, "you do not hold %v", a.Cards)
	}
	for _, c := range a.Cards {
		if !slices.Contains(o.cards, c) {
			return no(sdk.CodeBadAction, "%s cannot take %s", m.Label, c)
		}
	}
	if err := m.Do(s, a); err != nil {
		return sdk.ApplyResponse[State[S]]{}, err
	}
	if !r.ended(s) && a.Seat == s.Turn {
		next := (a.Seat + 1) % s.Seats
		if s.again {
			next = a.Seat
		}
		r.begin(s, next)
	}
	s.again = false
	return sdk.ApplyResponse[State[S]]{State: *s, Events: s.events}, nil
}

// sees says whether viewer sees seat's hand: every hand once the game is over.
func (r *Ruleset[S]) sees(s *State[S], viewer, seat int) bool {
	if s.Phase != sdk.PhasePlaying || viewer == seat {
		return true
	}
	return r.g.Sees != nil && viewer >= 0 && r.g.Sees(s, viewer, seat)
}

// View shows the hands viewer sees (see Game.Sees), the stock's count, the pile, each group laid
// before a seat as a meld zone ("meld.SEAT.N"), and the moves open to viewer.
func (r *Ruleset[S]) View(st State[S], viewer int) sdk.View {
	s := &st
	v := sdk.View{Ruleset: r.g.ID, Viewer: viewer, Phase: s.Phase, Turn: s.Turn, Direction: 1, Winner: s.Winner, Round: s.Games + 1}
	label := r.g.LaidLabel
	if label == "" {
		label = "Laid"
	}
	for i, h := range s.Hands {
		p := sdk.PlayerView{Seat: i, HandCount: len(h)}
		if r.g.Score != nil {
			n := r.g.Score(s, i)
			p.Score = &n
		}
		v.Players = append(v.Players, p)
		z := sdk.Zone{ID: "hand." + strconv.Itoa(i), Kind: sdk.ZoneHand, Owner: i, Count: len(h), Hidden: true}
		if r.sees(s, viewer, i) {
			z.Cards, z.Hidden = slices.Clone(h), false
		}
		v.Zones = append(v.Zones, z)
	}
	for i, groups := range s.Laid {
		for k, g := range groups {
			n := k
			v.Zones = append(v.Zones, sdk.Zone{ID: fmt.Sprintf("meld.%d.%d", i, k), Kind: sdk.ZoneMeld, Owner: i, Label: label, Cards: slices.Clone(g), Count: len(g), Meld: &n})
		}
	}
	v.Zones = append(v.Zones, sdk.Zone{ID: "deck", Kind: sdk.ZoneDeck, Owner: sdk.NoSeat, Label: "Stock", Count: len(s.Stock), Hidden: true})
	if len(s.Pile) > 0 {
		v.Zones = append(v.Zones, sdk.Zone{ID: "pile", Kind: sdk.ZonePile, Owner: sdk.NoSeat, Cards: slices.Clone(s.Pile), Count: len(s.Pile)})
	}
	if len(s.Out) > 0 {
		v.Zones = append(v.Zones, sdk.Zone{ID: "out", Kind: sdk.ZoneBurned, Owner: sdk.NoSeat, Label: "Out of play", Count: len(s.Out), Hidden: true})
	}
	v.Actions = r.moves(s, viewer)
	return v
}

// Status says whose turn it is; the actors are the seats with an open move, the seat in turn first.
func (r *Ruleset[S]) Status(st State[S]) sdk.Status {
	s := &st
	out := sdk.Status{Phase: s.Phase, Seats: s.Seats, Turn: s.Turn, Winner: s.Winner, Round: s.Games + 1}
	for i := range s.Seats {
		seat := (max(s.Turn, 0) + i) % s.Seats
		if len(r.moves(s, seat)) > 0 {
			out.Actors = append(out.Actors, seat)
		}
	}
	return out
}

// Observe gives the scenario keys turn, direction, top, pile, pile_count, deck, deck_count, hands,
// hand_count, winner, phase and opener; laid and laid_count (per seat); and scores (per seat)
// when the game has a Score.
func (r *Ruleset[S]) Observe(st State[S]) sdk.Observation {
	s := &st
	o := sdk.Observation{"direction": 1, "pile": sdk.CardStrings(s.Pile), "pile_count": len(s.Pile),
		"deck": sdk.CardStrings(s.Stock), "deck_count": len(s.Stock), "phase": s.Phase, "opener": s.Opener,
		"turn": nil, "winner": nil, "top": nil}
	if s.Phase == sdk.PhasePlaying {
		o["turn"] = s.Turn
	}
	if s.Winner != sdk.NoSeat {
		o["winner"] = s.Winner
	}
	if len(s.Pile) > 0 {
		o["top"] = s.Pile[len(s.Pile)-1].String()
	}
	hands, laid := make([][]string, s.Seats), make([][]string, s.Seats)
	counts, laidCounts, scores := make([]int, s.Seats), make([]int, s.Seats), make([]int, s.Seats)
	for i := range s.Seats {
		hands[i], counts[i] = sdk.CardStrings(s.Hands[i]), len(s.Hands[i])
		laid[i], laidCounts[i] = sdk.CardStrings(s.LaidCards(i)), len(s.LaidCards(i))
		if r.g.Score != nil {
			scores[i] = r.g.Score(s, i)
		}
	}
	o["hands"], o["hand_count"], o["laid"], o["laid_count"] = hands, counts, laid, laidCounts
	if r.g.Score != nil {
		o["scores"] = scores
	}
	return o
}

// Cards lists every card of the game: hands, stock, pile, laid and out.
func (r *Ruleset[S]) Cards(s State[S]) []sdk.Card {
	out := slices.Concat(s.Stock, s.Pile, s.Out)
	for i := range s.Hands {
		out = append(append(out, s.Hands[i]...), s.LaidCards(i)...)
	}
	return out
}

// Redeal shuffles the cards viewer cannot see (the hands it does not see, the stock, the cards
// out of play) among those places, each keeping its size.
func (r *Ruleset[S]) Redeal(st State[S], viewer int, rng *sdk.RNG) State[S] {
	s := st.clone()
	hidden := slices.Concat(s.Stock, s.Out)
	for i, h := range s.Hands {
		if !r.sees(s, viewer, i) {
			hidden = append(hidden, h...)
		}
	}
	rng.ShuffleCards("redeal", hidden)
	take := func(n int) []sdk.Card {
		out := slices.Clone(hidden[:n])
		hidden = hidden[n:]
		return out
	}
	s.Stock, s.Out = take(len(s.Stock)), take(len(s.Out))
	for i, h := range s.Hands {
		if !r.sees(s, viewer, i) {
			s.Hands[i] = take(len(h))
		}
	}
	return *s
}

// Bot is level 1 for every game: a random move among those its view offers, with a random card,
// target and choice among those the move offers. It reads only its view.
func (r *Ruleset[S]) Bot(_ context.Context, req sdk.BotRequest) (*sdk.Action, error) {
	acts := req.View.Actions
	if len(acts) == 0 {
		return nil, nil
	}
	spec := acts[req.RNG.Intn("bot", len(acts))]
	a := &sdk.Action{Seat: req.Seat, Type: spec.Type}
	if len(spec.Cards) > 0 {
		a.Cards = []sdk.Card{spec.Cards[req.RNG.Intn("bot", len(spec.Cards))]}
	}
	if len(spec.Targets) > 0 {
		t := spec.Targets[req.RNG.Intn("bot", len(spec.Targets))]
		a.Target = &t
	}
	if len(spec.Choices) > 0 {
		a.Args = map[string]string{"choice": spec.Choices[req.RNG.Intn("bot", len(spec.Choices))]}
	}
	return a, nil
}
