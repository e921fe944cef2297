package admin_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardhouse/platform/room"
	"cardhouse/platform/store"
	"cardhouse/sdk/engine"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// viewport sizes the page: a desktop (1280x800) or a phone (390x844).
func (b *browse) viewport(w, h int64, phone bool) {
	b.t.Helper()
	opts := []chromedp.EmulateViewportOption{}
	if phone {
		opts = append(opts, chromedp.EmulateScale(2), chromedp.EmulateMobile)
	}
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(w, h, opts...)); err != nil {
		b.t.Fatalf("viewport %dx%d: %v", w, h, err)
	}
}

// tap presses sel as a person does: it waits until the element is shown, scrolls it into view,
// checks that nothing covers its centre (document.elementFromPoint), then moves the mouse there,
// presses and releases the left button, and waits for the click to land on it (or for the page
// it opened).
func (b *browse) tap(sel string) {
	b.t.Helper()
	b.wait(fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e || e.disabled) return false; const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; })()`, sel))
	type point struct{ X, Y float64 }
	var p point
	b.wait(fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.scrollIntoView({block: "center", inline: "center"});
		const r = e.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2, hit = document.elementFromPoint(x, y);
		if (!hit || (hit !== e && !e.contains(hit) && !(e.labels && [...e.labels].some(l => l.contains(hit))))) return false;
		window.__tapped = false; e.addEventListener("click", () => { window.__tapped = true; }, {once: true, capture: true});
		window.__aim = {X: x, Y: y}; return true; })()`, sel))
	p = eval[point](b, `window.__aim`)
	c, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(c, chromedp.MouseEvent(chromedp.MouseMoved, p.X, p.Y), chromedp.MouseClickXY(p.X, p.Y)); err != nil {
		b.t.Fatalf("tapping %s: %v", sel, err)
	}
	b.wait(`window.__tapped !== false`) // undefined once a new page has loaded
}

// typeInto taps the field sel, selects what it holds and types text over it, as a keyboard does.
func (b *browse) typeInto(sel, text string) {
	b.t.Helper()
	b.tap(sel)
	eval[bool](b, fmt.Sprintf(`(document.querySelector(%q).select(), true)`, sel))
	if _, err := chromedp.Call(b.ctx, input.InsertText, input.InsertTextParams{Text: text}); err != nil {
		b.t.Fatalf("typing into %s: %v", sel, err)
	}
}

// signIn signs in as root on the login page, typing and tapping as a person does, and waits for
// the dashboard.
func (b *browse) signIn() {
	b.t.Helper()
	b.open("/admin/login")
	b.typeInto(`#login input[name="username"]`, "root")
	b.typeInto(`#login input[name="password"]`, password)
	b.tap(`#login button[type="submit"]`)
	b.wait(`location.pathname === "/admin" && document.body.dataset.ready === "1"`)
}

