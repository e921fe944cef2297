package spades

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"cardhouse/sdk"
)

// teamNames name the partnerships in player words (seats counted from 1).
var teamNames = [2]string{"Seats 1 & 3", "Seats 2 & 4"}

// bidChoices are the bids open to a seat that has seen its cards, with their words.
var bidChoices, bidChoiceLabels = func() ([]string, []string) {
	c, l := []string{BidNil}, []string{"Nil"}
	for n := 1; n <= HandSize; n++ {
		c, l = append(c, itoa(n)), append(l, itoa(n))
	}
	return c, l
}()

// Info describes Spades: its options, presets, rules page, event texts and bot levels.
func (r *Rules) Info() sdk.Info {
	return sdk.Info{
		ID: ID, Name: "Spades", Version: "1.0.0",
		Summary:  "Two teams of partners bid the tricks they will take; spades are always trumps.",
		Rules:    rulesText,
		MinSeats: Seats, MaxSeats: Seats,
		Options: []sdk.Option{
			{Name: "target", Label: "Points to win", Type: sdk.OptionInt, Default: 500, Min: 100, Max: 1000,
				Description: "The game ends after the hand in which a team reaches this total; the higher total wins, and equal totals play another hand."},
			{Name: "mercy", Label: "Mercy rule", Type: sdk.OptionBool, Default: true,
				Description: "A team whose total falls to minus 200 or below loses at once."},
			{Name: "blind_nil", Label: "Blind nil", Type: sdk.OptionBool, Default: false,
				Description: "Players start each hand without seeing their cards and may bid blind nil (200 points) before they look."},
		},
		Presets: []sdk.Preset{
			{Name: "Classic", Description: "To 500 points, with the mercy rule, no blind nil.", Options: map[string]any{}},
			{Name: "Quick game", Description: "To 250 points: a short game of a few hands.", Options: map[string]any{"target": 250}},
			{Name: "Daredevil", Description: "Blind nil allowed, and no mercy for a team deep in the red.", Options: map[string]any{"blind_nil": true, "mercy": false}},
		},
		BotLevels:    []int{1, 2, 3, 4, 5},
		StateVersion: 1, Texts: texts(),
		CardBack: "french",
		EventTexts: map[string]string{
			"bid":           "{seat} bid {bid}",
			"looked":        "{seat} looked at their cards",
			"played":        "{seat} played {cards}",
			"spades_broken": "Spades are broken",
			"trick_won":     "{seat} took the trick",
			"hand_scored":   "Hand {hand}: seats 1 & 3 {result0}, seats 2 & 4 {result1}; totals {score0} to {score1}",
			"won":           "{seat} and {target} win the game",
			"dealt":         "A new hand is dealt",
		},
	}
}

// handVisible reports whether viewer sees seat's hand: its own once looked, and every hand once
// the hand is over (the reveal).
func (s *State) handVisible(seat, viewer int) bool {
	if s.Phase != sdk.PhasePlaying {
		return true
	}
	return seat == viewer && s.Looked[seat]
}

func intp(n int) *int { return &n }

