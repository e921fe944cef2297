package lastcard_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"cardhouse/rulesets/lastcard"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
)

var ctx = context.Background()

// cards parses space-separated card codes.
func cards(codes string) []sdk.Card { return sdk.MustParseCards(codes) }

// table is a fixed deal: the pile's top, one hand per seat, the deck's top cards; seat 0 opens.
type table struct {
	pile  string
	hands []string
	deck  string
	rest  string
}

// start starts a game of len(tb.hands) seats on the fixed deal with the options given.
func start(t *testing.T, tb table, opts map[string]any) *lastcard.State {
	t.Helper()
	r := lastcard.New()
	o, err := sdk.CheckOptions(r.Info(), r, len(tb.hands), opts)
	if err != nil {
		t.Fatalf("options %v: %v", opts, err)
	}
	first := 0
	d := &sdk.Deal{Pile: cards(tb.pile), Deck: cards(tb.deck), First: &first, Rest: tb.rest}
	for _, h := range tb.hands {
		d.Hands = append(d.Hands, cards(h))
	}
	s, err := r.Start(ctx, sdk.StartRequest{Seats: len(tb.hands), Options: o, Deal: d, RNG: sdk.NewRNG(1)})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	return s
}

// act applies a, failing the test on a refusal.
func act(t *testing.T, s *lastcard.State, a sdk.Action) (*lastcard.State, []sdk.Event) {
	t.Helper()
	res, err := lastcard.New().Apply(ctx, sdk.ApplyRequest[*lastcard.State]{State: s, Action: a})
	if err != nil {
		t.Fatalf("%s by seat %d: %v", a.Type, a.Seat, err)
	}
	return res.State, res.Events
}

// refused applies a and returns the refusal, failing the test when it is accepted or fails
// otherwise; it checks that the state given did not change.
func refused(t *testing.T, s *lastcard.State, a sdk.Action) *sdk.RuleError {
	t.Helper()
	before, _ := json.Marshal(s)
	_, err := lastcard.New().Apply(ctx, sdk.ApplyRequest[*lastcard.State]{State: s, Action: a})
	after, _ := json.Marshal(s)
	if string(before) != string(after) {
		t.Errorf("%s by seat %d changed the state it was given", a.Type, a.Seat)
	}
	re, ok := sdk.AsRefusal(err)
	if !ok {
		t.Fatalf("%s by seat %d: want a refusal, got %v", a.Type, a.Seat, err)
	}
	return re
}

func play(seat int, code string) sdk.Action {
	return sdk.Action{Seat: seat, Type: sdk.ActPlay, Cards: cards(code)}
}

func names(events []sdk.Event) []string {
	out := make([]string, len(events))
	for i, e := range events {
		out[i] = e.Name
	}
	return out
}

func TestInfo(t *testing.T) {
	t.Parallel()
	info := lastcard.New().Info()
	if info.ID != "lastcard" || info.MinSeats != 2 || info.MaxSeats != 4 {
		t.Errorf("info: id %q seats %d-%d, want lastcard 2-4 (L-1)", info.ID, info.MinSeats, info.MaxSeats)
	}
	if diff := cmp.Diff([]int{1, 2, 3, 4, 5}, info.BotLevels); diff != "" { // L-11
		t.Errorf("bot levels (-want +got):\n%s", diff)
	}
	if !strings.Contains(info.Rules, "Last card!") || !strings.Contains(info.Rules, "Draw Four") {
		t.Errorf("the rules page does not explain Last card! and the Draw Four")
	}
}

