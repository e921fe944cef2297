package web_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestRestartKeepsTheTable: the server a player's table is on stops as on SIGTERM (the room sends
// its sockets a "bye" going_away and closes them with 1001) and starts again. The page stays at
// the table, reconnects and shows the player's hand again, rather than leaving for the lobby as
// it does when the player was sent away (kicked, banned): a rolling restart of a cluster's nodes,
// or a room moving to another node, must not send its players back to the lobby (issue 22).
func TestRestartKeepsTheTable(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	base, _, restart := startRestartableServer(t)
	b := browser(t)
	for _, sz := range []screen{{"phone", phoneW, phoneH}, {"desktop", desktopW, desktopH}} {
		t.Run(sz.name, func(t *testing.T) {
			ctx := newPage(t, b, sz.w, sz.h)
			countSockets(t, ctx)
			// What the server says as it stops: the byes and the close codes each socket heard.
			src := `window.__heard = []; { const W = window.WebSocket; window.WebSocket = class extends W { constructor(...a) { super(...a);
				this.addEventListener("message", (e) => { try { const m = JSON.parse(e.data); if (m.type === "bye") window.__heard.push("bye " + m.code); } catch {} });
				this.addEventListener("close", (e) => window.__heard.push("close " + e.code)); } }; }`
			if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src}); err != nil {
				t.Fatal(err)
			}
			signIn(t, ctx, base, "Kit")
			host := apiGuest(t, base, "Hugo")
			r := host.create(map[string]any{"ruleset": "hotspot", "seats": 2})
			goTo(t, ctx, base+"/#/room/"+r.Code)
			waitJS(t, ctx, `!!document.querySelector("#invite-link")`)
			host.do("POST", "/api/rooms/"+r.Code+"/deal", nil, nil)
			waitJS(t, ctx, `document.querySelectorAll('.card[data-zone="hand.1"]').length > 0`)
			cards, sockets := myCards(t, ctx), evalJS[int](t, ctx, `window.__sockets`)

			restart(func() {
				// The room has said goodbye and closed the socket: the page heard both.
				waitJS(t, ctx, `window.__heard.includes("close 1001")`)
				if heard := evalJS[string](t, ctx, `window.__heard.join(", ")`); heard != "bye going_away, close 1001" {
					t.Errorf("as the server stopped the page heard %q, want the room's bye going_away and the close 1001", heard)
				}
			})
			// Either the page opened a new socket, or it left for the lobby.
			waitJS(t, ctx, `window.__sockets > `+strconv.Itoa(sockets)+` || location.hash === "#/"`)
			if h := evalJS[string](t, ctx, `location.hash`); h != "#/room/"+r.Code {
				t.Fatalf("after the server's restart the page is at %q (notice %q), want the table #/room/%s", h, text(t, ctx, "#notice"), r.Code)
			}
			waitJS(t, ctx, `document.querySelectorAll('.card[data-zone^="hand."]').length === `+strconv.Itoa(cards))
			waitJS(t, ctx, `!document.body.textContent.includes("reconnecting")`)
			if n := evalJS[int](t, ctx, `document.querySelectorAll("#notice").length`); n != 0 {
				t.Errorf("the table shows a notice after the restart: %q", text(t, ctx, "#notice"))
			}
			if body := text(t, ctx, "body"); strings.Contains(body, "shutting down") {
				t.Errorf("the page still says the server is shutting down")
			}
			shot(t, ctx, "after-restart-"+sz.name)
		})
	}
}
