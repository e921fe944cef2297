package drugs

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"cardhouse/sdk"
	"github.com/google/go-cmp/cmp"
)

// The shared scenario burn-and-overdose.yaml, step by step in Go (D-4, D-5, D-6).
func TestBurnAndOverdose(t *testing.T) {
	t.Parallel()
	s := start(t, setup{pile: "4S 4H 4D", hands: []string{"4C 10C 6D", "8H 9H KH"},
		faceUp: []string{"2C 3C 5C", "2D 3D 5H"}, faceDown: []string{"7C 8C 9C", "7S 8S 9S"}, deck: "JH JD"})
	s, evs := act(t, s, play(0, "4C"))
	if o := obs(s); o["pile_count"] != 0 || o["turn"] != 0 || !slices.Contains(names(evs), EvOverdose) {
		t.Fatalf("after 4C: pile %v turn %v events %v", o["pile_count"], o["turn"], names(evs))
	}
	s, evs = act(t, s, play(0, "10C"))
	if diff := cmp.Diff([]string{"played", "burned", "drew", "turn"}, names(evs)); diff != "" {
		t.Fatalf("events of 10C (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"6D", "JH", "JD"}, obs(s)["hands"].([][]string)[0]); diff != "" {
		t.Fatal(diff)
	}
	if s.Turn != 0 || len(s.Burned) != 5 || obs(s)["burned_count"] != 5 {
		t.Fatalf("turn %d burned %d", s.Turn, len(s.Burned))
	}
}

func TestLegal(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		pile  string
		armed bool
		ok    string // cards playable
		no    string // cards refused
	}{
		{"empty pile takes anything (D-3)", "", false, "4S 9S AS 7S JS", ""},
		{"equal or higher (D-2)", "9S", false, "9H 10H JH QH KH AH 2H 3H", "4H 8H 7H"},
		{"ace is highest", "AS", false, "AH 2H 3H 10H", "KH QH"},
		{"jack below queen", "JS", false, "JH QH KH", "9H 8H"},
		{"7: the next player 7 or lower, 10 or Joker (D-4)", "7S", false, "2H 3H 4H 5H 6H 7H 10H", "8H 9H JH QH KH AH"},
		{"3 takes on a 7 beneath (D-3)", "7S 3H", false, "4H 7H", "8H AH"},
		{"3 takes on a 9 beneath (D-3)", "9S 3H", false, "9H KH", "8H 4H"},
		{"3 on 3 on 7 still the 7", "7S 3H 3D", false, "5H", "9H"},
		{"only 3s: anything (D-3)", "3H 3S", false, "4H 8H KH", ""},
		{"2 resets (D-4)", "KS 2H", false, "4H 5H", ""},
		{"10 on anything", "AS", false, "10H", ""},
		{"Joker on anything, also on a 7 (D-10)", "7S", false, "JK", ""},
		{"Joker leaves the pile wide open (D-10)", "KS JK", false, "4H 8H 7H", ""},
		{"time bomb: 2, 3, 10 or Joker only (D-10)", "KS JK", true, "2H 3H 10H JK", "4H AH KH 7H"},
		{"3 on a Joker is open", "KS JK 3C", false, "4H", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := &State{Pile: cards(c.pile), Armed: c.armed}
			for _, x := range cards(c.ok) {
				if ok, why := s.legal(x); !ok {
					t.Errorf("%s on %s refused: %s", x, c.pile, why)
				}
			}
			for _, x := range cards(c.no) {
				if ok, _ := s.legal(x); ok {
					t.Errorf("%s on %s accepted", x, c.pile)
				}
			}
		})
	}
}

