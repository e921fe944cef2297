package server_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"cardhouse/platform/room"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/plugin"
)

// TestDropCoverRejoinRealVariant is D-12 and P-6 with a real variant in its real plugin process
// (`cardhouse plugin serve drugs`): a guest drops mid-game, keeps the seat through the grace
// period, a bot covers it and plays for it, and rejoining with the same room code and name in
// another letter case gives the seat and its cards back. The covering bot plays on its own, so it
// may end the game just before the rejoin: the seat comes back then too, and the hands are
// compared at the same action count.
func TestDropCoverRejoinRealVariant(t *testing.T) {
	if cardhouseBin == "" {
		t.Skipf("the cardhouse binary does not build, so its variants cannot be launched: %s", cardhouseBuildErr)
	}
	p := plugin.NewProcess(plugin.Spec{Path: cardhouseBin, Args: []string{"plugin", "serve", "drugs"}}, plugin.Config{})
	t.Cleanup(func() { p.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	d, err := p.Describe(ctx)
	cancel()
	if err != nil {
		t.Fatalf("launching the DRUGS plugin: %v", err)
	}
	eachDialect(t, func(t *testing.T, dialect string) { testDropCoverRejoinReal(t, dialect, d, p) })
}

func testDropCoverRejoinReal(t *testing.T, dialect string, d *engine.Description, p *plugin.Process) {
	e := newEnv(t, dialect, map[string]engine.Engine{d.ID: p})
	alice, bob := e.register("Alice"), e.guest("Bob")
	info := alice.createRoom(map[string]any{"ruleset": d.ID, "seats": 2})
	bob.must("POST", "/api/rooms/"+info.Code+"/join", nil, nil)
	ca, cb := alice.connect(info.Code), bob.connect(info.Code)
	alice.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)
	if v := cb.latestView(); v == nil || v.Viewer != 1 {
		t.Fatalf("bob's view after the deal: %+v", v)
	}
	cb.ws.CloseNow()

	ca.waitMember("Bob", func(m room.MemberInfo) bool { return !m.Connected })
	e.clock.Advance(20 * time.Second) // P-6: the default grace period
	ca.waitMember("Bob", func(m room.MemberInfo) bool { return m.Covered })

	// Alice plays; the bot moves for Bob's seat: the turn comes back to her from seat 1 twice
	// (or the game ends first).
	returns, last, botMoved := 0, -1, false
	for step := 0; returns < 2; step++ {
		if step > 400 {
			t.Fatal("the bot covering Bob's seat does not play")
		}
		v := ca.latestView()
		if v.Phase != sdk.PhasePlaying {
			break
		}
		if last == 1 && v.Turn == 0 {
			returns++
			botMoved = true
		}
		last = v.Turn
		if v.Turn != 0 {
			ca.expect("view")
			continue
		}
		a := choosePlay(*v)
		if a == nil {
			t.Fatalf("Alice has no action: %+v", v.Actions)
		}
		ca.send(map[string]any{"type": "act", "action": a})
		ca.expect("accepted")
	}
	if !botMoved && ca.latestView().Phase == sdk.PhasePlaying {
		t.Fatal("the bot covering Bob's seat never played")
	}

	bob2 := e.guest("bOB")
	var joined struct {
		Member room.MemberInfo `json:"member"`
	}
	bob2.must("POST", "/api/rooms/"+info.Code+"/join", nil, &joined)
	if joined.Member.Seat != 1 || joined.Member.Role != "player" {
		b, _ := json.Marshal(alice.roomInfo(info.Code))
		t.Fatalf("rejoining by name in another case gave %+v, want seat 1 as a player\nroom: %s\nalice's view: %s", joined.Member, b, mustJSON(ca.latestView()))
	}
	cb2 := bob2.connect(info.Code)

	// Once Bob is back nobody moves for his seat, so both views settle on the same action count
	// (a bot move decided just before he attached may still land: sync again until they agree).
	var av, bv *sdk.View
	for try := 0; ; try++ {
		bv, av = cb2.latestView(), ca.latestView()
		if cb2.lastSeq == ca.lastSeq {
			break
		}
		if try == 20 {
			t.Fatalf("views do not settle: bob at seq %d, alice at seq %d", cb2.lastSeq, ca.lastSeq)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if bv == nil || bv.Viewer != 1 {
		t.Fatalf("bob's view after rejoining: %+v", bv)
	}
	hand, _ := bv.Zone("hand.1")
	if want := av.Players[1].HandCount; len(hand.Cards) != hand.Count || hand.Count != want {
		t.Fatalf("bob's hand after rejoining (seq %d): %d cards shown of %d, Alice sees %d\nbob: %s\nalice: %s", cb2.lastSeq, len(hand.Cards), hand.Count, want, mustJSON(bv), mustJSON(av))
	}
	if m, _ := memberNamed(alice.roomInfo(info.Code), "bOB"); m.Covered {
		t.Fatal("the seat is still covered by a bot after rejoining")
	}
}

// choosePlay prefers laying a card (the lowest-numbered playable one) over picking up or drawing,
// so games last long enough to drop out of and come back to; otherwise as chooseAny.
func choosePlay(v sdk.View) *sdk.Action {
	if spec, ok := v.Action(sdk.ActPlay); ok && len(spec.Cards) > 0 {
		return &sdk.Action{Type: sdk.ActPlay, From: spec.From, Cards: spec.Cards[:1]}
	}
	return chooseAny(v)
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
