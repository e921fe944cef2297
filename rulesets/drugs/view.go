package drugs

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"cardhouse/sdk"
)

// Roles are the card roles the client draws with their own faces, keyed by rank code: the black
// bomb 10, the teal RESET 2, the frosted ANY 3, the amber MAX 7, the violet REVERSE Jack, the Joker.
var Roles = map[string]string{"10": "burn", "2": "reset", "3": "any", "7": "max7", "J": "reverse", "JK": "joker"}

// Fire levels of the pile (indicator "fire"): from three of a kind the pile burns; one card short
// of an overdose the flames turn red and flicker.
const (
	FireNone = "none"
	FireOn   = "fire"
	FireRed  = "red"
)

// fire is the pile's fire level for the client.
func (s *State) fire() string {
	r := s.run()
	switch {
	case r >= 2 && r == s.Overdose-1:
		return FireRed
	case r >= 3:
		return FireOn
	}
	return FireNone
}

// Status reports the phase, the seat in turn (the only actor) and the winner.
func (*Rules) Status(s *State) sdk.Status {
	st := sdk.Status{Phase: s.Phase, Seats: s.Seats, Turn: sdk.NoSeat, Winner: s.Winner, Round: s.Game}
	if s.Phase == sdk.PhasePlaying {
		st.Turn = s.Turn
		st.Actors = []int{s.Turn}
	}
	return st
}

// Observe returns the scenario observation: the generic keys of docs/scenarios.md and DRUGS's own.
func (*Rules) Observe(s *State) sdk.Observation {
	hands := make([][]string, s.Seats)
	counts := make([]int, s.Seats)
	faceUp := make([][]string, s.Seats)
	faceDown := make([]int, s.Seats)
	for i := range s.Seats {
		hands[i] = sdk.CardStrings(s.Hands[i])
		counts[i] = len(s.Hands[i])
		faceUp[i] = sdk.CardStrings(s.FaceUp[i])
		faceDown[i] = s.FaceDown[i].Count()
	}
	o := sdk.Observation{
		"turn": nil, "direction": s.Direction, "top": nil, "pile": sdk.CardStrings(s.Pile),
		"pile_count": len(s.Pile), "deck_count": len(s.Deck), "hands": hands, "hand_count": counts,
		"winner": nil, "phase": s.Phase,
		"face_up": faceUp, "face_down_count": faceDown, "max7": false, "armed": s.Armed,
		"open": false, "run": s.run(), "gift_pending": nil, "burned_count": len(s.Burned),
	}
	if s.Phase == sdk.PhasePlaying {
		o["turn"] = s.Turn
		o["max7"] = s.max7()
		o["open"] = s.open()
	}
	if t := s.top(); t != 0 {
		o["top"] = t.String()
	}
	if s.Winner != sdk.NoSeat {
		o["winner"] = s.Winner
	}
	if s.GiftPending != sdk.NoSeat {
		o["gift_pending"] = s.GiftPending
	}
	return o
}

