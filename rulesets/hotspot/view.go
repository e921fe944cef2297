package hotspot

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"cardhouse/sdk"
)

// Indicator IDs of the view; PositionOf reads a Position back from them.
const (
	IndSuit      = "suit"
	IndPenalty   = "penalty"
	IndDirection = "direction"
	IndExtraGo   = "extra_go"
	IndDrawn     = "drawn"
)

// roles tells the client which ranks have a power, for their card faces.
var roles = map[string]string{"A": "wild", "2": "pickup", "J": "reverse", "Q": "extra_go", "K": "skip"}

// View is the table as viewer sees it: every hand as a count except the viewer's own (every hand
// once the game is over: the reveal), the whole discard pile (every card in it was played face
// up), the deck as a count, the indicators (active suit, penalty, direction, the Queen's extra go
// and, for the seat in turn only, the card it may still play after drawing), the open LAST CARD
// windows and the actions open to the viewer.
func (r *Rules) View(s *State, viewer int) sdk.View {
	v := sdk.View{
		Ruleset: ID, Viewer: viewer, Phase: s.Phase, Turn: s.Turn, Direction: s.Direction,
		Round: s.Game, Winner: s.Winner, Roles: roles,
		// Sized once: views are built for every seat after every action.
		Players: make([]sdk.PlayerView, 0, len(s.Hands)), Zones: make([]sdk.Zone, 0, len(s.Hands)+3),
		Indicators: make([]sdk.Indicator, 0, 5),
	}
	if s.over() {
		v.Turn = sdk.NoSeat
	}
	for seat, h := range s.Hands {
		p := sdk.PlayerView{Seat: seat, HandCount: len(h)}
		if seat == s.Opener {
			p.Tags = append(p.Tags, "opener")
		}
		if s.window(seat) >= 0 {
			p.Tags = append(p.Tags, "last_card_open")
		}
		if slices.Contains(s.Called, seat) {
			p.Tags = append(p.Tags, "called")
		}
		if seat == s.Winner {
			p.Tags = append(p.Tags, "winner")
		}
		v.Players = append(v.Players, p)
		z := sdk.Zone{ID: "hand." + strconv.Itoa(seat), Kind: sdk.ZoneHand, Owner: seat, Count: len(h)}
		// When the game is over every hand left is shown, to the spectators too.
		if seat == viewer || s.Phase != sdk.PhasePlaying {
			z.Cards = slices.Clone(h)
		} else {
			z.Hidden = true
		}
		v.Zones = append(v.Zones, z)
	}
	v.Zones = append(v.Zones,
		sdk.Zone{ID: "pile", Kind: sdk.ZonePile, Owner: sdk.NoSeat, Label: "Pile", Cards: slices.Clone(s.Pile), Count: len(s.Pile)},
		sdk.Zone{ID: "deck", Kind: sdk.ZoneDeck, Owner: sdk.NoSeat, Label: "Deck", Count: len(s.Deck), Hidden: true})
	if len(s.Out) > 0 {
		v.Zones = append(v.Zones, sdk.Zone{ID: "out", Kind: sdk.ZoneBurned, Owner: sdk.NoSeat, Label: "Out of play", Count: len(s.Out), Hidden: true})
	}
	if s.Suit != "" {
		v.Indicators = append(v.Indicators, sdk.Indicator{ID: IndSuit, Label: "Suit", Value: s.Suit, Kind: "suit"})
	}
	v.Indicators = append(v.Indicators,
		sdk.Indicator{ID: IndPenalty, Label: "Pick up", Value: strconv.Itoa(s.Penalty), Kind: "count"},
		sdk.Indicator{ID: IndDirection, Label: "Direction", Value: strconv.Itoa(s.Direction), Kind: "text"})
	if s.ExtraGo && !s.over() {
		v.Indicators = append(v.Indicators, sdk.Indicator{ID: IndExtraGo, Label: "Extra go", Value: "true", Kind: "flag"})
	}
	if s.Drawn != 0 && viewer == s.Turn {
		v.Indicators = append(v.Indicators, sdk.Indicator{ID: IndDrawn, Label: "Just drawn", Value: s.Drawn.String(), Kind: "text"})
	}
	for _, w := range s.Windows {
		v.Deadlines = append(v.Deadlines, sdk.Deadline{ID: w.ID, Seat: w.Seat, At: w.At, Kind: "last_card"})
	}
	v.Actions = s.actions(viewer)
	return v
}

