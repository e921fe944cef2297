package viewpatch

import (
	"encoding/json"
	"slices"
	"testing"

	"cardhouse/sdk"
)

func ptr(i int) *int { return &i }

// familyViews is a random walk of n views through the families' parts (sdk.View's trick, last
// trick, teams, score sheet and lowest-wins; players' tricks, bids and teams; melds; exactly-N,
// labelled choices and target zones): each step keeps, changes, adds or drops each part, as a
// hand of Hearts, Spades or Gin Rummy would, and sometimes as none would.
func familyViews(seed uint64, n int) []sdk.View {
	rng := sdk.NewRNG(seed)
	r := func(k int) int { return rng.Intn("walk", k) }
	deck := sdk.FrenchDeck(1, 0)
	card := func() sdk.Card { return deck[r(len(deck))] }
	v := sdk.View{Ruleset: "family", Viewer: 0, Phase: sdk.PhasePlaying, Direction: 1, Winner: -1,
		Players: []sdk.PlayerView{{Seat: 0, HandCount: 13}, {Seat: 1, HandCount: 13}, {Seat: 2, HandCount: 13}, {Seat: 3, HandCount: 13}},
		Zones:   []sdk.Zone{{ID: "hand.0", Kind: sdk.ZoneHand, Cards: deck[:13], Count: 13}, {ID: "stock", Kind: sdk.ZoneDeck, Owner: -1, Count: 20, Hidden: true}}}
	views := make([]sdk.View, 0, n)
	for range n {
		v = clone(v)
		v.Turn = (v.Turn + r(2)) % 4
		// The trick: a card played, the trick taken, a new one led, or no trick.
		switch r(5) {
		case 0, 1:
			if v.Trick == nil {
				v.Trick = &sdk.Trick{Leader: r(4), Plays: []sdk.TrickPlay{}}
			}
			if len(v.Trick.Plays) < 4 {
				v.Trick.Plays = append(v.Trick.Plays, sdk.TrickPlay{Seat: (v.Trick.Leader + len(v.Trick.Plays)) % 4, Card: card()})
			}
		case 2:
			if v.Trick != nil {
				v.Trick.Winner = ptr(r(4))
				v.LastTrick, v.Trick = v.Trick, nil
			}
		case 3:
			if r(3) == 0 {
				v.LastTrick = nil
			}
			if v.Trick != nil && len(v.Trick.Plays) > 0 && r(2) == 0 {
				v.Trick.Plays = v.Trick.Plays[1:] // not how a trick goes: the patch still holds
				v.Trick.Leader = (v.Trick.Leader + 1) % 4
			}
		}
		// The players' tricks, bids and teams.
		for i := range v.Players {
			p := &v.Players[i]
			switch r(6) {
			case 0:
				p.Tricks = ptr(r(14))
			case 1:
				p.Tricks = nil
			case 2:
				p.Bid = []string{"", "Nil", "4", "Blind nil"}[r(4)]
			case 3:
				p.Team = []*int{nil, ptr(i % 2), ptr(1 - i%2)}[r(3)]
			}
		}
		// Teams: numbers change, a team's parts come and go, the teams go.
		switch r(5) {
		case 0:
			if v.Teams == nil {
				v.Teams = []sdk.Team{{ID: 0, Name: "North-South", Seats: []int{0, 2}}, {ID: 1, Name: "East-West", Seats: []int{1, 3}}}
			}
			t := &v.Teams[r(len(v.Teams))]
			t.Score += r(200) - 100
			t.Contract, t.Tricks, t.Bags = []*int{nil, ptr(r(14))}[r(2)], []*int{nil, ptr(r(14))}[r(2)], []*int{nil, ptr(r(10))}[r(2)]
		case 1:
			if len(v.Teams) == 2 && r(2) == 0 {
				v.Teams = v.Teams[1:]
			} else {
				v.Teams = nil
			}
		}
		// The score sheet: a hand added, a note, the totals, the sheet gone.
		switch r(5) {
		case 0:
			if v.Sheet == nil {
				v.Sheet = &sdk.ScoreSheet{By: "team", Columns: []string{"North-South", "East-West"}, Rows: []sdk.ScoreRow{}, Totals: []int{0, 0}}
			}
			row := sdk.ScoreRow{Label: "Hand", Cells: []int{r(26), r(26)}}
			if r(2) == 0 {
				row.Notes = []string{"", "set"}
			}
			v.Sheet.Rows = append(v.Sheet.Rows, row)
			v.Sheet.Totals = []int{v.Sheet.Totals[0] + row.Cells[0], v.Sheet.Totals[1] + row.Cells[1]}
		case 1:
			if v.Sheet != nil {
				v.Sheet.By = []string{"seat", "team"}[r(2)]
				v.Sheet.Columns = append(v.Sheet.Columns[:1], "Bea")
			}
		case 2:
			v.Sheet = nil
		}
		// Melds and deadwood: laid out, renumbered, grown by a layoff, taken away.
		switch r(4) {
		case 0:
			m := 0
			for _, z := range v.Zones {
				if z.Kind == sdk.ZoneMeld && z.Owner == 1 {
					m++
				}
			}
			v.Zones = append(v.Zones, sdk.Zone{ID: "meld.1." + string(rune('0'+m)), Kind: sdk.ZoneMeld, Owner: 1, Cards: []sdk.Card{card(), card(), card()}, Count: 3, Meld: ptr(m)})
		case 1:
			for i := range v.Zones {
				if v.Zones[i].Kind == sdk.ZoneMeld {
					v.Zones[i].Cards = append(v.Zones[i].Cards, card())
					v.Zones[i].Count++
					if r(3) == 0 {
						v.Zones[i].Meld = []*int{nil, ptr(r(3))}[r(2)]
					}
					break
				}
			}
		case 2:
			v.Zones = slices.DeleteFunc(v.Zones, func(z sdk.Zone) bool { return z.Kind == sdk.ZoneMeld && r(2) == 0 })
			if r(2) == 0 {
				v.Zones = append(v.Zones, sdk.Zone{ID: "deadwood.1", Kind: sdk.ZoneDeadwood, Owner: 1, Cards: []sdk.Card{card()}, Count: 1})
			}
		}
		// Actions: a pass of N, a bid with labels, a layoff onto melds.
		v.Actions = nil
		if r(3) == 0 {
			v.Actions = append(v.Actions, sdk.ActionSpec{Type: sdk.ActPassCards, Label: "Pass", Cards: deck[:13], Multi: true, Count: []int{0, 3}[r(2)]})
		}
		if r(3) == 0 {
			a := sdk.ActionSpec{Type: sdk.ActBid, Label: "Bid", Choices: []string{"nil", "1", "2", "blind_nil"}}
			if r(2) == 0 {
				a.ChoiceLabels = []string{"Nil", "1", "2", "Blind nil"}
			}
			v.Actions = append(v.Actions, a)
		}
		if r(3) == 0 {
			var melds []string
			for _, z := range v.Zones {
				if z.Kind == sdk.ZoneMeld && r(3) > 0 {
					melds = append(melds, z.ID)
				}
			}
			v.Actions = append(v.Actions, sdk.ActionSpec{Type: sdk.ActLayoff, Label: "Lay off", Cards: deck[:3], Zones: melds})
		}
		if r(4) == 0 {
			v.LowWins = !v.LowWins
		}
		views = append(views, v)
	}
	return views
}

