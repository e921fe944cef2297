package hearts

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"cardhouse/sdk"

	"github.com/google/go-cmp/cmp"
)

func cards(codes string) []sdk.Card { return sdk.MustParseCards(codes) }

// moonTaken gives shooter every heart and the Q♠, and the other seats some plain cards.
func moonTaken(shooter int) [][]sdk.Card {
	taken := make([][]sdk.Card, Seats)
	taken[shooter] = cards("AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H QS 2C 3C")
	for seat := range Seats {
		if seat != shooter {
			taken[seat] = append(taken[seat], sdk.French(4+seat, sdk.Diamonds))
		}
	}
	return taken
}

// TestScoreHandPerSeat is HE-8 seat by seat, with the shooter at every place at the table: only
// the shooter scores as shooting; every seat before it and after it scores 26 (add) or 0
// (subtract).
func TestScoreHandPerSeat(t *testing.T) {
	t.Parallel()
	for shooter := range Seats {
		for _, moon := range []string{MoonAdd, MoonSubtract} {
			t.Run(fmt.Sprintf("shooter=%d/%s", shooter, moon), func(t *testing.T) {
				got, who := ScoreHand(moonTaken(shooter), moon)
				if who != shooter {
					t.Fatalf("shooter %d, want %d", who, shooter)
				}
				for seat, v := range got {
					want := MoonPoints
					switch {
					case seat == shooter && moon == MoonAdd:
						want = 0
					case seat == shooter:
						want = -MoonPoints
					case moon == MoonSubtract:
						want = 0
					}
					if v != want {
						t.Errorf("seat %d scores %d, want %d (all: %v)", seat, v, want, got)
					}
				}
			})
		}
	}
}

// TestScoreHandWithoutMoon: hearts 1 each, the Q♠ 13, and no shot when the hearts and the queen
// are split, even 13 hearts in one hand (HE-8).
func TestScoreHandWithoutMoon(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		taken [][]sdk.Card
		want  []int
	}{
		{"split", [][]sdk.Card{cards("QS 2H"), cards("3H 4H 5C"), nil, cards("AS KS")}, []int{14, 2, 0, 0}},
		{"hearts without the queen", [][]sdk.Card{cards("AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H"), cards("QS"), nil, nil}, []int{13, 13, 0, 0}},
		{"nothing", [][]sdk.Card{nil, nil, nil, nil}, []int{0, 0, 0, 0}},
	} {
		got, who := ScoreHand(tc.taken, MoonAdd)
		if who != sdk.NoSeat || !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, shooter %d; want %v, no shooter", tc.name, got, who, tc.want)
		}
	}
}