func TestCheckOptions(t *testing.T) {
	t.Parallel()
	r := lastcard.New()
	defaults := sdk.Options{"stack_draw_two": true, "draw_four": "no_colour_match", "last_card_mode": "catch", "target": "500"}
	tests := []struct {
		name    string
		seats   int
		raw     map[string]any
		want    sdk.Options
		wantErr string
	}{
		{name: "defaults", seats: 3, want: defaults},
		{name: "target 200 as a number", seats: 2, raw: map[string]any{"target": 200.0},
			want: sdk.Options{"stack_draw_two": true, "draw_four": "no_colour_match", "last_card_mode": "catch", "target": "200"}},
		{name: "all changed", seats: 4, raw: map[string]any{"stack_draw_two": false, "draw_four": "any_time", "last_card_mode": "auto", "target": "single"},
			want: sdk.Options{"stack_draw_two": false, "draw_four": "any_time", "last_card_mode": "auto", "target": "single"}},
		{name: "one seat", seats: 1, wantErr: "2 to 4"},
		{name: "five seats", seats: 5, wantErr: "2 to 4"},
		{name: "bad target", seats: 3, raw: map[string]any{"target": "300"}, wantErr: "target"},
		{name: "bad mode", seats: 3, raw: map[string]any{"last_card_mode": "shout"}, wantErr: "last_card_mode"},
		{name: "unknown option", seats: 3, raw: map[string]any{"hand_size": 5}, wantErr: "no such option"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := sdk.CheckOptions(r.Info(), r, tt.seats, tt.raw)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("want an error naming %q, got %v", tt.wantErr, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRandomStart checks many seeded deals: seven cards each, a number card on the pile (L-2), the
// colour in play its colour, all 108 cards present, and the same seed giving the same deal.
func TestRandomStart(t *testing.T) {
	t.Parallel()
	r := lastcard.New()
	for seats := 2; seats <= 4; seats++ {
		for seed := range uint64(150) {
			o, _ := sdk.CheckOptions(r.Info(), r, seats, nil)
			s, err := r.Start(ctx, sdk.StartRequest{Seats: seats, Options: o, Seed: seed, RNG: sdk.NewRNG(seed)})
			if err != nil {
				t.Fatalf("seats %d seed %d: %v", seats, seed, err)
			}
			top := s.Pile[len(s.Pile)-1]
			if v := top.Value(); v < 0 || v > 9 || len(s.Pile) != 1 {
				t.Fatalf("seats %d seed %d: pile %v, want one number card (L-2)", seats, seed, s.Pile)
			}
			if s.Color != string(rune(top.Color())) {
				t.Fatalf("seats %d seed %d: colour %q on %s", seats, seed, s.Color, top)
			}
			for i, h := range s.Hands {
				if len(h) != 7 {
					t.Fatalf("seats %d seed %d: seat %d holds %d cards, want 7", seats, seed, i, len(h))
				}
			}
			if d := sdk.CardDiff(lastcard.Deck(), r.Cards(s)); d != "" {
				t.Fatalf("seats %d seed %d: %s", seats, seed, d)
			}
			again, _ := r.Start(ctx, sdk.StartRequest{Seats: seats, Options: o, Seed: seed, RNG: sdk.NewRNG(seed)})
			if diff := cmp.Diff(s, again, cmpopts.IgnoreUnexported(lastcard.State{})); diff != "" {
				t.Fatalf("seats %d seed %d: the same seed dealt differently:\n%s", seats, seed, diff)
			}
		}
	}
}

func TestStartRefusesBadGames(t *testing.T) {
	t.Parallel()
	e := engine.New(lastcard.New())
	one, seven := 1, 7
	tests := []struct {
		name string
		req  engine.NewGameRequest
		want string
	}{
		{"five seats", engine.NewGameRequest{Seats: 5}, "2 to 4"},
		{"a French card", engine.NewGameRequest{Seats: 2, Deal: &sdk.Deal{Pile: cards("QH")}}, "not in this game's cards"},
		{"a fifth W+4", engine.NewGameRequest{Seats: 2, Deal: &sdk.Deal{Hands: [][]sdk.Card{cards("W+4 W+4 W+4"), cards("W+4 W+4")}}}, "once more"},
		{"no number card to start", engine.NewGameRequest{Seats: 2, Deal: &sdk.Deal{Hands: [][]sdk.Card{cards("R1"), cards("R2")}, Deck: cards("W"), Rest: "out"}}, "no number card"},
		{"face-up rows", engine.NewGameRequest{Seats: 2, Deal: &sdk.Deal{Pile: cards("R5"), FaceUp: [][]sdk.Card{cards("R1")}}}, "face_up"},
		{"opener out of range", engine.NewGameRequest{Seats: 2, Opener: &seven}, "opener 7"},
		{"deal's first wins over the opener", engine.NewGameRequest{Seats: 2, Deal: &sdk.Deal{Pile: cards("R5"), First: &one}, Opener: new(int)}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := e.NewGame(ctx, &tt.req)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("want a game, got %v", err)
				}
				return
			}
			if !errors.Is(err, sdk.ErrIllegal) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("want a refusal naming %q, got %v", tt.want, err)
			}
		})
	}
}