func TestRefusalsChangeNothing(t *testing.T) {
	t.Parallel()
	base := setup{seats: 3, pile: "9S", hands: []string{"4C 9C 9D KC", "8H", "2S"},
		faceUp: []string{"5C", "", ""}, faceDown: []string{"6C 7C 8C", "", "AS"}, deck: "QS", rest: "out"}
	s := start(t, base)
	cases := []struct {
		name string
		a    sdk.Action
		code string
	}{
		{"out of turn", play(1, "8H"), sdk.CodeNotYourTurn},
		{"no such seat", play(7, "8H"), sdk.CodeNotYourTurn},
		{"lower card", play(0, "4C"), CodeNoMatch},
		{"not held", play(0, "QC"), sdk.CodeNotHeld},
		{"one copy held, two named", play(0, "KC KC"), sdk.CodeNotHeld},
		{"mixed ranks", play(0, "9C KC"), CodeMixedRanks},
		{"no cards", sdk.Action{Seat: 0, Type: sdk.ActPlay}, sdk.CodeBadAction},
		{"face-up while holding a hand", playUp(0, "5C"), CodeWrongZone},
		{"face-down by play", sdk.Action{Seat: 0, Type: sdk.ActPlay, Cards: cards("6C"), From: "face_down"}, CodeWrongZone},
		{"unknown zone", sdk.Action{Seat: 0, Type: sdk.ActPlay, Cards: cards("9C"), From: "deck"}, sdk.CodeBadAction},
		{"flip while holding a hand (D-7)", flip(0, 0), CodeWrongZone},
		{"flip without a position", sdk.Action{Seat: 0, Type: sdk.ActFlip}, sdk.CodeBadAction},
		{"gift with none pending", gift(0, "4C", 1), sdk.CodeBadAction},
		{"unknown action", sdk.Action{Seat: 0, Type: "draw"}, sdk.CodeBadAction},
		{"clock", sdk.Action{Seat: sdk.Clock, Type: sdk.ActDeadline, Deadline: "x"}, sdk.CodeBadAction},
		{"host deal mid-game", sdk.Action{Seat: sdk.Host, Type: sdk.ActDeal}, sdk.CodeBadAction},
		{"seat deals", sdk.Action{Seat: 0, Type: sdk.ActDeal}, sdk.CodeBadAction},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			refuse(t, s, c.a, c.code)
		})
	}
}

func TestPickup(t *testing.T) {
	t.Parallel()
	s := start(t, setup{pile: "9S KS", hands: []string{"4C", "8H"}, faceUp: []string{"5C", "6C"}, faceDown: []string{"6H", "7H"}})
	s, evs := act(t, s, pickup(0)) // D-6: "cannot or will not play"
	if diff := cmp.Diff([]string{"picked_up", "turn"}, names(evs)); diff != "" {
		t.Fatal(diff)
	}
	if diff := cmp.Diff([]string{"4C", "9S", "KS"}, obs(s)["hands"].([][]string)[0]); diff != "" {
		t.Fatal(diff)
	}
	if s.Turn != 1 || len(s.Pile) != 0 {
		t.Fatalf("turn %d pile %v", s.Turn, s.Pile)
	}
	refuse(t, s, pickup(1), CodePileEmpty) // DR-1
}

func TestDrawBackUpToThree(t *testing.T) {
	t.Parallel()
	s := start(t, setup{hands: []string{"4C 5C 6C 8D", "8H"}, faceUp: []string{"5D", "6D"}, faceDown: []string{"6H", "7H"}, deck: "QS KS", rest: "out"})
	s, evs := act(t, s, play(0, "4C"))
	if len(s.Hands[0]) != 3 || slices.Contains(names(evs), EvDrew) {
		t.Fatalf("a hand of 3 left draws nothing: %v %v", s.Hands[0], names(evs))
	}
	s, evs = act(t, s, play(1, "8H")) // hand 0 -> draws QS KS, the deck ends (D-6)
	if diff := cmp.Diff([]string{"QS", "KS"}, sdk.CardStrings(s.Hands[1])); diff != "" {
		t.Fatal(diff)
	}
	drew := evs[slices.IndexFunc(evs, func(e sdk.Event) bool { return e.Name == EvDrew })]
	if !drew.Private || drew.For(0).Cards != nil || drew.For(0).Count != 2 || len(drew.For(1).Cards) != 2 {
		t.Fatalf("a draw is private, others see its count: %+v", drew)
	}
}

