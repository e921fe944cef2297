package ginrummy

import (
	"slices"
	"strconv"
	"strings"

	"cardhouse/sdk"
)

var seatNames = []string{"Seat 1", "Seat 2"}

func handZone(seat int) string  { return "hand." + strconv.Itoa(seat) }
func takenZone(seat int) string { return "taken." + strconv.Itoa(seat) }
func deadZone(seat int) string  { return "deadwood." + strconv.Itoa(seat) }

// MeldZone is the id of the zone of seat's meld number i (from 0) once the hands are laid out.
func MeldZone(seat, i int) string { return "meld." + strconv.Itoa(seat) + "." + strconv.Itoa(i) }

var stageWords = map[string]string{
	StageUpcard: "Upcard offer", StagePlay: "Draw and discard", StageLayoff: "Laying off", StageOver: "Hand over",
}

// View is the table as viewer (a seat or sdk.Spectator) may see it (GR-10): its own hand, the
// other's hand size and the cards it took from the discard pile (zone taken.N), the whole discard
// pile, the stock's count, the knock card face down (the knocker sees it), and after a knock both
// hands laid out as meld zones and a deadwood zone. Once the hand is over every card left is
// shown to everyone, the knock card too. The score sheet has a row per hand.
func (r *Rules) View(s *State, viewer int) sdk.View {
	v := sdk.View{
		Ruleset: ID, Viewer: viewer, Phase: s.Phase, Turn: sdk.NoSeat, Direction: 1, Round: s.Hand, Winner: s.Winner,
		Players: make([]sdk.PlayerView, 0, Seats), Zones: make([]sdk.Zone, 0, 12),
	}
	if s.playing() {
		v.Turn = s.Turn
	}
	reveal := !s.playing()
	for seat := range Seats {
		score := s.Scores[seat]
		p := sdk.PlayerView{Seat: seat, HandCount: len(s.Hands[seat]), Score: &score}
		if seat == s.Dealer {
			p.Tags = append(p.Tags, "dealer")
		}
		if seat == s.Knocker {
			p.Tags = append(p.Tags, "knocked")
		}
		if seat == s.Winner {
			p.Tags = append(p.Tags, "winner")
		}
		if s.laidOut() {
			pts := Points(s.Dead[seat])
			p.Points = &pts
		}
		v.Players = append(v.Players, p)
		z := sdk.Zone{ID: handZone(seat), Kind: sdk.ZoneHand, Owner: seat, Label: "Hand", Count: len(s.Hands[seat])}
		if seat == viewer || reveal {
			z.Cards = slices.Clone(s.Hands[seat])
		} else {
			z.Hidden = true
		}
		v.Zones = append(v.Zones, z)
		if seat != viewer && !reveal && len(s.Known[seat]) > 0 {
			v.Zones = append(v.Zones, sdk.Zone{ID: takenZone(seat), Kind: sdk.ZoneRow, Owner: seat,
				Label: "Taken from the discard pile", Cards: slices.Clone(s.Known[seat]), Count: len(s.Known[seat])})
		}
	}
	v.Zones = append(v.Zones,
		sdk.Zone{ID: "deck", Kind: sdk.ZoneDeck, Owner: sdk.NoSeat, Label: "Stock", Count: len(s.Stock), Hidden: true},
		sdk.Zone{ID: "pile", Kind: sdk.ZonePile, Owner: sdk.NoSeat, Label: "Discard pile", Cards: slices.Clone(s.Pile), Count: len(s.Pile)},
	)
	if s.KnockCard != 0 {
		// The knock card lies face down on the table, no seat's to hold: a zone of no owner, drawn
		// beside the pile (a row of the knocker's would read as a card the knocker still holds).
		z := sdk.Zone{ID: "knock", Kind: sdk.ZoneRow, Owner: sdk.NoSeat, Label: "Knock card", Count: 1}
		if s.knockShown(viewer) {
			z.Cards = []sdk.Card{s.KnockCard}
		} else {
			z.Hidden = true
		}
		v.Zones = append(v.Zones, z)
	}
	if s.laidOut() {
		for seat := range Seats {
			for i, m := range s.Melds[seat] {
				k := i
				v.Zones = append(v.Zones, sdk.Zone{ID: MeldZone(seat, i), Kind: sdk.ZoneMeld, Owner: seat,
					Label: "Meld " + strconv.Itoa(i+1), Cards: slices.Clone(m), Count: len(m), Meld: &k})
			}
			d := s.Dead[seat]
			v.Zones = append(v.Zones, sdk.Zone{ID: deadZone(seat), Kind: sdk.ZoneDeadwood, Owner: seat,
				Label: "Deadwood: " + strconv.Itoa(Points(d)) + " points", Cards: slices.Clone(d), Count: len(d)})
		}
	}
	v.Sheet = &sdk.ScoreSheet{By: "seat", Columns: slices.Clone(seatNames), Rows: append([]sdk.ScoreRow{}, s.Rows...), Totals: slices.Clone(s.Scores)}
	v.Indicators = []sdk.Indicator{
		{ID: "stage", Label: "Now", Value: stageWords[s.Stage], Kind: "text"},
		{ID: OptTarget, Label: "Play to", Value: strconv.Itoa(s.Target), Kind: "count"},
		{ID: OptKnockLimit, Label: "Knock with at most", Value: strconv.Itoa(s.KnockLimit), Kind: "count"},
		{ID: OptBigGin, Label: "Big gin", Value: strconv.FormatBool(s.BigGin), Kind: "flag"},
	}
	if viewer >= 0 && viewer < Seats && !s.laidOut() && len(s.Hands[viewer]) > 0 {
		v.Indicators = append(v.Indicators, sdk.Indicator{ID: "deadwood", Label: "Your deadwood", Value: strconv.Itoa(Deadwood(s.Hands[viewer])), Kind: "count"})
	}
	v.Actions = actions(s, viewer)
	return v
}

