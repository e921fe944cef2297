package hearts

import (
	"slices"
	"strconv"

	"cardhouse/sdk"
)

// Indicator IDs of the view; the search bots' Sampler reads the settings back from them.
const (
	IndPass   = "pass"
	IndBroken = "broken"
	IndTarget = "target"
	IndMoon   = "moon"
)

var moonWords = map[string]string{MoonAdd: "Everyone else scores 26", MoonSubtract: "The shooter takes 26 off"}

// zoneID names a seat's zone: "hand.2", "passing.2".
func zoneID(kind string, seat int) string { return kind + "." + strconv.Itoa(seat) }

// View is the table as viewer sees it (HE-10): its own hand and the cards it chose to pass (a count
// for everyone else's), the trick being played with each play's seat, the last trick taken, each
// seat's tricks and points this hand and its total, the score sheet, and the actions open to
// viewer. Once a hand is over every hand left is shown to everyone (the reveal).
func (r *Rules) View(s *State, viewer int) sdk.View {
	v := sdk.View{
		Ruleset: ID, Viewer: viewer, Phase: s.Phase, Turn: s.Turn, Direction: 1, Round: s.Hand,
		Winner: s.Winner, LowWins: true,
		Players: make([]sdk.PlayerView, 0, Seats), Zones: make([]sdk.Zone, 0, 2*Seats+1),
	}
	points, tricks := s.Points(), s.TricksTaken()
	for seat, h := range s.Hands {
		p := sdk.PlayerView{Seat: seat, HandCount: len(h), Score: ptr(s.Scores[seat]), Points: ptr(points[seat]), Tricks: ptr(tricks[seat])}
		if s.Stage == StagePass && !s.over() && s.Chosen[seat] != nil {
			p.Tags = append(p.Tags, "passed")
		}
		if slices.Contains(s.Winners, seat) {
			p.Tags = append(p.Tags, "winner")
		}
		v.Players = append(v.Players, p)
		z := sdk.Zone{ID: zoneID("hand", seat), Kind: sdk.ZoneHand, Owner: seat, Label: "Hand", Count: len(h)}
		if seat == viewer || s.over() {
			z.Cards = slices.Clone(h)
		} else {
			z.Hidden = true
		}
		v.Zones = append(v.Zones, z)
	}
	if s.Stage == StagePass && !s.over() {
		for seat, c := range s.Chosen {
			if c == nil {
				continue
			}
			z := sdk.Zone{ID: zoneID("passing", seat), Kind: sdk.ZonePassing, Owner: seat, Label: "Passing " + passWords[s.passDirection()], Count: len(c)}
			if seat == viewer {
				z.Cards = slices.Clone(c)
			} else {
				z.Hidden = true
			}
			v.Zones = append(v.Zones, z)
		}
	}
	if len(s.Out) > 0 {
		v.Zones = append(v.Zones, sdk.Zone{ID: "out", Kind: sdk.ZoneBurned, Owner: sdk.NoSeat, Label: "Out of play", Count: len(s.Out), Hidden: true})
	}
	if s.Stage == StagePlay && !s.over() {
		v.Trick = sdk.TrickView(s.Leader, s.Trick, sdk.NoSeat)
	}
	if n := len(s.Takers); n > 0 {
		last := s.Played[4*(n-1) : 4*n]
		v.LastTrick = sdk.TrickView(last[0].Seat, last, s.Takers[n-1])
	}
	v.Sheet = s.sheet()
	v.Indicators = []sdk.Indicator{
		{ID: IndPass, Label: "Pass this hand", Value: passWords[s.passDirection()], Kind: "text"},
		{ID: IndBroken, Label: "Hearts broken", Value: strconv.FormatBool(s.Broken), Kind: "flag"},
		{ID: IndTarget, Label: "Game ends at", Value: strconv.Itoa(s.Target), Kind: "text"},
		{ID: IndMoon, Label: "Shooting the moon", Value: moonWords[s.Moon], Kind: "text"},
	}
	v.Actions = s.viewActions(viewer)
	return v
}

// viewActions are the actions open to viewer.
func (s *State) viewActions(viewer int) []sdk.ActionSpec {
	if viewer < 0 || viewer >= Seats || s.over() {
		return nil
	}
	switch {
	case s.Stage == StagePass && s.Chosen[viewer] == nil:
		return []sdk.ActionSpec{{Type: sdk.ActPassCards, Label: "Pass 3 cards " + passWords[s.passDirection()],
			Cards: slices.Clone(s.Hands[viewer]), Multi: true, Count: PassSize}}
	case s.Stage == StagePlay && viewer == s.Turn:
		return []sdk.ActionSpec{{Type: sdk.ActPlay, Label: "Play", Cards: s.Legal(viewer)}}
	}
	return nil
}

