package room

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cardhouse/platform/store"
	"cardhouse/sdk"
)

// TestSpecRefuses: an action fits an open action spec of its type exactly when every field it
// carries is one the spec takes (the shape the room checks before the engine sees the action;
// the platform/server tests check it end to end, over HTTP and the WebSocket).
func TestSpecRefuses(t *testing.T) {
	t.Parallel()
	one, two, three := 1, 2, 3
	play := sdk.ActionSpec{Type: sdk.ActPlay, Cards: sdk.MustParseCards("AS KH JK"), Choices: []string{"R", "G"}, ChoiceFor: sdk.MustParseCards("JK"), Args: []string{"call"}}
	faceUp := sdk.ActionSpec{Type: sdk.ActPlay, Cards: sdk.MustParseCards("5D"), From: "face_up"}
	flip := sdk.ActionSpec{Type: sdk.ActFlip, Indexes: []int{0, 2}}
	gift := sdk.ActionSpec{Type: sdk.ActGift, Cards: sdk.MustParseCards("AS"), Targets: []int{1, 2}}
	swap := sdk.ActionSpec{Type: "swap_hands", Targets: []int{2}, Choices: []string{"left", "right"}}
	draw := sdk.ActionSpec{Type: sdk.ActDraw}
	zero, minus := 0, -1
	layoff := sdk.ActionSpec{Type: sdk.ActLayoff, Cards: sdk.MustParseCards("7C"), Zones: []string{"meld.1.0", "meld.1.1"}}
	for _, tc := range []struct {
		name string
		sp   sdk.ActionSpec
		a    sdk.Action
		want string // "" fits; else a fragment of the refusal
	}{
		{"play cards", play, sdk.Action{Type: sdk.ActPlay, Cards: sdk.MustParseCards("AS")}, ""},
		{"play a Joker with its colour", play, sdk.Action{Type: sdk.ActPlay, Cards: sdk.MustParseCards("JK"), Color: "R"}, ""},
		{"play with the declared call", play, sdk.Action{Type: sdk.ActPlay, Cards: sdk.MustParseCards("AS"), Args: map[string]string{"call": "true"}}, ""},
		{"a colour not on offer", play, sdk.Action{Type: sdk.ActPlay, Cards: sdk.MustParseCards("JK"), Color: "B"}, "not a colour on offer"},
		{"a suit where the choices are colours", play, sdk.Action{Type: sdk.ActPlay, Cards: sdk.MustParseCards("JK"), Suit: "H"}, "not a suit on offer"},
		{"an undeclared arg", play, sdk.Action{Type: sdk.ActPlay, Cards: sdk.MustParseCards("AS"), Args: map[string]string{"note": "x"}}, `no argument "note"`},
		{"a target on a play", play, sdk.Action{Type: sdk.ActPlay, Cards: sdk.MustParseCards("AS"), Target: &one}, "takes no target"},
		{"an index on a play", play, sdk.Action{Type: sdk.ActPlay, Cards: sdk.MustParseCards("AS"), Index: &one}, "takes no index"},
		{"cards from the wrong zone", play, sdk.Action{Type: sdk.ActPlay, Cards: sdk.MustParseCards("AS"), From: "face_up"}, "from the hand"},
		{"face-up cards named", faceUp, sdk.Action{Type: sdk.ActPlay, Cards: sdk.MustParseCards("5D"), From: "face_up"}, ""},
		{"face-up cards, zone left to the ruleset", faceUp, sdk.Action{Type: sdk.ActPlay, Cards: sdk.MustParseCards("5D")}, ""},
		{"a flip at an open position", flip, sdk.Action{Type: sdk.ActFlip, Index: &two}, ""},
		{"a flip at a closed position", flip, sdk.Action{Type: sdk.ActFlip, Index: &one}, "index 1 is not open"},
		{"a gift to a target", gift, sdk.Action{Type: sdk.ActGift, Cards: sdk.MustParseCards("AS"), Target: &two}, ""},
		{"a gift to another seat", gift, sdk.Action{Type: sdk.ActGift, Cards: sdk.MustParseCards("AS"), Target: &three}, "seat 3 is not a target"},
		{"a house action's choice", swap, sdk.Action{Type: "swap_hands", Target: &two, Args: map[string]string{"choice": "left"}}, ""},
		{"a house action's choice not on offer", swap, sdk.Action{Type: "swap_hands", Target: &two, Args: map[string]string{"choice": "up"}}, "not a choice on offer"},
		{"a layoff onto a meld", layoff, sdk.Action{Type: sdk.ActLayoff, Cards: sdk.MustParseCards("7C"), Target: &one, Index: &zero}, ""},
		{"a layoff naming no meld's number", layoff, sdk.Action{Type: sdk.ActLayoff, Cards: sdk.MustParseCards("7C"), Target: &one}, "both"},
		{"a layoff onto no seat", layoff, sdk.Action{Type: sdk.ActLayoff, Cards: sdk.MustParseCards("7C"), Target: &minus, Index: &zero}, "no zone"},
		{"a layoff with a choice", layoff, sdk.Action{Type: sdk.ActLayoff, Cards: sdk.MustParseCards("7C"), Target: &one, Index: &zero, Args: map[string]string{"choice": "x"}}, "no argument"},
		{"a draw from a named pile", sdk.ActionSpec{Type: sdk.ActDraw, From: sdk.FromDiscard}, sdk.Action{Type: sdk.ActDraw, From: sdk.FromDiscard}, ""},
		{"a draw with cards", draw, sdk.Action{Type: sdk.ActDraw, Cards: sdk.MustParseCards("AS")}, "takes no cards"},
		{"a draw with a choice", draw, sdk.Action{Type: sdk.ActDraw, Args: map[string]string{"choice": "R"}}, `no argument "choice"`},
	} {
		got := specRefuses(tc.sp, tc.a)
		switch {
		case tc.want == "" && got != "":
			t.Errorf("%s: refused (%s), want it to fit", tc.name, got)
		case tc.want != "" && !strings.Contains(got, tc.want):
			t.Errorf("%s: %q, want a refusal saying %q", tc.name, got, tc.want)
		}
	}
}

