package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// Layouts the house rules strain: the room panel of a host whose room has house rules, where the
// rules, the host's tools and the rule output share one column (a phone's room sheet, a desktop's
// side panel) and none may push another's buttons out of reach; and the top bar of the house-rules
// page on a phone, where the user's name must stay readable.

// firstMove is a house rule that ends a Hotspot game at its first move (that seat winning) and
// prints what it does, so the owner's "Rule output" shows after one move. Its bool option declares
// no label: the room form and panel show its key humanised.
const firstMove = `-- First move: whoever moves first wins at once.
name = "first-move"
description = "Whoever moves first wins the game at once: a quick way to try a table."
options = {
  {name = "bonus", type = "int", default = 0, min = 0, max = 9, label = "Bonus points", description = "Points for the winner."},
  {name = "double_up", type = "bool", default = false},
}

function on_start(game)
  print("first move: the first move wins")
end

function after_action(game, action)
  if game.phase == "playing" then
    print("seat " .. action.seat .. " moved first and wins")
    game.end_game(action.seat)
  end
end
`

// quietRule is a house rule that changes nothing, with a long description and options: one more
// rule in force, as tall as a real one.
func quietRule(n int) string {
	return fmt.Sprintf(`name = "quiet-%d"
description = "Rule %d of the table: players keep their voices down, and a long description like this one wraps over several lines of the room panel."
options = {
  {name = "volume", type = "int", default = 2, min = 0, max = 9, label = "Volume"},
  {name = "mode", type = "choice", default = "soft", choices = {"soft", "hushed"}, label = "Mode"},
}

function after_action(game, action)
end
`, n, n)
}

// apiModder registers an account called handle over the API and uploads each source as a house
// rule for Hotspot (its owner may use them at once, pending review).
func apiModder(t *testing.T, base, handle string, sources ...string) *apiUser {
	t.Helper()
	u := apiSignIn(t, base, "/api/register", map[string]string{"username": handle, "password": "correct horse battery", "display_name": "Mo"})
	for _, src := range sources {
		u.do("POST", "/api/house-rules", map[string]any{"source": src, "rulesets": []string{"hotspot"}}, nil)
	}
	return u
}

// logIn opens the site and logs in as handle (made by apiModder), typing and tapping.
func logIn(t *testing.T, ctx context.Context, base, handle string) {
	t.Helper()
	run(t, ctx, chromedp.Navigate(base+"/"))
	tap(t, ctx, `#entry [data-mode=login]`)
	typeText(t, ctx, `#entry input[name=username]`, handle)
	typeText(t, ctx, `#entry input[name=password]`, "correct horse battery")
	tap(t, ctx, `#enter`)
	waitJS(t, ctx, `!!document.querySelector(".variants [data-create]")`)
}

// wholly says why the element sel is not wholly shown and reachable where it is (no scrolling):
// "" when it lies inside the screen and inside every box around it that clips, and a pointer at
// its centre and near each of its corners reaches it.
func wholly(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	return evalJS[string](t, ctx, fmt.Sprintf(`((sel) => {
		const e = document.querySelector(sel);
		if (!e) return "not on the page";
		const r = e.getBoundingClientRect();
		if (!r.width || !r.height) return "not shown";
		const where = (b) => Math.round(b.left) + "," + Math.round(b.top) + " " + Math.round(b.right - b.left) + "x" + Math.round(b.bottom - b.top);
		let clip = { left: 0, top: 0, right: innerWidth, bottom: innerHeight }, by = "the screen";
		const cut = () => r.left < clip.left - 0.5 || r.top < clip.top - 0.5 || r.right > clip.right + 0.5 || r.bottom > clip.bottom + 0.5;
		for (let p = e.parentElement; p && p !== document.documentElement; p = p.parentElement) {
			const s = getComputedStyle(p);
			if (s.overflowX === "visible" && s.overflowY === "visible") continue;
			const q = p.getBoundingClientRect();
			const inner = { left: q.left + p.clientLeft, top: q.top + p.clientTop, right: q.left + p.clientLeft + p.clientWidth, bottom: q.top + p.clientTop + p.clientHeight };
			clip = { left: Math.max(clip.left, inner.left), top: Math.max(clip.top, inner.top), right: Math.min(clip.right, inner.right), bottom: Math.min(clip.bottom, inner.bottom) };
			if (cut()) { by = p.tagName.toLowerCase() + (p.className ? "." + String(p.className).trim().split(/\s+/).join(".") : ""); break; }
		}
		if (cut()) return "cut off by " + by + ": " + where(r) + " shown in " + where(clip);
		// Near each corner, clear of a rounded border (which the hit test follows).
		const dx = Math.min(10, r.width / 4), dy = r.height / 4;
		for (const [x, y] of [[(r.left + r.right) / 2, (r.top + r.bottom) / 2], [r.left + dx, r.top + dy], [r.right - dx, r.top + dy], [r.left + dx, r.bottom - dy], [r.right - dx, r.bottom - dy]]) {
			const hit = document.elementFromPoint(x, y);
			if (!hit || !(hit === e || e.contains(hit))) return "covered at " + Math.round(x) + "," + Math.round(y) + " by " + (hit ? hit.tagName.toLowerCase() + "." + String(hit.className) : "nothing");
		}
		return "";
	})(%q)`, sel))
}