// View shows the viewer's own hand (once looked), the trick, the last trick, every bid, the
// teams' contracts, tricks, scores and bags, and the score sheet (SP-8).
func (r *Rules) View(s *State, viewer int) sdk.View {
	v := sdk.View{Ruleset: ID, Viewer: viewer, Phase: s.Phase, Turn: s.Turn, Direction: 1, Round: len(s.Sheet) + 1, Winner: s.Winner}
	if s.Phase != sdk.PhasePlaying {
		v.Round = len(s.Sheet)
		v.Turn = sdk.NoSeat
	}
	for i, h := range s.Hands {
		tm := team(i)
		p := sdk.PlayerView{Seat: i, HandCount: len(h), Score: intp(s.Scores[tm]), Tricks: intp(s.tricks(i)), Bid: bidWords(s.Bids[i]), Team: intp(tm)}
		if i == s.Dealer {
			p.Tags = append(p.Tags, "dealer")
		}
		if s.Stage == StageBid && !s.Looked[i] {
			p.Tags = append(p.Tags, "blind")
		}
		if s.Phase == sdk.PhaseGameOver && s.Winner >= 0 && team(i) == team(s.Winner) {
			p.Tags = append(p.Tags, "winner")
		}
		v.Players = append(v.Players, p)
		z := sdk.Zone{ID: "hand." + itoa(i), Kind: sdk.ZoneHand, Owner: i, Count: len(h)}
		if s.handVisible(i, viewer) {
			z.Cards = slices.Clone(h)
		} else {
			z.Hidden = true
		}
		v.Zones = append(v.Zones, z)
	}
	for i := range Seats {
		n := 0
		for _, t := range s.Done {
			if t.Winner == i {
				n += len(t.Plays)
			}
		}
		v.Zones = append(v.Zones, sdk.Zone{ID: "taken." + itoa(i), Kind: "taken", Owner: i, Label: "Tricks taken", Count: n, Hidden: true})
	}
	if len(s.Out) > 0 {
		v.Zones = append(v.Zones, sdk.Zone{ID: "out", Kind: sdk.ZoneBurned, Owner: sdk.NoSeat, Label: "Out of play", Count: len(s.Out), Hidden: true})
	}
	if s.Cur != nil {
		v.Trick = viewTrick(*s.Cur)
	} else if len(s.Done) > 0 && s.Stage == StagePlay {
		v.Trick = viewTrick(s.Done[len(s.Done)-1]) // the trick just taken stays until the next card
	}
	if len(s.Done) > 0 {
		v.LastTrick = viewTrick(s.Done[len(s.Done)-1])
	}
	for tm := range 2 {
		t := sdk.Team{ID: tm, Name: teamNames[tm], Seats: []int{tm, tm + 2}, Score: s.Scores[tm], Tricks: intp(s.teamTricks(tm)), Bags: intp(s.Bags[tm])}
		if s.biddingDone() {
			t.Contract = intp(s.contract(tm))
		}
		v.Teams = append(v.Teams, t)
	}
	v.Sheet = &sdk.ScoreSheet{By: "team", Columns: []string{teamNames[0], teamNames[1]}, Totals: []int{s.Scores[0], s.Scores[1]}, Rows: []sdk.ScoreRow{}}
	for i, h := range s.Sheet {
		row := sdk.ScoreRow{Label: "Hand " + itoa(i+1), Cells: []int{h.Points[0], h.Points[1]}}
		if h.Notes[0] != "" || h.Notes[1] != "" {
			row.Notes = []string{h.Notes[0], h.Notes[1]}
		}
		v.Sheet.Rows = append(v.Sheet.Rows, row)
	}
	broken := "false"
	if s.Broken {
		broken = "true"
	}
	v.Indicators = []sdk.Indicator{
		{ID: "broken", Label: "Spades broken", Value: broken, Kind: "flag"},
		{ID: "target", Label: "Points to win", Value: itoa(s.Target), Kind: "text"},
		{ID: "mercy", Label: "Mercy rule", Value: strconv.FormatBool(s.Mercy), Kind: "flag"},
		{ID: "blind_nil", Label: "Blind nil", Value: strconv.FormatBool(s.BlindNil), Kind: "flag"},
	}
	if led := s.led(); led != 0 {
		v.Indicators = append(v.Indicators, sdk.Indicator{ID: "led", Label: "Led", Value: string(rune(led)), Kind: "suit"})
	}
	v.Actions = s.viewActions(viewer)
	return v
}

