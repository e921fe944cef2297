package houserules_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"

	"github.com/google/go-cmp/cmp"
)

// The fixed deal of most tests: seat 0 holds 5H 9H KS, seat 1 holds 5C 2D 7S, 5S is up; 5H and
// KS are legal for seat 0, 9H is not.
func deal() *sdk.Deal {
	first := 0
	return &sdk.Deal{
		Pile:  sdk.MustParseCards("5S"),
		Hands: [][]sdk.Card{sdk.MustParseCards("5H 9H KS"), sdk.MustParseCards("5C 2D 7S")},
		Deck:  sdk.MustParseCards("3C 4C 6C 8C"),
		First: &first,
	}
}

func header(name string) string {
	return "name = \"" + name + "\"\ndescription = \"a rule for tests\"\n"
}

func tinyEngine() engine.Engine { return engine.New[tinyState](tiny{}, houserules.Enable()) }

func start(t *testing.T, eng engine.Engine, opts map[string]any, rules ...sdk.HouseRule) *engine.Step {
	t.Helper()
	st, err := eng.NewGame(context.Background(), &engine.NewGameRequest{Seats: 2, Seed: 7, Deal: deal(), HouseRules: rules, Options: opts})
	if err != nil {
		t.Fatalf("NewGame: %v", err)
	}
	return st
}

func act(t *testing.T, eng engine.Engine, st *engine.Step, a sdk.Action) *engine.Step {
	t.Helper()
	next, err := eng.Act(context.Background(), &engine.ActRequest{State: st.State, Action: a})
	if err != nil {
		t.Fatalf("Act %+v: %v", a, err)
	}
	return next
}

func play(seat int, card string) sdk.Action {
	return sdk.Action{Seat: seat, Type: sdk.ActPlay, Cards: sdk.MustParseCards(card)}
}

func observe(t *testing.T, eng engine.Engine, st *engine.Step) sdk.Observation {
	t.Helper()
	in, err := eng.Inspect(context.Background(), &engine.InspectRequest{State: st.State})
	if err != nil {
		t.Fatal(err)
	}
	return in.Observation
}

func rule(src string) sdk.HouseRule { return sdk.HouseRule{Version: 3, Source: src} }

// refused checks that err is a house-rule refusal whose full text (its Detail, else its reason)
// holds every want.
func refused(t *testing.T, err error, want ...string) {
	t.Helper()
	re, ok := sdk.AsRefusal(err)
	if !ok {
		t.Fatalf("want a refusal, got %v", err)
	}
	for _, w := range want {
		if !strings.Contains(re.Error(), w) {
			t.Errorf("refusal %q does not contain %q", re.Error(), w)
		}
	}
}

// hostile wraps a body into an after_action hook that goes off only on plays, so the same game can
// prove it survives with a draw.
func hostile(body string) string {
	return header("hostile") + "function after_action(game, action)\n  if action.type ~= \"play\" then return end\n" + body + "\nend\n"
}