// TestHouseRulesHostPanelLayout: a host whose room has house rules, at a phone's size (the room
// sheet) and a desktop's (the side panel), with one rule and with three: on opening the panel,
// Deal and Lock are wholly on the screen and take a tap where they are (no panel scrolled), and
// Deal starts the game. The first move ends that game (first-move); then, with the owner's "Rule
// output" showing, Deal, Lock and "Add a house rule" are all wholly there too, and Add opens its
// dialog. The rule's bool option, declared without a label, reads "Double up" in the room form and
// the panel.
func TestHouseRulesHostPanelLayout(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	base, _, _ := startPlatform(t)
	b := browser(t)
	apiModder(t, base, "mo-layout", firstMove, quietRule(1), quietRule(2))
	for _, sz := range []screen{{"phone", phoneW, phoneH}, {"desktop", desktopW, desktopH}} {
		for _, rules := range [][]string{{"first-move"}, {"first-move", "quiet-1", "quiet-2"}} {
			t.Run(fmt.Sprintf("%s-%d-rules", sz.name, len(rules)), func(t *testing.T) {
				pg := newPage(t, b, sz.w, sz.h)
				snap := func(name string) { shot(t, pg, fmt.Sprintf("layout-%s-%d-%s", sz.name, len(rules), name)) }
				logIn(t, pg, base, "mo-layout")
				tap(t, pg, `[data-create=hotspot]`)
				waitJS(t, pg, `document.querySelector("#create-room")`)
				evalJS[bool](t, pg, `(() => { const f = document.querySelector("#create-room");
					f.elements.mode.value = "computer"; f.elements.mode.dispatchEvent(new Event("change"));
					f.elements.seats.value = 2; f.elements.seats.dispatchEvent(new Event("input")); return true; })()`)
				for _, r := range rules {
					tap(t, pg, fmt.Sprintf(`#create-room input[data-house-rule=%q]`, r))
				}
				if got := text(t, pg, `#create-room [data-rule="first-move"] label:has(input[name="house_rules.first-move.options.double_up"]) > span`); got != "Double up" {
					t.Errorf("the rule's bool option reads %q in the room form, want %q", got, "Double up")
				}
				tap(t, pg, `#create-room button[type=submit]`)
				waitJS(t, pg, `location.hash.startsWith("#/room/") && document.querySelector("#room-code")?.textContent`)
				waitJS(t, pg, fmt.Sprintf(`document.querySelectorAll("#room-rules li[data-rule]").length === %d`, len(rules)))
				if got := text(t, pg, `#room-rules [data-rule="first-move"] .rule-settings`); !strings.Contains(got, "Double up: off") {
					t.Errorf("the rule's settings read %q, want the bool option as %q", got, "Double up: off")
				}
				openSide := func() {
					t.Helper()
					if sz.name == "phone" && !evalJS[bool](t, pg, `document.body.classList.contains("show-side")`) {
						tap(t, pg, `.side-toggle`)
						waitJS(t, pg, `document.body.classList.contains("show-side")`)
					}
				}
				closeSide := func() {
					t.Helper()
					if sz.name == "phone" && evalJS[bool](t, pg, `document.body.classList.contains("show-side")`) {
						tap(t, pg, `.side-toggle`)
					}
				}
				reachable := func(when string, sels ...string) {
					t.Helper()
					for _, sel := range sels {
						waitJS(t, pg, fmt.Sprintf(`!!document.querySelector(%q)`, sel))
						if why := wholly(t, pg, sel); why != "" {
							t.Errorf("%s: %s is %s", when, sel, why)
						}
					}
				}
				deal, lock, add := `.side .host [data-action=deal]`, `.side .host [data-lock]`, `#add-house-rule`
				openSide()
				snap("before-deal")
				reachable("before the deal", deal, lock, add, `.side .members li:last-child`)
				// On a desktop one rule in force reads whole, its description and settings (issue 29,
				// finding 10); on a phone its list scrolls in the short sheet.
				one := []string{`#room-rules [data-rule="first-move"] .rule-description`, `#room-rules [data-rule="first-move"] .rule-settings`}
				if len(rules) == 1 && sz.name == "desktop" {
					reachable("before the deal", one...)
				}
				click(t, pg, deal)
				waitJS(t, pg, `window.cardhouse.state.room.info.game?.status === "live" || window.cardhouse.state.room?.table.view?.phase === "game_over"`)

				// The first move ends the game: the host's, when it is theirs (a draw).
				closeSide()
				waitJS(t, pg, `(() => { const v = window.cardhouse.state.room?.table.view; return v?.phase === "game_over" || (v?.phase === "playing" && v.turn === v.viewer && !window.cardhouse.state.room.table.busy && (v.actions || []).some((a) => a.type === "draw")); })()`)
				if evalJS[bool](t, pg, `window.cardhouse.state.room.table.view.phase === "playing"`) {
					click(t, pg, `.actions [data-action=draw]`)
				}
				waitJS(t, pg, `window.cardhouse.state.room.table.view.phase === "game_over" && window.cardhouse.state.room.info.game?.status !== "live"`)
				waitJS(t, pg, `[...document.querySelectorAll("#rule-log .line")].some((l) => l.textContent.includes("moved first and wins"))`)
				openSide()
				snap("rule-output")
				reachable("with the rule output", deal, lock, add)
				if len(rules) == 1 && sz.name == "desktop" {
					reachable("with the rule output", one...)
				}
				click(t, pg, add)
				waitJS(t, pg, `!!document.querySelector("#rule-dialog[open] .rule-choices :is(input, a)")`)
				click(t, pg, `#rule-dialog .btn.ghost`)
				waitJS(t, pg, `!document.querySelector("#rule-dialog")`)
				click(t, pg, deal)
				waitJS(t, pg, `(window.cardhouse.state.room.info.game?.number || 0) > 1`)
				if rec := record(t, pg); len(rec.CSP) > 0 {
					t.Errorf("content security policy violations: %q", rec.CSP)
				}
			})
		}
	}
}

