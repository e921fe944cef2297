package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"regexp"
	"strings"
	"testing"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/coder/websocket"
)

// The browser tests of the lobby, the room's notices and banners, and the words players read
// (issue 18: items 4, 5, 7, 8, 9 and 13). A person in the browser is the player under test and
// presses with real pointer events (pointer_test.go); the others at the table (a host who locks,
// deals, kicks) are driven over the HTTP API.

// screen is a page size a test runs at.
type screen struct {
	name string
	w, h int64
}

// eachSize starts the site and a browser and runs f on a new page at a phone's size and at a
// desktop's; a page that broke the CSP (an inline style or script) fails the test.
func eachSize(t *testing.T, f func(t *testing.T, base string, ctx context.Context, sz screen)) {
	base, _ := startServer(t)
	b := browser(t)
	for _, sz := range []screen{{"phone", phoneW, phoneH}, {"desktop", 1280, 800}} {
		t.Run(sz.name, func(t *testing.T) {
			ctx := newPage(t, b, sz.w, sz.h)
			f(t, base, ctx, sz)
			if r := record(t, ctx); len(r.CSP) > 0 {
				t.Errorf("the page broke its content security policy: %q", r.CSP)
			}
		})
	}
}

// apiUser is a player driven over the HTTP API: a guest session and its CSRF token.
type apiUser struct {
	t    *testing.T
	base string
	c    *http.Client
	csrf string
	id   int64
}

func apiGuest(t *testing.T, base, name string) *apiUser {
	t.Helper()
	return apiSignIn(t, base, "/api/guest", map[string]string{"name": name})
}

// apiSignIn signs a new API user in with a POST of body to path (/api/guest, /api/register), and
// keeps its cookie, CSRF token and id.
func apiSignIn(t *testing.T, base, path string, body any) *apiUser {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	u := &apiUser{t: t, base: base, c: &http.Client{Jar: jar}}
	var a struct {
		User struct {
			ID int64 `json:"id"`
		} `json:"user"`
		CSRF string `json:"csrf_token"`
	}
	u.do("POST", path, body, &a)
	u.csrf, u.id = a.CSRF, a.User.ID
	return u
}

// send sends body as JSON with the user's session and CSRF token; the caller closes the answer.
func (u *apiUser) send(method, path string, body any) *http.Response {
	u.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, u.base+path, rd)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-CSRF-Token", u.csrf)
	resp, err := u.c.Do(req)
	if err != nil {
		u.t.Fatalf("%s %s: %v", method, path, err)
	}
	return resp
}

// do sends a JSON request and decodes the answer into out; a refusal fails the test.
func (u *apiUser) do(method, path string, body, out any) {
	u.t.Helper()
	resp := u.send(method, path, body)
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		u.t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, data)
	}
	if out != nil && len(data) > 0 {
		if err := json.Unmarshal(data, out); err != nil {
			u.t.Fatalf("%s %s: %v", method, path, err)
		}
	}
}

type apiRoom struct {
	Code    string `json:"code"`
	Members []struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
		Role string `json:"role"`
		Seat int    `json:"seat"`
	} `json:"members"`
}

func (u *apiUser) create(form map[string]any) apiRoom {
	u.t.Helper()
	var r struct {
		Room apiRoom `json:"room"`
	}
	u.do("POST", "/api/rooms", form, &r)
	return r.Room
}

func (u *apiUser) room(code string) apiRoom {
	u.t.Helper()
	var r struct {
		Room apiRoom `json:"room"`
	}
	u.do("GET", "/api/rooms/"+code, nil, &r)
	return r.Room
}

// connect opens the player's WebSocket to room code and reads it until the test ends: the player
// is at the table (a game nobody is connected to pauses, and the lobby hides it).
func (u *apiUser) connect(code string) {
	u.t.Helper()
	ws, _, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(u.base, "http")+"/api/rooms/"+code+"/ws", &websocket.DialOptions{HTTPClient: u.c})
	if err != nil {
		u.t.Fatalf("connecting to room %s: %v", code, err)
	}
	ws.SetReadLimit(1 << 22)
	go func() {
		for {
			if _, _, err := ws.Read(context.Background()); err != nil {
				return
			}
		}
	}()
	u.t.Cleanup(func() { ws.CloseNow() })
}