func TestHostileScriptsAreRefusedAndTheGameSurvives(t *testing.T) {
	t.Parallel()
	runHostile(t, true, []hostileCase{
		{"runtime error", "  local x = nil\n  local y = x.field", fast, []string{`house rule "hostile" v3: line 6: attempt to index a non-table object(nil) with key 'field' (in after_action)`}},
		{"error call", `  error("boom")`, fast, []string{"line 5: boom (in after_action)"}},
		{"endless loop", "  while true do end", fast, []string{"ran past its time budget of 100ms"}},
		{"loop swallowing its deadline", "  while true do pcall(function() while true do end end) end", fast, []string{"time budget"}},
		{"string.rep bomb", `  local s = string.rep("x", 1e9)`, fast, []string{"string.rep: a result of 1000000000 bytes is over"}},
		{"string.rep as a method", `  local s = ("xy"):rep(1e9, ",")`, fast, []string{"string.rep"}},
		{"huge format width", `  local s = string.format("%999999999d", 1)`, fast, []string{"capped at 99"}},
		{"os.execute", `  os.execute("touch /tmp/cardhouse-pwned")`, fast, []string{"line 5: os.execute: os is not available in house rules (see"}},
		{"io.open", `  io.open("/etc/passwd")`, fast, []string{"line 5: io.open: io is not available in house rules"}},
		{"require", `  require("os")`, fast, []string{"line 5: require is not available in house rules"}},
		{"load", `  load("return 1")()`, fast, []string{"line 5: load is not available in house rules"}},
		{"loadstring", `  loadstring("return 1")()`, fast, []string{"loadstring is not available in house rules"}},
		{"dofile", `  dofile("/etc/passwd")`, fast, []string{"dofile is not available in house rules"}},
		{"debug", `  debug.traceback()`, fast, []string{"debug.traceback: debug is not available in house rules"}},
		{"getfenv", `  getfenv(1).x = 1`, fast, []string{"getfenv is not available in house rules"}},
		{"collectgarbage", `  collectgarbage()`, fast, []string{"collectgarbage is not available in house rules"}},
		{"coroutines", `  coroutine.create(function() end)`, fast, []string{"coroutine.create: coroutine is not available in house rules"}},
		{"string.dump", `  string.dump(print)`, fast, []string{"string.dump is not available in house rules"}},
		{"calling a misspelt function", `  game.nope(1)`, fast, []string{"line 5: attempt to call game.nope, which is not a function (misspelt, or nil?) (in after_action)"}},
		{"calling a misspelt library function", `  local r = cards.rnk("QH")`, fast, []string{"line 5: attempt to call cards.rnk, which is not a function"}},
		{"calling a method that is not there", "  local t = {}\n  t:go()", fast, []string{"line 6: attempt to call t:go, which is not a function"}},
		{"the length of a missing zone", `  local n = #game.zones.nowhere`, fast, []string{"line 5: attempt to get the length (#) of a value that is not a table or a string (nil? a misspelt zone or field?) (in after_action)"}},
		{"two calls on the failing line", `  print(nope())`, fast, []string{"line 5: attempt to call something that is not a function (this line calls print, nope)"}},
		{"changing the string library", `  string.rep = function() return "" end`, fast, []string{"string is read-only"}},
		{"changing the string metatable", `  getmetatable("").__index = {}`, fast, []string{"attempt to index"}},
		{"rawset on a library", `  rawset(string, "rep", print)`, fast, []string{"rawset is not available in house rules"}},
		{"endless recursion", "  local function f() return 1 + f() end\n  f()", fast, []string{"stack overflow"}},
		{"unpacking too much", `  unpack({}, 1, 1e8)`, fast, []string{"unpack: 100000000 values, over the cap"}},
		{"losing cards", `  game.zones["hand.1"] = {}`, fast, []string{"line 5: after_action broke the card invariant (every card exactly once): ", "5C"}},
		{"duplicating a card", `  table.insert(game.zones["hand.1"], "KS")`, fast, []string{"line 5: after_action broke the card invariant", "KS"}},
		{"losing a card a few lines on", "  local z = game.zones\n  local n = 0\n  z.deck = {}", fast, []string{"line 7: after_action broke the card invariant"}},
		{"appending a copy", "  local h = game.hand(1)\n  h[#h + 1] = \"KS\"", fast, []string{"line 6: after_action broke the card invariant", "KS"}},
		{"iterating the zones still works", "  for name, cards in pairs(game.zones) do\n    if name == \"deck\" then game.zones[name] = {} end\n  end", fast, []string{"line 6: after_action broke the card invariant"}},
		{"inventing a card code", `  game.zones.pile[1] = "ZZ"`, fast, []string{"zone pile, position 1", "unknown card code"}},
		{"a turn that is no seat", `  game.turn = 99`, fast, []string{"left a table ruleset tiny refuses: turn 99 is not a seat"}},
		{"a fractional turn", `  game.turn = 0.5`, fast, []string{"game.turn must be a whole number"}},
		{"replacing the zones", `  game.zones = 5`, fast, []string{"line 5: game.zones must be a table, not 5"}},
		{"an unknown counter", `  game.counters.bogus = 1`, fast, []string{`line 5: ruleset tiny has no counter "bogus" (it has penalty, score.0, score.1)`}},
		{"an unknown zone", `  game.zones.nowhere = {}`, fast, []string{`line 5: ruleset tiny has no zone "nowhere" (it has deck, hand.0, hand.1, pile)`}},
		{"an unknown value", `  game.values.mood = "x"`, fast, []string{`line 5: ruleset tiny has no value "mood" (it has none)`}},
		{"assigning the winner", `  game.winner = 1`, fast, []string{"line 5: game.winner cannot be assigned: end the round with game.end_round(seat)"}},
		{"assigning the phase", `  game.phase = "game_over"`, fast, []string{"line 5: game.phase cannot be assigned"}},
		{"assigning the round", `  game.round = 3`, fast, []string{"line 5: game.round is read-only"}},
		{"assigning the winner after reading it", "  local w = game.winner\n  game.winner = 1", fast, []string{"line 6: game.winner cannot be assigned"}},
		{"replacing the options", `  game.options = {}`, fast, []string{"line 5: game.options is read-only"}},
		{"a field the game does not have", `  game.score = 1`, fast, []string{`line 5: the game has no field "score" that a hook can set`}},
		{"replacing a function", `  game.move = nil`, fast, []string{"line 5: game.move is a function of the SDK"}},
		{"ending a round the ruleset cannot end", `  game.end_round(0)`, fast, []string{"line 5: game.end_round: ruleset tiny cannot end a round for house rules"}},
		{"ending with no seat", `  game.end_game(7)`, ends, []string{"line 5: game.end_game(seat): the winner must be a seat from 0 to 1, not 7"}},
		{"ending twice", "  game.end_round(0)\n  game:end_game(1)", ends, []string{"line 6: game.end_game: this hook has already ended the round"}},
		{"flooding events", `  for i = 1, 1000 do game.emit("spam") end`, fast, []string{"more than 32 events"}},
		{"a huge memory value", `  game.memory.big = string.rep("x", 100000)`, fast, []string{"game.memory.big is 100000 bytes"}},
		{"a table in memory", `  game.memory.t = {}`, fast, []string{"memory keeps only strings, numbers and booleans"}},
		{"a forced draw out of range", `  game.random("hostile_draw", 3)`, fast, []string{"forced hostile_draw draw \"9\""}},
	})
	if _, err := os.Stat("/tmp/cardhouse-pwned"); err == nil {
		t.Errorf("a script created /tmp/cardhouse-pwned")
	}
}