// TestRefusals covers refusals a scenario cannot spell: actions of unknown types, of the clock,
// of the host mid-round, of seats that do not exist, and malformed arguments.
func TestRefusals(t *testing.T) {
	t.Parallel()
	s := start(t, table{pile: "R5", hands: []string{"R1 B2 W", "Y1 Y2", "G1 G2"}}, nil)
	two := 2
	tests := []struct {
		name string
		a    sdk.Action
		code string
	}{
		{"unknown type", sdk.Action{Seat: 0, Type: "pickup"}, sdk.CodeBadAction},
		{"clock", sdk.Action{Seat: sdk.Clock, Type: sdk.ActDeadline, Deadline: "x"}, lastcard.CodeNoDeadline},
		{"host mid-round", sdk.Action{Seat: sdk.Host, Type: sdk.ActDeal}, lastcard.CodeNotOver},
		{"seat deals", sdk.Action{Seat: 0, Type: sdk.ActDeal}, sdk.CodeBadAction},
		{"no such seat", sdk.Action{Seat: 3, Type: sdk.ActDraw}, sdk.CodeBadAction},
		{"host plays", sdk.Action{Seat: sdk.Host, Type: sdk.ActPlay, Cards: cards("R1")}, sdk.CodeBadAction},
		{"no card", sdk.Action{Seat: 0, Type: sdk.ActPlay}, lastcard.CodeWrongCount},
		{"French card", sdk.Action{Seat: 0, Type: sdk.ActPlay, Cards: cards("QH")}, sdk.CodeUnknownCard},
		{"catch with no target", sdk.Action{Seat: 1, Type: sdk.ActCatch}, sdk.CodeBadAction},
		{"catch a full hand", sdk.Action{Seat: 1, Type: sdk.ActCatch, Target: &two}, lastcard.CodeCannotCatch},
		{"joker without colour", sdk.Action{Seat: 0, Type: sdk.ActPlay, Cards: cards("W")}, lastcard.CodeNoColor},
		{"call with three cards", sdk.Action{Seat: 0, Type: sdk.ActCall}, lastcard.CodeCannotCall},
		{"call and play with three cards", sdk.Action{Seat: 0, Type: sdk.ActPlay, Cards: cards("R1"), Args: map[string]string{lastcard.ArgCall: "true"}}, lastcard.CodeCannotCall},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			re := refused(t, s, tt.a)
			if re.Code != tt.code || re.Reason == "" {
				t.Errorf("refusal %q (%s), want code %s with a reason", re.Reason, re.Code, tt.code)
			}
		})
	}
}

// TestCallWithThePlay checks both ways of calling "Last card!" with the play that leaves one card
// (L-8): a play carrying Args["call"], and a call carrying the card.
func TestCallWithThePlay(t *testing.T) {
	t.Parallel()
	for _, a := range []sdk.Action{
		{Seat: 0, Type: sdk.ActPlay, Cards: cards("R1"), Args: map[string]string{lastcard.ArgCall: "true"}},
		{Seat: 0, Type: sdk.ActCall, Cards: cards("R1")},
	} {
		s := start(t, table{pile: "R5", hands: []string{"R1 B2", "Y1 Y2", "G1 G2"}}, nil)
		s, ev := act(t, s, a)
		if diff := cmp.Diff([]string{"last_card", "played", "turn"}, names(ev)); diff != "" {
			t.Errorf("%s: events (-want +got):\n%s", a.Type, diff)
		}
		if got := lastcard.New().Observe(s)["called"]; !cmp.Equal(got, []int{0}) {
			t.Errorf("%s: called %v, want [0]", a.Type, got)
		}
		one := 0
		refused(t, s, sdk.Action{Seat: 2, Type: sdk.ActCatch, Target: &one})
	}
}

func TestPoints(t *testing.T) {
	t.Parallel()
	tests := map[string]int{
		"R0": 0, "Y7": 7, "B9": 9, "GS": 20, "RR": 20, "Y+2": 20, "W": 40, "W+4": 60,
	}
	for code, want := range tests {
		if got := lastcard.Points(cards(code)[0]); got != want {
			t.Errorf("Points(%s) = %d, want %d (L-9)", code, got, want)
		}
	}
	total := 0
	for _, c := range lastcard.Deck() {
		total += lastcard.Points(c)
	}
	// Per colour: digits 0 + 2*(1+...+9) = 90, six specials 120; Jokers 4*40 + 4*60.
	if want := 4*(90+120) + 160 + 240; total != want {
		t.Errorf("the deck is worth %d points, want %d", total, want)
	}
}