// member is the id of the member called name in room code.
func (u *apiUser) member(code, name string) int64 {
	u.t.Helper()
	for _, m := range u.room(code).Members {
		if m.Name == name {
			return m.ID
		}
	}
	u.t.Fatalf("room %s has no member %s", code, name)
	return 0
}

// countSockets makes the page count the WebSockets it opens (window.__sockets); while
// window.__blockSockets is true they go to an address that does not exist, as when the network
// is down.
func countSockets(t *testing.T, ctx context.Context) {
	t.Helper()
	src := `window.__sockets = 0; window.__blockSockets = false; { const W = window.WebSocket; window.WebSocket = class extends W { constructor(url, ...a) { super(window.__blockSockets ? String(url).replace(/\/ws(?=\?|$)/, "/ws-down") : url, ...a); window.__sockets++; } }; }`
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src}); err != nil {
		t.Fatal(err)
	}
}

// signIn opens the site as a new guest called name, typing and pressing as a person does, and
// waits for the lobby.
func signIn(t *testing.T, ctx context.Context, base, name string) {
	t.Helper()
	run(t, ctx, chromedp.Navigate(base+"/"))
	typeText(t, ctx, `#entry input[name=name]`, name)
	tap(t, ctx, `#enter`)
	waitJS(t, ctx, `!!document.querySelector(".variants")`)
}

func goTo(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	run(t, ctx, chromedp.Navigate(url))
}

func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	return evalJS[string](t, ctx, fmt.Sprintf(`document.querySelector(%q)?.textContent ?? ""`, sel))
}

// waitText waits until the element sel shows want.
func waitText(t *testing.T, ctx context.Context, sel, want string) {
	t.Helper()
	waitJS(t, ctx, fmt.Sprintf(`(document.querySelector(%q)?.textContent ?? "").includes(%q)`, sel, want))
}

// myCards is how many cards the page shows in the player's own hand (seat's zone).
func myCards(t *testing.T, ctx context.Context) int {
	t.Helper()
	return evalJS[int](t, ctx, `document.querySelectorAll('.card[data-zone^="hand."]').length`)
}

// TestLockedRoomSaysSo (item 4): joining a locked room by its code says the room is locked and
// opens no WebSocket, instead of "Reconnecting…" forever.
func TestLockedRoomSaysSo(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	eachSize(t, func(t *testing.T, base string, ctx context.Context, sz screen) {
		host := apiGuest(t, base, "Hana")
		r := host.create(map[string]any{"ruleset": "hotspot", "seats": 4})
		host.do("POST", "/api/rooms/"+r.Code+"/lock", map[string]any{"locked": true}, nil)
		countSockets(t, ctx)
		signIn(t, ctx, base, "Lou")
		typeText(t, ctx, `#by-code input[name=code]`, r.Code)
		tap(t, ctx, `#join-code`)
		waitJS(t, ctx, `!!document.querySelector("#join-refused")`)
		msg := text(t, ctx, `#join-refused [role=alert]`)
		if !strings.Contains(msg, "locked") || !strings.Contains(msg, r.Code) {
			t.Errorf("joining a locked room says %q, want that room %s is locked", msg, r.Code)
		}
		if n := evalJS[int](t, ctx, `window.__sockets`); n != 0 {
			t.Errorf("the page opened %d WebSockets to a room it may not enter", n)
		}
		if s := text(t, ctx, `body`); strings.Contains(s, "Reconnecting") || strings.Contains(s, "seat is kept") {
			t.Errorf("the refused join still says it reconnects: %q", s)
		}
		shot(t, ctx, "locked-room-"+sz.name)
		tap(t, ctx, `#join-refused a.btn`)
		waitJS(t, ctx, `!!document.querySelector(".variants")`)

		// Removed while the connection was down: the socket is refused when it comes back;
		// the room finds out why and says so, and stops trying.
		open := host.create(map[string]any{"ruleset": "hotspot", "seats": 4})
		goTo(t, ctx, base+"/#/room/"+open.Code)
		waitJS(t, ctx, `!!document.querySelector("#invite-link") && window.cardhouse.state.room.opened`)
		n := evalJS[int](t, ctx, `(window.__blockSockets = true, window.cardhouse.state.room.sock.ws.close(), window.__sockets)`)
		waitJS(t, ctx, fmt.Sprintf(`window.__sockets > %d && !!document.querySelector('[data-banner="reconnecting"]')`, n))
		// Locked first: the page checks its membership after every refused attempt, and must
		// find the room locked whenever it finds itself out.
		host.do("POST", "/api/rooms/"+open.Code+"/lock", map[string]any{"locked": true}, nil)
		host.do("POST", "/api/rooms/"+open.Code+"/kick", map[string]any{"member_id": host.member(open.Code, "Lou")}, nil)
		evalJS[bool](t, ctx, `(window.__blockSockets = false, true)`)
		waitText(t, ctx, `#notice`, "Room "+open.Code+" is locked")
		if h := evalJS[string](t, ctx, `location.hash`); h != "#/" {
			t.Errorf("after the refused reconnection the address is %q, want the lobby", h)
		}
		if evalJS[bool](t, ctx, `!!document.querySelector('[data-banner="reconnecting"]')`) {
			t.Error("the lobby still says it reconnects")
		}
	})
}