// viewActions are the actions open to viewer.
func (s *State) viewActions(viewer int) []sdk.ActionSpec {
	if viewer < 0 || viewer >= Seats || s.Phase != sdk.PhasePlaying {
		return nil
	}
	var out []sdk.ActionSpec
	if s.Stage == StageBid && !s.Looked[viewer] {
		out = append(out, sdk.ActionSpec{Type: actLook, Label: "Look at your cards"})
	}
	if viewer != s.Turn {
		return out
	}
	switch s.Stage {
	case StageBid:
		spec := sdk.ActionSpec{Type: sdk.ActBid, Label: "Bid", Choices: slices.Clone(bidChoices), ChoiceLabels: slices.Clone(bidChoiceLabels)}
		if s.BlindNil && !s.Looked[viewer] {
			spec.Choices = append([]string{BidBlindNil}, spec.Choices...)
			spec.ChoiceLabels = append([]string{"Blind nil"}, spec.ChoiceLabels...)
		}
		out = append(out, spec)
	case StagePlay:
		out = append(out, sdk.ActionSpec{Type: sdk.ActPlay, Label: "Play", Cards: s.legalCards(viewer)})
	}
	return out
}

var _ sdk.ViewsMaker[*State] = (*Rules)(nil)

// noViewer is a viewer no view is for (not a seat, not the spectators, not the turn's NoSeat):
// Views builds from it what every viewer sees.
const noViewer = -1 << 30

// Views makes every viewer's view at once (sdk.ViewsMaker): what every viewer sees is built once
// and each view shares its players, tricks, teams, score sheet and indicators, with the viewer's
// own hand (once looked at) and its actions; exactly View(s, viewer) each.
func (r *Rules) Views(s *State, viewers []int, views []sdk.View) {
	base := r.View(s, noViewer)
	for i, viewer := range viewers {
		v := base
		v.Viewer = viewer
		if viewer >= 0 && viewer < len(s.Hands) && !s.handVisible(viewer, noViewer) && s.handVisible(viewer, viewer) {
			v.Zones = slices.Clone(base.Zones)
			z := &v.Zones[viewer]
			z.Cards, z.Hidden = slices.Clone(s.Hands[viewer]), false
		}
		v.Actions = s.viewActions(viewer)
		views[i] = v
	}
}

func viewTrick(t Trick) *sdk.Trick { return sdk.TrickView(t.Leader, t.Plays, t.Winner) }

// Status says whose move it is: the seat in turn, and during the bidding with blind nil the
// seats that may still look at their cards.
func (r *Rules) Status(s *State) sdk.Status {
	st := sdk.Status{Phase: s.Phase, Seats: Seats, Turn: s.Turn, Winner: s.Winner, Round: len(s.Sheet) + 1}
	if s.Phase != sdk.PhasePlaying {
		st.Turn, st.Round = sdk.NoSeat, len(s.Sheet)
		return st
	}
	st.Actors = []int{s.Turn}
	if s.Stage == StageBid {
		for i, ok := range s.Looked {
			if !ok && i != s.Turn {
				st.Actors = append(st.Actors, i)
			}
		}
	}
	return st
}

// Observe gives the scenario keys: turn, phase, winner, hands, hand_count, stage, dealer, trick,
// leader, led, tricks_taken, broken, bids, team_scores, bags.
func (r *Rules) Observe(s *State) sdk.Observation {
	o := sdk.Observation{
		"turn": nil, "winner": nil, "phase": s.Phase, "direction": 1, "stage": s.Stage, "dealer": s.Dealer,
		"trick": []string{}, "leader": nil, "led": nil, "broken": s.Broken,
		"team_scores": []int{s.Scores[0], s.Scores[1]}, "bags": []int{s.Bags[0], s.Bags[1]},
		"top": nil, "pile": []string{}, "pile_count": 0, "deck_count": 0,
	}
	if s.Phase == sdk.PhasePlaying {
		o["turn"] = s.Turn
	}
	if s.Winner != sdk.NoSeat {
		o["winner"] = s.Winner
	}
	if s.Cur != nil {
		var cards []string
		for _, p := range s.Cur.Plays {
			cards = append(cards, p.Card.String())
		}
		o["trick"], o["leader"], o["led"] = cards, s.Cur.Leader, string(rune(s.led()))
	} else if s.Stage == StagePlay && s.Phase == sdk.PhasePlaying {
		o["leader"] = s.Turn
	}
	hands := make([][]string, Seats)
	counts := make([]int, Seats)
	taken := make([]int, Seats)
	bids := make([]any, Seats)
	for i, h := range s.Hands {
		hands[i], counts[i], taken[i], bids[i] = sdk.CardStrings(h), len(h), s.tricks(i), bidCode(s.Bids[i])
	}
	o["hands"], o["hand_count"], o["tricks_taken"], o["bids"] = hands, counts, taken, bids
	return o
}

