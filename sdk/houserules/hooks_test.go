package houserules_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"

	"github.com/google/go-cmp/cmp"
)

// fiveSwaps is a 7-0 style rule on tiny: whoever plays a 5 must swap hands with a player of their
// choice before the game goes on.
const fiveSwaps = `name = "five-swaps"
description = "Playing a 5 swaps hands with a chosen player."
function after_action(game, action)
  if action.type == "play" and cards.face(action.cards[1]) == "5" and #game.hand(action.seat) > 0 then
    game.memory.swapper = action.seat
    game.memory.next = game.turn
    game.turn = action.seat
  end
end
actions = {
  swap = {
    label = "Swap hands with…",
    blocking = true,
    open = function(game, seat)
      if game.memory.swapper ~= seat then return nil end
      local others = {}
      for s = 0, game.seats - 1 do if s ~= seat then others[#others + 1] = s end end
      return {targets = others}
    end,
    apply = function(game, action)
      local a, b = "hand." .. action.seat, "hand." .. action.target
      game.zones[a], game.zones[b] = game.zones[b], game.zones[a]
      game.turn = game.memory.next
      game.memory.swapper, game.memory.next = nil, nil
      game.emit("swapped", {data = {with = tostring(action.target)}})
    end,
  },
}
`

func view(t *testing.T, st *engine.Step, seat int) sdk.View {
	t.Helper()
	var v sdk.View
	if err := jsonUnmarshal(st.Views[seat], &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestAHouseRuleAction(t *testing.T) {
	t.Parallel()
	eng := tinyEngine()
	st := start(t, eng, nil, rule(fiveSwaps))
	if v := view(t, st, 0); v.Has("swap") {
		t.Fatalf("swap is open before any 5 was played: %+v", v.Actions)
	}
	one := 1
	_, err := eng.Act(context.Background(), &engine.ActRequest{State: st.State, Action: sdk.Action{Seat: 0, Type: "swap", Target: &one}})
	refused(t, err, "swap is not open to seat 0 now")
	st = act(t, eng, st, play(0, "5H"))
	want := []sdk.ActionSpec{{Type: "swap", Label: "Swap hands with…", Targets: []int{1}}}
	if diff := cmp.Diff(want, view(t, st, 0).Actions); diff != "" {
		t.Errorf("seat 0's actions while the swap waits (-want +got):\n%s", diff)
	}
	if got := view(t, st, 1).Actions; len(got) != 0 {
		t.Errorf("seat 1 is offered %+v while the game waits for seat 0", got)
	}
	if diff := cmp.Diff([]int{0}, st.Status.Actors); diff != "" {
		t.Errorf("actors (-want +got):\n%s", diff)
	}
	_, err = eng.Act(context.Background(), &engine.ActRequest{State: st.State, Action: sdk.Action{Seat: 0, Type: sdk.ActDraw}})
	refused(t, err, `waiting for seat 0: Swap hands with… (house rule "five-swaps")`)
	bad := 0
	_, err = eng.Act(context.Background(), &engine.ActRequest{State: st.State, Action: sdk.Action{Seat: 0, Type: "swap", Target: &bad}})
	refused(t, err, "swap needs a target among seats [1]")
	_, err = eng.Act(context.Background(), &engine.ActRequest{State: st.State, Action: sdk.Action{Seat: 1, Type: "swap", Target: &bad}})
	refused(t, err, "waiting for seat 0")

	// A bot in seat 0 takes the swap (the only target).
	ans, err := eng.Bot(context.Background(), &engine.BotCall{State: st.State, Seat: 0, Level: 1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&sdk.Action{Seat: 0, Type: "swap", Target: &one}, ans.Action); diff != "" {
		t.Fatalf("bot (-want +got):\n%s", diff)
	}
	st = act(t, eng, st, *ans.Action)
	obs := observe(t, eng, st)
	if diff := cmp.Diff([][]string{{"5C", "2D", "7S"}, {"9H", "KS"}}, obs["hands"]); diff != "" {
		t.Errorf("hands after the swap (-want +got):\n%s", diff)
	}
	if obs["turn"] != 1 {
		t.Errorf("turn = %v, want 1", obs["turn"])
	}
	if v := view(t, st, 0); v.Has("swap") || !v.Has(sdk.ActDraw) && st.Status.Turn == 0 {
		t.Errorf("after the swap seat 0 is offered %+v", v.Actions)
	}
	if diff := cmp.Diff("swapped", st.Events[len(st.Events)-1].Name); diff != "" {
		t.Errorf("last event (-want +got):\n%s", diff)
	}
}

const anythingGoes = `name = "anything-goes"
description = "Any card may be played on any card."
answers = {
  may_play = function(game, args) return true end,
}
`

func TestAnsweringTheRulesetsQuestion(t *testing.T) {
	t.Parallel()
	eng := tinyEngine()
	st := start(t, eng, nil)
	_, err := eng.Act(context.Background(), &engine.ActRequest{State: st.State, Action: play(0, "9H")})
	refused(t, err, "9H does not go on 5S")
	st = start(t, eng, nil, rule(anythingGoes))
	st = act(t, eng, st, play(0, "9H"))
	if got := observe(t, eng, st)["top"]; got != "9H" {
		t.Errorf("top = %v, want 9H", got)
	}
	// A rule that fails while answering refuses the action.
	broken := strings.Replace(anythingGoes, "return true", "return args.nothing.at_all", 1)
	st = start(t, eng, nil, rule(broken))
	_, err = eng.Act(context.Background(), &engine.ActRequest{State: st.State, Action: play(0, "9H")})
	refused(t, err, `house rule "anything-goes" v3: line 4: attempt to index`, "(in ask)")
}

const bonus = `name = "winner-bonus"
description = "The winner of a game scores a bonus; every game starts with one more card each."
options = {{name = "points", type = "int", default = 10, min = 0, max = 100}}
function on_start(game)
  for s = 0, game.seats - 1 do game.move("deck", "hand." .. s, 1) end
end
function on_round_end(game)
  local key = "score." .. game.winner
  game.counters[key] = game.counters[key] + game.options.points
  game.emit("bonus", {seat = game.winner, count = game.options.points})
end
`

func TestStartAndRoundEndHooks(t *testing.T) {
	t.Parallel()
	eng := tinyEngine()
	first := 0
	st, err := eng.NewGame(context.Background(), &engine.NewGameRequest{Seats: 2, Seed: 1, HouseRules: []sdk.HouseRule{rule(bonus)},
		Options: map[string]any{"hand_size": 1}, Deal: &sdk.Deal{Pile: sdk.MustParseCards("5S"),
			Hands: [][]sdk.Card{sdk.MustParseCards("KS"), sdk.MustParseCards("2D")}, Deck: sdk.MustParseCards("6S 3C"), First: &first}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]string{{"KS", "6S"}, {"2D", "3C"}}, observe(t, eng, st)["hands"]); diff != "" {
		t.Errorf("hands after on_start (-want +got):\n%s", diff)
	}
	st = act(t, eng, st, play(0, "KS"))
	st = act(t, eng, st, sdk.Action{Seat: 1, Type: sdk.ActDraw})
	st = act(t, eng, st, play(0, "6S"))
	obs := observe(t, eng, st)
	// Seat 1 holds 3 cards when seat 0 wins: 3 points, and the bonus.
	if diff := cmp.Diff([]int{13, 0}, obs["scores"]); diff != "" {
		t.Errorf("scores (-want +got):\n%s", diff)
	}
	if got := st.Events[len(st.Events)-1]; got.Name != "bonus" || got.Count != 10 {
		t.Errorf("last event %+v, want the bonus", got)
	}
	// The host's deal starts a new game: on_start runs again.
	st = act(t, eng, st, sdk.Action{Seat: sdk.Host, Type: sdk.ActDeal})
	if got := observe(t, eng, st)["hand_count"]; !cmp.Equal(got, []int{2, 2}) {
		t.Errorf("hand_count after the deal = %v, want [2 2]", got)
	}
}

// leaky keeps a global between calls and draws with math.random: neither may make games differ.
const leaky = `name = "leaky"
description = "Tries to keep state in globals."
counter = 0
function after_action(game, action)
  counter = counter + 1
  game.emit("count", {data = {n = tostring(counter), r = tostring(math.random(1000)), g = tostring(game.random("leaky_pick", 6))}})
end
`

func TestCallsAreIsolatedAndDeterministic(t *testing.T) {
	t.Parallel()
	eng := tinyEngine()
	var wg sync.WaitGroup
	results := make([][]byte, 8)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := start(t, eng, nil, rule(leaky))
			st = act(t, eng, st, play(0, "KS"))
			st = act(t, eng, st, play(1, "7S"))
			results[i] = st.State
		}()
	}
	wg.Wait()
	for i := range results {
		if string(results[i]) != string(results[0]) {
			t.Fatalf("game %d differs from game 0:\n%s\n%s", i, results[i], results[0])
		}
	}
	st := start(t, eng, nil, rule(leaky))
	st = act(t, eng, st, play(0, "KS"))
	st = act(t, eng, st, play(1, "7S"))
	if n := st.Events[len(st.Events)-1].Data["n"]; n != "1" {
		t.Errorf("a global survived between calls: counter = %s, want 1", n)
	}
	// Forced draws reach house rules too, by label.
	forced, err := eng.NewGame(context.Background(), &engine.NewGameRequest{Seats: 2, Seed: 7, Deal: deal(),
		HouseRules: []sdk.HouseRule{rule(leaky)}, Forced: map[string][]string{"leaky_pick": {"4"}, "leaky": {"99"}}})
	if err != nil {
		t.Fatal(err)
	}
	forced = act(t, eng, forced, play(0, "KS"))
	if diff := cmp.Diff(map[string]string{"n": "1", "r": "100", "g": "5"}, forced.Events[len(forced.Events)-1].Data); diff != "" {
		t.Errorf("forced draws (-want +got):\n%s", diff)
	}
}

func TestPrintGoesToTheLog(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var lines []string
	r := houserules.New(houserules.Config{Log: func(rule, line string) {
		mu.Lock()
		lines = append(lines, rule+": "+line)
		mu.Unlock()
	}})
	src := header("chatty") + "function before_action(game, action)\n  print('seat', action.seat, 'does', action.type)\n  for i = 1, 1000 do print(string.rep('x', 100)) end\nend\n"
	res, err := r.Call(context.Background(), &engine.HookCall{Rule: sdk.HouseRule{Name: "chatty", Source: src}, Hook: engine.HookBefore,
		Action: &sdk.Action{Seat: 1, Type: "draw"}, Table: sdk.Table{Zones: map[string][]sdk.Card{}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Refusal != "" || len(res.Log) > 60 || res.Log[0] != "seat\t1\tdoes\tdraw" || res.Log[len(res.Log)-1] != "(log cut: too much printed)" {
		t.Errorf("log = %d lines, first %q, last %q", len(res.Log), res.Log[0], res.Log[len(res.Log)-1])
	}
	if len(lines) != len(res.Log) || lines[0] != "chatty: seat\t1\tdoes\tdraw" {
		t.Errorf("Config.Log got %d lines, first %q", len(lines), lines[0])
	}
}

func TestCompileDescribes(t *testing.T) {
	t.Parallel()
	info, err := houserules.Compile(context.Background(), fiveSwaps)
	if err != nil {
		t.Fatal(err)
	}
	want := engine.HouseRuleInfo{Name: "five-swaps", Description: "Playing a 5 swaps hands with a chosen player.",
		Hooks: []string{engine.HookAfter}, Actions: []engine.HouseAction{{Name: "swap", Label: "Swap hands with…", Blocking: true}}}
	if diff := cmp.Diff(want, info); diff != "" {
		t.Errorf("info (-want +got):\n%s", diff)
	}
	info, err = houserules.Compile(context.Background(), bonus)
	if err != nil {
		t.Fatal(err)
	}
	wantOpts := []sdk.Option{{Name: "points", Label: "points", Type: sdk.OptionInt, Default: 10, Min: 0, Max: 100}}
	if diff := cmp.Diff(wantOpts, info.Options); diff != "" {
		t.Errorf("options (-want +got):\n%s", diff)
	}
}

// TestAStepReportsOnlyItsOwnLog: what the rules print comes with the step that printed it: a
// step whose state is rebuilt from the stored one and a tail of actions does not report the
// tail's lines again.
func TestAStepReportsOnlyItsOwnLog(t *testing.T) {
	t.Parallel()
	src := header("chatty") + "function after_action(game, action)\n  print(action.type, action.cards[1] or \"-\")\nend\n"
	eng := tinyEngine()
	st := start(t, eng, nil, rule(src))
	first := act(t, eng, st, play(0, "5H"))
	want := []engine.HouseLine{{Rule: "chatty", Hook: "after_action", Text: "play\t5H"}}
	if first.House == nil || !cmp.Equal(want, first.House.Log) {
		t.Fatalf("the first step's log: %+v, want %+v", first.House, want)
	}
	// A fresh engine holds no copy: the host sends the start's state and the first action as a tail.
	fresh := tinyEngine()
	second, err := fresh.Act(context.Background(), &engine.ActRequest{State: st.State, Action: play(1, "5C"),
		GameRef: engine.GameRef{Game: "g", Seq: 1, Tail: []engine.Logged{{Action: play(0, "5H")}}}})
	if err != nil {
		t.Fatal(err)
	}
	want = []engine.HouseLine{{Rule: "chatty", Hook: "after_action", Text: "play\t5C"}}
	if second.House == nil || !cmp.Equal(want, second.House.Log) {
		t.Errorf("the second step's log: %+v, want only its own %+v", second.House, want)
	}
}
