package server_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"
	"time"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/plugin"

	"github.com/google/go-cmp/cmp"
)

// canonicalJSON is v decoded and encoded again (members sorted).
func canonicalJSON(t *testing.T, v []byte) string {
	t.Helper()
	var x any
	if err := json.Unmarshal(v, &x); err != nil {
		t.Fatalf("not JSON: %v: %s", err, v)
	}
	b, _ := json.Marshal(x)
	return string(b)
}

// playFirst picks a card to play when one is on offer (so that the game ends; with a colour when
// it needs one), else what
// chooseAny picks.
func playFirst(v sdk.View) *sdk.Action {
	p, ok := v.Action(sdk.ActPlay)
	if !ok || len(p.Cards) == 0 {
		return chooseAny(v)
	}
	a := &sdk.Action{Type: sdk.ActPlay, From: p.From, Cards: p.Cards[:1]}
	if slices.Contains(p.ChoiceFor, p.Cards[0]) && len(p.Choices) > 0 {
		if p.Cards[0].IsFrench() {
			a.Suit = p.Choices[0]
		} else {
			a.Color = p.Choices[0]
		}
	}
	return a
}

// TestProtocolV2 plays Last Card through its real plugin process with connections that speak
// protocol v2 (two players and a spectator) beside connections of the same users that speak v1.
// After every action the views the v2 connections rebuilt from patches equal the full views the
// v1 connections received; the v1 connections never see a patch; a lost patch is noticed (its
// successor's base is not the seq held), answered with a resync and a full view, and patches go on
// from there; at the end each rebuilt view equals the full view a resync sends.
func TestProtocolV2(t *testing.T) { eachDialect(t, testProtocolV2) }