// TestLiveProblemsInChromium drives issue 23's admin pages in Chromium with real pointer clicks,
// at 1280x800 and 390x844, screenshots to $CARDHOUSE_CI_OUT/admin:
//   - a house rule failing on a bot's only move does not freeze its game: the bot falls back, the
//     rule is suspended after 3 failures, the game goes on; the dashboard and the problems view
//     count the failures, with the room;
//   - the admin steps through that game's replay to the suspension;
//   - the admin finds a stuck game in the problems view and closes its room;
//   - the live room list sorts, refreshes itself and closes the stale rooms in bulk.
func TestLiveProblemsInChromium(t *testing.T) {
	ctx := newBrowser(t)
	e := newEnv(t, "sqlite")
	root := e.admin("Root")
	alice, carol, dave, erin := e.register("Alice"), e.register("Carol"), e.register("Dave"), e.register("Erin")
	bg := context.Background()

	// Alice's computer room: the shaky rule on (it fails on line 9 on every draw of seat 1, see
	// the file), the bot in seat 1.
	shaky, err := os.ReadFile(filepath.Join("..", "plugins", "houserules", "testdata", "shaky.lua"))
	if err != nil {
		t.Fatal(err)
	}
	alice.must("POST", "/api/house-rules", map[string]any{"source": string(shaky), "rulesets": []string{"hotspot"}}, nil)
	sc, err := e.st.HouseRuleByName(bg, "shaky")
	if err != nil {
		t.Fatal(err)
	}
	v, err := e.st.HouseRuleVersionByNumber(bg, sc.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.st.ApproveHouseRuleVersion(bg, v.ID, root.id, "reviewed"); err != nil {
		t.Fatal(err)
	}
	bot := alice.createRoom(map[string]any{"ruleset": "hotspot", "mode": "computer", "seats": 2, "bots": []int{1},
		"house_rules": []map[string]any{{"name": "shaky", "options": map[string]any{"break_bot": 1}}}})
	alice.connect(bot.Code) // a game with every human gone pauses
	alice.must("POST", "/api/rooms/"+bot.Code+"/deal", nil, nil)
	var suspendedAt int
	for deadline := time.Now().Add(waitFor); suspendedAt == 0; {
		if time.Now().After(deadline) {
			t.Fatalf("the bot's game did not get past the failing rule: %+v", alice.roomInfo(bot.Code).Game)
		}
		fs, err := e.st.HouseRuleFailures(bg, store.HouseRuleFailureQuery{Rule: "shaky"})
		if err != nil {
			t.Fatal(err)
		}
		g := alice.roomInfo(bot.Code).Game
		if len(fs) == room.DefaultSuspendAfter && fs[0].Suspended && g.Seq > fs[0].Seq {
			suspendedAt = fs[0].Seq // the suspension is action Seq; the bot moved after it
			break
		}
		if g.Turn == 0 && len(fs) < room.DefaultSuspendAfter {
			if st, _ := alice.raw("POST", "/api/rooms/"+bot.Code+"/act", map[string]any{"action": map[string]any{"type": "draw"}}); st != 200 {
				alice.raw("POST", "/api/rooms/"+bot.Code+"/act", map[string]any{"action": map[string]any{"type": "pass"}})
			}
		}
		time.Sleep(20 * time.Millisecond) // polling the stored failures: the bot moves on its own
	}

	// Carol's online game nobody moves in (stuck); Erin's room with no game and nobody in it (stale).
	stuck := carol.createRoom(map[string]any{"ruleset": "hotspot", "seats": 2})
	dave.must("POST", "/api/rooms/"+stuck.Code+"/join", nil, nil)
	carol.connect(stuck.Code)
	dave.connect(stuck.Code)
	carol.must("POST", "/api/rooms/"+stuck.Code+"/deal", nil, nil)
	stale := erin.createRoom(map[string]any{"ruleset": "hotspot", "seats": 2})
	e.skew.Store(int64(time.Hour)) // an hour later, as far as the admin area can tell

	b := &browse{t: t, ctx: ctx, e: e}
	b.viewport(1280, 800, false)
	b.signIn()
	if got := b.text("#dash-houserule"); got != "3" {
		t.Errorf("dashboard: %q house-rule failures, want 3", got)
	}
	if got := b.text("#dash-stuck"); got == "0" || got == "" {
		t.Errorf("dashboard: %q stuck games, want some", got)
	}
	b.shot("live-dashboard-1280")

	// The problems view: the failing rule with its count and rooms, the stuck game.
	b.tap(`header nav a[href="/admin/problems"]`)
	b.wait(`location.pathname === "/admin/problems" && document.body.dataset.ready === "1"`)
	if got := b.text("#houserule-failures tbody"); !strings.Contains(got, "shaky") || b.text("#houserule-failures td.failures") != "3" {
		t.Errorf("house-rule failures table: %q", got)
	}
	if got := b.text("#failures tbody"); strings.Count(got, bot.Code) != 3 || !strings.Contains(got, "line 9") || !strings.Contains(got, "suspended") {
		t.Errorf("newest failures: %q", got)
	}
	if got := b.text("#stuck-" + stuck.Code); !strings.Contains(got, "60 min") && !strings.Contains(got, "59 min") {
		t.Errorf("the stuck game's row: %q", got)
	}
	b.shot("live-problems-1280")

	// Close the stuck room from its row.
	b.typeInto("#stuck-"+stuck.Code+` input[name="reason"]`, "nobody has moved for an hour")
	b.tap("#stuck-" + stuck.Code + ` button[type="submit"]`)
	b.wait(fmt.Sprintf(`document.body.dataset.ready === "1" && !document.querySelector("#stuck-%s")`, stuck.Code))
	if sr, err := e.st.RoomByCode(bg, stuck.Code); err != nil || sr.Status != store.RoomClosed {
		t.Errorf("room %s after closing from the problems view: %+v, %v", stuck.Code, sr, err)
	}
	b.shot("live-problems-closed-1280")

	// From a failure to its room, to the game's replay, stepped to the suspension.
	b.tap(fmt.Sprintf(`#failures a[href^="/admin/rooms/%s"]`, bot.Code))
	b.wait(`location.pathname === "/admin/rooms/` + bot.Code + `" && document.body.dataset.ready === "1"`)
	b.tap(`a.replay[href="/admin/rooms/` + bot.Code + `/games/1/replay"]`)
	b.wait(`document.querySelector("#replay") && document.querySelector("#replay").dataset.ready === "1"`)
	if got := b.text("#replay-rules"); got != "shaky v1" {
		t.Errorf("the replay's house rules: %q", got)
	}
	if got := b.text("#replay-matches"); !strings.Contains(got, "byte for byte") {
		t.Errorf("the replay does not rebuild the stored game: %q", got)
	}
	b.tap("#next")
	b.wait(`document.querySelector("#replay").dataset.step === "1"`)
	for i := 2; i <= suspendedAt; i++ {
		b.tap("#next")
		b.wait(fmt.Sprintf(`document.querySelector("#replay").dataset.step === "%d"`, i))
	}
	if got := b.text("#step-action"); !strings.Contains(got, engine.ActSuspendHouseRule) || !strings.Contains(got, "the host") ||
		!eval[bool](b, `document.querySelector("#step-action").classList.contains("suspend")`) {
		t.Errorf("step %d: %q, want the suspension", suspendedAt, got)
	}
	if got := b.text("#step-status"); !strings.Contains(got, engine.EventHouseRuleSuspended) {
		t.Errorf("step %d status: %q, want the suspension's event", suspendedAt, got)
	}
	if zones := eval[int](b, `document.querySelectorAll("#table .zone").length`); zones < 2 {
		t.Errorf("the spectator's table shows %d boxes", zones)
	}
	b.shot("live-replay-suspension-1280")
	b.tap("#last")
	b.wait(`document.querySelector("#replay").dataset.step === document.querySelector("#step").max`)

	// The live room list: sorts by a column, refreshes itself, closes the stale rooms at once.
	b.open("/admin/rooms?status=open")
	b.wait(`document.querySelector("#rooms").dataset.ready === "1"`)
	b.tap(`#rooms th:nth-child(2)`)
	b.wait(`document.querySelector("#rooms").dataset.sorted === "1:ascending"`)
	codes := eval[[]string](b, `[...document.querySelectorAll("#rooms tbody tr")].map(r => r.dataset.code)`)
	for i := 1; i < len(codes); i++ {
		if codes[i-1] > codes[i] {
			t.Errorf("sorted by code: %v", codes)
		}
	}
	b.wait(`Number(document.querySelector("#rooms").dataset.refreshes || 0) >= 1`)
	if !eval[bool](b, fmt.Sprintf(`document.querySelector("#room-%s").classList.contains("stale")`, stale.Code)) {
		t.Errorf("room %s (no game, nobody in it for an hour) is not marked stale", stale.Code)
	}
	if eval[bool](b, fmt.Sprintf(`document.querySelector("#room-%s").classList.contains("stale")`, bot.Code)) {
		t.Errorf("room %s (Alice is in it) is marked stale", bot.Code)
	}
	b.shot("live-rooms-1280")
	b.tap("#select-stale")
	b.typeInto(`#bulk-close input[name="reason"]`, "stale")
	// Closing asks first, naming the rooms: Cancel closes nothing.
	b.tap(`#bulk-close button[type="submit"]`)
	b.wait(`!!document.querySelector("dialog#confirm[open]")`)
	if got := b.text("dialog#confirm p"); !strings.Contains(got, stale.Code) {
		t.Errorf("the bulk close's confirmation %q does not name room %s", got, stale.Code)
	}
	b.tap("#confirm [data-answer=cancel]")
	b.wait(`document.querySelector("#bulk-close output").textContent === "cancelled"`)
	if sr, err := e.st.RoomByCode(bg, stale.Code); err != nil || sr.Status == store.RoomClosed {
		t.Errorf("room %s after a cancelled bulk close: %+v, %v", stale.Code, sr, err)
	}
	b.tap(`#bulk-close button[type="submit"]`)
	b.wait(`!!document.querySelector("dialog#confirm[open]")`)
	b.shot("live-rooms-confirm-1280")
	b.tap("#confirm [data-answer=confirm]")
	b.wait(`document.querySelector("#bulk-close output").textContent.startsWith("closed")`)
	if got := b.text("#bulk-close output"); !strings.Contains(got, stale.Code) || strings.Contains(got, bot.Code) {
		t.Errorf("bulk close: %q", got)
	}
	if sr, err := e.st.RoomByCode(bg, stale.Code); err != nil || sr.Status != store.RoomClosed {
		t.Errorf("room %s after the bulk close: %+v, %v", stale.Code, sr, err)
	}
	b.shot("live-rooms-closed-1280")

	// The same pages on a phone.
	b.viewport(390, 844, true)
	b.open("/admin/problems")
	b.shot("live-problems-390")
	b.open("/admin/rooms/" + bot.Code + "/games/1/replay")
	b.wait(`document.querySelector("#replay").dataset.ready === "1"`)
	b.tap("#next")
	b.wait(`document.querySelector("#replay").dataset.step === "1"`)
	b.shot("live-replay-390")
	b.open("/admin/rooms?status=open")
	b.wait(`document.querySelector("#rooms").dataset.ready === "1"`)
	b.shot("live-rooms-390")
}