var _ sdk.ViewsMaker[*State] = (*Rules)(nil)

// noViewer is a viewer no view is for (not a seat, not the spectators, not the turn's NoSeat):
// Views builds from it what every viewer sees.
const noViewer = -1 << 30

// Views makes every viewer's view at once (sdk.ViewsMaker): what every viewer sees is built once
// and each view shares its players, pile, roles, indicators and deadlines, with the viewer's own
// hand, its own "drawn" indicator and its actions; exactly View(s, viewer) each.
func (r *Rules) Views(s *State, viewers []int, views []sdk.View) {
	base := r.View(s, noViewer)
	playing := s.Phase == sdk.PhasePlaying
	for i, viewer := range viewers {
		v := base
		v.Viewer = viewer
		if playing && viewer >= 0 && viewer < len(s.Hands) { // once over, every hand is shown to all
			v.Zones = slices.Clone(base.Zones)
			z := &v.Zones[viewer]
			z.Cards, z.Hidden = slices.Clone(s.Hands[viewer]), false
		}
		if s.Drawn != 0 && viewer == s.Turn {
			v.Indicators = append(append(make([]sdk.Indicator, 0, len(base.Indicators)+1), base.Indicators...), sdk.Indicator{ID: IndDrawn, Label: "Just drawn", Value: s.Drawn.String(), Kind: "text"})
		}
		v.Actions = s.actions(viewer)
		views[i] = v
	}
}

// actions are the actions open to viewer: for the seat in turn a play (with the cards that may
// start it), draw and pass where they apply; for any seat with an open window, call.
func (s *State) actions(viewer int) []sdk.ActionSpec {
	if s.over() || viewer < 0 || viewer >= s.Seats {
		return nil
	}
	var out []sdk.ActionSpec
	if viewer == s.Turn {
		hand := s.Hands[viewer]
		pos := s.position()
		var start []sdk.Card
		multi := false
		for _, c := range hand {
			if slices.Contains(start, c) || !pos.Legal(c) || (pos.Drawn != 0 && c != pos.Drawn) {
				continue
			}
			start = append(start, c)
			if c.Rank() == rankQueen || countRank(hand, c.Rank()) >= 3 {
				multi = true
			}
		}
		slices.Sort(start)
		if len(start) > 0 {
			spec := sdk.ActionSpec{Type: sdk.ActPlay, Label: "Play", Cards: start, Multi: multi}
			var aces []sdk.Card
			reach := slices.ContainsFunc(start, func(c sdk.Card) bool { return c.Rank() == rankAce || c.Rank() == rankQueen })
			for _, c := range hand {
				if reach && c.Rank() == rankAce && !slices.Contains(aces, c) {
					aces = append(aces, c)
				}
			}
			if len(aces) > 0 {
				slices.Sort(aces)
				spec.Choices, spec.ChoiceFor = []string{"S", "H", "D", "C"}, aces
			}
			out = append(out, spec)
		}
		switch {
		case s.Drawn != 0:
			out = append(out, sdk.ActionSpec{Type: sdk.ActPass, Label: "Keep it"})
		case s.Penalty > 0:
			out = append(out, sdk.ActionSpec{Type: sdk.ActDraw, Label: fmt.Sprintf("Pick up %d", s.Penalty)})
		default:
			out = append(out, sdk.ActionSpec{Type: sdk.ActDraw, Label: "Draw"})
		}
		if s.ExtraGo {
			out = append(out, sdk.ActionSpec{Type: sdk.ActPass, Label: "End turn"})
		}
	}
	if s.window(viewer) >= 0 && len(s.Hands[viewer]) == 1 {
		out = append(out, sdk.ActionSpec{Type: sdk.ActCall, Label: "LAST CARD!"})
	}
	return out
}