func TestFaceUpThenFaceDown(t *testing.T) {
	t.Parallel()
	s := start(t, setup{pile: "5S", hands: []string{"", "KH KD"}, faceUp: []string{"9C 9D 4C", "QH"},
		faceDown: []string{"6C 2C 8C", "7H"}, rest: "out"})
	refuse(t, s, play(0, "9C"), CodeWrongZone)
	refuse(t, s, playUp(0, "4C"), CodeNoMatch)
	refuse(t, s, flip(0, 0), CodeWrongZone)
	s, evs := act(t, s, playUp(0, "9C 9D")) // several of a rank (D-7)
	if diff := cmp.Diff([]string{"4C"}, obs(s)["face_up"].([][]string)[0]); diff != "" {
		t.Fatal(diff)
	}
	if evs[0].Data["from"] != "face_up" {
		t.Fatalf("played from %q", evs[0].Data["from"])
	}
	s, _ = act(t, s, play(1, "KH KD"))
	s, _ = act(t, s, pickup(0)) // pick up in the face-up stage: KH KD 9C 9D 5S go to the hand
	if len(s.Hands[0]) != 5 {
		t.Fatalf("hand %v", s.Hands[0])
	}

	// Blind flips: positions keep their gaps.
	s = start(t, setup{pile: "5S", hands: []string{"", "KH"}, faceUp: []string{"", "QH"},
		faceDown: []string{"6C 2C 4C", "7H"}, rest: "out"})
	refuse(t, s, pickup(0), CodeWrongZone) // DR-1: a blind player flips
	refuse(t, s, flip(0, 3), CodeEmptySlot)
	refuse(t, s, flip(0, -1), CodeEmptySlot)
	s, evs = act(t, s, flip(0, 1)) // the 2 plays
	if diff := cmp.Diff([]string{"flipped", "played", "turn"}, names(evs)); diff != "" {
		t.Fatal(diff)
	}
	if diff := cmp.Diff([]bool{true, false, true}, s.FaceDown[0].Slots()); diff != "" {
		t.Fatal(diff)
	}
	s, _ = act(t, s, play(1, "KH"))
	refuse(t, s, flip(0, 1), CodeEmptySlot) // a gap stays a gap (D-7)
	s, evs = act(t, s, flip(0, 2))          // 4C on KH: illegal, takes card and pile, the turn ends
	if diff := cmp.Diff([]string{"flipped", "picked_up", "turn"}, names(evs)); diff != "" {
		t.Fatal(diff)
	}
	if !sdk.SameCards(s.Hands[0], cards("4C 5S 2C KH")) || len(s.Pile) != 0 || s.Turn != 1 {
		t.Fatalf("hand %v pile %v turn %d", s.Hands[0], s.Pile, s.Turn)
	}
	if diff := cmp.Diff([]bool{true, false, false}, s.FaceDown[0].Slots()); diff != "" {
		t.Fatal(diff)
	}
	v := New().View(s, 1)
	z, _ := v.Zone("face_down.0")
	if diff := cmp.Diff([]bool{true, false, false}, z.Slots); diff != "" || z.Cards != nil || z.Count != 1 {
		t.Fatalf("face-down zone %+v", z)
	}
}