// clone copies a view deeply enough that changing the copy's families' parts leaves v alone.
func clone(v sdk.View) sdk.View {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	var c sdk.View
	if err := json.Unmarshal(b, &c); err != nil {
		panic(err)
	}
	return c
}

// TestFamilyPartsPatch: through random walks of views holding the families' parts, the host's
// patch (Diff) and the typed one a sticky plugin writes (sdk.AppendViewPatch) both rebuild every
// view exactly, as its full JSON is.
func TestFamilyPartsPatch(t *testing.T) {
	t.Parallel()
	for seed := range uint64(20) {
		views := familyViews(seed+1, 150)
		held, typedHeld := views[0].AppendJSON(nil), views[0].AppendJSON(nil)
		for i := 1; i < len(views); i++ {
			want := views[i].AppendJSON(nil)
			p, ok := Diff(nil, held, want)
			if !ok {
				t.Fatalf("seed %d step %d: no patch from Diff", seed, i)
			}
			got, err := Apply(nil, held, p)
			if err != nil {
				t.Fatalf("seed %d step %d: applying %s: %v", seed, i, p, err)
			}
			if c, w := canonical(t, got), canonical(t, want); c != w {
				t.Fatalf("seed %d step %d: Diff's patch %s\ngot  %s\nwant %s", seed, i, p, c, w)
			}
			held = got
			tp, ok := sdk.AppendViewPatch(nil, &views[i-1], &views[i])
			if !ok {
				t.Fatalf("seed %d step %d: no typed patch", seed, i)
			}
			got, err = Apply(nil, typedHeld, tp)
			if err != nil {
				t.Fatalf("seed %d step %d: applying the typed %s: %v", seed, i, tp, err)
			}
			if c, w := canonical(t, got), canonical(t, want); c != w {
				t.Fatalf("seed %d step %d: typed patch %s\ngot  %s\nwant %s", seed, i, tp, c, w)
			}
			typedHeld = got
		}
	}
}