// TestSentAwayGoesToTheLobby (item 5): a kicked player, a declined request and a player who
// leaves with the Leave button each land in the lobby, which says what happened; nothing of the
// table stays on screen.
func TestSentAwayGoesToTheLobby(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	eachSize(t, func(t *testing.T, base string, ctx context.Context, sz screen) {
		signIn(t, ctx, base, "Kit")
		host := apiGuest(t, base, "Hugo")

		// Kicked during a game: the cards go, the lobby says the host removed you.
		r := host.create(map[string]any{"ruleset": "hotspot", "seats": 2})
		goTo(t, ctx, base+"/#/room/"+r.Code)
		waitJS(t, ctx, `!!document.querySelector("#invite-link")`)
		host.do("POST", "/api/rooms/"+r.Code+"/deal", nil, nil)
		waitJS(t, ctx, `document.querySelectorAll('.card[data-zone="hand.1"]').length > 0`)
		shot(t, ctx, "before-kick-"+sz.name)
		host.do("POST", "/api/rooms/"+r.Code+"/kick", map[string]any{"member_id": host.member(r.Code, "Kit")}, nil)
		waitText(t, ctx, `#notice`, "The host removed you from room "+r.Code)
		if n := myCards(t, ctx); n != 0 || evalJS[bool](t, ctx, `!!document.querySelector("#room")`) {
			t.Errorf("after the kick the page still shows the room (%d hand cards)", n)
		}
		if h := evalJS[string](t, ctx, `location.hash`); h != "#/" {
			t.Errorf("after the kick the address is %q, want the lobby", h)
		}
		if n := evalJS[int](t, ctx, `document.querySelectorAll(".banner").length`); n != 1 {
			t.Errorf("the lobby shows %d banners, want the one notice", n)
		}
		shot(t, ctx, "kicked-"+sz.name)

		// Declined: asked to join, the host said no.
		ra := host.create(map[string]any{"ruleset": "hotspot", "seats": 2, "approval": true})
		goTo(t, ctx, base+"/#/room/"+ra.Code)
		waitText(t, ctx, `#table`, "Waiting for the host to let you in")
		host.do("POST", fmt.Sprintf("/api/rooms/%s/requests/%d", ra.Code, host.member(ra.Code, "Kit")), map[string]any{"approve": false}, nil)
		waitText(t, ctx, `#notice`, "The host of room "+ra.Code+" did not let you in")

		// Leaving a game with the Leave button: asked first, then a bot takes the seat.
		rl := host.create(map[string]any{"ruleset": "hotspot", "seats": 2})
		goTo(t, ctx, base+"/#/room/"+rl.Code)
		waitJS(t, ctx, `!!document.querySelector("#invite-link")`)
		host.do("POST", "/api/rooms/"+rl.Code+"/deal", nil, nil)
		waitJS(t, ctx, `document.querySelectorAll('.card[data-zone="hand.1"]').length > 0`)
		tap(t, ctx, `#leave`)
		waitJS(t, ctx, `!!document.querySelector("#confirm-leave[open]")`)
		shot(t, ctx, "leave-confirm-"+sz.name)
		tap(t, ctx, `#confirm-leave [data-answer=stay]`)
		waitJS(t, ctx, `!document.querySelector("#confirm-leave")`)
		if myCards(t, ctx) == 0 {
			t.Error("staying left the table")
		}
		tap(t, ctx, `#leave`)
		tap(t, ctx, `#confirm-leave [data-answer=leave]`)
		waitText(t, ctx, `#notice`, "You left room "+rl.Code)
		if n := myCards(t, ctx); n != 0 {
			t.Errorf("after leaving, %d hand cards are on screen", n)
		}
		for _, m := range host.room(rl.Code).Members {
			if m.Name == "Kit" {
				t.Errorf("Kit is still a member after leaving: %+v", m)
			}
		}
	})
}