// TestMemoryAndPatternBombs runs alone (not parallel): the memory watchdog reads the process's
// allocations, so a bomb beside other tests' hooks could stop them too. The time budget is
// generous so that each case fails on what it tests, not on time.
func TestMemoryAndPatternBombs(t *testing.T) {
	slow := engine.New[tinyState](tiny{}, engine.WithHouseRules(houserules.New(houserules.Config{CallTimeout: 20 * time.Second})))
	runHostile(t, false, []hostileCase{
		{"memory bomb", "  local t = {}\n  for i = 1, 1e9 do t[i] = {i, i, i} end", slow, []string{"memory cap"}},
		{"concat bomb", "  local s = \"xxxxxxxx\"\n  while true do s = s .. s end", slow, []string{"memory cap"}},
		{"pathological pattern", `  string.find(string.rep("a", 100000), ".-.-.-.-.-b")`, slow, []string{"pattern too complex"}},
		{"pathological gsub", `  string.gsub(string.rep("a", 100000), "a*a*a*a*b", "")`, slow, []string{"pattern too complex"}},
	})
}

var (
	fast = tinyEngine()
	// ends is tiny with an sdk.Ender: house rules may end its game.
	ends = engine.New[tinyState](tinyEnds{}, houserules.Enable())
)

// tinyEnds is tiny whose game a house rule may end.
type tinyEnds struct{ tiny }