func TestWinner(t *testing.T) {
	t.Parallel()
	s := start(t, setup{pile: "5S", hands: []string{"", "KH"}, faceUp: []string{"", "QH"}, faceDown: []string{"9C", "7H"}, rest: "out"})
	s, evs := act(t, s, flip(0, 0))
	if s.Phase != sdk.PhaseGameOver || s.Winner != 0 || evs[len(evs)-1].Name != EvWon {
		t.Fatalf("phase %s winner %d events %v", s.Phase, s.Winner, names(evs))
	}
	if o := obs(s); o["turn"] != nil || o["winner"] != 0 || o["phase"] != "game_over" {
		t.Fatalf("observation %v", o)
	}
	refuse(t, s, play(1, "KH"), sdk.CodeGameOver)
	if st := New().Status(s); st.Turn != sdk.NoSeat || st.Winner != 0 || len(st.Actors) != 0 {
		t.Fatalf("status %+v", st)
	}
	// The host deals a new game: everything dealt again, the first player drawn (D-9).
	s.RNG.Force(sdk.DrawFirstPlayer, "1")
	s, _ = act(t, s, sdk.Action{Seat: sdk.Host, Type: sdk.ActDeal})
	if s.Phase != sdk.PhasePlaying || s.Game != 2 || s.Turn != 1 || s.Winner != sdk.NoSeat {
		t.Fatalf("after deal: phase %s game %d turn %d winner %d", s.Phase, s.Game, s.Turn, s.Winner)
	}
	for i := range 2 {
		if len(s.Hands[i]) != 3 || len(s.FaceUp[i]) != 3 || s.FaceDown[i].Count() != 3 {
			t.Fatalf("seat %d dealt %v %v %v", i, s.Hands[i], s.FaceUp[i], s.FaceDown[i])
		}
	}
	if len(s.Deck) != 52-18 || len(s.Out) != 0 {
		t.Fatalf("deck %d out %d", len(s.Deck), len(s.Out))
	}
}

func TestSevenRestrictsOnlyTheNextPlayer(t *testing.T) {
	t.Parallel()
	s := start(t, setup{seats: 3, hands: []string{"7C AC", "9H 5H 3H", "9D 8D"}, faceUp: []string{"", "", ""},
		faceDown: []string{"2S", "2H", "2D"}, rest: "out"})
	s, _ = act(t, s, play(0, "7C"))
	if obs(s)["max7"] != true {
		t.Fatal("max7 not set after a 7")
	}
	refuse(t, s, play(1, "9H"), CodeNoMatch)
	s, _ = act(t, s, play(1, "3H")) // D-3: the 3 passes the 7's limit on
	if obs(s)["max7"] != true {
		t.Fatal("a 3 on a 7 must keep the limit (D-3)")
	}
	refuse(t, s, play(2, "9D"), CodeNoMatch)
	s, _ = act(t, s, pickup(2))
	s, _ = act(t, s, play(0, "AC"))
	s, _ = act(t, s, pickup(1))
	s = start(t, setup{seats: 3, hands: []string{"7C AC", "5H 6H", "8D"}, faceUp: []string{"", "", ""},
		faceDown: []string{"2S", "2H", "2D"}, rest: "out"})
	s, _ = act(t, s, play(0, "7C"))
	s, _ = act(t, s, play(1, "5H"))
	if obs(s)["max7"] != false {
		t.Fatal("the limit binds only the next player (D-4)")
	}
	act(t, s, play(2, "8D"))
}

func TestJacksReverse(t *testing.T) {
	t.Parallel()
	s := start(t, setup{seats: 4, hands: []string{"JC JD 4C", "QH", "KH", "AH"}, faceUp: []string{"", "", "", ""},
		faceDown: []string{"2S", "2H", "2D", "2C"}, rest: "out"})
	s, evs := act(t, s, play(0, "JC JD"))
	if s.Direction != -1 || s.Turn != 3 || slices.Index(names(evs), EvReversed) < 0 {
		t.Fatalf("two Jacks reverse once (D-8): direction %d turn %d", s.Direction, s.Turn)
	}
	// Two players: a Jack passes the turn, the direction stays (D-8, DR-5).
	s = start(t, setup{hands: []string{"JC 4C", "QH"}, faceUp: []string{"", ""}, faceDown: []string{"2S", "2H"}, rest: "out"})
	s, evs = act(t, s, play(0, "JC"))
	if s.Direction != 1 || s.Turn != 1 || slices.Contains(names(evs), EvReversed) {
		t.Fatalf("two players: direction %d turn %d events %v", s.Direction, s.Turn, names(evs))
	}
}