// TestFamilyPartsPatchCases: the patch of each part's usual change, typed and from Diff alike.
func TestFamilyPartsPatchCases(t *testing.T) {
	t.Parallel()
	base := func(edit func(v *sdk.View)) sdk.View {
		v := sdk.View{Phase: sdk.PhasePlaying, Players: []sdk.PlayerView{{Seat: 0}, {Seat: 1}}, Zones: []sdk.Zone{}}
		edit(&v)
		return v
	}
	plays := []sdk.TrickPlay{{Seat: 1, Card: sdk.MustParseCards("QH")[0]}, {Seat: 2, Card: sdk.MustParseCards("2H")[0]}}
	for _, tc := range []struct {
		name     string
		old, new sdk.View
		patch    string
	}{
		{"a card played to the trick",
			base(func(v *sdk.View) { v.Trick = &sdk.Trick{Leader: 1, Plays: plays} }),
			base(func(v *sdk.View) {
				v.Trick = &sdk.Trick{Leader: 1, Plays: append(slices.Clone(plays), sdk.TrickPlay{Seat: 3, Card: sdk.MustParseCards("AH")[0]})}
			}),
			`{"trick":{"plays":{"$splice":[2,0,{"seat":3,"card":"AH"}]}}}`},
		{"the trick taken",
			base(func(v *sdk.View) {
				v.Trick = &sdk.Trick{Leader: 1, Plays: plays}
				v.LastTrick = &sdk.Trick{Leader: 0, Plays: plays, Winner: ptr(0)}
			}),
			base(func(v *sdk.View) { v.LastTrick = &sdk.Trick{Leader: 1, Plays: plays, Winner: ptr(1)} }),
			`{"trick":null,"last_trick":{"leader":1,"winner":1}}`},
		{"a team's tricks",
			base(func(v *sdk.View) {
				v.Teams = []sdk.Team{{ID: 0, Seats: []int{0, 2}, Tricks: ptr(3)}, {ID: 1, Seats: []int{1, 3}}}
			}),
			base(func(v *sdk.View) {
				v.Teams = []sdk.Team{{ID: 0, Seats: []int{0, 2}, Tricks: ptr(4)}, {ID: 1, Seats: []int{1, 3}}}
			}),
			`{"teams":{"0":{"tricks":4}}}`},
		{"a bid and a trick by the seat",
			base(func(v *sdk.View) {}),
			base(func(v *sdk.View) { v.Players[1].Bid, v.Players[1].Tricks = "Nil", ptr(0) }),
			`{"players":{"1":{"tricks":0,"bid":"Nil"}}}`},
		{"a hand on the sheet",
			base(func(v *sdk.View) {
				v.Sheet = &sdk.ScoreSheet{By: "seat", Columns: []string{"A", "B"}, Rows: []sdk.ScoreRow{{Label: "Hand 1", Cells: []int{3, 23}}}, Totals: []int{3, 23}}
			}),
			base(func(v *sdk.View) {
				v.Sheet = &sdk.ScoreSheet{By: "seat", Columns: []string{"A", "B"}, Rows: []sdk.ScoreRow{{Label: "Hand 1", Cells: []int{3, 23}}, {Label: "Hand 2", Cells: []int{26, 0}, Notes: []string{"moon", ""}}}, Totals: []int{29, 23}}
			}),
			`{"sheet":{"rows":{"$splice":[1,0,{"label":"Hand 2","cells":[26,0],"notes":["moon",""]}]},"totals":[29,23]}}`},
		{"lowest wins, and no more",
			base(func(v *sdk.View) { v.LowWins = true }),
			base(func(v *sdk.View) {}),
			`{"low_wins":null}`},
		{"a meld renumbered and an action's target zones",
			base(func(v *sdk.View) {
				v.Zones = []sdk.Zone{{ID: "meld.1.0", Kind: sdk.ZoneMeld, Owner: 1, Count: 0, Meld: ptr(0)}}
				v.Actions = []sdk.ActionSpec{{Type: sdk.ActLayoff, Label: "Lay off", Zones: []string{"meld.1.0"}}, {Type: sdk.ActPassCards, Label: "Pass", Count: 3}}
			}),
			base(func(v *sdk.View) {
				v.Zones = []sdk.Zone{{ID: "meld.1.0", Kind: sdk.ZoneMeld, Owner: 1, Count: 0, Meld: ptr(1)}}
				v.Actions = []sdk.ActionSpec{{Type: sdk.ActLayoff, Label: "Lay off"}, {Type: sdk.ActPassCards, Label: "Pass"}}
			}),
			`{"zones":{"meld.1.0":{"meld":1}},"actions":{"layoff":{"zones":null},"pass_cards":{"count":null}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, ok := sdk.AppendViewPatch(nil, &tc.old, &tc.new)
			if !ok || string(p) != tc.patch {
				t.Fatalf("typed patch %s (%v), want %s", p, ok, tc.patch)
			}
			old, want := tc.old.AppendJSON(nil), tc.new.AppendJSON(nil)
			got, err := Apply(nil, old, p)
			if err != nil {
				t.Fatal(err)
			}
			if c, w := canonical(t, got), canonical(t, want); c != w {
				t.Fatalf("applied: %s, want %s", c, w)
			}
			d, ok := Diff(nil, old, want)
			if !ok {
				t.Fatal("no patch from Diff")
			}
			if got, err = Apply(nil, old, d); err != nil || canonical(t, got) != canonical(t, want) {
				t.Fatalf("Diff's patch %s gives %s (%v), want %s", d, got, err, want)
			}
		})
	}
	// A null the view holds (a trick with nil plays) goes as a full view, from both.
	v := base(func(v *sdk.View) { v.Trick = &sdk.Trick{Leader: 1} })
	empty := base(func(v *sdk.View) {})
	if p, ok := sdk.AppendViewPatch(nil, &empty, &v); ok {
		t.Errorf("typed patch %s to a view holding a null, want none", p)
	}
	if p, ok := Diff(nil, empty.AppendJSON(nil), v.AppendJSON(nil)); ok {
		t.Errorf("Diff's patch %s to a view holding a null, want none", p)
	}
}