// TestBoundsRefuse: whatever an action's type takes, it has a type, no deadline, and at most
// MaxActionCards cards and MaxActionArgs args of bounded size; at the limits it is within bounds.
func TestBoundsRefuse(t *testing.T) {
	t.Parallel()
	args := func(n, keyLen, valueLen int) map[string]string {
		m := map[string]string{}
		for i := range n {
			m[fmt.Sprintf("%0*d", keyLen, i)] = strings.Repeat("v", valueLen)
		}
		return m
	}
	cards := func(n int) []sdk.Card { return slices.Repeat(sdk.MustParseCards("AS"), n) }
	for _, tc := range []struct {
		name string
		a    sdk.Action
		want string // "" within bounds; else a fragment of the refusal
	}{
		{"a bare type", sdk.Action{Type: sdk.ActDraw}, ""},
		{"no type", sdk.Action{}, "no type"},
		{"a type at the limit", sdk.Action{Type: strings.Repeat("t", MaxArgKey)}, ""},
		{"a type too long", sdk.Action{Type: strings.Repeat("t", MaxArgKey+1)}, "at most 32 bytes"},
		{"a deadline", sdk.Action{Type: sdk.ActDraw, Deadline: "turn"}, "deadline is set by the clock"},
		{"cards at the limit", sdk.Action{Type: sdk.ActPlay, Cards: cards(MaxActionCards)}, ""},
		{"too many cards", sdk.Action{Type: sdk.ActPlay, Cards: cards(MaxActionCards + 1)}, "at most 108 cards"},
		{"args at the limits", sdk.Action{Type: "rule", Args: args(MaxActionArgs, MaxArgKey, MaxArgValue)}, ""},
		{"one arg too many", sdk.Action{Type: "rule", Args: args(MaxActionArgs+1, 1, 1)}, "at most 8 args, this one 9"},
		{"an args key too long", sdk.Action{Type: "rule", Args: args(1, MaxArgKey+1, 1)}, "keys have at most 32 bytes"},
		{"an args value too long", sdk.Action{Type: "rule", Args: args(1, 1, MaxArgValue+1)}, "values at most 128"},
		{"15 KB in one value", sdk.Action{Type: "rule", Args: map[string]string{"note": strings.Repeat("x", 15<<10)}}, "values at most 128"},
	} {
		got := boundsRefuse(tc.a)
		switch {
		case tc.want == "" && got != "":
			t.Errorf("%s: refused (%s), want it within bounds", tc.name, got)
		case tc.want != "" && !strings.Contains(got, tc.want):
			t.Errorf("%s: %q, want a refusal saying %q", tc.name, got, tc.want)
		}
	}
}

// TestBotName: bots take the first name nobody in the room bears, in any letter case, then
// numbered names once the list runs out.
func TestBotName(t *testing.T) {
	t.Parallel()
	var ms []*store.Member
	seen := map[string]bool{}
	ms = append(ms, &store.Member{Name: "ROSIE"}) // a person called Rosie
	for range len(botNames) + 3 {
		n := botName(ms)
		if seen[strings.ToLower(n)] || strings.EqualFold(n, "rosie") {
			t.Fatalf("BotName gave %q twice (or a player's name): %v", n, seen)
		}
		seen[strings.ToLower(n)] = true
		ms = append(ms, &store.Member{Name: n, BotLevel: 1})
	}
	if !seen["bot 1"] || !seen["bot 3"] {
		t.Errorf("after the names ran out: %v, want Bot 1 to Bot 3", seen)
	}
}

// BenchmarkCheckAction is what checking a play's shape costs the room per action: reading the
// "actions" of the seat's view (a recorded Last Card view, compacted as the engine sends it).
func BenchmarkCheckAction(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "web", "testdata", "views", "lastcard-start.json"))
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		b.Fatal(err)
	}
	r := &Room{roomGame: roomGame{views: [][]byte{buf.Bytes()}}}
	specs, err := r.seatSpecs(0)
	if err != nil || len(specs) == 0 || len(specs[0].Cards) == 0 {
		b.Fatalf("the recorded view offers %v (%v)", specs, err)
	}
	a := sdk.Action{Seat: 0, Type: specs[0].Type, Cards: specs[0].Cards[:1]}
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		if err := r.checkAction(a); err != nil {
			b.Fatal(err)
		}
	}
}