func TestOverdose(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		overdose int
		seats    int
		pile     string
		hand     string
		play     string
		burn     bool
		run      int
	}{
		{"four in a row by default (D-5)", 4, 2, "8S 8H 8D", "8C 5C", "8C", true, 0},
		{"three is one short: red flicker", 4, 2, "8S 8H", "8C 5C", "8C", false, 3},
		{"option 3", 3, 2, "8S 8H", "8C 5C", "8C", true, 0},
		{"several at once complete the run", 4, 2, "8S", "8C 8H 8D 5C", "8C 8H 8D", true, 0},
		{"a 3 counts only as a 3", 4, 2, "8S 8H 8D", "3C 5C", "3C", false, 1},
		{"four 3s overdose", 4, 2, "3S 3H 3D", "3C 5C", "3C", true, 0},
		{"a run is broken by another rank", 4, 2, "8S 8H 9D 9S", "9C 5C", "9C", false, 3},
		{"two decks, overdose 6", 6, 5, "8S 8H 8D 8S 8H", "8D 5C", "8D", true, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			hands := []string{c.hand}
			fu, fd := []string{""}, []string{"2S"}
			others := []string{"KS", "KH", "KD", "KC", "QS", "QH", "QD"}
			downs := []string{"2H", "2D", "2C", "4S", "4H", "4D", "4C"}
			for i := range c.seats - 1 {
				hands, fu, fd = append(hands, others[i]), append(fu, ""), append(fd, downs[i])
			}
			s := start(t, setup{seats: c.seats, opts: sdk.Options{OptOverdose: c.overdose}, pile: c.pile,
				hands: hands, faceUp: fu, faceDown: fd, rest: "out"})
			s, evs := act(t, s, play(0, c.play))
			burned := slices.Contains(names(evs), EvOverdose)
			if burned != c.burn || (burned && (s.Turn != 0 || len(s.Pile) != 0)) {
				t.Fatalf("overdose %v (want %v), turn %d, pile %v", burned, c.burn, s.Turn, s.Pile)
			}
			if obs(s)["run"] != c.run {
				t.Fatalf("run %v, want %d", obs(s)["run"], c.run)
			}
		})
	}
}

func TestFireIndicator(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		pile     string
		overdose int
		want     string
	}{
		{"8S 8H", 4, FireNone}, {"8S 8H 8D", 4, FireRed}, {"8S 8H 8D", 6, FireOn},
		{"8S 8H 8D 8C 8S", 6, FireRed}, {"8S 8H", 3, FireRed}, {"", 4, FireNone}, {"8S JK", 4, FireNone},
	} {
		s := &State{Pile: cards(c.pile), Overdose: c.overdose}
		if got := s.fire(); got != c.want {
			t.Errorf("pile %s overdose %d: fire %q, want %q", c.pile, c.overdose, got, c.want)
		}
	}
}