// TestHouseRulesPagePhoneName: on the house-rules page at a phone's width (and in the lobby, which
// has the same top bar), the user's name beside their avatar reads as a name: a short one whole, a
// long one at least its first eight letters before the ellipsis. On a desktop both show whole.
func TestHouseRulesPagePhoneName(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	eachSize(t, func(t *testing.T, base string, ctx context.Context, sz screen) {
		for _, name := range []string{"Mo Phone", "Maximiliana Featherstonehaugh"} {
			signIn(t, ctx, base, name)
			for _, where := range []string{"lobby", "house-rules"} {
				if where == "house-rules" {
					tap(t, ctx, `#house-rules-link`)
					waitJS(t, ctx, `!!document.querySelector(".rules-page")`)
				}
				// The name's shown width, its whole width, and the width of its first eight letters.
				w := evalJS[[]float64](t, ctx, `(() => { const s = document.querySelector("#your-look > span:not(.avatar)");
					const m = s.cloneNode(); m.textContent = s.textContent.slice(0, 8); m.style.cssText = "position:absolute;visibility:hidden;white-space:nowrap;overflow:visible;max-width:none";
					document.body.append(m); const eight = m.getBoundingClientRect().width; m.remove();
					return [s.clientWidth, s.scrollWidth, eight]; })()`)
				whole := w[1] <= w[0]+0.5
				switch {
				case (len(name) <= 8 || sz.name == "desktop") && !whole:
					t.Errorf("%s, %s: the name %q is cut (%.0f of %.0f px shown)", sz.name, where, name, w[0], w[1])
				case w[0]+0.5 < w[2]:
					t.Errorf("%s, %s: the name %q shows %.0f px, less than its first eight letters (%.0f px)", sz.name, where, name, w[0], w[2])
				}
				fits(t, ctx, where)
				shot(t, ctx, fmt.Sprintf("name-%s-%s-%d", where, sz.name, len(name)))
			}
			tap(t, ctx, `.topbar .me > .btn`) // log out
			waitJS(t, ctx, `!!document.querySelector("#entry")`)
		}
	})
}