// Cards lists every card of the game: hands, the tricks taken and being played, the cards out.
func (r *Rules) Cards(s *State) []sdk.Card {
	out := make([]sdk.Card, 0, 52)
	for _, h := range s.Hands {
		out = append(out, h...)
	}
	for _, t := range s.Done {
		for _, p := range t.Plays {
			out = append(out, p.Card)
		}
	}
	if s.Cur != nil {
		for _, p := range s.Cur.Plays {
			out = append(out, p.Card)
		}
	}
	return append(out, s.Out...)
}

// History is what seat has seen of this hand: every bid and every card played, in order. Every
// entry is public, so it is the same for every seat.
func (r *Rules) History(s *State, seat int) []sdk.Event {
	var out []sdk.Event
	for i, b := range s.Bids {
		if b != noBid {
			out = append(out, sdk.Event{Name: "bid", Seat: i, Data: map[string]string{"choice": fmt.Sprint(bidCode(b))}})
		}
	}
	add := func(t Trick) {
		for _, p := range t.Plays {
			out = append(out, sdk.Event{Name: "played", Seat: p.Seat, Cards: []sdk.Card{p.Card}})
		}
	}
	for _, t := range s.Done {
		add(t)
	}
	if s.Cur != nil {
		add(*s.Cur)
	}
	return out
}

// Redeal shuffles the cards viewer cannot see (the other hands while they are hidden, its own
// before it looks, the cards out of play) among those places, keeping each place's size.
func (r *Rules) Redeal(s *State, viewer int, rng *sdk.RNG) *State {
	c := s.clone()
	var hidden []sdk.Card
	var seats []int
	for i := range c.Hands {
		if !c.handVisible(i, viewer) {
			hidden = append(hidden, c.Hands[i]...)
			seats = append(seats, i)
		}
	}
	hidden = append(hidden, c.Out...)
	rng.ShuffleCards("redeal", hidden)
	for _, i := range seats {
		n := len(c.Hands[i])
		c.Hands[i], hidden = slices.Clone(hidden[:n]), hidden[n:]
	}
	c.Out = slices.Clone(hidden)
	return c
}

// Table exposes the hands, the trick being played, each seat's taken cards and the cards out,
// the turn, the teams' scores and bags, and the stage.
func (r *Rules) Table(s *State) sdk.Table {
	t := sdk.Table{Zones: map[string][]sdk.Card{}, Turn: s.Turn, Direction: 1, Counters: map[string]int{
		"score.0": s.Scores[0], "score.1": s.Scores[1], "bags.0": s.Bags[0], "bags.1": s.Bags[1], "dealer": s.Dealer,
	}, Values: map[string]string{"phase": s.Phase, "stage": s.Stage, "broken": strconv.FormatBool(s.Broken)}}
	for i, h := range s.Hands {
		t.Zones["hand."+itoa(i)] = slices.Clone(h)
		var taken []sdk.Card
		for _, tr := range s.Done {
			if tr.Winner == i {
				for _, p := range tr.Plays {
					taken = append(taken, p.Card)
				}
			}
		}
		t.Zones["taken."+itoa(i)] = taken
		t.Counters["tricks."+itoa(i)] = s.tricks(i)
	}
	var trick []sdk.Card
	if s.Cur != nil {
		for _, p := range s.Cur.Plays {
			trick = append(trick, p.Card)
		}
	}
	t.Zones["trick"] = trick
	t.Zones["out"] = slices.Clone(s.Out)
	return t
}