func TestCheckOptions(t *testing.T) {
	t.Parallel()
	r := New()
	for _, c := range []struct {
		seats int
		raw   map[string]any
		want  sdk.Options
		bad   string
	}{
		{2, nil, sdk.Options{OptOverdose: 4, OptChaos: false, OptPauseMinutes: 5}, ""},
		{4, map[string]any{"chaos": true, "overdose": 3}, sdk.Options{OptOverdose: 3, OptChaos: true, OptPauseMinutes: 5}, ""},
		{5, map[string]any{"overdose": 8, "pause_minutes": 30}, sdk.Options{OptOverdose: 8, OptChaos: false, OptPauseMinutes: 30}, ""},
		{2, map[string]any{"pause_minutes": 0}, nil, "pause_minutes"},
		{2, map[string]any{"pause_minutes": 61}, nil, "pause_minutes"},
		{4, map[string]any{"overdose": 5}, nil, "overdose"},
		{2, map[string]any{"overdose": 2}, nil, "overdose"},
		{2, map[string]any{"overdose": 9}, nil, "overdose"},
		{9, nil, nil, "seats"},
		{1, nil, nil, "seats"},
		{2, map[string]any{"decks": 2}, nil, "decks"},
	} {
		got, err := sdk.CheckOptions(r.Info(), r, c.seats, c.raw)
		if c.bad != "" {
			if err == nil || !strings.Contains(err.Error(), c.bad) {
				t.Errorf("seats %d %v: error %v, want one naming %s", c.seats, c.raw, err, c.bad)
			}
			continue
		}
		if err != nil {
			t.Errorf("seats %d %v: %v", c.seats, c.raw, err)
			continue
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("seats %d %v (-want +got):\n%s", c.seats, c.raw, diff)
		}
	}
}

func TestRandomDeal(t *testing.T) {
	t.Parallel()
	r := New()
	for _, c := range []struct {
		seats int
		chaos bool
		total int
	}{{2, false, 52}, {4, true, 54}, {5, false, 104}, {8, true, 108}} {
		jokers := 0
		for seed := uint64(1); seed <= 60; seed++ {
			s, err := r.Start(context.Background(), sdk.StartRequest{Seats: c.seats, Options: sdk.Options{OptOverdose: 4, OptChaos: c.chaos}, Seed: seed, RNG: sdk.NewRNG(seed)})
			if err != nil {
				t.Fatal(err)
			}
			if n := len(r.Cards(s)); n != c.total {
				t.Fatalf("%d seats chaos %v: %d cards, want %d (D-1)", c.seats, c.chaos, n, c.total)
			}
			for i := range c.seats {
				if len(s.Hands[i]) != 3 || len(s.FaceUp[i]) != 3 || s.FaceDown[i].Count() != 3 {
					t.Fatalf("seat %d: %v %v %v", i, s.Hands[i], s.FaceUp[i], s.FaceDown[i])
				}
				if slices.Contains(s.FaceUp[i], sdk.Joker) || slices.Contains([]sdk.Card(s.FaceDown[i]), sdk.Joker) {
					t.Fatalf("seed %d: a Joker in seat %d's rows (D-11)", seed, i)
				}
				jokers += sdk.CountCards(s.Hands[i])[sdk.Joker]
			}
		}
		if c.chaos && jokers == 0 {
			t.Errorf("%d seats: no Joker ever reached a hand in 60 deals", c.seats)
		}
	}
}

func TestJokerPutBackForRows(t *testing.T) {
	t.Parallel()
	// The deck's top card is a Joker: it goes back (here: right below the next card) and the
	// next card is dealt face down instead (D-11).
	s := start(t, setup{deck: "JK 5C 6C 7C", hands: []string{"4C", "4D"}, opts: sdk.Options{OptChaos: true},
		forced: map[string][]string{DrawJokerReturn: {"0"}}})
	if diff := cmp.Diff(Row(cards("5C 6C 7C")), s.FaceDown[0]); diff != "" {
		t.Fatal(diff)
	}
	if slices.Contains(s.FaceUp[1], sdk.Joker) || slices.Contains([]sdk.Card(s.FaceDown[1]), sdk.Joker) {
		t.Fatal("a Joker was dealt into a row")
	}
	r := New()
	_, err := r.Start(context.Background(), sdk.StartRequest{Seats: 2, Options: sdk.Options{OptOverdose: 4, OptChaos: true}, RNG: sdk.NewRNG(1),
		Deal: &sdk.Deal{FaceUp: rows("JK", "")}})
	if re, ok := sdk.AsRefusal(err); !ok || re.Code != sdk.CodeBadDeal {
		t.Fatalf("a deal naming a Joker face up: %v", err)
	}
}