var _ sdk.ViewsMaker[*State] = (*Rules)(nil)

// noViewer is a viewer no view is for (not a seat, not the spectators, not the turn's NoSeat):
// Views builds from it what every viewer sees.
const noViewer = -1 << 30

// Views makes every viewer's view at once (sdk.ViewsMaker): what every viewer sees is built once
// and each view shares its players, pile, melds, score sheet and indicators, with the viewer's own
// hand (and not its own taken cards, which only the other seat is shown), the knock card as the
// viewer sees it, its deadwood count and its actions; exactly View(s, viewer) each.
func (r *Rules) Views(s *State, viewers []int, views []sdk.View) {
	base := r.View(s, noViewer)
	reveal := !s.playing()
	for i, viewer := range viewers {
		v := base
		v.Viewer = viewer
		seat := viewer >= 0 && viewer < Seats
		if seat && !reveal {
			v.Zones = slices.Clone(base.Zones)
			z := &v.Zones[slices.IndexFunc(v.Zones, func(z sdk.Zone) bool { return z.ID == handZone(viewer) })]
			z.Cards, z.Hidden = slices.Clone(s.Hands[viewer]), false
			taken := takenZone(viewer)
			v.Zones = slices.DeleteFunc(v.Zones, func(z sdk.Zone) bool { return z.ID == taken })
		}
		if s.KnockCard != 0 && s.knockShown(viewer) != s.knockShown(noViewer) {
			if !seat || reveal {
				v.Zones = slices.Clone(base.Zones)
			}
			for j := range v.Zones {
				if z := &v.Zones[j]; z.ID == "knock" {
					if s.knockShown(viewer) {
						z.Cards, z.Hidden = []sdk.Card{s.KnockCard}, false
					} else {
						z.Cards, z.Hidden = nil, true
					}
				}
			}
		}
		if seat && !s.laidOut() && len(s.Hands[viewer]) > 0 {
			v.Indicators = append(append(make([]sdk.Indicator, 0, len(base.Indicators)+1), base.Indicators...), sdk.Indicator{ID: "deadwood", Label: "Your deadwood", Value: strconv.Itoa(Deadwood(s.Hands[viewer])), Kind: "count"})
		}
		v.Actions = actions(s, viewer)
		views[i] = v
	}
}