// SetTable returns a copy of s with the table's hands (each keeping its size, so that the tricks
// stay whole), the cards out, and the teams' scores and bags. The trick, the taken cards, the
// turn, the stage and the other values cannot change: it refuses any change to them.
func (r *Rules) SetTable(s *State, t sdk.Table) (*State, error) {
	c := s.clone()
	cur := r.Table(s)
	for k, cards := range t.Zones {
		switch {
		case k == "out":
			c.Out = slices.Clone(cards)
		case strings.HasPrefix(k, "hand."):
			i, err := strconv.Atoi(k[len("hand."):])
			if err != nil || i < 0 || i >= Seats {
				return s, sdk.Refuse(sdk.CodeHouseRule, "table: no zone %q", k)
			}
			if len(cards) != len(s.Hands[i]) {
				return s, sdk.Refuse(sdk.CodeHouseRule, "table: hand.%d must keep its %d cards (got %d): every seat plays one card to each trick", i, len(s.Hands[i]), len(cards))
			}
			c.Hands[i] = slices.Clone(cards)
		case k == "trick" || strings.HasPrefix(k, "taken."):
			if _, ok := cur.Zones[k]; !ok || !slices.Equal(cur.Zones[k], cards) {
				return s, sdk.Refuse(sdk.CodeHouseRule, "table: zone %q cannot be changed", k)
			}
		default:
			return s, sdk.Refuse(sdk.CodeHouseRule, "table: no zone %q", k)
		}
	}
	if t.Turn != s.Turn {
		return s, sdk.Refuse(sdk.CodeHouseRule, "table: the turn cannot be changed in Spades (it is seat %d's, got %d)", s.Turn, t.Turn)
	}
	if t.Direction != 1 {
		return s, sdk.Refuse(sdk.CodeHouseRule, "table: Spades plays in direction 1 only, got %d", t.Direction)
	}
	for k, n := range t.Counters {
		switch k {
		case "score.0", "score.1":
			c.Scores[k[len(k)-1]-'0'] = n
		case "bags.0", "bags.1":
			if n < 0 {
				return s, sdk.Refuse(sdk.CodeHouseRule, "table: %s cannot be negative", k)
			}
			c.Bags[k[len(k)-1]-'0'] = n
		default:
			if v, ok := cur.Counters[k]; !ok || v != n {
				return s, sdk.Refuse(sdk.CodeHouseRule, "table: counter %s cannot be set", k)
			}
		}
	}
	for k, v := range t.Values {
		if cur.Values[k] != v {
			return s, sdk.Refuse(sdk.CodeHouseRule, "table: value %s=%q cannot be set", k, v)
		}
	}
	return c, nil
}

// End ends the hand for a house rule: the cards left in hand are not played, the hand is scored
// with the tricks taken so far (missing bids count as 1), and winner is the hand's winner (a
// seat, for the house rule's on_round_end; Spades' hands are scored, not won). A team that
// reaches the target wins as usual. With req.Game the game ends too, won by winner's team
// whatever the totals (winner is the game's winning seat).
func (r *Rules) End(s *State, req sdk.EndRequest) (*State, []sdk.Event, error) {
	if s.Phase != sdk.PhasePlaying {
		return s, nil, sdk.Refuse(sdk.CodeGameOver, "the hand is over")
	}
	if req.Winner < 0 || req.Winner >= Seats {
		return s, nil, sdk.Refuse(sdk.CodeHouseRule, "winner %d is no seat of this 4-seat game", req.Winner)
	}
	c := s.clone()
	for i, b := range c.Bids {
		if b == noBid {
			c.Bids[i] = 1
		}
	}
	c.Stage = StagePlay
	evs := c.score(true, nil)
	switch {
	case req.Game:
		if c.Phase == sdk.PhaseGameOver {
			evs = slices.DeleteFunc(evs, func(e sdk.Event) bool { return e.Name == "won" })
		}
		c.Phase, c.Winner = sdk.PhaseGameOver, req.Winner
		evs = append(evs, sdk.Event{Name: "won", Seat: req.Winner, Data: map[string]string{"target": itoa((req.Winner + 2) % Seats), "team": itoa(team(req.Winner))}})
	case c.Phase == sdk.PhaseRoundOver:
		c.Winner = req.Winner
	}
	return c, evs, nil
}