func TestFirstPlayer(t *testing.T) {
	t.Parallel()
	r := New()
	opts := sdk.Options{OptOverdose: 4, OptChaos: false}
	rng := sdk.NewRNG(5)
	rng.Force(sdk.DrawFirstPlayer, "2")
	s, _ := r.Start(context.Background(), sdk.StartRequest{Seats: 4, Options: opts, RNG: rng})
	if s.Turn != 2 {
		t.Fatalf("forced first_player 2, turn %d (D-9)", s.Turn)
	}
	forced := sdk.NewRNG(5)
	forced.Force(sdk.DrawFirstPlayer, "2")
	s, _ = r.Start(context.Background(), sdk.StartRequest{Seats: 4, Options: opts, RNG: forced, Opener: intp(3)})
	if s.Turn != 2 {
		t.Fatalf("a host's opener 3 overrode the draw: turn %d, want the drawn 2 (D-9: drawn every game)", s.Turn)
	}
	s, _ = r.Start(context.Background(), sdk.StartRequest{Seats: 4, Options: opts, RNG: rng, Opener: intp(3), Deal: &sdk.Deal{First: intp(1)}})
	if s.Turn != 1 {
		t.Fatalf("deal first 1 wins, turn %d", s.Turn)
	}
	seen := map[int]bool{}
	for seed := range uint64(40) {
		s, _ := r.Start(context.Background(), sdk.StartRequest{Seats: 4, Options: opts, RNG: sdk.NewRNG(seed)})
		seen[s.Turn] = true
	}
	if len(seen) != 4 {
		t.Fatalf("first players over 40 seeds: %v, want all four seats", seen)
	}
}

// TestRevealAtGameEnd: while the game is played the spectators see no hand and no face-down
// card; once it is over every viewer sees every hand left and every face-down row (the reveal),
// and a redeal for any viewer keeps them.
func TestRevealAtGameEnd(t *testing.T) {
	t.Parallel()
	r := New()
	s := start(t, setup{pile: "5S", hands: []string{"", "KH 4D"}, faceUp: []string{"", "QH"}, faceDown: []string{"9C", "7H 8C"}, rest: "out"})
	hidden := func(v sdk.View) (out []string) {
		for _, z := range v.Zones {
			if (z.Kind == sdk.ZoneHand || strings.HasPrefix(z.ID, "face_down.")) && len(z.Cards) > 0 {
				out = append(out, z.ID)
			}
		}
		return out
	}
	if got := hidden(r.View(s, sdk.Spectator)); len(got) > 0 {
		t.Errorf("while playing the spectators see %v", got)
	}
	s, _ = act(t, s, flip(0, 0))
	if s.Phase != sdk.PhaseGameOver {
		t.Fatalf("phase %s, want game_over", s.Phase)
	}
	for viewer := sdk.Spectator; viewer < 2; viewer++ {
		v := r.View(s, viewer)
		hand, _ := v.Zone("hand.1")
		down, _ := v.Zone("face_down.1")
		if got := strings.Join(sdk.CardStrings(hand.Cards), " "); got != "KH 4D" || hand.Hidden {
			t.Errorf("viewer %d sees hand.1 as %q (hidden %v), want KH 4D", viewer, got, hand.Hidden)
		}
		if got := strings.Join(sdk.CardStrings(down.Cards), " "); got != "7H 8C" || down.Hidden {
			t.Errorf("viewer %d sees face_down.1 as %q (hidden %v), want 7H 8C", viewer, got, down.Hidden)
		}
		rng := sdk.NewRNG(uint64(viewer + 10))
		a, _ := json.Marshal(v)
		b, _ := json.Marshal(r.View(r.Redeal(s, viewer, &rng), viewer))
		if string(a) != string(b) {
			t.Errorf("viewer %d's view at the game's end changed after a redeal:\n%s\n%s", viewer, a, b)
		}
	}
}