// TestRoundsAndGames plays rounds out by giving seat 0 a one-card hand through the TableEditor:
// scores add up, the opener moves one seat each round and on into the next game (L-10, LC-10),
// and the game ends at the target (L-9).
func TestRoundsAndGames(t *testing.T) {
	t.Parallel()
	r := lastcard.New()
	s := start(t, table{pile: "R5", hands: []string{"R1", "W+4 W+4", "W+4 W+4"}}, map[string]any{"target": "200"})
	var openers []int
	var phases []string
	for round := 0; round < 5; round++ {
		// Whoever opens, hand them a single card that matches and let them go out.
		tb := r.Table(s)
		opener := s.Turn
		hand := tb.Zones[keyHand(opener)]
		top := tb.Zones["pile"][len(tb.Zones["pile"])-1]
		idx := slices.IndexFunc(tb.Zones["deck"], func(c sdk.Card) bool { return c.Color() == top.Color() || c == sdk.Wild })
		if top.Color() == 0 {
			t.Fatalf("round %d starts on %s", round, top)
		}
		c := tb.Zones["deck"][idx]
		tb.Zones["deck"] = append(slices.Delete(tb.Zones["deck"], idx, idx+1), hand...)
		tb.Zones[keyHand(opener)] = []sdk.Card{c}
		var err error
		if s, err = r.SetTable(s, tb); err != nil {
			t.Fatal(err)
		}
		a := sdk.Action{Seat: opener, Type: sdk.ActPlay, Cards: []sdk.Card{c}}
		s, _ = act(t, s, a)
		openers = append(openers, s.Opener)
		phases = append(phases, s.Phase)
		if s.Winner != opener || s.Scores[opener] == 0 {
			t.Fatalf("round %d: winner %d scores %v", round, s.Winner, s.Scores)
		}
		s, _ = act(t, s, sdk.Action{Seat: sdk.Host, Type: sdk.ActDeal})
	}
	if diff := cmp.Diff([]int{0, 1, 2, 0, 1}, openers); diff != "" {
		t.Errorf("openers (-want +got):\n%s", diff)
	}
	// The first round is worth 240 (four W+4): game over at once; later rounds may or may not
	// reach 200. Either way the host's deal goes on: the next round or a new game.
	for i, p := range phases {
		if p != sdk.PhaseRoundOver && p != sdk.PhaseGameOver {
			t.Errorf("round %d ended in phase %s", i, p)
		}
	}
	if s.Phase != sdk.PhasePlaying || s.Turn != 2 {
		t.Errorf("after five rounds: phase %s turn %d, want playing, seat 2 opening", s.Phase, s.Turn)
	}
}

func keyHand(seat int) string { return "hand." + string(rune('0'+seat)) }

// TestGameOverStartsNewGame checks L-10: after game_over the host's deal starts a new game with
// scores at zero and round 1, and seats may no longer act before it.
func TestGameOverStartsNewGame(t *testing.T) {
	t.Parallel()
	s := start(t, table{pile: "R5", hands: []string{"R1", "W+4 W+4 W+4 W+4", "W W"}}, map[string]any{"target": "200"})
	s, ev := act(t, s, play(0, "R1"))
	if s.Phase != sdk.PhaseGameOver || s.Scores[0] != 320 {
		t.Fatalf("phase %s scores %v, want game_over with 320 for seat 0", s.Phase, s.Scores)
	}
	if ev[len(ev)-2].Data["game"] != "true" {
		t.Errorf("the won event does not say the game is won: %+v", ev)
	}
	if re := refused(t, s, sdk.Action{Seat: 1, Type: sdk.ActDraw}); re.Code != sdk.CodeGameOver {
		t.Errorf("a draw after game over: %s, want %s", re.Code, sdk.CodeGameOver)
	}
	s, _ = act(t, s, sdk.Action{Seat: sdk.Host, Type: sdk.ActDeal})
	want := []int{0, 0, 0}
	if diff := cmp.Diff(want, s.Scores); diff != "" || s.Round != 1 || s.Opener != 1 {
		t.Errorf("new game: scores %v round %d opener %d, want zeros, 1, 1", s.Scores, s.Round, s.Opener)
	}
	if d := sdk.CardDiff(lastcard.Deck(), lastcard.New().Cards(s)); d != "" {
		t.Errorf("the new game's cards: %s", d)
	}
}