// TestOneBannerAtATime (item 9): watching a game every player has dropped from, then losing the
// connection, the room shows one banner at a time, the most important: never the pause and
// "you are watching" together, never "your seat is kept" to someone without a seat.
func TestOneBannerAtATime(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	eachSize(t, func(t *testing.T, base string, ctx context.Context, sz screen) {
		host, bob := apiGuest(t, base, "Hal"), apiGuest(t, base, "Bob")
		r := host.create(map[string]any{"ruleset": "hotspot", "seats": 2})
		bob.do("POST", "/api/rooms/"+r.Code+"/join", nil, nil)
		host.do("POST", "/api/rooms/"+r.Code+"/deal", nil, nil)
		signIn(t, ctx, base, "Wes")
		goTo(t, ctx, base+"/#/watch/"+r.Code)
		waitJS(t, ctx, `!!document.querySelector(".banners")`)
		// Record every banner the page shows from now on.
		evalJS[bool](t, ctx, `(() => {
				const el = document.querySelector(".banners");
				window.__banners = { most: el.children.length, seen: [...el.children].map((b) => b.dataset.banner + ": " + b.textContent) };
				new MutationObserver(() => {
					window.__banners.most = Math.max(window.__banners.most, el.children.length);
					for (const b of el.children) window.__banners.seen.push(b.dataset.banner + ": " + b.textContent);
				}).observe(el, { childList: true, subtree: true, characterData: true });
				return true;
			})()`)
		waitJS(t, ctx, `!!document.querySelector('[data-banner="paused"]')`)
		shot(t, ctx, "banner-paused-"+sz.name)
		// The connection drops: while it is down the banner says so, and only that.
		evalJS[bool](t, ctx, `(window.cardhouse.state.room.sock.ws.close(), true)`)
		waitJS(t, ctx, `window.__banners.seen.some((s) => s.startsWith("reconnecting"))`)
		waitJS(t, ctx, `!!document.querySelector('[data-banner="paused"]')`)
		type record struct {
			Most int      `json:"most"`
			Seen []string `json:"seen"`
		}
		rec := evalJS[record](t, ctx, `window.__banners`)
		if rec.Most > 1 {
			t.Errorf("%d banners at once; seen: %q", rec.Most, rec.Seen)
		}
		for _, s := range rec.Seen {
			if strings.Contains(s, "seat is kept") || strings.HasPrefix(s, "covered") || strings.HasPrefix(s, "watching") {
				t.Errorf("a spectator of a paused game was shown %q", s)
			}
		}
	})
}

