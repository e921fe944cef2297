package lastcard

import (
	"fmt"
	"slices"
	"strconv"

	"cardhouse/sdk"
)

// colorChoices are the names a Joker's colour is chosen from.
var colorChoices = []string{"R", "Y", "G", "B"}

// roles tells the client which cards to draw with a special face, by rank code.
var roles = map[string]string{
	"S": "skip", "R": "reverse", "+2": "draw_two", "W": "joker", "W+4": "joker_draw_four",
}

// handZones are the hand zones' ids of the usual seats, made once rather than per view.
var handZones = [...]string{"hand.0", "hand.1", "hand.2", "hand.3"}

// handZone is the id of seat's hand zone.
func handZone(seat int) string {
	if seat < len(handZones) {
		return handZones[seat]
	}
	return "hand." + strconv.Itoa(seat)
}

var _ sdk.ViewsMaker[*State] = (*Rules)(nil)

// View is the table as viewer (a seat or sdk.Spectator) may see it: its own hand only, the pile,
// the deck's count, the colour, penalty, scores and the room's rule options (indicators), and the
// actions open to it. The card a seat has just drawn is shown to that seat alone. When a round
// is over the hands are shown to every viewer, spectators too, with the points each counts (L-9):
// the table's round summary says how the winner's score was made.
func (r *Rules) View(s *State, viewer int) sdk.View {
	n := s.seats()
	v := sdk.View{
		Ruleset:   ID,
		Viewer:    viewer,
		Phase:     s.Phase,
		Turn:      sdk.NoSeat,
		Direction: s.Direction,
		Round:     s.Round,
		Winner:    s.Winner,
		Roles:     roles, // shared, read only (as Hotspot's)
		// Sized once: a view is built for every seat after every action, and growing these
		// slices (large structs) was most of what building one allocated.
		Players:    make([]sdk.PlayerView, 0, n),
		Zones:      make([]sdk.Zone, 0, n+2),
		Indicators: make([]sdk.Indicator, 0, 8),
	}
	if s.Phase == sdk.PhasePlaying {
		v.Turn = s.Turn
	}
	for seat := range n {
		score := s.Scores[seat]
		p := sdk.PlayerView{Seat: seat, HandCount: len(s.Hands[seat]), Score: &score}
		reveal := s.Phase != sdk.PhasePlaying
		if reveal {
			points := handPoints(s.Hands[seat])
			p.Points = &points
		}
		if s.Called[seat] {
			p.Tags = append(p.Tags, "called")
		}
		if len(s.Hands[seat]) == 1 {
			p.Tags = append(p.Tags, "last_card")
		}
		if s.Exposed == seat {
			p.Tags = append(p.Tags, "catchable")
		}
		if s.Opener == seat {
			p.Tags = append(p.Tags, "opener")
		}
		if s.Winner == seat {
			p.Tags = append(p.Tags, "winner")
		}
		v.Players = append(v.Players, p)

		z := sdk.Zone{ID: handZone(seat), Kind: sdk.ZoneHand, Owner: seat, Count: len(s.Hands[seat])}
		if seat == viewer || reveal {
			z.Cards = slices.Clone(s.Hands[seat])
		} else {
			z.Hidden = true
		}
		v.Zones = append(v.Zones, z)
	}
	v.Zones = append(v.Zones,
		sdk.Zone{ID: "pile", Kind: sdk.ZonePile, Owner: sdk.NoSeat, Label: "Discard pile", Cards: slices.Clone(s.Pile), Count: len(s.Pile)},
		sdk.Zone{ID: "deck", Kind: sdk.ZoneDeck, Owner: sdk.NoSeat, Label: "Draw pile", Count: len(s.Deck), Hidden: true},
	)
	v.Indicators = append(v.Indicators,
		sdk.Indicator{ID: "color", Label: "Colour in play", Value: s.Color, Kind: "color"},
		sdk.Indicator{ID: "penalty", Label: "Cards to draw", Value: strconv.Itoa(s.Penalty), Kind: "count"},
		sdk.Indicator{ID: "direction", Label: "Direction", Value: strconv.Itoa(s.Direction), Kind: "text"},
		sdk.Indicator{ID: "target", Label: "Play to", Value: s.Settings.Target, Kind: "text"},
		sdk.Indicator{ID: OptStackDrawTwo, Label: "Stack Draw Twos", Value: strconv.FormatBool(s.Settings.StackDrawTwo), Kind: "flag"},
		sdk.Indicator{ID: OptDrawFour, Label: "Joker Draw Four", Value: s.Settings.DrawFour, Kind: "text"},
		sdk.Indicator{ID: OptLastCardMode, Label: "Forgotten \"Last card!\"", Value: s.Settings.LastCardMode, Kind: "text"},
	)
	if s.Drawn != nil && viewer == s.Turn && s.Phase == sdk.PhasePlaying {
		v.Indicators = append(v.Indicators, sdk.Indicator{ID: "drawn", Label: "Just drawn", Value: s.Drawn.String(), Kind: "text"})
	}
	v.Actions = actions(s, viewer)
	return v
}