func countRank(hand []sdk.Card, rank int) int {
	n := 0
	for _, c := range hand {
		if c.Rank() == rank {
			n++
		}
	}
	return n
}

// PositionOf reads the Position of a seat's view: the pile's top card and the indicators. With
// the viewer's hand (the zone "hand.N") it is all CheckPlay needs.
func PositionOf(v sdk.View) Position {
	var p Position
	if z, ok := v.Zone("pile"); ok && len(z.Cards) > 0 {
		p.Top = z.Cards[len(z.Cards)-1]
	}
	for _, in := range v.Indicators {
		switch in.ID {
		case IndSuit:
			p.Suit, _ = ParseSuit(in.Value)
		case IndPenalty:
			p.Penalty, _ = strconv.Atoi(in.Value)
		case IndExtraGo:
			p.ExtraGo = in.Value == "true"
		case IndDrawn:
			p.Drawn, _ = sdk.ParseCard(in.Value)
		}
	}
	return p
}

// HandOf returns the viewer's own hand in a view (nil for a spectator).
func HandOf(v sdk.View) []sdk.Card {
	if z, ok := v.Zone("hand." + strconv.Itoa(v.Viewer)); ok {
		return z.Cards
	}
	return nil
}

// Redeal returns a copy of s in which every card viewer cannot see (the other hands, the deck,
// the cards out of play) is shuffled among those places, each keeping its size. A card just drawn
// by another seat under play_after_draw becomes that hand's last card.
func (r *Rules) Redeal(s *State, viewer int, rng *sdk.RNG) *State {
	c := s.clone()
	var pool []sdk.Card
	shown := c.Phase != sdk.PhasePlaying // the game is over: every hand is shown (View)
	for seat, h := range c.Hands {
		if seat != viewer && !shown {
			pool = append(pool, h...)
		}
	}
	pool = append(pool, c.Deck...)
	pool = append(pool, c.Out...)
	rng.ShuffleCards(sdk.DrawShuffle, pool)
	take := func(n int) []sdk.Card {
		out := slices.Clone(pool[:n])
		pool = pool[n:]
		return out
	}
	for seat, h := range c.Hands {
		if seat != viewer && !shown {
			c.Hands[seat] = take(len(h))
		}
	}
	c.Deck = take(len(c.Deck))
	if len(c.Out) > 0 {
		c.Out = take(len(c.Out))
	}
	if c.Drawn != 0 && c.Turn != viewer {
		h := c.Hands[c.Turn]
		c.Drawn = h[len(h)-1]
	}
	return c
}

// Table is the generic face of the state: zones "hand.N", "pile" (bottom first), "deck" (top
// first) and "out"; counters "penalty", "extra_go" (0 or 1) and "opener"; values "suit" and
// "phase".
func (r *Rules) Table(s *State) sdk.Table {
	t := sdk.Table{Zones: map[string][]sdk.Card{}, Turn: s.Turn, Direction: s.Direction,
		Counters: map[string]int{"penalty": s.Penalty, "extra_go": 0, "opener": s.Opener},
		Values:   map[string]string{"suit": s.Suit, "phase": s.Phase}}
	if s.ExtraGo {
		t.Counters["extra_go"] = 1
	}
	for seat, h := range s.Hands {
		t.Zones["hand."+strconv.Itoa(seat)] = slices.Clone(h)
	}
	t.Zones["pile"] = slices.Clone(s.Pile)
	t.Zones["deck"] = slices.Clone(s.Deck)
	t.Zones["out"] = slices.Clone(s.Out)
	return t
}