// TestLobbyRoomsAndLimit (item 13): the lobby lists a waiting room and a playing one with a seat
// free, each saying so, and not a full room; its invite link copies the room's address; a
// player who already hosts the most rooms one may is told so in the New room form.
func TestLobbyRoomsAndLimit(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	eachSize(t, func(t *testing.T, base string, ctx context.Context, sz screen) {
		host, bob := apiGuest(t, base, "Ivy"), apiGuest(t, base, "Bo")
		waiting := host.create(map[string]any{"ruleset": "hotspot", "seats": 3})
		playing := host.create(map[string]any{"ruleset": "hotspot", "seats": 3})
		bob.do("POST", "/api/rooms/"+playing.Code+"/join", nil, nil)
		host.connect(playing.Code)
		host.do("POST", "/api/rooms/"+playing.Code+"/deal", nil, nil)
		full := host.create(map[string]any{"ruleset": "hotspot", "seats": 2})
		bob.do("POST", "/api/rooms/"+full.Code+"/join", nil, nil)

		// Reading the clipboard back needs the permission a person would grant.
		for _, name := range []string{"clipboard-read", "clipboard-write"} {
			if _, err := chromedp.CallBrowser(ctx, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{Permission: &cdpbrowser.PermissionDescriptor{Name: name},
				Setting: cdpbrowser.PermissionSettingGranted, Origin: base, BrowserContextID: chromedp.FromContext(ctx).BrowserContextID}); err != nil {
				t.Fatalf("granting %s: %v", name, err)
			}
		}
		signIn(t, ctx, base, "Ned")
		for code, want := range map[string]string{waiting.Code: "Waiting for players", playing.Code: "Playing"} {
			if got := text(t, ctx, fmt.Sprintf(`tr[data-room=%q] [data-room-state]`, code)); got != want {
				t.Errorf("room %s in the lobby: %q, want %q", code, got, want)
			}
		}
		if evalJS[bool](t, ctx, fmt.Sprintf(`!!document.querySelector('tr[data-room=%q]')`, full.Code)) {
			t.Errorf("the lobby lists the full room %s", full.Code)
		}
		tap(t, ctx, fmt.Sprintf(`tr[data-room=%q] [data-copy]`, waiting.Code))
		waitText(t, ctx, fmt.Sprintf(`tr[data-room=%q] [data-copy]`, waiting.Code), "Copied!")
		if got := evalJS[string](t, ctx, `navigator.clipboard.readText().catch((e) => "unreadable: " + e)`); got != base+"/#/invite/"+waiting.Code {
			t.Errorf("the copied invite link is %q, want %q", got, base+"/#/invite/"+waiting.Code)
		}
		shot(t, ctx, "lobby-"+sz.name)

		// Five rooms of one's own (the default limit), then the form says no more.
		evalJS[bool](t, ctx, `(async () => { const { api } = await import("/js/api.js"); for (let i = 0; i < 5; i++) await api("POST", "/api/rooms", { ruleset: "hotspot", seats: 2 }); return true; })()`)
		tap(t, ctx, `[data-create=hotspot]`)
		tap(t, ctx, `#create-room button[type=submit]`)
		waitText(t, ctx, `#create-room .error-text.general`, "already host 5 open rooms")
		shot(t, ctx, "room-limit-"+sz.name)
	})
}

// rulingID is a ruling's id as docs/rulings writes it (D-5).
var rulingID = regexp.MustCompile(`\b[DHLP]-\d+\b`)

// TestPlayerWords (item 8): the New room form names every choice in player words and offers
// presets; the table's settings line says the room's options the same way; the DRUGS rules page
// draws its table of special cards as a table.
func TestPlayerWords(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	eachSize(t, func(t *testing.T, base string, ctx context.Context, sz screen) {
		signIn(t, ctx, base, "Pia")
		tap(t, ctx, `[data-create=lastcard]`)
		waitJS(t, ctx, `!!document.querySelector("#create-room .presets")`)
		raw := evalJS[[]string](t, ctx, `[...document.querySelectorAll("#create-room option")].filter((o) => o.textContent === o.value || /_/.test(o.textContent)).map((o) => o.value)`)
		if len(raw) > 0 {
			t.Errorf("choices shown as their raw values: %q", raw)
		}
		if form := text(t, ctx, `#create-room`); rulingID.MatchString(form) || !strings.Contains(form, "Only without the colour in play") {
			t.Errorf("the form's words: %q", form)
		}
		tap(t, ctx, `#create-room [data-preset="2"]`) // One round
		if v := evalJS[string](t, ctx, `document.querySelector("#opt-target").value`); v != "single" {
			t.Errorf("the One round preset set target %q", v)
		}
		if p := evalJS[string](t, ctx, `document.querySelector('#create-room .preset[aria-pressed="true"] b')?.textContent ?? ""`); p != "One round" {
			t.Errorf("the preset marked chosen: %q", p)
		}
		shot(t, ctx, "new-room-form-"+sz.name)
		// The mode is a <select>: a person picks it with the keyboard or the system's list,
		// which a test cannot press; it is set as the list would set it.
		evalJS[bool](t, ctx, `(() => { const m = document.querySelector("#mode"); m.value = "computer"; m.dispatchEvent(new Event("change", { bubbles: true })); return true; })()`)
		tap(t, ctx, `#create-room button[type=submit]`)
		tap(t, ctx, `#table [data-action=deal]`)
		waitJS(t, ctx, `!!document.querySelector("#table .settings")`)
		settings := text(t, ctx, `#table .settings`)
		if !strings.Contains(settings, "One round") || strings.Contains(settings, "_") || strings.Contains(settings, "single") {
			t.Errorf("the table's settings line: %q", settings)
		}
		shot(t, ctx, "table-settings-"+sz.name)

		goTo(t, ctx, base+"/#/rules/drugs")
		waitJS(t, ctx, `!!document.querySelector("#rules")`)
		heads := evalJS[[]string](t, ctx, `[...document.querySelectorAll("#rules table.md-table th")].map((th) => th.textContent)`)
		if len(heads) < 3 || heads[0] != "card" {
			t.Errorf("the DRUGS special cards table's header: %q", heads)
		}
		if body := text(t, ctx, `#rules`); strings.Contains(body, "| ---") || strings.Contains(body, "| 10 |") {
			t.Errorf("the rules page shows raw table pipes")
		}
		evalJS[bool](t, ctx, `(document.querySelector("#rules table.md-table")?.scrollIntoView({ block: "center" }), true)`)
		shot(t, ctx, "drugs-rules-"+sz.name)
		// Leaving the room for the rules page is not being sent away: the page stays.
		if h, n := evalJS[string](t, ctx, `location.hash`), text(t, ctx, `#notice`); h != "#/rules/drugs" || n != "" {
			t.Errorf("after opening the rules from a room: address %q, notice %q", h, n)
		}

		// Dealing alone: the waiting panel says why not (no browser alert box).
		goTo(t, ctx, base+"/#/")
		tap(t, ctx, `[data-create=hotspot]`)
		tap(t, ctx, `#create-room button[type=submit]`)
		tap(t, ctx, `#table [data-action=deal]`)
		waitText(t, ctx, `#table .deal-error`, "2 to 8 players")
	})
}