func (tinyEnds) End(s tinyState, req sdk.EndRequest) (tinyState, []sdk.Event, error) {
	s = s.clone()
	s.Phase, s.Winner = sdk.PhaseGameOver, req.Winner
	return s, []sdk.Event{{Name: "won", Seat: req.Winner}}, nil
}

// TestReadOnlyHooksCannotChangeTheGame: a change in a hook whose changes would be lost is an
// error (with its line where a metamethod sees it), never a silent no-op.
func TestReadOnlyHooksCannotChangeTheGame(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, body, want string }{
		{"turn", "  game.turn = 1", "line 4: before_action cannot change the game (game.turn)"},
		{"a new counter", "  game.counters.x = 1", "line 4: before_action cannot change the game (game.counters)"},
		{"a zone in place", `  table.insert(game.zones.pile, "KS")`, "line 4: before_action cannot change the game (table.insert on a zone)"},
		{"a zone assigned", `  game.zones.pile = {}`, "line 4: before_action cannot change the game (game.zones)"},
		{"a card appended", `  local p = game.zones.pile` + "\n" + `  p[#p + 1] = "KS"`, "line 5: before_action cannot change the game (game.zones)"},
		{"a card moved", `  game.move("deck", "pile", 1)`, "line 4: before_action cannot change the game (game.move)"},
		{"a card overwritten in place", `  game.zones.pile[1] = "KS"`, "before_action changed the game, which it cannot"},
		{"a counter in place", "  game.counters.penalty = 3", "before_action changed the game, which it cannot"},
		{"ending the round", "  game.end_round(0)", "line 4: game.end_round works only in after_action or an action's apply, not in before_action"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			st := start(t, ends, nil, rule(header("ro")+"function before_action(game, action)\n"+tc.body+"\nend\n"))
			_, err := ends.Act(context.Background(), &engine.ActRequest{State: st.State, Action: play(0, "5H")})
			refused(t, err, tc.want)
		})
	}
}

// TestAHouseRuleEndsTheGame: game.end_game(seat) in after_action ends the game through the
// ruleset's End, and on_round_end runs after it.
func TestAHouseRuleEndsTheGame(t *testing.T) {
	t.Parallel()
	src := header("ender") + `function after_action(game, action)
  if action.type == "play" then game.end_game(1) end
end
function on_round_end(game) game.emit("seen", {seat = game.winner, data = {phase = game.phase}}) end
`
	st := act(t, ends, start(t, ends, nil, rule(src)), play(0, "5H"))
	if st.Status.Phase != sdk.PhaseGameOver || st.Status.Winner != 1 {
		t.Fatalf("status %+v, want game_over won by seat 1", st.Status)
	}
	var names []string
	for _, ev := range st.Events {
		names = append(names, fmt.Sprintf("%s/%d", ev.Name, ev.Seat))
	}
	if diff := cmp.Diff([]string{"played/0", "turn/1", "won/1", "seen/1"}, names); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

type hostileCase struct {
	name string
	body string
	eng  engine.Engine
	want []string
}

func runHostile(t *testing.T, parallel bool, cases []hostileCase) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if parallel {
				t.Parallel()
			}
			st, err := tc.eng.NewGame(context.Background(), &engine.NewGameRequest{Seats: 2, Seed: 7, Deal: deal(),
				HouseRules: []sdk.HouseRule{rule(hostile(tc.body))}, Forced: map[string][]string{"hostile_draw": {"9"}}})
			if err != nil {
				t.Fatalf("NewGame: %v", err)
			}
			before := observe(t, tc.eng, st)
			_, err = tc.eng.Act(context.Background(), &engine.ActRequest{State: st.State, Action: play(0, "5H")})
			refused(t, err, tc.want...)
			if re, _ := sdk.AsRefusal(err); re != nil && re.Code != sdk.CodeHouseRule {
				t.Errorf("code %q, want %q", re.Code, sdk.CodeHouseRule)
			}
			// A player is told the rule failed, never the script's error.
			if re, _ := sdk.AsRefusal(err); re != nil && re.Reason != `house rule "hostile" failed; the action was not applied` {
				t.Errorf("the player's reason is %q", re.Reason)
			}
			// Nothing changed, and the same game goes on.
			if diff := cmp.Diff(before, observe(t, tc.eng, st)); diff != "" {
				t.Errorf("the game changed (-before +after):\n%s", diff)
			}
			next := act(t, tc.eng, st, sdk.Action{Seat: 0, Type: sdk.ActDraw})
			if got := observe(t, tc.eng, next)["hand_count"]; !cmp.Equal(got, []int{4, 3}) {
				t.Errorf("after a draw hand_count = %v, want [4 3]", got)
			}
		})
	}
}

