package server_test

import (
	"net/http"
	"strings"
	"testing"

	"cardhouse/rulesets/hotspot"
	"cardhouse/sdk/engine"
)

// TestRefusalCarriesItsRuling: a refusal a ruling states (Hotspot's LAST CARD with more than one
// card, H-10) reaches the client with the ruling's id in its own field, over HTTP (act and check)
// and the WebSocket (act and check), and a reason in player words only: no client parses ids out.
func TestRefusalCarriesItsRuling(t *testing.T) {
	e := newEnv(t, "sqlite", map[string]engine.Engine{hotspot.ID: engine.New(hotspot.New())})
	alice, bob := e.register("Alice"), e.guest("Bob")
	info := alice.createRoom(map[string]any{"ruleset": hotspot.ID, "seats": 2})
	bob.must("POST", "/api/rooms/"+info.Code+"/join", nil, nil)
	ca := alice.connect(info.Code)
	alice.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)
	ca.latestView()
	call := map[string]any{"action": map[string]any{"type": "call"}}
	words := func(how, code, reason, ruling string) {
		t.Helper()
		if code != hotspot.CodeNotLastCard || ruling != "H-10" || reason == "" || strings.Contains(reason, "H-10") {
			t.Errorf("%s: code %q, reason %q, ruling %q; want %s, a reason without the id, and ruling H-10", how, code, reason, ruling, hotspot.CodeNotLastCard)
		}
	}

	var refused struct {
		Error struct {
			Code   string `json:"code"`
			Reason string `json:"reason"`
			Ruling string `json:"ruling"`
		} `json:"error"`
	}
	if st := alice.call("POST", "/api/rooms/"+info.Code+"/act", call, &refused); st != http.StatusConflict {
		t.Fatalf("act over HTTP: %d, want 409", st)
	}
	words("act over HTTP", refused.Error.Code, refused.Error.Reason, refused.Error.Ruling)

	var checked struct {
		OK     bool   `json:"ok"`
		Code   string `json:"code"`
		Reason string `json:"reason"`
		Ruling string `json:"ruling"`
	}
	alice.must("POST", "/api/rooms/"+info.Code+"/check", call, &checked)
	words("check over HTTP", checked.Code, checked.Reason, checked.Ruling)

	ca.send(map[string]any{"type": "act", "id": "a1", "action": call["action"]})
	m := ca.expect("error")
	words("act over the WebSocket", str(m["code"]), str(m["reason"]), str(m["ruling"]))
	ca.send(map[string]any{"type": "check", "id": "c1", "action": call["action"]})
	m = ca.expect("check")
	words("check over the WebSocket", str(m["code"]), str(m["reason"]), str(m["ruling"]))
}