// actions lists what viewer may do now, as Apply would accept it.
func actions(s *State, viewer int) []sdk.ActionSpec {
	if !s.playing() || viewer != s.Turn {
		return nil
	}
	switch s.Stage {
	case StageUpcard:
		up := "Take the upcard"
		if t := s.top(); t != 0 {
			up = "Take the " + t.String()
		}
		return []sdk.ActionSpec{
			{Type: sdk.ActDraw, Label: "Take the upcard", Choices: []string{sdk.FromDiscard}, ChoiceLabels: []string{up}},
			{Type: sdk.ActPass, Label: "Pass"},
		}
	case StageLayoff:
		out := []sdk.ActionSpec{}
		if lay := layoffSpec(s, viewer); lay != nil {
			out = append(out, *lay)
		}
		return append(out, sdk.ActionSpec{Type: sdk.ActPass, Label: "Done laying off"})
	}
	hand := s.Hands[viewer]
	if !s.Drawn {
		d := sdk.ActionSpec{Type: sdk.ActDraw, Label: "Draw"}
		if len(s.Stock) > 0 {
			d.Choices, d.ChoiceLabels = append(d.Choices, sdk.FromStock), append(d.ChoiceLabels, "Draw from the stock")
		}
		if t := s.top(); t != 0 && !s.MustStock {
			d.Choices, d.ChoiceLabels = append(d.Choices, sdk.FromDiscard), append(d.ChoiceLabels, "Take the "+t.String())
		}
		return []sdk.ActionSpec{d}
	}
	var discard, knock []sdk.Card
	for _, c := range hand {
		if c == s.Taken || slices.Contains(discard, c) {
			continue
		}
		discard = append(discard, c)
		if deadwood(setOf(hand)&^bitOf(c)) <= s.KnockLimit {
			knock = append(knock, c)
		}
	}
	out := []sdk.ActionSpec{{Type: sdk.ActDiscard, Label: "Discard", Cards: discard}}
	if len(knock) > 0 {
		label := "Knock"
		for _, c := range knock {
			if deadwood(setOf(hand)&^bitOf(c)) == 0 {
				label = "Knock or go gin"
				break
			}
		}
		out = append(out, sdk.ActionSpec{Type: sdk.ActKnock, Label: label, Cards: knock})
	}
	if s.BigGin && deadwood(setOf(hand)) == 0 {
		out = append(out, sdk.ActionSpec{Type: sdk.ActKnock, Label: "Big gin"})
	}
	return out
}

// layoffSpec is the defender's layoff action: its deadwood cards that extend a meld of the
// knocker, taken from its deadwood zone (the hand is empty once laid out), and the knocker's meld
// zones.
func layoffSpec(s *State, seat int) *sdk.ActionSpec {
	k := s.Knocker
	dead := setOf(s.Dead[seat])
	var cards cardSet
	var zones []string
	for i, m := range s.Melds[k] {
		if l := layable(m, dead); l != 0 {
			cards |= l
			zones = append(zones, MeldZone(k, i))
		}
	}
	if cards == 0 {
		return nil
	}
	return &sdk.ActionSpec{Type: sdk.ActLayoff, Label: "Lay off", Cards: cards.cards(), Multi: true, From: deadZone(seat), Zones: zones, Targets: []int{k}}
}