func testProtocolV2(t *testing.T, dialect string) {
	if cardhouseBin == "" {
		t.Skipf("the cardhouse binary does not build: %s", cardhouseBuildErr)
	}
	p := plugin.NewProcess(plugin.Spec{Path: cardhouseBin, Args: []string{"plugin", "serve", "lastcard"}}, plugin.Config{})
	t.Cleanup(func() { p.Close() })
	e := newEnv(t, dialect, map[string]engine.Engine{"lastcard": p})
	alice, bob, carol := e.register("Alice"), e.guest("Bob"), e.guest("Carol")
	info := alice.createRoom(map[string]any{"ruleset": "lastcard", "seats": 2})
	bob.must("POST", "/api/rooms/"+info.Code+"/join", nil, nil)
	carol.must("POST", "/api/rooms/"+info.Code+"/join", map[string]any{"spectate": true}, nil)

	// Asking for a version the server does not speak is refused before the upgrade.
	if _, resp, err := alice.dialQuery(info.Code, "?v=3"); err == nil || resp == nil || resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("?v=3: %v (response %v), want 400 bad_version", err, resp)
	}

	a2, b2, c2 := alice.connectV2(info.Code), bob.connectV2(info.Code), carol.connectV2(info.Code)
	a1, c1 := alice.connect(info.Code), carol.connect(info.Code)
	for _, c := range []*conn{a2, a1} {
		c.onView = func(seat int, v sdk.View) { ownHandOnly(t, 0, v) }
	}
	b2.onView = func(seat int, v sdk.View) { ownHandOnly(t, 1, v) }
	for _, c := range []*conn{c2, c1} {
		c.onView = func(_ int, v sdk.View) { noHandCards(t, c.u.name, v) }
	}
	alice.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)
	all := []*conn{a2, b2, c2, a1, c1}
	syncAll := func() {
		for _, c := range all {
			c.sync()
		}
		c2.sync() // the answer to a resync c2 sent while reading comes after its pong
	}
	syncAll()

	acted, lost := 0, false
	for step := 0; step < 400; step++ {
		if a2.lastSeq != a1.lastSeq || !cmp.Equal(a2.last, a1.last) {
			t.Fatalf("after %d actions: alice's rebuilt view (seq %d) differs from her full view (seq %d):\n%s", acted, a2.lastSeq, a1.lastSeq, cmp.Diff(a1.last, a2.last))
		}
		if (!lost || c2.gaps > 0) && (c2.lastSeq != c1.lastSeq || !cmp.Equal(c2.last, c1.last)) {
			t.Fatalf("after %d actions: the spectator's rebuilt view differs from the full one:\n%s", acted, cmp.Diff(c1.last, c2.last))
		}
		if a2.last.Phase == sdk.PhaseGameOver {
			break
		}
		if a2.last.Phase == sdk.PhaseRoundOver {
			alice.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)
			syncAll()
			continue
		}
		if acted == 6 && !lost {
			c2.dropNext, lost = true, true // carol's connection loses the next patch
		}
		var c *conn
		var a *sdk.Action
		for _, pc := range []*conn{a2, b2} {
			if a = playFirst(*pc.last); a != nil {
				c = pc
				break
			}
		}
		if c == nil {
			e.clock.Advance(6 * time.Second) // a deadline (a LAST CARD window) falls due
			syncAll()
			continue
		}
		c.send(map[string]any{"type": "act", "id": "a", "action": a})
		for {
			m := c.next()
			if typ := str(m["type"]); typ == "accepted" {
				acted++
				break
			} else if typ == "error" {
				t.Fatalf("%s: %s refused: %s", c.u.name, a.Type, m["reason"])
			}
		}
		syncAll()
	}
	if acted < 10 {
		t.Fatalf("only %d actions played", acted)
	}
	if c2.gaps != 1 {
		t.Errorf("carol's connection saw %d gaps, want 1 (the patch it lost)", c2.gaps)
	}
	for _, c := range []*conn{a2, b2, c2} {
		if c.patches < acted/2 {
			t.Errorf("%s's v2 connection received %d patches for %d actions", c.u.name, c.patches, acted)
		}
		if c.patchBytes*4 > c.patches*1700 {
			t.Errorf("%s's patches average %d bytes, not much less than a view", c.u.name, c.patchBytes/c.patches)
		}
		t.Logf("%s: %d patches (%d bytes of patch each), %d full views, for %d actions", c.u.name, c.patches, c.patchBytes/max(1, c.patches), c.fulls, acted)
	}
	if c2.fulls < 2 { // the deal's and the resync's
		t.Errorf("carol's connection received %d full views, want one after the resync", c2.fulls)
	}
	// A fresh full view equals every rebuilt one.
	for _, c := range []*conn{a2, b2, c2} {
		seat := 0
		for s := range c.held {
			seat = s
		}
		rebuilt := c.held[seat]
		c.send(map[string]any{"type": "resync"})
		m := c.expect("view")
		if num(m["seat"]) != seat || num(m["seq"]) != c.heldSeq[seat] {
			t.Fatalf("%s: resync sent seat %d seq %d, want seat %d seq %d", c.u.name, num(m["seat"]), num(m["seq"]), seat, c.heldSeq[seat])
		}
		if got, want := canonicalJSON(t, rebuilt), canonicalJSON(t, m["view"]); got != want {
			t.Fatalf("%s: the rebuilt view differs from a fresh full view\n got %s\nwant %s", c.u.name, got, want)
		}
	}
	// A resync from a v1 connection is a full view too; a v2 message on a v1 connection is refused.
	a1.send(map[string]any{"type": "resync"})
	a1.expect("view")
	a1.sendRaw([]byte(`{"v":2,"type":"ping","id":"p"}`))
	if m := a1.expect("error"); str(m["code"]) != "bad_version" {
		t.Fatalf("v 2 on a v1 connection: %v", m)
	}
	a2.sendRaw([]byte(`{"v":2,"type":"resync","id":"r","extra":1}`))
	if m := a2.expect("error"); str(m["code"]) != "bad_json" {
		t.Fatalf("a resync with an unknown field: %v", m)
	}
}