func TestBrokenScriptsAreRefusedAtStart(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		src  string
		opts map[string]any
		want []string
	}{
		{"syntax error", header("broken") + "function before_action(game, action)\n  if then\nend\n", nil, []string{`house rule "broken" v3: line 4: syntax error near 'then'`}},
		{"endless top level", header("spin") + "while true do end\nfunction on_start(game) end\n", nil, []string{"ran past its time budget"}},
		{"no name", "description = \"x\"\nfunction on_start(game) end\n", nil, []string{"must set name"}},
		{"a name that is not lower-case", "name = \"Wild Eight\"\ndescription = \"x\"\nfunction on_start(game) end\n", nil, []string{`name "Wild Eight" is not a short lower-case name`}},
		{"no description", "name = \"x\"\nfunction on_start(game) end\n", nil, []string{"must set description"}},
		{"a misspelt hook", header("typo") + "function before_acton(game, action) end\n", nil, []string{"line 3: before_acton looks like a hook", "did you mean before_action?"}},
		{"a misspelt hook with no prefix clue", header("typo") + "function on_start(game) end\nfunction aftr_action(game, action)\nend\n", nil, []string{"line 4: aftr_action looks like a hook", "did you mean after_action?"}},
		{"a helper named like a hook", header("typo") + "function on_start(game) end\nfunction on_my_turn(game)\nend\n", nil, []string{"line 4: on_my_turn looks like a hook", "(hooks are on_start"}},
		{"an unclosed bracket before an end", header("paren") + "function on_start(game)\n  local x = math.max(1,\n    2\nend\n", nil, []string{"line 4: syntax error: the bracket ( opened here is never closed (a ) is missing); Lua noticed only near 'end' on line 6"}},
		{"an unclosed table", header("paren") + "function on_start(game)\n  local t = {1, 2\n  local u = 3\nend\n", nil, []string{"line 4: syntax error: the bracket { opened here is never closed"}},
		{"a bracket closed by the wrong one", header("paren") + "function on_start(game)\n  local t = {1, (2}\nend\n", nil, []string{"line 4: syntax error: the bracket ( opened here is never closed"}},
		{"an unclosed bracket at the end", header("paren") + "function on_start(game) end\nlocal t = f(1", nil, []string{"line 4: syntax error: the bracket ( opened here is never closed", "at the end of the script"}},
		{"brackets in strings and comments count for nothing", header("str") + "function on_start(game)\n  local s = \"((\" -- {[\n  if then\nend\n", nil, []string{"line 5: syntax error near 'then'"}},
		{"an anonymous function inside a call is not an open bracket", header("fn") + "function on_start(game)\n  table.sort({}, function(a, b)\n    if then end\n  end)\nend\n", nil, []string{"line 5: syntax error near 'then'"}},
		{"no hooks at all", header("idle"), nil, []string{"defines no hook"}},
		{"a hook that is not a function", header("odd") + "on_start = 5\n", nil, []string{"on_start must be a function"}},
		{"a bad option default", header("opt") + "options = {{name = \"bonus\", type = \"int\", default = 500, min = 0, max = 100}}\nfunction on_start(game) end\n", nil, []string{`option "bonus": default`, "from 0 to 100"}},
		{"a bad option value", header("opt") + "options = {{name = \"bonus\", type = \"int\", default = 5, min = 0, max = 100}}\nfunction on_start(game) end\n", map[string]any{"bonus": 101}, []string{`house rule "opt"`, "bonus", "from 0 to 100"}},
		{"an unknown option", header("opt") + "function on_start(game) end\n", map[string]any{"bogus": 1}, []string{"bogus", "no such option"}},
		{"an answer the ruleset does not ask", header("ans") + "answers = {may_stack = function() return true end}\n", nil, []string{`answers the question "may_stack", which ruleset tiny does not ask (it asks may_play)`}},
		{"an action with a ruleset's name", header("act") + "actions = {play = {label = \"x\", open = function() end, apply = function() end}}\n", nil, []string{`action "play": the name is taken`}},
		{"a failing start hook", header("bad-start") + "function on_start(game)\n  game.zones.deck = nil\nend\n", nil, []string{"on_start broke the card invariant"}},
		{"a start hook error", header("bad-start") + "function on_start(game)\n  error(\"no\")\nend\n", nil, []string{"line 4: no (in on_start)"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := rule(tc.src)
			r.Options = tc.opts
			_, err := tinyEngine().NewGame(context.Background(), &engine.NewGameRequest{Seats: 2, Seed: 1, Deal: deal(), HouseRules: []sdk.HouseRule{r}})
			refused(t, err, tc.want...)
		})
	}
}