// TestLogSaysWhatHappened (item 7): the table's log, fed the events the rulesets send and worded
// by the rulesets' own Info.EventTexts (as the server lists them), tells a two-player Hotspot
// Jack as passing the turn, every penalty once with its reason, and shows the automatic Last Card
// penalty in the middle of the table too.
func TestLogSaysWhatHappened(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	base, _ := startServer(t)
	b := browser(t)
	ctx := newPage(t, b, 1280, 800)
	signIn(t, ctx, base, "Lee")
	type told struct {
		Log    []string `json:"log"`
		Toasts []string `json:"toasts"`
	}
	tell := func(ruleset, events string) told {
		t.Helper()
		return evalJS[told](t, ctx, `(async () => {
			const { Table } = await import("/js/table.js");
			const info = (await (await fetch("/api/rulesets")).json()).rulesets.find((r) => r.id === "`+ruleset+`");
			const root = document.createElement("div");
			const t = new Table(root, { player: (s) => ({ name: ["Ann", "Bob", "Cy"][s] }), rulesetInfo: () => info });
			t.view = { phase: "playing", viewer: 1 };
			root.append(Object.assign(document.createElement("div"), { className: "log" }));
			t.toastLayer = document.createElement("div");
			t.announce(`+events+`, {});
			return { log: [...root.querySelectorAll(".log div")].map((d) => d.textContent).reverse(), toasts: [...t.toastLayer.children].map((d) => d.textContent) };
		})()`)
	}
	// Hotspot, two players: a Jack passes the turn to the other player (H-8).
	got := tell("hotspot", `[{ name: "played", seat: 0, cards: ["JS"] }, { name: "reversed", seat: 0, data: { direction: "1", effect: "pass" } }, { name: "turn", seat: 1 }]`)
	if len(got.Log) != 2 || strings.Contains(got.Log[1], "same player") || !strings.Contains(got.Log[1], "passes the turn") {
		t.Errorf("a two-player Jack: %q", got.Log)
	}
	// Last Card, caught out: caught, the draw and penalty_drawn are one line with the reason.
	got = tell("lastcard", `[{ name: "caught", seat: 0, data: { by: "1" } }, { name: "drew", seat: 0, count: 2 }, { name: "penalty_drawn", seat: 0, count: 2, data: { reason: "caught" } }]`)
	if len(got.Log) != 1 || !strings.Contains(got.Log[0], "forgot to call LAST CARD") || !strings.Contains(got.Log[0], "caught out by you") || !strings.Contains(got.Log[0], "+2") {
		t.Errorf("a catch-out: %q", got.Log)
	}
	// Last Card, automatic penalty: one line saying why, shown mid-table as well.
	got = tell("lastcard", `[{ name: "played", seat: 1, cards: ["R5"] }, { name: "drew", seat: 1, cards: ["G2", "B7"], count: 2 }, { name: "penalty_drawn", seat: 1, count: 2, data: { reason: "no_call" } }, { name: "turn", seat: 2 }]`)
	if len(got.Log) != 2 || !strings.Contains(got.Log[1], "forgot to call LAST CARD: +2 cards") || len(got.Toasts) != 1 || got.Toasts[0] != got.Log[1] {
		t.Errorf("an automatic penalty: log %q, toasts %q", got.Log, got.Toasts)
	}
	// Hotspot, the LAST CARD window ran out: one line, the card drawn folded in.
	got = tell("hotspot", `[{ name: "missed_last_card", seat: 2 }, { name: "drew", seat: 2, count: 1 }]`)
	if len(got.Log) != 1 || !strings.Contains(got.Log[0], "Cy forgot to call LAST CARD in time: +1 card") {
		t.Errorf("a missed LAST CARD: %q", got.Log)
	}
	// A refusal shows its reason as the ruleset words it, and the ruling it applies (the
	// refusal's own field, platform/server TestRefusalCarriesItsRuling) only as a tooltip.
	shown := evalJS[[]string](t, ctx, `(async () => {
		const { Table } = await import("/js/table.js");
		const root = document.createElement("div");
		new Table(root, { player: () => ({ name: "Ann" }) }).refused("two cards of one rank: a group needs three or more", "H-7");
		const r = root.querySelector(".refusal");
		return [r.textContent, r.dataset.ruling, r.title];
	})()`)
	if strings.Join(shown, "|") != "two cards of one rank: a group needs three or more|H-7|Ruling H-7" {
		t.Errorf("a refusal shows %q", shown)
	}
}