var _ sdk.ViewsMaker[*State] = (*Rules)(nil)

// noViewer is a viewer no view is for (not a seat, not the spectators, not the turn's NoSeat):
// Views builds from it what every viewer sees.
const noViewer = -1 << 30

// Views makes every viewer's view at once (sdk.ViewsMaker): what every viewer sees is built once
// and each view shares its players, tricks, score sheet and indicators, with the viewer's own
// hand, the cards it chose to pass and its actions; exactly View(s, viewer) each.
func (r *Rules) Views(s *State, viewers []int, views []sdk.View) {
	base := r.View(s, noViewer)
	over := s.over()
	for i, viewer := range viewers {
		v := base
		v.Viewer = viewer
		if !over && viewer >= 0 && viewer < len(s.Hands) { // once over, every hand is shown to all
			v.Zones = slices.Clone(base.Zones)
			z := &v.Zones[viewer]
			z.Cards, z.Hidden = slices.Clone(s.Hands[viewer]), false
			if s.Stage == StagePass && viewer < len(s.Chosen) && s.Chosen[viewer] != nil {
				c := s.Chosen[viewer]
				id := zoneID("passing", viewer)
				for j := range v.Zones {
					if v.Zones[j].ID == id {
						v.Zones[j].Cards, v.Zones[j].Hidden = slices.Clone(c), false
					}
				}
			}
		}
		v.Actions = s.viewActions(viewer)
		views[i] = v
	}
}

func ptr(n int) *int { return &n }

// sheet is the game's score sheet: a column per seat, a row per hand scored ("moon" noted on a
// shot), the totals.
func (s *State) sheet() *sdk.ScoreSheet {
	sh := &sdk.ScoreSheet{By: "seat", Columns: make([]string, Seats), Rows: make([]sdk.ScoreRow, 0, len(s.Sheet)), Totals: slices.Clone(s.Scores)}
	for seat := range Seats {
		sh.Columns[seat] = "Seat " + strconv.Itoa(seat+1)
	}
	for i, row := range s.Sheet {
		r := sdk.ScoreRow{Label: "Hand " + strconv.Itoa(i+1), Cells: slices.Clone(row.Cells)}
		if row.Moon != sdk.NoSeat {
			r.Notes = make([]string, Seats)
			r.Notes[row.Moon] = "moon"
		}
		sh.Rows = append(sh.Rows, r)
	}
	return sh
}

// Status names the seats to act: every seat still to choose its pass, or the seat in turn.
func (r *Rules) Status(s *State) sdk.Status {
	st := sdk.Status{Phase: s.Phase, Seats: Seats, Turn: s.Turn, Winner: s.Winner, Round: s.Hand}
	if s.over() {
		st.Turn = sdk.NoSeat
		return st
	}
	if s.Stage == StagePass {
		for seat, c := range s.Chosen {
			if c == nil {
				st.Actors = append(st.Actors, seat)
			}
		}
		return st
	}
	st.Actors = []int{s.Turn}
	return st
}

// Observe gives the scenario keys of SCENARIOS.md for Hearts: turn, direction, phase, winner,
// winners (every seat sharing the win), hands, hand_count, round (the hand's number), stage, trick,
// leader, led, tricks_taken, broken, pass_direction, points, scores and passing (each seat's
// chosen cards, null before it chooses or outside the pass).
func (r *Rules) Observe(s *State) sdk.Observation {
	o := sdk.Observation{
		"direction": 1, "phase": s.Phase, "round": s.Hand, "stage": s.Stage, "turn": nil, "winner": nil,
		"leader": nil, "led": nil, "broken": s.Broken, "pass_direction": s.passDirection(),
		"tricks_taken": s.TricksTaken(), "points": s.Points(), "scores": slices.Clone(s.Scores),
		"winners": []int{},
	}
	if !s.over() && s.Turn != sdk.NoSeat {
		o["turn"] = s.Turn
	}
	if s.Winner != sdk.NoSeat {
		o["winner"] = s.Winner
		o["winners"] = slices.Clone(s.Winners)
	}
	hands := make([][]string, Seats)
	counts := make([]int, Seats)
	for seat, h := range s.Hands {
		hands[seat], counts[seat] = sdk.CardStrings(h), len(h)
	}
	o["hands"], o["hand_count"] = hands, counts
	trick := []string{}
	for _, p := range s.Trick {
		trick = append(trick, p.Card.String())
	}
	o["trick"] = trick
	if s.Stage == StagePlay && !s.over() {
		o["leader"] = s.Leader
		if led := sdk.Led(s.Trick); led != 0 {
			o["led"] = string(rune(led))
		}
	}
	passing := make([]any, Seats)
	if s.Stage == StagePass && !s.over() {
		for seat, c := range s.Chosen {
			if c != nil {
				passing[seat] = sdk.CardStrings(c)
			}
		}
	}
	o["passing"] = passing
	return o
}

