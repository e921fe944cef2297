package server_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"cardhouse/platform/room"
	"cardhouse/platform/server"
	"cardhouse/sdk/engine"
)

// tryLines posts a test game and reads its NDJSON answer: the status and the events.
func tryLines(t *testing.T, u *user, body map[string]any) (int, []map[string]any) {
	t.Helper()
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", u.e.http.URL+"/api/house-rules/try", bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(server.CSRFHeader, u.csrf)
	res, err := u.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out []map[string]any
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		out = append(out, ev)
	}
	return res.StatusCode, out
}

const tryRule = `name = "talker"
description = "Says what was played."
function after_action(game, action)
  print("played " .. action.type)
  if game.options.loud and action.type == "draw" then
    error("too loud")
  end
end
options = {{name = "loud", type = "bool", default = false, label = "Loud"}}
`

// TestTryHouseRule: the test table's game (POST /api/house-rules/try) plays the script as sent,
// nothing stored, in Hotspot's check process while the live plugin process stays the same (pid,
// launches): the answer is NDJSON, the start, then each action followed by what the rule printed
// in it, then the end; the same script with an option that makes it fail ends with a problem
// line naming line 6; a script that does not compile and a guest are refused as errors.
func TestTryHouseRule(t *testing.T) {
	live, _ := variantPlugin(t, "hotspot")
	e := newHouseEnv(t, "sqlite", map[string]engine.Engine{"hotspot": live})
	before := live.Stats()
	alice := e.register("alice")

	status, evs := tryLines(t, alice, map[string]any{"source": tryRule, "ruleset": "hotspot", "seats": 2, "seed": 3})
	if status != 200 || len(evs) < 3 {
		t.Fatalf("status %d, %d events", status, len(evs))
	}
	if evs[0]["kind"] != "start" || evs[0]["rule"] != "talker" || evs[0]["seats"] != float64(2) {
		t.Errorf("first event %v, want the start of talker at 2 seats", evs[0])
	}
	last := evs[len(evs)-1]
	if last["kind"] != "end" || last["ended"] != true {
		t.Errorf("last event %v, want the end of a game played out", last)
	}
	actions, outputs := 0, 0
	for i, ev := range evs[1 : len(evs)-1] {
		switch ev["kind"] {
		case "action":
			actions++
			if ev["seq"] != float64(actions) {
				t.Fatalf("action %d has seq %v", actions, ev["seq"])
			}
		case "output":
			outputs++
			// Each line printed follows its action: "played TYPE" of the action just before.
			prev := evs[i]
			if prev["kind"] != "action" || ev["text"] != "played "+prev["action"].(string) || ev["seq"] != prev["seq"] || ev["hook"] != "after_action" {
				t.Fatalf("output %v does not follow its action %v", ev, prev)
			}
		default:
			t.Fatalf("event %v in the middle", ev)
		}
	}
	if actions == 0 || outputs != actions || last["actions"] != float64(actions) {
		t.Errorf("%d actions, %d lines printed, the end says %v actions: want a line per action", actions, outputs, last["actions"])
	}

	status, evs = tryLines(t, alice, map[string]any{"source": tryRule, "ruleset": "hotspot", "options": map[string]any{"loud": true}})
	last = evs[len(evs)-1]
	if status != 200 || last["kind"] != "problem" {
		t.Fatalf("status %d, last event %v: want a problem at the end", status, last)
	}
	problem, _ := last["error"].(map[string]any)["problem"].(map[string]any)
	if problem == nil || problem["line"] != float64(6) || !strings.Contains(problem["message"].(string), "too loud") || problem["hook"] != "after_action" {
		t.Errorf("the problem %v: want line 6, after_action, too loud", last["error"])
	}

	var ae apiErr
	if got := alice.call("POST", "/api/house-rules/try", map[string]any{"source": "name = \"x\"\nfunction after_action(\n", "ruleset": "hotspot"}, &ae); got != 400 || ae.Error.Code != "bad_house_rule" {
		t.Errorf("a script that does not compile: %d %v", got, ae)
	}
	alice.refused("POST", "/api/house-rules/try", map[string]any{"source": tryRule, "ruleset": "hotspot", "seats": 9}, 400, "bad_seats")
	e.guest("Gus").refused("POST", "/api/house-rules/try", map[string]any{"source": tryRule, "ruleset": "hotspot"}, 403, "guest")
	var list houseListResp
	alice.must("GET", "/api/house-rules?mine=true", nil, &list)
	if len(list.HouseRules) != 0 {
		t.Errorf("a test game stored rules: %+v", list.HouseRules)
	}

	after := live.Stats()
	if after.PID != before.PID || after.Launches != before.Launches || after.Crashes != 0 {
		t.Errorf("the live plugin changed: pid %d→%d, launches %d→%d, crashes %d", before.PID, after.PID, before.Launches, after.Launches, after.Crashes)
	}
	if cs, ok := e.rooms.CheckStats("hotspot"); !ok || cs.Launches == 0 {
		t.Errorf("the test games did not run in a check process: %+v %v", cs, ok)
	}
	_ = room.TryEvent{}
}