// SetTable returns a copy of s with the table's zones, turn, direction, counters and values. An
// unknown zone, counter or value, a turn that is no seat, a direction other than ±1, a card that
// is not a French card, a suit other than S/H/D/C or a change of phase is refused. Zones the table
// leaves out keep their cards. LAST CARD windows and calls of seats that no longer hold one card
// close.
func (r *Rules) SetTable(s *State, t sdk.Table) (*State, error) {
	c := s.clone()
	for id, cards := range t.Zones {
		for _, card := range cards {
			if !card.IsFrench() || card == sdk.Joker {
				return s, sdk.Refuse(sdk.CodeBadAction, "table zone %s: %s is not a card of Hotspot", id, card)
			}
		}
		cards = slices.Clone(cards)
		switch {
		case id == "pile":
			c.Pile = cards
		case id == "deck":
			c.Deck = cards
		case id == "out":
			c.Out = cards
		case strings.HasPrefix(id, "hand."):
			seat, err := strconv.Atoi(strings.TrimPrefix(id, "hand."))
			if err != nil || seat < 0 || seat >= c.Seats {
				return s, sdk.Refuse(sdk.CodeBadAction, "table zone %q: no such seat in this %d-seat game", id, c.Seats)
			}
			c.Hands[seat] = cards
		default:
			return s, sdk.Refuse(sdk.CodeBadAction, "table zone %q: Hotspot has hand.N, pile, deck and out", id)
		}
	}
	if t.Turn < 0 || t.Turn >= c.Seats {
		return s, sdk.Refuse(sdk.CodeBadAction, "table turn %d is not a seat of this %d-seat game", t.Turn, c.Seats)
	}
	if t.Turn != c.Turn {
		c.Turn, c.ExtraGo, c.Drawn = t.Turn, false, 0
	}
	if t.Direction != 1 && t.Direction != -1 {
		return s, sdk.Refuse(sdk.CodeBadAction, "table direction must be 1 or -1, got %d", t.Direction)
	}
	c.Direction = t.Direction
	for k, n := range t.Counters {
		switch k {
		case "penalty":
			if n < 0 {
				return s, sdk.Refuse(sdk.CodeBadAction, "table counter penalty must not be negative, got %d", n)
			}
			c.Penalty = n
		case "extra_go":
			if n != 0 && n != 1 {
				return s, sdk.Refuse(sdk.CodeBadAction, "table counter extra_go must be 0 or 1, got %d", n)
			}
			c.ExtraGo = n == 1
		case "opener":
			if n < 0 || n >= c.Seats {
				return s, sdk.Refuse(sdk.CodeBadAction, "table counter opener %d is not a seat", n)
			}
			c.Opener = n
		default:
			return s, sdk.Refuse(sdk.CodeBadAction, "table counter %q: Hotspot has penalty, extra_go and opener", k)
		}
	}
	for k, val := range t.Values {
		switch k {
		case "suit":
			if val == "" && len(c.Pile) == 0 {
				c.Suit = ""
				continue
			}
			su, ok := ParseSuit(val)
			if !ok {
				return s, sdk.Refuse(sdk.CodeBadAction, "table value suit must be S, H, D or C, got %q", val)
			}
			c.Suit = string(rune(su))
		case "phase":
			if val != c.Phase {
				return s, sdk.Refuse(sdk.CodeBadAction, "table value phase cannot be changed (%s to %s)", c.Phase, val)
			}
		default:
			return s, sdk.Refuse(sdk.CodeBadAction, "table value %q: Hotspot has suit and phase", k)
		}
	}
	if c.Drawn != 0 && !slices.Contains(c.Hands[c.Turn], c.Drawn) {
		c.Drawn = 0
	}
	if !c.over() {
		c.tidyLastCard()
	}
	return c, nil
}

var _ sdk.Ender[*State] = (*Rules)(nil)

// End ends the game for a house rule, as when winner plays their last card: Hotspot has no
// rounds, so ending the round ends the game. Pending penalties, Queen follow-ups and LAST CARD
// windows close.
func (r *Rules) End(s *State, req sdk.EndRequest) (*State, []sdk.Event, error) {
	if s.over() {
		return nil, nil, sdk.Refuse(sdk.CodeGameOver, "the game is already over")
	}
	if req.Winner < 0 || req.Winner >= s.Seats {
		return nil, nil, sdk.Refuse(sdk.CodeHouseRule, "winner %d is not a seat of this %d-seat game", req.Winner, s.Seats)
	}
	c := s.clone()
	evs := []sdk.Event{c.win(req.Winner)}
	c.record(evs)
	return c, evs, nil
}