// Redeal returns a copy of s in which every card viewer cannot see is shuffled among the places it
// cannot see, each keeping its size: the other hand (but for the cards it took from the discard
// pile), the stock, the face-down knock card and the cards out of play.
func (r *Rules) Redeal(s *State, viewer int, rng *sdk.RNG) *State {
	c := s.clone()
	playing := c.playing()
	var pool []sdk.Card
	hidden := func(seat int) bool { return playing && seat != viewer }
	for seat := range Seats {
		if hidden(seat) {
			rest, _ := sdk.RemoveCards(c.Hands[seat], c.Known[seat])
			pool = append(pool, rest...)
		}
	}
	pool = append(pool, c.Stock...)
	pool = append(pool, c.Out...)
	knock := c.KnockCard != 0 && !c.knockShown(viewer)
	if knock {
		pool = append(pool, c.KnockCard)
	}
	rng.ShuffleCards(sdk.DrawShuffle, pool)
	take := func(n int) []sdk.Card {
		out := slices.Clone(pool[:n])
		pool = pool[n:]
		return out
	}
	for seat := range Seats {
		if hidden(seat) {
			c.Hands[seat] = append(slices.Clone(c.Known[seat]), take(len(c.Hands[seat])-len(c.Known[seat]))...)
		}
	}
	c.Stock = take(len(c.Stock))
	if len(c.Out) > 0 {
		c.Out = take(len(c.Out))
	}
	if knock {
		c.KnockCard = take(1)[0]
	}
	return c
}

// Table is the generic face of the state: zones "hand.N", "pile" (bottom first), "deck" (the
// stock, top first) and "out", and once the hands are laid out "meld.N.K", "deadwood.N" and
// "knock"; counters "score.N", "hands_won.N", "dealer" and "knock_limit"; values "phase" and
// "stage".
func (r *Rules) Table(s *State) sdk.Table {
	t := sdk.Table{Zones: map[string][]sdk.Card{}, Turn: s.Turn, Direction: 1,
		Counters: map[string]int{"dealer": s.Dealer, "knock_limit": s.KnockLimit},
		Values:   map[string]string{"phase": s.Phase, "stage": s.Stage}}
	for seat := range Seats {
		t.Zones[handZone(seat)] = slices.Clone(s.Hands[seat])
		t.Counters["score."+strconv.Itoa(seat)] = s.Scores[seat]
		t.Counters["hands_won."+strconv.Itoa(seat)] = s.HandsWon[seat]
	}
	t.Zones["pile"] = slices.Clone(s.Pile)
	t.Zones["deck"] = slices.Clone(s.Stock)
	t.Zones["out"] = slices.Clone(s.Out)
	if s.laidOut() {
		for seat := range Seats {
			for i, m := range s.Melds[seat] {
				t.Zones[MeldZone(seat, i)] = slices.Clone(m)
			}
			t.Zones[deadZone(seat)] = slices.Clone(s.Dead[seat])
		}
	}
	if s.KnockCard != 0 {
		t.Zones["knock"] = []sdk.Card{s.KnockCard}
	}
	return t
}

