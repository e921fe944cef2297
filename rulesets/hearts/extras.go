package hearts

import (
	"slices"
	"strconv"
	"strings"

	"cardhouse/sdk"
)

// Table is what house rules see and edit: zones hand.N, out (editable), passing.N, trick and
// taken.N (to read: the cards chosen to pass, the trick being played, the cards each seat has
// taken this hand); the seat in turn; counters score.N (editable), hand and points.N; values phase,
// stage, broken (editable: "true" or "false") and pass.
func (r *Rules) Table(s *State) sdk.Table {
	t := sdk.Table{Zones: map[string][]sdk.Card{}, Turn: s.Turn, Direction: 1,
		Counters: map[string]int{"hand": s.Hand},
		Values:   map[string]string{"phase": s.Phase, "stage": s.Stage, "broken": strconv.FormatBool(s.Broken), "pass": s.passDirection()}}
	taken, points := s.Taken(), s.Points()
	for seat := range Seats {
		t.Zones[zoneID("hand", seat)] = slices.Clone(s.Hands[seat])
		t.Zones[zoneID("taken", seat)] = slices.Clone(taken[seat])
		var chosen []sdk.Card
		if s.Chosen != nil {
			chosen = slices.Clone(s.Chosen[seat])
		}
		t.Zones[zoneID("passing", seat)] = chosen
		t.Counters["score."+strconv.Itoa(seat)] = s.Scores[seat]
		t.Counters["points."+strconv.Itoa(seat)] = points[seat]
	}
	var trick []sdk.Card
	for _, p := range s.Trick {
		trick = append(trick, p.Card)
	}
	t.Zones["trick"] = trick
	t.Zones["out"] = slices.Clone(s.Out)
	return t
}

// SetTable returns a copy of s with the table's hands, cards out of play, scores, hearts broken and
// seat in turn. A hand keeps its size (cards may be exchanged, not added or removed: every seat
// must still play one card to each trick); the read-only zones, counters and values must be as
// they were; the turn may change only between two tricks of the play, to a seat with cards.
func (r *Rules) SetTable(s *State, t sdk.Table) (*State, error) {
	c := s.clone()
	cur := r.Table(s)
	bad := func(format string, args ...any) (*State, error) {
		return s, sdk.Refuse(sdk.CodeHouseRule, "table: "+format, args...)
	}
	for id, cards := range t.Zones {
		for _, card := range cards {
			if !card.IsFrench() || card == sdk.Joker {
				return bad("zone %s: %s is not a card of Hearts", id, card)
			}
		}
		switch {
		case id == "out":
			c.Out = slices.Clone(cards)
		case strings.HasPrefix(id, "hand."):
			seat, err := strconv.Atoi(strings.TrimPrefix(id, "hand."))
			if err != nil || seat < 0 || seat >= Seats {
				return bad("no zone %q (Hearts has hand.0 to hand.3)", id)
			}
			if len(cards) != len(s.Hands[seat]) {
				return bad("zone %s must keep its %d cards, got %d", id, len(s.Hands[seat]), len(cards))
			}
			c.Hands[seat] = slices.Clone(cards)
		default:
			was, ok := cur.Zones[id]
			if !ok {
				return bad("no zone %q (Hearts has hand.N, out, passing.N, trick and taken.N)", id)
			}
			if !slices.Equal(was, cards) {
				return bad("zone %s cannot be changed", id)
			}
		}
	}
	for k, n := range t.Counters {
		if strings.HasPrefix(k, "score.") {
			seat, err := strconv.Atoi(strings.TrimPrefix(k, "score."))
			if err != nil || seat < 0 || seat >= Seats {
				return bad("no counter %q", k)
			}
			c.Scores[seat] = n
			continue
		}
		was, ok := cur.Counters[k]
		if !ok {
			return bad("no counter %q (Hearts has score.N, points.N and hand)", k)
		}
		if was != n {
			return bad("counter %s cannot be changed (%d to %d)", k, was, n)
		}
	}
	for k, v := range t.Values {
		switch k {
		case "broken":
			b, err := strconv.ParseBool(v)
			if err != nil {
				return bad("value broken must be \"true\" or \"false\", got %q", v)
			}
			c.Broken = b
		default:
			was, ok := cur.Values[k]
			if !ok {
				return bad("no value %q (Hearts has broken, phase, stage and pass)", k)
			}
			if was != v {
				return bad("value %s cannot be changed (%q to %q)", k, was, v)
			}
		}
	}
	if t.Direction != 1 {
		return bad("Hearts plays in direction 1 only, got %d", t.Direction)
	}
	if t.Turn != s.Turn {
		if s.over() || s.Stage != StagePlay || len(s.Trick) > 0 || t.Turn < 0 || t.Turn >= Seats || len(c.Hands[t.Turn]) == 0 {
			return bad("the turn may move only between two tricks, to a seat with cards (got %d)", t.Turn)
		}
		c.Turn, c.Leader = t.Turn, t.Turn
	}
	return c, nil
}

// End ends the hand for a house rule, scored as it stands (HE-8: the tricks taken so far), won by
// req.Winner, and with req.Game the game, won by req.Winner; a hand ended that way ends the game
// when a total reaches the target, as any hand does (HE-9), won then by the lowest total.
func (r *Rules) End(s *State, req sdk.EndRequest) (*State, []sdk.Event, error) {
	if s.over() {
		return nil, nil, sdk.Refuse(CodeHandOver, "the hand is already over")
	}
	if req.Winner < 0 || req.Winner >= Seats {
		return nil, nil, sdk.Refuse(sdk.CodeHouseRule, "winner %d is not a seat of this 4-seat game", req.Winner)
	}
	t := &turn{s: s.clone()}
	c := t.s
	if c.Chosen != nil { // a pass not made: the chosen cards go back to their hands
		for seat, cards := range c.Chosen {
			c.Hands[seat] = append(c.Hands[seat], cards...)
		}
		c.Chosen = nil
	}
	cells, shooter := ScoreHand(c.Taken(), c.Moon)
	c.closeHand(cells, shooter)
	t.announceHand(cells, shooter)
	if req.Game {
		// The house rule ends the game and names its winner.
		c.Phase, c.Winners, c.Winner = sdk.PhaseGameOver, []int{req.Winner}, req.Winner
		evs := slices.DeleteFunc(t.evs, func(e sdk.Event) bool { return e.Name == "won" })
		evs = append(evs, sdk.Event{Name: "won", Seat: req.Winner, Data: map[string]string{"score": strconv.Itoa(c.Scores[req.Winner]), "game": "true"}})
		return c, evs, nil
	}
	if c.Phase == sdk.PhaseRoundOver {
		c.Winner = req.Winner // the house rule names the hand's winner (HR-5)
	}
	return c, t.evs, nil
}