// TestLegalFirstActions counts the plays open from fixed deals (a perft-like check of L-3..L-5).
func TestLegalFirstActions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		tb    table
		opts  map[string]any
		plays string
		other []string
	}{
		{"colour and value", table{pile: "R5", hands: []string{"R1 R1 G5 B9 Y+2 W W+4", "Y1 Y2"}}, nil, "R1 G5 W", []string{"draw"}},
		{"draw four alone", table{pile: "R5", hands: []string{"B1 G2 W+4", "Y1 Y2"}}, nil, "W+4", []string{"draw"}},
		{"draw four any time", table{pile: "R5", hands: []string{"R1 W+4", "Y1 Y2"}}, map[string]any{"draw_four": "any_time"}, "R1 W+4", []string{"draw", "call"}},
		{"nothing", table{pile: "R5", hands: []string{"B1 G2 Y3", "Y1 Y2"}}, nil, "", []string{"draw"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := start(t, tt.tb, tt.opts)
			v := lastcard.New().View(s, 0)
			var types []string
			var playable []sdk.Card
			for _, a := range v.Actions {
				if a.Type == sdk.ActPlay {
					playable = a.Cards
					continue
				}
				types = append(types, a.Type)
			}
			if diff := cmp.Diff(sdk.CardStrings(cards(tt.plays)), sdk.CardStrings(playable)); diff != "" {
				t.Errorf("playable (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.other, types); diff != "" {
				t.Errorf("other actions (-want +got):\n%s", diff)
			}
			// Every card offered is accepted, every card held and not offered is refused.
			for _, c := range s.Hands[0] {
				a := sdk.Action{Seat: 0, Type: sdk.ActPlay, Cards: []sdk.Card{c}}
				if c == sdk.Wild || c == sdk.WildDrawFour {
					a.Color = "G"
				}
				_, err := lastcard.New().Apply(ctx, sdk.ApplyRequest[*lastcard.State]{State: s, Action: a})
				if offered := slices.Contains(playable, c); offered != (err == nil) {
					t.Errorf("%s: offered %v, but Apply says %v", c, offered, err)
				}
			}
		})
	}
}

// TestViews checks what each viewer sees: its own hand only, the drawn card only by its drawer,
// the spectators no hand, and catch offered to the opponents of a seat caught with one card.
func TestViews(t *testing.T) {
	t.Parallel()
	r := lastcard.New()
	s := start(t, table{pile: "R5", hands: []string{"R1 B2", "Y1 Y2", "G1 G2"}, deck: "R7"}, nil)
	s, _ = act(t, s, play(0, "R1")) // one card, uncalled: seat 0 may be caught
	s, _ = act(t, s, sdk.Action{Seat: 1, Type: sdk.ActCatch, Target: new(int)})
	s, _ = act(t, s, sdk.Action{Seat: 1, Type: sdk.ActDraw})
	for viewer := sdk.Spectator; viewer < 3; viewer++ {
		v := r.View(s, viewer)
		for _, z := range v.Zones {
			if z.Kind == sdk.ZoneHand && z.Owner != viewer && len(z.Cards) > 0 {
				t.Errorf("viewer %d sees the cards of %s", viewer, z.ID)
			}
			if z.Kind == sdk.ZoneHand && z.Owner == viewer && len(z.Cards) != len(s.Hands[viewer]) {
				t.Errorf("viewer %d sees %d of its %d cards", viewer, len(z.Cards), len(s.Hands[viewer]))
			}
			if z.ID == "deck" && len(z.Cards) > 0 {
				t.Errorf("viewer %d sees the deck", viewer)
			}
		}
		if viewer == sdk.Spectator && len(v.Actions) > 0 {
			t.Errorf("the spectators have actions: %+v", v.Actions)
		}
	}
	v := r.View(s, 0)
	if got := len(v.Players); got != 3 || v.Players[0].HandCount != 3 || *v.Players[0].Score != 0 {
		t.Errorf("players: %+v", v.Players)
	}
}

// TestAutoModeOffersNoCatch checks the views of auto mode: no catch action, the penalty drawn.
func TestAutoModeOffersNoCatch(t *testing.T) {
	t.Parallel()
	r := lastcard.New()
	s := start(t, table{pile: "R5", hands: []string{"R1 B2", "Y1 Y2", "G1 G2"}}, map[string]any{"last_card_mode": "auto"})
	s, _ = act(t, s, play(0, "R1"))
	for seat := range 3 {
		if v := r.View(s, seat); v.Has(sdk.ActCatch) {
			t.Errorf("seat %d is offered a catch in auto mode", seat)
		}
	}
	if len(s.Hands[0]) != 3 {
		t.Errorf("seat 0 holds %v, want B2 and two penalty cards", s.Hands[0])
	}
	if st := r.Status(s); !cmp.Equal(st.Actors, []int{1}) {
		t.Errorf("actors %v, want [1]", st.Actors)
	}
}