// View is the table as viewer sees it: its own hand, every face-up row and the pile; other hands,
// the deck and every face-down row only as counts (face-down rows with their slots). Once the
// game is over, every hand and face-down row too (the reveal).
func (*Rules) View(s *State, viewer int) sdk.View {
	v := sdk.View{
		Ruleset: ID, Viewer: viewer, Phase: s.Phase, Turn: sdk.NoSeat, Direction: s.Direction,
		Round: s.Game, Winner: s.Winner, Roles: maps.Clone(Roles),
		// Sized once: views are built for every seat after every action.
		Players: make([]sdk.PlayerView, 0, s.Seats), Zones: make([]sdk.Zone, 0, 3*s.Seats+3),
		Indicators: make([]sdk.Indicator, 0, 9),
	}
	if s.Phase == sdk.PhasePlaying {
		v.Turn = s.Turn
	}
	for i := range s.Seats {
		pv := sdk.PlayerView{Seat: i, HandCount: len(s.Hands[i])}
		switch {
		case s.Winner == i:
			pv.Tags = append(pv.Tags, "winner")
		case s.GiftPending == i:
			pv.Tags = append(pv.Tags, "gifting")
		}
		if s.Phase == sdk.PhasePlaying {
			switch s.stage(i) {
			case "face_up":
				pv.Tags = append(pv.Tags, "face_up")
			case "face_down":
				pv.Tags = append(pv.Tags, "blind")
			}
		}
		v.Players = append(v.Players, pv)
	}
	for i := range s.Seats {
		hand := sdk.Zone{ID: fmt.Sprintf("hand.%d", i), Kind: sdk.ZoneHand, Owner: i, Label: "hand", Count: len(s.Hands[i])}
		// When the game is over every card a seat still holds is shown, to the spectators too:
		// its hand and its face-down row.
		shown := s.Phase != sdk.PhasePlaying
		if i == viewer || shown {
			hand.Cards = slices.Clone(s.Hands[i])
		} else {
			hand.Hidden = true
		}
		down := sdk.Zone{ID: fmt.Sprintf("face_down.%d", i), Kind: sdk.ZoneRow, Owner: i, Label: "face down", Count: s.FaceDown[i].Count(), Hidden: true, Slots: s.FaceDown[i].Slots()}
		if shown {
			down.Cards, down.Hidden, down.Slots = s.FaceDown[i].Cards(), false, nil
		}
		v.Zones = append(v.Zones,
			hand,
			sdk.Zone{ID: fmt.Sprintf("face_up.%d", i), Kind: sdk.ZoneRow, Owner: i, Label: "face up", Cards: slices.Clone(s.FaceUp[i]), Count: len(s.FaceUp[i])},
			down,
		)
	}
	v.Zones = append(v.Zones,
		sdk.Zone{ID: "pile", Kind: sdk.ZonePile, Owner: sdk.NoSeat, Label: "pile", Cards: slices.Clone(s.Pile), Count: len(s.Pile)},
		sdk.Zone{ID: "deck", Kind: sdk.ZoneDeck, Owner: sdk.NoSeat, Label: "deck", Count: len(s.Deck), Hidden: true},
		sdk.Zone{ID: "burned", Kind: sdk.ZoneBurned, Owner: sdk.NoSeat, Label: "burned", Count: len(s.Burned), Hidden: true},
	)
	flag := func(b bool) string { return strconv.FormatBool(b) }
	v.Indicators = append(v.Indicators,
		sdk.Indicator{ID: "run", Label: "Run", Value: strconv.Itoa(s.run()), Kind: "count"},
		sdk.Indicator{ID: "fire", Label: "Fire", Value: s.fire(), Kind: "text"},
		sdk.Indicator{ID: "overdose", Label: "Overdose at", Value: strconv.Itoa(s.Overdose), Kind: "count"},
		sdk.Indicator{ID: "max7", Label: "7 or lower", Value: flag(s.Phase == sdk.PhasePlaying && s.max7()), Kind: "flag"},
		sdk.Indicator{ID: "armed", Label: "Time bomb", Value: flag(s.Armed), Kind: "flag"},
		sdk.Indicator{ID: "open", Label: "Wide open", Value: flag(s.Phase == sdk.PhasePlaying && s.open()), Kind: "flag"},
		sdk.Indicator{ID: "direction", Label: "Direction", Value: strconv.Itoa(s.Direction), Kind: "text"},
		sdk.Indicator{ID: "burned", Label: "Burned", Value: strconv.Itoa(len(s.Burned)), Kind: "count"},
	)
	if s.GiftPending != sdk.NoSeat {
		v.Indicators = append(v.Indicators, sdk.Indicator{ID: "gift_pending", Label: "Gift from seat", Value: strconv.Itoa(s.GiftPending), Kind: "text"})
	}
	if s.Phase == sdk.PhasePlaying && viewer == s.Turn {
		v.Actions = s.actions(viewer)
	}
	return v
}

var _ sdk.ViewsMaker[*State] = (*Rules)(nil)

// noViewer is a viewer no view is for (not a seat, not the spectators, not the turn's NoSeat):
// Views builds from it what every viewer sees.
const noViewer = -1 << 30

// Views makes every viewer's view at once (sdk.ViewsMaker): what every viewer sees is built once
// and each view shares its players, rows, pile, roles and indicators, with the viewer's own hand
// and its actions; exactly View(s, viewer) each.
func (r *Rules) Views(s *State, viewers []int, views []sdk.View) {
	base := r.View(s, noViewer)
	playing := s.Phase == sdk.PhasePlaying
	for i, viewer := range viewers {
		v := base
		v.Viewer = viewer
		if playing && viewer >= 0 && viewer < s.Seats { // once over, every hand is shown to all
			v.Zones = slices.Clone(base.Zones)
			z := &v.Zones[3*viewer] // each seat's hand, face-up row and face-down row, in turn
			z.Cards, z.Hidden = slices.Clone(s.Hands[viewer]), false
		}
		if playing && viewer == s.Turn {
			v.Actions = s.actions(viewer)
		}
		views[i] = v
	}
}

// actions lists what seat (in turn) may do now.
func (s *State) actions(seat int) []sdk.ActionSpec {
	if s.GiftPending == seat {
		var targets []int
		for k := 1; k < s.Seats; k++ {
			targets = append(targets, s.next(seat, k))
		}
		return []sdk.ActionSpec{{Type: sdk.ActGift, Label: "Give a card", Cards: slices.Clone(s.Hands[seat]), Targets: targets}}
	}
	var out []sdk.ActionSpec
	switch s.stage(seat) {
	case "hand":
		if p := s.playable(s.Hands[seat]); len(p) > 0 {
			out = append(out, sdk.ActionSpec{Type: sdk.ActPlay, Label: "Play", Cards: p, Multi: true})
		}
	case "face_up":
		if p := s.playable(s.FaceUp[seat]); len(p) > 0 {
			out = append(out, sdk.ActionSpec{Type: sdk.ActPlay, Label: "Play face-up", Cards: p, Multi: true, From: "face_up"})
		}
	case "face_down":
		var idx []int
		for i, c := range s.FaceDown[seat] {
			if c != 0 {
				idx = append(idx, i)
			}
		}
		return []sdk.ActionSpec{{Type: sdk.ActFlip, Label: "Flip blind", Indexes: idx}}
	}
	if len(s.Pile) > 0 {
		out = append(out, sdk.ActionSpec{Type: sdk.ActPickup, Label: "Pick up the pile"})
	}
	return out
}

// playable is the cards of zone that may be played on the pile now.
func (s *State) playable(zone []sdk.Card) []sdk.Card {
	var out []sdk.Card
	for _, c := range zone {
		if ok, _ := s.legal(c); ok {
			out = append(out, c)
		}
	}
	return out
}