// noViewer is a viewer no view is for (not a seat, not the spectators, not the turn's NoSeat):
// Views builds from it what every viewer sees.
const noViewer = -1 << 30

// Views makes every viewer's view at once (sdk.ViewsMaker): what every viewer sees is built once
// and each seat's shares its players, pile, roles and indicators, with its own hand, its own
// "drawn" indicator and its actions; exactly View(s, viewer) each.
func (r *Rules) Views(s *State, viewers []int, views []sdk.View) {
	base := r.View(s, noViewer)
	n := s.seats()
	playing := s.Phase == sdk.PhasePlaying
	for i, viewer := range viewers {
		v := base
		v.Viewer = viewer
		if playing && viewer >= 0 && viewer < n { // once over, every hand is shown to all
			v.Zones = slices.Clone(base.Zones)
			z := &v.Zones[viewer]
			z.Cards, z.Hidden = slices.Clone(s.Hands[viewer]), false
		}
		if s.Drawn != nil && viewer == s.Turn && playing {
			v.Indicators = append(append(make([]sdk.Indicator, 0, len(base.Indicators)+1), base.Indicators...), sdk.Indicator{ID: "drawn", Label: "Just drawn", Value: s.Drawn.String(), Kind: "text"})
		}
		v.Actions = actions(s, viewer)
		views[i] = v
	}
}

// handPoints is what a hand left at a round's end counts for the winner (L-9).
func handPoints(h []sdk.Card) int {
	n := 0
	for _, c := range h {
		n += Points(c)
	}
	return n
}

// actions lists what viewer may do now, as Apply would accept it.
func actions(s *State, viewer int) []sdk.ActionSpec {
	if s.Phase != sdk.PhasePlaying || viewer < 0 || viewer >= s.seats() {
		return nil
	}
	var out []sdk.ActionSpec
	if viewer == s.Turn {
		hand := s.Hands[viewer]
		if cards := s.playableCards(); len(cards) > 0 {
			play := sdk.ActionSpec{Type: sdk.ActPlay, Label: "Play", Cards: cards}
			for _, c := range cards {
				if isJoker(c) && len(hand) > 1 {
					play.ChoiceFor = append(play.ChoiceFor, c)
				}
			}
			if len(play.ChoiceFor) > 0 {
				play.Choices = slices.Clone(colorChoices)
			}
			if len(hand) == 2 && !s.Called[viewer] {
				play.Args = []string{ArgCall} // L-8: "Last card!" with the play
			}
			out = append(out, play)
		}
		switch {
		case s.Drawn != nil:
			out = append(out, sdk.ActionSpec{Type: sdk.ActPass, Label: "Keep it"})
		case s.Penalty > 0:
			out = append(out, sdk.ActionSpec{Type: sdk.ActDraw, Label: fmt.Sprintf("Draw %d", s.Penalty)})
		default:
			out = append(out, sdk.ActionSpec{Type: sdk.ActDraw, Label: "Draw a card"})
		}
		if len(hand) == 2 && !s.Called[viewer] {
			out = append(out, sdk.ActionSpec{Type: sdk.ActCall, Label: "Last card!"})
		}
	}
	if s.Exposed != sdk.NoSeat && s.Exposed != viewer && s.Settings.LastCardMode == modeCatch {
		out = append(out, sdk.ActionSpec{Type: sdk.ActCatch, Label: "Catch out", Targets: []int{s.Exposed}})
	}
	return out
}

// Observe returns the scenario observation: the generic keys of docs/scenarios.md and Last Card's
// own (color, penalty, scores, round, called, drawn, opener), plus "deck" (the draw pile, top
// first) so that scenarios can check where L-2 puts the cards it turns back.
func (r *Rules) Observe(s *State) sdk.Observation {
	n := s.seats()
	o := sdk.Observation{
		"turn":       nil,
		"direction":  s.Direction,
		"top":        nil,
		"pile":       sdk.CardStrings(s.Pile),
		"pile_count": len(s.Pile),
		"deck":       sdk.CardStrings(s.Deck),
		"deck_count": len(s.Deck),
		"winner":     nil,
		"phase":      s.Phase,
		"color":      nil,
		"penalty":    s.Penalty,
		"scores":     slices.Clone(s.Scores),
		"round":      s.Round,
		"drawn":      nil,
		"opener":     s.Opener,
	}
	if s.Phase == sdk.PhasePlaying {
		o["turn"] = s.Turn
	}
	if top := s.top(); top != 0 {
		o["top"] = top.String()
	}
	if s.Winner != sdk.NoSeat {
		o["winner"] = s.Winner
	}
	if s.Color != "" {
		o["color"] = s.Color
	}
	if s.Drawn != nil {
		o["drawn"] = s.Drawn.String()
	}
	hands := make([][]string, n)
	counts := make([]int, n)
	called := []int{}
	for seat, h := range s.Hands {
		hands[seat] = sdk.CardStrings(h)
		counts[seat] = len(h)
		if s.Called[seat] && len(h) == 1 {
			called = append(called, seat)
		}
	}
	o["hands"] = hands
	o["hand_count"] = counts
	o["called"] = called
	return o
}