// TestStatusActors checks that the opponents of a catchable seat are actors (L-8, catch mode).
func TestStatusActors(t *testing.T) {
	t.Parallel()
	r := lastcard.New()
	s := start(t, table{pile: "R5", hands: []string{"R1 B2", "Y1 Y2", "G1 G2", "B1 B3"}}, nil)
	if st := r.Status(s); !cmp.Equal(st.Actors, []int{0}) || st.Turn != 0 || st.Winner != sdk.NoSeat {
		t.Errorf("status %+v", st)
	}
	s, _ = act(t, s, play(0, "R1"))
	if st := r.Status(s); !cmp.Equal(st.Actors, []int{1, 2, 3}) {
		t.Errorf("actors %v, want the seat in turn then the other opponents of seat 0", st.Actors)
	}
	s, _ = act(t, s, sdk.Action{Seat: 1, Type: sdk.ActDraw})
	if st := r.Status(s); len(st.Actors) != 1 {
		t.Errorf("actors %v after the next player acted, want only the seat in turn", st.Actors)
	}
	if st := r.Status(s); len(st.Deadlines) != 0 {
		t.Errorf("deadlines %v: Last Card sets none", st.Deadlines)
	}
}

// TestRevealAtRoundEnd: while a round is played nobody sees another's hand; once it is over
// every viewer, the spectators too, sees every hand left and the points it counts (L-9), which
// add up to what the winner scored.
func TestRevealAtRoundEnd(t *testing.T) {
	t.Parallel()
	r := lastcard.New()
	s := start(t, table{pile: "R5", hands: []string{"R1", "W+4 Y3", "GS B7 B2"}}, map[string]any{"target": "200"})
	for viewer := sdk.Spectator; viewer < 3; viewer++ {
		for _, p := range r.View(s, viewer).Players {
			if p.Points != nil {
				t.Errorf("viewer %d: seat %d shows %d points while the round is played", viewer, p.Seat, *p.Points)
			}
		}
	}
	s, ev := act(t, s, play(0, "R1"))
	if s.Phase != sdk.PhaseRoundOver {
		t.Fatalf("phase %s, want round_over", s.Phase)
	}
	scored := ev[len(ev)-1]
	if scored.Name != "round_scored" || scored.Count != 60+3+20+7+2 {
		t.Fatalf("last event %+v, want round_scored of 92", scored)
	}
	want := map[int]struct {
		hand   string
		points int
	}{0: {"", 0}, 1: {"W+4 Y3", 63}, 2: {"GS B7 B2", 29}}
	for viewer := sdk.Spectator; viewer < 3; viewer++ {
		v := r.View(s, viewer)
		sum := 0
		for _, p := range v.Players {
			if p.Points == nil {
				t.Errorf("viewer %d: seat %d has no points at the round's end", viewer, p.Seat)
				continue
			}
			if *p.Points != want[p.Seat].points {
				t.Errorf("viewer %d: seat %d counts %d points, want %d", viewer, p.Seat, *p.Points, want[p.Seat].points)
			}
			sum += *p.Points
		}
		if sum != scored.Count {
			t.Errorf("viewer %d: the hands count %d points, the winner scored %d", viewer, sum, scored.Count)
		}
		for _, z := range v.Zones {
			if z.Kind != sdk.ZoneHand {
				continue
			}
			if got := strings.Join(sdk.CardStrings(z.Cards), " "); got != want[z.Owner].hand || z.Hidden {
				t.Errorf("viewer %d: %s shows %q (hidden %v), want %q shown", viewer, z.ID, got, z.Hidden, want[z.Owner].hand)
			}
		}
	}
	// The next round's deal hides the hands again.
	s, _ = act(t, s, sdk.Action{Seat: sdk.Host, Type: sdk.ActDeal})
	for _, z := range r.View(s, sdk.Spectator).Zones {
		if z.Kind == sdk.ZoneHand && len(z.Cards) > 0 {
			t.Errorf("after the next deal the spectators see %s: %v", z.ID, z.Cards)
		}
	}
}