// TestFourSeatsOnly is HE-1: 4 seats, no other count.
func TestFourSeatsOnly(t *testing.T) {
	t.Parallel()
	r := New()
	if i := r.Info(); i.MinSeats != 4 || i.MaxSeats != 4 {
		t.Errorf("seats %d to %d, want 4 only", i.MinSeats, i.MaxSeats)
	}
	opts, err := sdk.ValidateOptions(r.Info().Options, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{3, 5} {
		if _, err := r.Start(context.Background(), sdk.StartRequest{Seats: n, Options: opts, RNG: sdk.NewRNG(1)}); err == nil {
			t.Errorf("%d seats: started", n)
		}
	}
	s, err := r.Start(context.Background(), sdk.StartRequest{Seats: 4, Options: opts, RNG: sdk.NewRNG(1)})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Cards(s); len(got) != 52 || len(sdk.CountCards(got)) != 52 {
		t.Errorf("%d cards, want the 52 of one deck", len(got))
	}
}

// TestPassCycle is HE-3's cycle: left (seat 0 to seat 1), right, across, none, again.
func TestPassCycle(t *testing.T) {
	t.Parallel()
	want := []string{PassLeft, PassRight, PassAcross, PassNone, PassLeft, PassRight, PassAcross, PassNone}
	for i, w := range want {
		s := &State{Passing: true, Hand: i + 1}
		if got := s.passDirection(); got != w {
			t.Errorf("hand %d passes %s, want %s", i+1, got, w)
		}
	}
	if got := (&State{Passing: false, Hand: 1}).passDirection(); got != PassNone {
		t.Errorf("passing off: %s", got)
	}
	for _, tc := range []struct {
		dir  string
		want [4]int
	}{{PassLeft, [4]int{1, 2, 3, 0}}, {PassRight, [4]int{3, 0, 1, 2}}, {PassAcross, [4]int{2, 3, 0, 1}}} {
		for seat, w := range tc.want {
			if got := receiver(seat, tc.dir); got != w {
				t.Errorf("%s: seat %d passes to %d, want %d", tc.dir, seat, got, w)
			}
		}
	}
}

// start begins a game with the default options (or opts) on a fixed deal.
func start(t *testing.T, opts map[string]any, d *sdk.Deal) *State {
	t.Helper()
	r := New()
	o, err := sdk.ValidateOptions(r.Info().Options, opts)
	if err != nil {
		t.Fatal(err)
	}
	s, err := r.Start(context.Background(), sdk.StartRequest{Seats: 4, Options: o, Deal: d, RNG: sdk.NewRNG(5)})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func act(t *testing.T, s *State, a sdk.Action) (*State, []sdk.Event) {
	t.Helper()
	res, err := New().Apply(context.Background(), sdk.ApplyRequest[*State]{State: s, Action: a})
	if err != nil {
		t.Fatalf("%+v: %v", a, err)
	}
	return res.State, res.Events
}

var bySuit = &sdk.Deal{Hands: [][]sdk.Card{
	cards("AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S"), cards("AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H"),
	cards("AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D"), cards("AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C"),
}}

// TestThePassIsSimultaneousAndHidden is HE-3 and HE-10 in the views: every seat is an actor while
// it has not chosen; its view offers pass_cards of exactly 3 from its hand; its choice sits in its
// own passing zone, a count for the others; the cards move only when all have chosen, and then
// only the receiver is told which cards it received.
func TestThePassIsSimultaneousAndHidden(t *testing.T) {
	t.Parallel()
	r := New()
	s := start(t, nil, bySuit)
	if st := r.Status(s); !slices.Equal(st.Actors, []int{0, 1, 2, 3}) || st.Turn != sdk.NoSeat {
		t.Fatalf("status %+v, want every seat an actor and no turn", st)
	}
	v := r.View(s, 1)
	a, ok := v.Action(sdk.ActPassCards)
	if !ok || a.Count != 3 || !sdk.SameCards(a.Cards, s.Hands[1]) {
		t.Fatalf("seat 1's pass action %+v", a)
	}
	if v.Has(sdk.ActPlay) {
		t.Error("play offered during the pass")
	}
	s, evs := act(t, s, sdk.Action{Seat: 0, Type: sdk.ActPassCards, Cards: cards("AS KS QS")})
	if st := r.Status(s); !slices.Equal(st.Actors, []int{1, 2, 3}) {
		t.Errorf("actors %v after seat 0 chose", st.Actors)
	}
	if e := evs[0].For(1); len(e.Cards) != 0 || e.Count != 3 {
		t.Errorf("seat 1 sees seat 0's pass as %+v", e)
	}
	for viewer := sdk.Spectator; viewer < Seats; viewer++ {
		v := r.View(s, viewer)
		z, ok := v.Zone("passing.0")
		if !ok || z.Kind != sdk.ZonePassing || z.Count != 3 {
			t.Fatalf("viewer %d: passing.0 %+v", viewer, z)
		}
		if viewer == 0 && !sdk.SameCards(z.Cards, cards("AS KS QS")) {
			t.Errorf("seat 0 does not see its choice: %+v", z)
		}
		if viewer != 0 && (len(z.Cards) > 0 || !z.Hidden) {
			t.Errorf("viewer %d sees seat 0's choice: %+v", viewer, z)
		}
		if viewer == 0 && v.Has(sdk.ActPassCards) {
			t.Error("seat 0 is offered a second pass")
		}
	}
	s, _ = act(t, s, sdk.Action{Seat: 1, Type: sdk.ActPassCards, Cards: cards("AH KH QH")})
	s, _ = act(t, s, sdk.Action{Seat: 2, Type: sdk.ActPassCards, Cards: cards("AD KD QD")})
	if slices.Contains(s.Hands[1], sdk.French(1, sdk.Spades)) {
		t.Fatal("cards moved before every seat chose")
	}
	s, evs = act(t, s, sdk.Action{Seat: 3, Type: sdk.ActPassCards, Cards: cards("AC KC QC")})
	var received int
	for _, e := range evs {
		if e.Name != "received" {
			continue
		}
		received++
		for viewer := sdk.Spectator; viewer < Seats; viewer++ {
			f := e.For(viewer)
			if viewer == e.Seat && len(f.Cards) != 3 {
				t.Errorf("seat %d does not see the cards it received: %+v", viewer, f)
			}
			if viewer != e.Seat && len(f.Cards) != 0 {
				t.Errorf("viewer %d sees the cards seat %d received: %+v", viewer, e.Seat, f)
			}
		}
	}
	if received != 4 {
		t.Errorf("%d received events, want 4", received)
	}
	if st := r.Status(s); !slices.Equal(st.Actors, []int{3}) || s.Stage != StagePlay {
		t.Errorf("after the pass: status %+v, stage %s; want seat 3 (2C) to lead", st, s.Stage)
	}
}

// TestViewParts is HE-10 in the view: the trick with each play's seat, the last trick with its
// taker kept through the next trick, tricks and points per seat, lowest wins, the score sheet
// with a row per hand and "moon" noted on a shot.
func TestViewParts(t *testing.T) {
	t.Parallel()
	r := New()
	first := 0
	s := start(t, map[string]any{"passing": false}, &sdk.Deal{Hands: [][]sdk.Card{
		cards("AH KH QH JH"), cards("10H 9H 8H 7H"), cards("6H 5H 4H 3H"), cards("2H QS 2D 3D"),
	}, First: &first, Rest: "out"})
	play := func(seat int, c string) { s, _ = act(t, s, sdk.Action{Seat: seat, Type: sdk.ActPlay, Cards: cards(c)}) }
	play(0, "AH")
	play(1, "10H")
	v := r.View(s, 2)
	want := &sdk.Trick{Leader: 0, Plays: []sdk.TrickPlay{{Seat: 0, Card: cards("AH")[0]}, {Seat: 1, Card: cards("10H")[0]}}}
	if diff := cmp.Diff(want, v.Trick); diff != "" {
		t.Errorf("trick (-want +got):\n%s", diff)
	}
	if v.LastTrick != nil || !v.LowWins {
		t.Errorf("last trick %+v before any was taken; low wins %v", v.LastTrick, v.LowWins)
	}
	play(2, "6H")
	play(3, "2H")
	play(0, "KH")
	v = r.View(s, sdk.Spectator)
	zero := 0
	wantLast := &sdk.Trick{Leader: 0, Winner: &zero, Plays: []sdk.TrickPlay{
		{Seat: 0, Card: cards("AH")[0]}, {Seat: 1, Card: cards("10H")[0]}, {Seat: 2, Card: cards("6H")[0]}, {Seat: 3, Card: cards("2H")[0]}}}
	if diff := cmp.Diff(wantLast, v.LastTrick); diff != "" {
		t.Errorf("last trick while the next is played (-want +got):\n%s", diff)
	}
	if p := v.Players[0]; p.Tricks == nil || *p.Tricks != 1 || p.Points == nil || *p.Points != 4 {
		t.Errorf("seat 0: %+v, want 1 trick and 4 points", p)
	}
	for _, c := range []string{"9H", "5H", "QS"} {
		play((len(s.Trick)+s.Leader)%4, c)
	}
	for _, c := range []string{"QH", "8H", "4H", "2D", "JH", "7H", "3H", "3D"} {
		play((len(s.Trick)+s.Leader)%4, c)
	}
	v = r.View(s, 1)
	if v.Phase != sdk.PhaseRoundOver || v.Sheet == nil || v.Sheet.By != "seat" || len(v.Sheet.Rows) != 1 {
		t.Fatalf("after the hand: phase %s, sheet %+v", v.Phase, v.Sheet)
	}
	row := v.Sheet.Rows[0]
	if !slices.Equal(row.Cells, []int{0, 26, 26, 26}) || !slices.Equal(row.Notes, []string{"moon", "", "", ""}) || !slices.Equal(v.Sheet.Totals, []int{0, 26, 26, 26}) {
		t.Errorf("sheet row %+v, totals %v", row, v.Sheet.Totals)
	}
	if v.Trick != nil || v.LastTrick == nil || *v.LastTrick.Winner != 0 {
		t.Errorf("after the hand: trick %+v, last %+v", v.Trick, v.LastTrick)
	}
}

// TestNoSeatSeesAnotherSeatsCards plays whole games with level-1 and level-2 bots and checks at
// every step that no viewer's view or events carry a card another seat holds or has chosen to
// pass (HE-10), except the cards the viewer passed itself; and that the spectators see no hand
// while a hand is played.
func TestNoSeatSeesAnotherSeatsCards(t *testing.T) {
	t.Parallel()
	r := New()
	ctx := context.Background()
	for seed := uint64(1); seed <= 6; seed++ {
		opts, _ := sdk.ValidateOptions(r.Info().Options, map[string]any{"target": 40})
		s, err := r.Start(ctx, sdk.StartRequest{Seats: 4, Options: opts, RNG: sdk.NewRNG(seed)})
		if err != nil {
			t.Fatal(err)
		}
		rng := sdk.NewRNG(seed * 7)
		var evs []sdk.Event
		for step := 0; s.Phase != sdk.PhaseGameOver; step++ {
			if step > 2000 {
				t.Fatal("game did not end")
			}
			checkHidden(t, r, s, evs)
			var a *sdk.Action
			if s.Phase == sdk.PhaseRoundOver {
				a = &sdk.Action{Seat: sdk.Host, Type: sdk.ActDeal}
			} else {
				seat := r.Status(s).Actors[0]
				if a, err = r.Bot(ctx, sdk.BotRequest{Seat: seat, Level: 1 + int(seed%2), View: r.View(s, seat), History: r.History(s, seat), RNG: &rng}); err != nil || a == nil {
					t.Fatalf("bot: %v %v", a, err)
				}
			}
			res, err := r.Apply(ctx, sdk.ApplyRequest[*State]{State: s, Action: *a})
			if err != nil {
				t.Fatalf("seed %d step %d: %+v: %v", seed, step, a, err)
			}
			s, evs = res.State, res.Events
		}
	}
}

func checkHidden(t *testing.T, r *Rules, s *State, evs []sdk.Event) {
	t.Helper()
	if s.over() {
		return
	}
	secret := map[sdk.Card]int{}
	for seat := range Seats {
		for _, c := range s.Hands[seat] {
			secret[c] = seat
		}
		if s.Chosen != nil {
			for _, c := range s.Chosen[seat] {
				secret[c] = seat
			}
		}
	}
	for viewer := sdk.Spectator; viewer < Seats; viewer++ {
		mine := map[sdk.Card]bool{}
		if viewer >= 0 && s.Passed != nil {
			for _, c := range s.Passed[viewer] {
				mine[c] = true
			}
		}
		leak := func(where string, cs []sdk.Card) {
			for _, c := range cs {
				if owner, ok := secret[c]; ok && owner != viewer && !mine[c] {
					t.Fatalf("viewer %d sees %s of seat %d in %s (hand %d, stage %s)", viewer, c, owner, where, s.Hand, s.Stage)
				}
			}
		}
		v := r.View(s, viewer)
		for _, z := range v.Zones {
			leak("zone "+z.ID, z.Cards)
		}
		for _, a := range v.Actions {
			leak("action "+a.Type, a.Cards)
		}
		for _, e := range evs {
			leak("event "+e.Name, e.For(viewer).Cards)
		}
		for _, e := range r.History(s, viewer) {
			leak("history "+e.Name, e.Cards)
		}
	}
}

// TestRefusalsSayWhy: refusals carry a reason a player can read, and Apply leaves its input alone.
func TestRefusalsSayWhy(t *testing.T) {
	t.Parallel()
	r := New()
	s := start(t, nil, bySuit)
	before := r.Observe(s)
	for _, a := range []sdk.Action{
		{Seat: 0, Type: sdk.ActPlay, Cards: cards("2S")},
		{Seat: 7, Type: sdk.ActPassCards, Cards: cards("AS KS QS")},
		{Seat: sdk.Host, Type: sdk.ActDeal},
		{Seat: 0, Type: "bid"},
		{Seat: sdk.Clock, Type: sdk.ActDeadline, Deadline: "x"},
	} {
		_, err := r.Apply(context.Background(), sdk.ApplyRequest[*State]{State: s, Action: a})
		re, ok := sdk.AsRefusal(err)
		if !ok || re.Reason == "" {
			t.Errorf("%+v: %v, want a refusal with a reason", a, err)
		}
	}
	if diff := cmp.Diff(before, r.Observe(s)); diff != "" {
		t.Errorf("refusals changed the state:\n%s", diff)
	}
}

// TestRevealAtTheHandsEnd: once a hand is over (here ended early by a house rule, so cards are
// left) every hand is shown to everyone, the spectators too; while it is played, none but one's own.
func TestRevealAtTheHandsEnd(t *testing.T) {
	t.Parallel()
	r := New()
	s := start(t, map[string]any{"passing": false}, bySuit)
	v := r.View(s, 1)
	if z, _ := v.Zone("hand.0"); len(z.Cards) != 0 || !z.Hidden {
		t.Fatalf("seat 1 sees seat 0's hand while the hand is played: %+v", z)
	}
	s, _ = act(t, s, sdk.Action{Seat: 3, Type: sdk.ActPlay, Cards: cards("2C")})
	ended, evs, err := r.End(s, sdk.EndRequest{Winner: 2})
	if err != nil {
		t.Fatal(err)
	}
	if ended.Phase != sdk.PhaseRoundOver || ended.Winner != 2 || len(evs) == 0 {
		t.Fatalf("after End: phase %s, winner %d, events %v", ended.Phase, ended.Winner, evs)
	}
	for viewer := sdk.Spectator; viewer < Seats; viewer++ {
		v := r.View(ended, viewer)
		for seat := range Seats {
			z, _ := v.Zone(zoneID("hand", seat))
			if !sdk.SameCards(z.Cards, ended.Hands[seat]) || z.Hidden {
				t.Errorf("viewer %d: hand.%d after the hand %+v, want %v shown", viewer, seat, z, ended.Hands[seat])
			}
		}
	}
}

// TestAppendStateMatchesJSON: the hand-written encoder writes what json.Marshal does, at states of
// every kind (the kit checks it too, at every state of its playouts).
func TestAppendStateMatchesJSON(t *testing.T) {
	t.Parallel()
	r := New()
	for _, s := range []*State{
		start(t, nil, bySuit),
		start(t, map[string]any{"passing": false}, bySuit),
		{Hands: [][]sdk.Card{nil, {}}, Trick: []Play{}, Sheet: []Row{{Cells: []int{1, -26}, Moon: 1}}, Winners: []int{0, 2}, Out: cards("2C"), Simulated: true},
	} {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.AppendState(nil, s); string(got) != string(want) {
			t.Errorf("AppendState:\n%s\njson.Marshal:\n%s", got, want)
		}
	}
}