// TestLooksAfterSignIn (item 12): a signed-in player changes their name and look from the top
// bar; the host of a pass-the-device room names a seat and gives it a look, which its name plate
// at the table shows.
func TestLooksAfterSignIn(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	eachSize(t, func(t *testing.T, base string, ctx context.Context, sz screen) {
		signIn(t, ctx, base, "Ola")
		tap(t, ctx, `#your-look`)
		typeText(t, ctx, `#look-dialog input[name=name]`, "Olga")
		tap(t, ctx, `#look-dialog [aria-label=moon]`)
		tap(t, ctx, `#look-dialog [aria-label="#2f9e57"]`)
		shot(t, ctx, "your-look-"+sz.name)
		tap(t, ctx, `#save-look`)
		waitJS(t, ctx, `!document.querySelector("#look-dialog")`)
		if bar := text(t, ctx, `#your-look`); !strings.Contains(bar, "Olga") || !strings.Contains(bar, "\u263e") {
			t.Errorf("the top bar after saving the look: %q", bar)
		}
		type me struct {
			User struct {
				DisplayName string `json:"display_name"`
				Avatar      string `json:"avatar"`
				Colour      string `json:"colour"`
			} `json:"user"`
		}
		if got := evalJS[me](t, ctx, `fetch("/api/me").then((r) => r.json())`); got.User.DisplayName != "Olga" || got.User.Avatar != "moon" || got.User.Colour != "#2f9e57" {
			t.Errorf("the account after saving the look: %+v", got.User)
		}

		// A pass-the-device room: the host names seat 2 and gives it a look.
		tap(t, ctx, `[data-create=hotspot]`)
		// The mode is a <select>, set as its list would set it (a test cannot press the list).
		evalJS[bool](t, ctx, `(() => { const m = document.querySelector("#mode"); m.value = "device"; m.dispatchEvent(new Event("change", { bubbles: true })); return true; })()`)
		tap(t, ctx, `#create-room button[type=submit]`)
		waitJS(t, ctx, `!!document.querySelector("#room .side")`)
		if sz.name == "phone" {
			tap(t, ctx, `.side-toggle`)
		}
		tap(t, ctx, `[data-seat-look="1"]`)
		typeText(t, ctx, `#look-dialog input[name=name]`, "Mia")
		tap(t, ctx, `#look-dialog [aria-label=star]`)
		tap(t, ctx, `#save-look`)
		waitJS(t, ctx, `!document.querySelector("#look-dialog")`)
		waitText(t, ctx, `.side .members`, "Mia")
		if sz.name == "phone" {
			tap(t, ctx, `.side-toggle`)
		}
		tap(t, ctx, `#table [data-action=deal]`)
		waitJS(t, ctx, `!!document.querySelector('#table [data-seat="1"]')`)
		if plate := text(t, ctx, `#table [data-seat="1"]`); !strings.Contains(plate, "Mia") || !strings.Contains(plate, "\u2605") {
			t.Errorf("seat 2's name plate: %q", plate)
		}
		shot(t, ctx, "device-seat-look-"+sz.name)
	})
}