// SetTable returns a copy of s with the table's zones, turn and counters. An unknown zone or
// counter, a card that is not a French card, a turn that is no seat, a meld zone that is no meld,
// a knock zone of other than one card, or a change of phase or stage is refused. Zones the table
// leaves out keep their cards; what the other player knows of a hand is kept only for the cards
// still in it, and a card just taken that is no longer held is forgotten.
func (r *Rules) SetTable(s *State, t sdk.Table) (*State, error) {
	c := s.clone()
	for id, cards := range t.Zones {
		for _, card := range cards {
			if !card.IsFrench() || card == sdk.Joker {
				return s, sdk.Refuse(sdk.CodeBadAction, "table zone %s: %s is not a card of Gin Rummy", id, card)
			}
		}
		cards = slices.Clone(cards)
		switch {
		case id == "pile":
			c.Pile = cards
		case id == "deck":
			c.Stock = cards
		case id == "out":
			c.Out = cards
		case id == "knock":
			if c.KnockCard == 0 || len(cards) != 1 {
				return s, sdk.Refuse(sdk.CodeBadAction, "table zone knock holds exactly the one knock card, after a knock")
			}
			c.KnockCard = cards[0]
		case strings.HasPrefix(id, "hand."):
			seat, err := strconv.Atoi(strings.TrimPrefix(id, "hand."))
			if err != nil || seat < 0 || seat >= Seats {
				return s, sdk.Refuse(sdk.CodeBadAction, "table zone %q: Gin Rummy has hand.0 and hand.1", id)
			}
			c.Hands[seat] = cards
		case strings.HasPrefix(id, "deadwood.") && c.laidOut():
			seat, err := strconv.Atoi(strings.TrimPrefix(id, "deadwood."))
			if err != nil || seat < 0 || seat >= Seats {
				return s, sdk.Refuse(sdk.CodeBadAction, "table zone %q: no such seat", id)
			}
			c.Dead[seat] = cards
		case strings.HasPrefix(id, "meld.") && c.laidOut():
			parts := strings.Split(id, ".")
			seat, err1 := strconv.Atoi(parts[1])
			i, err2 := strconv.Atoi(parts[len(parts)-1])
			if len(parts) != 3 || err1 != nil || err2 != nil || seat < 0 || seat >= Seats || i < 0 || i >= len(c.Melds[seat]) {
				return s, sdk.Refuse(sdk.CodeBadAction, "table zone %q: no such meld", id)
			}
			if !IsMeld(cards) {
				return s, sdk.Refuse(sdk.CodeBadAction, "table zone %q: %s is not a meld", id, cardWords(cards))
			}
			c.Melds[seat][i] = setOf(cards).cards()
		default:
			return s, sdk.Refuse(sdk.CodeBadAction, "table zone %q: Gin Rummy has hand.N, pile, deck, out and, after a knock, meld.N.K, deadwood.N and knock", id)
		}
	}
	if t.Turn < 0 || t.Turn >= Seats {
		return s, sdk.Refuse(sdk.CodeBadAction, "table turn %d is not a seat of this 2-player game", t.Turn)
	}
	if t.Turn != c.Turn {
		if c.Stage == StageLayoff {
			return s, sdk.Refuse(sdk.CodeBadAction, "the turn cannot move while the hand is laid off")
		}
		c.Turn, c.Drawn, c.Taken = t.Turn, false, 0
	}
	for k, n := range t.Counters {
		switch {
		case k == "dealer":
			if n < 0 || n >= Seats {
				return s, sdk.Refuse(sdk.CodeBadAction, "table counter dealer %d is not a seat", n)
			}
			c.Dealer = n
		case k == "knock_limit":
			if n < 0 || n > 100 {
				return s, sdk.Refuse(sdk.CodeBadAction, "table counter knock_limit must be 0 to 100, got %d", n)
			}
			c.KnockLimit = n
		case strings.HasPrefix(k, "score.") || strings.HasPrefix(k, "hands_won."):
			name, num, _ := strings.Cut(k, ".")
			seat, err := strconv.Atoi(num)
			if err != nil || seat < 0 || seat >= Seats || n < 0 {
				return s, sdk.Refuse(sdk.CodeBadAction, "table counter %q: no such seat, or a negative number", k)
			}
			if name == "score" {
				c.Scores[seat] = n
			} else {
				c.HandsWon[seat] = n
			}
		default:
			return s, sdk.Refuse(sdk.CodeBadAction, "table counter %q: Gin Rummy has score.N, hands_won.N, dealer and knock_limit", k)
		}
	}
	for k, val := range t.Values {
		switch k {
		case "phase":
			if val != c.Phase {
				return s, sdk.Refuse(sdk.CodeBadAction, "table value phase cannot be changed (%s to %s)", c.Phase, val)
			}
		case "stage":
			if val != c.Stage {
				return s, sdk.Refuse(sdk.CodeBadAction, "table value stage cannot be changed (%s to %s)", c.Stage, val)
			}
		default:
			return s, sdk.Refuse(sdk.CodeBadAction, "table value %q: Gin Rummy has phase and stage", k)
		}
	}
	for seat := range Seats {
		held := setOf(c.Hands[seat])
		c.Known[seat] = slices.DeleteFunc(c.Known[seat], func(d sdk.Card) bool { return held&bitOf(d) == 0 })
	}
	if c.Taken != 0 && !slices.Contains(c.Hands[c.Turn], c.Taken) {
		c.Taken = 0
	}
	return c, nil
}
