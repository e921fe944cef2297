package drugs

import (
	"slices"
	"testing"

	"cardhouse/sdk"
	"github.com/google/go-cmp/cmp"
)

// chaos3 is a three-seat chaos table with seat 0 holding a Joker on a King.
func chaos3(t *testing.T, effect string, hands ...string) *State {
	t.Helper()
	if hands == nil {
		hands = []string{"JK 4C 5C", "8H 9H", "6D"}
	}
	return start(t, setup{seats: 3, opts: sdk.Options{OptChaos: true}, pile: "7S KS", hands: hands,
		faceUp: []string{"", "", ""}, faceDown: []string{"2S", "2H", "2D"}, deck: "QC QD QH", rest: "out",
		forced: map[string][]string{DrawJokerEffect: {effect}}})
}

func jokerEvent(t *testing.T, evs []sdk.Event) sdk.Event {
	t.Helper()
	i := slices.IndexFunc(evs, func(e sdk.Event) bool { return e.Name == EvJoker })
	if i < 0 {
		t.Fatalf("no joker event in %v", names(evs))
	}
	return evs[i]
}

func hands(s *State) [][]string { return obs(s)["hands"].([][]string) }

func TestJokerEffects(t *testing.T) {
	t.Parallel()
	t.Run("hand_swap: then the player draws up to three", func(t *testing.T) {
		t.Parallel()
		s, evs := act(t, chaos3(t, EffectHandSwap), play(0, "JK"))
		if e := jokerEvent(t, evs); e.Data["effect"] != EffectHandSwap || e.Data["target"] != "1" {
			t.Fatalf("event %+v", e)
		}
		if diff := cmp.Diff([][]string{{"8H", "9H", "QC"}, {"4C", "5C"}, {"6D"}}, hands(s)); diff != "" {
			t.Fatal(diff)
		}
		if s.Turn != 1 || obs(s)["open"] != true || obs(s)["top"] != "JK" {
			t.Fatalf("turn %d open %v", s.Turn, obs(s)["open"])
		}
	})
	t.Run("everyone_passes: hands move one seat in the direction of play", func(t *testing.T) {
		t.Parallel()
		s, _ := act(t, chaos3(t, EffectEveryonePasses), play(0, "JK"))
		if diff := cmp.Diff([][]string{{"6D", "QC", "QD"}, {"4C", "5C"}, {"8H", "9H"}}, hands(s)); diff != "" {
			t.Fatal(diff)
		}
	})
	t.Run("skip: the next player loses the turn", func(t *testing.T) {
		t.Parallel()
		s, evs := act(t, chaos3(t, EffectSkip), play(0, "JK"))
		if s.Turn != 2 || !slices.Contains(names(evs), EvSkipped) {
			t.Fatalf("turn %d events %v", s.Turn, names(evs))
		}
	})
	t.Run("skip with two players: the Joker's player goes again", func(t *testing.T) {
		t.Parallel()
		s := start(t, setup{opts: sdk.Options{OptChaos: true}, hands: []string{"JK 4C", "8H"}, faceUp: []string{"", ""},
			faceDown: []string{"2S", "2H"}, rest: "out", forced: map[string][]string{DrawJokerEffect: {EffectSkip}}})
		s, _ = act(t, s, play(0, "JK"))
		if s.Turn != 0 {
			t.Fatalf("turn %d", s.Turn)
		}
	})
	t.Run("everybody_pays: every other player draws one while the deck lasts", func(t *testing.T) {
		t.Parallel()
		s := chaos3(t, EffectEverybodyPays)
		s.Deck = s.Deck[:2]
		s.Out = append(s.Out, cards("QH")...)
		s, evs := act(t, s, play(0, "JK"))
		if diff := cmp.Diff([][]string{{"4C", "5C"}, {"8H", "9H", "QC"}, {"6D", "QD"}}, hands(s)); diff != "" {
			t.Fatal(diff)
		}
		var drew []int
		for _, e := range evs {
			if e.Name == EvDrew {
				drew = append(drew, e.Seat)
			}
		}
		if diff := cmp.Diff([]int{1, 2}, drew); diff != "" {
			t.Fatal(diff)
		}
	})
	t.Run("everyone_dumps: lowest hand cards beneath the Joker, Jokers never", func(t *testing.T) {
		t.Parallel()
		s, evs := act(t, chaos3(t, EffectEveryoneDumps, "JK 9C 4C 4D", "8H 2C", "JK"), play(0, "JK"))
		if diff := cmp.Diff([]string{"7S", "KS", "4C", "2C", "JK"}, obs(s)["pile"]); diff != "" {
			t.Fatal(diff)
		}
		if diff := cmp.Diff([][]string{{"9C", "4D", "QC"}, {"8H"}, {"JK"}}, hands(s)); diff != "" {
			t.Fatal(diff)
		}
		if n := slices.IndexFunc(evs, func(e sdk.Event) bool { return e.Name == EvDumped }); n < 0 {
			t.Fatalf("events %v", names(evs))
		}
		if obs(s)["run"] != 0 {
			t.Fatal("a Joker on top makes no run")
		}
	})
	t.Run("time_bomb: 2, 3, 10 or Joker, or pick up; a 3 passes it on", func(t *testing.T) {
		t.Parallel()
		s, _ := act(t, chaos3(t, EffectTimeBomb, "JK 4C 5C", "3H 9H AH", "10D 6D"), play(0, "JK"))
		if o := obs(s); o["armed"] != true || o["open"] != false {
			t.Fatalf("armed %v open %v", o["armed"], o["open"])
		}
		refuse(t, s, play(1, "AH"), CodeNoMatch)
		refuse(t, s, play(1, "9H"), CodeNoMatch)
		s, _ = act(t, s, play(1, "3H"))
		if s.Turn != 2 || !s.Armed {
			t.Fatalf("a 3 passes the armed pile on: turn %d armed %v", s.Turn, s.Armed)
		}
		refuse(t, s, play(2, "6D"), CodeNoMatch)
		s, evs := act(t, s, play(2, "10D"))
		if s.Armed || s.Turn != 2 || !slices.Contains(names(evs), EvBurned) {
			t.Fatalf("a 10 defuses and burns: armed %v turn %d", s.Armed, s.Turn)
		}
	})
	t.Run("time_bomb picked up", func(t *testing.T) {
		t.Parallel()
		s, _ := act(t, chaos3(t, EffectTimeBomb), play(0, "JK"))
		s, _ = act(t, s, pickup(1))
		if s.Armed || s.Turn != 2 || len(s.Hands[1]) != 5 {
			t.Fatalf("armed %v turn %d hand %v", s.Armed, s.Turn, s.Hands[1])
		}
	})
	t.Run("gift: give one hand card, then draw up to three", func(t *testing.T) {
		t.Parallel()
		s, evs := act(t, chaos3(t, EffectGift), play(0, "JK"))
		if s.Turn != 0 || s.GiftPending != 0 || obs(s)["gift_pending"] != 0 || slices.Contains(names(evs), EvDrew) {
			t.Fatalf("turn %d pending %d events %v", s.Turn, s.GiftPending, names(evs))
		}
		v := New().View(s, 0)
		if a, ok := v.Action(sdk.ActGift); !ok || len(v.Actions) != 1 || !cmp.Equal([]int{1, 2}, a.Targets) {
			t.Fatalf("actions %+v", v.Actions)
		}
		refuse(t, s, play(0, "4C"), CodeGiftPending)
		refuse(t, s, pickup(0), CodeGiftPending)
		refuse(t, s, gift(0, "4C", 0), CodeBadTarget)
		refuse(t, s, gift(0, "4C", 5), CodeBadTarget)
		refuse(t, s, gift(0, "9H", 1), sdk.CodeNotHeld)
		refuse(t, s, sdk.Action{Seat: 0, Type: sdk.ActGift, Cards: cards("4C 5C"), Target: intp(1)}, sdk.CodeBadAction)
		refuse(t, s, sdk.Action{Seat: 0, Type: sdk.ActGift, Cards: cards("4C")}, CodeBadTarget)
		refuse(t, s, gift(1, "8H", 2), sdk.CodeNotYourTurn)
		s, evs = act(t, s, gift(0, "5C", 2))
		if diff := cmp.Diff([][]string{{"4C", "QC", "QD"}, {"8H", "9H"}, {"6D", "5C"}}, hands(s)); diff != "" {
			t.Fatal(diff)
		}
		if diff := cmp.Diff([]string{"gift", "drew", "turn"}, names(evs)); diff != "" {
			t.Fatal(diff)
		}
		if g := evs[0]; g.For(1).Cards != nil || g.Data["to"] != "2" || s.Turn != 1 || s.GiftPending != sdk.NoSeat {
			t.Fatalf("gift event %+v turn %d", g, s.Turn)
		}
	})
	t.Run("a Joker that is the last card wins at once, no effect", func(t *testing.T) {
		t.Parallel()
		s := start(t, setup{opts: sdk.Options{OptChaos: true}, hands: []string{"JK", "8H"}, faceUp: []string{"", ""},
			faceDown: []string{"", "2H"}, rest: "out"})
		before := s.RNG
		s, evs := act(t, s, play(0, "JK"))
		if s.Winner != 0 || slices.Contains(names(evs), EvJoker) || s.RNG.N != before.N {
			t.Fatalf("winner %d events %v", s.Winner, names(evs))
		}
	})
	t.Run("several Jokers roll one effect", func(t *testing.T) {
		t.Parallel()
		s := chaos3(t, EffectSkip, "JK JK 4C", "8H", "6D")
		s.RNG.Force(DrawJokerEffect, EffectTimeBomb)
		s, evs := act(t, s, play(0, "JK JK"))
		var n int
		for _, e := range evs {
			if e.Name == EvJoker {
				n++
			}
		}
		if n != 1 || jokerEvent(t, evs).Count != 2 || s.Armed || len(s.RNG.Forced[DrawJokerEffect]) != 1 {
			t.Fatalf("%d joker events, armed %v, forced left %v", n, s.Armed, s.RNG.Forced)
		}
	})
	t.Run("a Joker on a 7 and on an armed pile", func(t *testing.T) {
		t.Parallel()
		s := chaos3(t, EffectTimeBomb, "JK 4C", "JK 9H", "6D")
		s.RNG.Force(DrawJokerEffect, EffectSkip)
		s, _ = act(t, s, play(0, "JK"))
		s, _ = act(t, s, play(1, "JK"))
		if s.Armed || s.Turn != 0 {
			t.Fatalf("armed %v turn %d", s.Armed, s.Turn)
		}
	})
}

func TestJokerEffectIsDrawnWithItsLabel(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for seed := range uint64(200) {
		s := chaos3(t, "")
		s.RNG = sdk.NewRNG(seed)
		_, evs := act(t, s, play(0, "JK"))
		seen[jokerEvent(t, evs).Data["effect"]] = true
	}
	if len(seen) != len(Effects) {
		t.Fatalf("effects rolled over 200 seeds: %v, want all seven (D-10)", seen)
	}
}