func TestHouseRulesNeedARunner(t *testing.T) {
	t.Parallel()
	eng := engine.New[tinyState](tiny{})
	_, err := eng.NewGame(context.Background(), &engine.NewGameRequest{Seats: 2, Seed: 1,
		HouseRules: []sdk.HouseRule{{Name: "seven-zero", Version: 1, Source: "x"}}})
	refused(t, err, `this game names house rules ("seven-zero")`, "without a house-rule runner", "houserules.Enable()")
	d, _ := eng.Describe(context.Background())
	if d.HouseRules {
		t.Errorf("Describe says house rules run on an engine without a runner")
	}
	if d, _ := tinyEngine().Describe(context.Background()); !d.HouseRules || len(d.HouseHooks) != 1 {
		t.Errorf("Describe = %+v, want house rules and the may_play question", d)
	}
}

func TestNameMustMatchTheScript(t *testing.T) {
	t.Parallel()
	_, err := tinyEngine().NewGame(context.Background(), &engine.NewGameRequest{Seats: 2, Seed: 1,
		HouseRules: []sdk.HouseRule{{Name: "seven-zero", Version: 2, Source: header("other") + "function on_start(g) end"}}})
	refused(t, err, `house rule "seven-zero" v2: the script declares the name "other"`)
}

const noHearts = `name = "no-hearts"
description = "Hearts may not be played."
function before_action(game, action)
  if action.type == "play" and cards.suit(action.cards[1]) == "H" then
    return "no hearts (house rule)"
  end
end
`