// TestAddBotByLevel (item 10): the host seats bots at the level they pick, one button per level,
// and the bots are told apart by their names, at a phone's size and a desktop's.
func TestAddBotByLevel(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	eachSize(t, func(t *testing.T, base string, ctx context.Context, sz screen) {
		signIn(t, ctx, base, "Hana")
		tap(t, ctx, `[data-create=hotspot]`)
		tap(t, ctx, `#create-room button[type=submit]`)
		waitJS(t, ctx, `!!window.cardhouse?.state?.room?.info`)
		openSide := func() {
			if evalJS[bool](t, ctx, `(() => { const b = document.querySelector(".side-toggle"); return !!b && b.getBoundingClientRect().height > 0 && !document.body.classList.contains("show-side"); })()`) {
				tap(t, ctx, `.side-toggle`)
			}
		}
		openSide()
		for _, level := range []string{"3", "1"} {
			tap(t, ctx, `[data-add-bot="`+level+`"]`)
			waitJS(t, ctx, fmt.Sprintf(`(window.cardhouse.state.room.info.members || []).some((m) => m.bot_level === %s)`, level))
			openSide()
		}
		bots := evalJS[[]string](t, ctx, `[...document.querySelectorAll(".side li[data-member]")].map((li) => li.textContent).filter((s) => s.includes("bot "))`)
		if len(bots) != 2 {
			t.Fatalf("the players list shows %d bots, want 2: %q", len(bots), bots)
		}
		if !strings.Contains(bots[0], "bot 3") || !strings.Contains(bots[1], "bot 1") {
			t.Errorf("the bots' levels read %q, want level 3 then level 1", bots)
		}
		name := func(s string) string { n, _, _ := strings.Cut(s, " ·"); return n }
		if name(bots[0]) == name(bots[1]) || strings.Contains(name(bots[0]), "level") {
			t.Errorf("the bots are not told apart by name: %q", bots)
		}
		shot(t, ctx, "add-bot-"+sz.name)
	})
}

// TestHostToolsStayUnderTheFinger: someone joining and connecting (membership updates) does not
// redraw the host's buttons, so a tap on Deal while people arrive is not swallowed (a button
// replaced between press and release gets no click).
func TestHostToolsStayUnderTheFinger(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	eachSize(t, func(t *testing.T, base string, ctx context.Context, sz screen) {
		signIn(t, ctx, base, "Hana")
		tap(t, ctx, `[data-create=hotspot]`)
		tap(t, ctx, `#create-room button[type=submit]`)
		waitJS(t, ctx, `!!window.cardhouse?.state?.room?.info && !!document.querySelector(".side .host [data-action=deal]")`)
		code := evalJS[string](t, ctx, `window.cardhouse.state.room.code`)
		evalJS[bool](t, ctx, `(window.__deal = document.querySelector(".side .host [data-action=deal]"), true)`)
		for _, name := range []string{"Lou", "Mo"} {
			g := apiGuest(t, base, name)
			g.do("POST", "/api/rooms/"+code+"/join", nil, nil)
			g.connect(code)
			waitJS(t, ctx, fmt.Sprintf(`(window.cardhouse.state.room.info.members || []).some((m) => m.name === %q && m.connected)`, name))
		}
		if !evalJS[bool](t, ctx, `window.__deal.isConnected && window.__deal === document.querySelector(".side .host [data-action=deal]")`) {
			t.Fatal("the host's Deal button was redrawn by people joining: a tap on it then is lost")
		}
		if sz.name == "phone" {
			tap(t, ctx, `.side-toggle`)
		}
		tap(t, ctx, `.side .host [data-action=deal]`)
		waitJS(t, ctx, `window.cardhouse.state.room.info.game?.status === "live"`)
	})
}