// Cards lists every card of the game: hands, the cards chosen to pass, the trick, the tricks
// taken and the cards out of play.
func (r *Rules) Cards(s *State) []sdk.Card {
	out := make([]sdk.Card, 0, 52)
	for _, h := range s.Hands {
		out = append(out, h...)
	}
	for _, c := range s.Chosen {
		out = append(out, c...)
	}
	for _, p := range s.Played {
		out = append(out, p.Card)
	}
	for _, p := range s.Trick {
		out = append(out, p.Card)
	}
	return append(out, s.Out...)
}

// History is what seat has seen this hand (sdk.Historian): its own pass and what it received, the
// others' passes as counts, every card played and every trick taken, oldest first.
func (r *Rules) History(s *State, seat int) []sdk.Event {
	var out []sdk.Event
	dir := s.passDirection()
	passes := s.Passed
	if passes == nil {
		passes = s.Chosen
	}
	for from, cards := range passes {
		if cards == nil {
			continue
		}
		out = append(out, sdk.Event{Name: "passed", Seat: from, Cards: slices.Clone(cards), Private: true,
			Data: map[string]string{"target": strconv.Itoa(receiver(from, dir))}}.For(seat))
	}
	if s.Passed != nil {
		for from, cards := range s.Passed {
			out = append(out, sdk.Event{Name: "received", Seat: receiver(from, dir), Cards: slices.Clone(cards), Private: true,
				Data: map[string]string{"target": strconv.Itoa(from)}}.For(seat))
		}
	}
	for i, p := range s.Played {
		out = append(out, sdk.Event{Name: "played", Seat: p.Seat, Cards: []sdk.Card{p.Card}})
		if i%4 == 3 {
			taker := s.Takers[i/4]
			out = append(out, sdk.Event{Name: "trick_won", Seat: taker, Data: map[string]string{"seat": strconv.Itoa(taker)}})
		}
	}
	for _, p := range s.Trick {
		out = append(out, sdk.Event{Name: "played", Seat: p.Seat, Cards: []sdk.Card{p.Card}})
	}
	return out
}

// known returns the cards viewer knows the place of although they lie in another seat's hand:
// the cards it passed that the receiver still holds, and the 2♣ in the hand of the seat that
// must lead it (HE-4). Card to seat.
func (s *State) known(viewer int) map[sdk.Card]int {
	k := map[sdk.Card]int{}
	if viewer >= 0 && viewer < Seats && s.Passed != nil {
		to := receiver(viewer, s.passDirection())
		for _, c := range s.Passed[viewer] {
			if slices.Contains(s.Hands[to], c) {
				k[c] = to
			}
		}
	}
	if s.Stage == StagePlay && s.firstTrick() && len(s.Trick) == 0 && s.Leader != viewer && slices.Contains(s.Hands[s.Leader], twoClubs) {
		k[twoClubs] = s.Leader
	}
	return k
}

// Redeal shuffles the cards viewer cannot see (the other hands and passing choices, the cards out
// of play) among those places, keeping every size and the cards viewer knows the place of.
func (r *Rules) Redeal(s *State, viewer int, rng *sdk.RNG) *State {
	c := s.clone()
	if s.over() {
		return c // the reveal: every hand is shown
	}
	known := s.known(viewer)
	var pool []sdk.Card
	for seat := range Seats {
		if seat == viewer {
			continue
		}
		for _, card := range c.Hands[seat] {
			if _, ok := known[card]; !ok {
				pool = append(pool, card)
			}
		}
		if c.Chosen != nil {
			pool = append(pool, c.Chosen[seat]...)
		}
	}
	pool = append(pool, c.Out...)
	rng.ShuffleCards("redeal", pool)
	take := func(n int) []sdk.Card {
		out := slices.Clone(pool[:n])
		pool = pool[n:]
		return out
	}
	for seat := range Seats {
		if seat == viewer {
			continue
		}
		var keep []sdk.Card
		for _, card := range c.Hands[seat] {
			if known[card] == seat && card != 0 {
				if _, ok := known[card]; ok {
					keep = append(keep, card)
				}
			}
		}
		c.Hands[seat] = append(keep, take(len(c.Hands[seat])-len(keep))...)
		if c.Chosen != nil && c.Chosen[seat] != nil {
			c.Chosen[seat] = take(len(c.Chosen[seat]))
		}
	}
	c.Out = take(len(c.Out))
	return c
}