func TestBeforeActionRefuses(t *testing.T) {
	t.Parallel()
	eng := tinyEngine()
	st := start(t, eng, nil, rule(noHearts))
	_, err := eng.Act(context.Background(), &engine.ActRequest{State: st.State, Action: play(0, "5H")})
	refused(t, err, "no hearts (house rule)")
	next := act(t, eng, st, play(0, "KS"))
	if got := observe(t, eng, next)["top"]; got != "KS" {
		t.Errorf("top = %v, want KS", got)
	}
	// A bot whose first choice a house rule refuses takes another action the view offers.
	ans, err := eng.Bot(context.Background(), &engine.BotCall{State: st.State, Seat: 0, Level: 1, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if a := ans.Action; a == nil || (a.Type == sdk.ActPlay && a.Cards[0].Suit() == sdk.Hearts) {
		t.Errorf("bot chose %+v, which the house rule refuses", a)
	}
}

const kingsPenalty = `name = "kings-penalty"
description = "A King makes the next player draw more; every play is counted."
options = {{name = "cards", type = "int", default = 2, min = 1, max = 5, label = "Cards to draw"}}
function after_action(game, action)
  if action.type ~= "play" then return end
  game.memory.plays = (game.memory.plays or 0) + 1
  game.emit("counted", {data = {plays = tostring(game.memory.plays)}})
  if cards.face(action.cards[1]) == "K" then
    game.counters.penalty = game.counters.penalty + game.options.cards
    game.emit("king_penalty", {seat = game.turn, count = game.options.cards})
  end
end
`

func TestAfterActionChangesTheTable(t *testing.T) {
	t.Parallel()
	eng := tinyEngine()
	st := start(t, eng, nil, sdk.HouseRule{Name: "kings-penalty", Version: 1, Source: kingsPenalty, Options: map[string]any{"cards": 3}})
	st = act(t, eng, st, play(0, "KS"))
	want := []sdk.Event{
		{Name: "played", Seat: 0, Cards: sdk.MustParseCards("KS")},
		{Name: "turn", Seat: 1},
		{Name: "counted", Seat: 0, Data: map[string]string{"plays": "1"}},
		{Name: "king_penalty", Seat: 1, Count: 3},
	}
	if diff := cmp.Diff(want, st.Events); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if got := observe(t, eng, st)["penalty"]; got != 3 {
		t.Errorf("penalty = %v, want 3", got)
	}
	st = act(t, eng, st, sdk.Action{Seat: 1, Type: sdk.ActDraw})
	if got := observe(t, eng, st)["hand_count"]; !cmp.Equal(got, []int{2, 6}) {
		t.Errorf("hand_count = %v, want [2 6]", got)
	}
	// The count is kept in the stored state between actions.
	st = act(t, eng, st, sdk.Action{Seat: 0, Type: sdk.ActDraw})
	st = act(t, eng, st, play(1, "7S"))
	if diff := cmp.Diff(map[string]string{"plays": "2"}, st.Events[len(st.Events)-1].Data); diff != "" {
		t.Errorf("second play's count (-want +got):\n%s", diff)
	}
}

// TestRulesetRefusalsPassHouseRules: an action the ruleset refuses is refused as it is without
// house rules (its code and reason, no house-rule fault), not as a house rule's failure.
func TestRulesetRefusalsPassHouseRules(t *testing.T) {
	t.Parallel()
	quiet := rule(header("quiet") + "function after_action(game, action) end\n")
	cases := []struct {
		name string
		a    sdk.Action
	}{
		{"an illegal card", play(0, "9H")},
		{"out of turn", play(1, "5C")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got [2]*sdk.RuleError
			for i, rules := range [][]sdk.HouseRule{nil, {quiet}} {
				eng := tinyEngine()
				st := start(t, eng, nil, rules...)
				_, err := eng.Act(context.Background(), &engine.ActRequest{State: st.State, Action: tc.a})
				re, ok := sdk.AsRefusal(err)
				if !ok {
					t.Fatalf("house rules %d: want a refusal, got %v", len(rules), err)
				}
				got[i] = re
			}
			if diff := cmp.Diff(got[0], got[1]); diff != "" {
				t.Errorf("refusal with a house rule differs from without (-without +with):\n%s", diff)
			}
		})
	}
}
