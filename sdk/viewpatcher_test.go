package sdk

import (
	"bytes"
	"slices"
	"testing"
)

// sharedViews are the views of four seats and the spectators of one table, made as a ViewsMaker
// makes them: one set of public parts shared by every view, each seat's own hand shown in its own
// copy of the zones list, the seat in turn with its own indicators and actions. extra is added to
// each player's hand count (a count that is not its hand's: the patch then says it).
func sharedViews(hands [][]Card, extra []int, pile []Card, turn int, trick, last *Trick, sheet *ScoreSheet, teams []Team, ind []Indicator) []View {
	base := View{Ruleset: "t", Phase: PhasePlaying, Turn: turn, Direction: 1, Winner: NoSeat,
		Trick: trick, LastTrick: last, Sheet: sheet, Teams: teams, Indicators: ind}
	for seat, h := range hands {
		base.Players = append(base.Players, PlayerView{Seat: seat, HandCount: len(h) + extra[seat], Tags: []string{}})
		base.Zones = append(base.Zones, Zone{ID: "hand." + string(rune('0'+seat)), Kind: ZoneHand, Owner: seat, Count: len(h), Hidden: true})
	}
	base.Zones = append(base.Zones, Zone{ID: "pile", Kind: ZonePile, Owner: NoSeat, Cards: slices.Clone(pile), Count: len(pile)})
	var views []View
	for _, viewer := range []int{0, 1, 2, 3, Spectator} {
		v := base
		v.Viewer = viewer
		if viewer >= 0 {
			v.Zones = slices.Clone(base.Zones)
			v.Zones[viewer].Cards, v.Zones[viewer].Hidden = slices.Clone(hands[viewer]), false
		}
		if viewer == turn {
			// Its own copy, as long as the shared one: only the slice tells them apart.
			v.Indicators = slices.Clone(ind)
			v.Indicators[0].Value = "yours"
			v.Actions = []ActionSpec{{Type: ActPlay, Label: "Play", Cards: slices.Clone(hands[viewer])}}
		}
		views = append(views, v)
	}
	return views
}

// TestViewPatcherIsAppendViewPatch: through a random walk of a table whose views share their
// public parts (the pile grows and is taken, hands change with and without their counts, the trick,
// the sheet, the teams and the indicators come and go), a ViewPatcher writes every viewer's patch
// byte for byte as AppendViewPatch does, and takes the shared parts from the first viewer's.
func TestViewPatcherIsAppendViewPatch(t *testing.T) {
	t.Parallel()
	rng := NewRNG(7)
	r := func(n int) int { return rng.Intn("walk", n) }
	deck := FrenchDeck(1, 0)
	hands := [][]Card{slices.Clone(deck[0:8]), slices.Clone(deck[8:16]), slices.Clone(deck[16:24]), slices.Clone(deck[24:32])}
	pile := slices.Clone(deck[32:40])
	var trick, last *Trick
	var sheet *ScoreSheet
	var teams []Team
	ind := []Indicator{{ID: "suit", Label: "Suit", Value: "S"}}
	turn := 0
	extra := make([]int, 4)
	old := sharedViews(hands, extra, pile, turn, trick, last, sheet, teams, ind)
	reused := 0
	for step := range 400 {
		seat := r(4)
		switch r(6) {
		case 0, 1: // a card played to the pile
			if h := hands[seat]; len(h) > 0 {
				i := r(len(h))
				pile = append(slices.Clone(pile), h[i])
				hands[seat] = slices.Delete(slices.Clone(h), i, i+1)
			}
		case 2: // a card drawn from the pile
			if len(pile) > 1 {
				hands[seat] = append(slices.Clone(hands[seat]), pile[len(pile)-1])
				pile = slices.Clone(pile[:len(pile)-1])
			}
		case 3: // a hand reordered: its cards change, not its count
			h := slices.Clone(hands[seat])
			slices.Reverse(h)
			hands[seat] = h
		case 4: // the trick and the last trick
			if trick == nil || len(trick.Plays) == 4 {
				last, trick = trick, &Trick{Leader: seat, Plays: []TrickPlay{}}
			}
			trick = &Trick{Leader: trick.Leader, Plays: append(slices.Clone(trick.Plays), TrickPlay{Seat: seat, Card: deck[40+r(12)]})}
		case 5: // the sheet, the teams, the indicators
			switch r(3) {
			case 0:
				rows := []ScoreRow{}
				if sheet != nil {
					rows = slices.Clone(sheet.Rows)
				}
				sheet = &ScoreSheet{By: "seat", Columns: []string{"a", "b"}, Rows: append(rows, ScoreRow{Label: "Hand", Cells: []int{r(9), r(9)}}), Totals: []int{r(50), r(50)}}
			case 1:
				teams = []Team{{ID: 0, Name: "A", Seats: []int{0, 2}, Score: r(300)}, {ID: 1, Name: "B", Seats: []int{1, 3}, Score: r(300)}}
			case 2:
				ind = []Indicator{{ID: "suit", Label: "Suit", Value: []string{"S", "H", "D", "C"}[r(4)]}}
			}
		}
		if r(3) == 0 {
			turn = r(4)
		}
		if r(10) == 0 {
			extra[r(4)] = r(2)
		}
		now := sharedViews(hands, extra, pile, turn, trick, last, sheet, teams, ind)
		var vp ViewPatcher
		var buf []byte
		for i := range now {
			want, wok := AppendViewPatch(nil, &old[i], &now[i])
			mark := len(buf)
			var ok bool
			buf, ok = vp.Append(buf, &old[i], &now[i])
			if ok != wok || !bytes.Equal(buf[mark:], want) {
				t.Fatalf("step %d, view %d: the patcher wrote %s (%v), AppendViewPatch %s (%v)", step, i, buf[mark:], ok, want, wok)
			}
			if i > 0 && vp.same(&old[i], &now[i], memoPlayers) {
				reused++
			}
		}
		old = now
	}
	if reused < 400 {
		t.Errorf("the players' patch was taken from the first view %d times in 400 steps of four more views", reused)
	}
}
