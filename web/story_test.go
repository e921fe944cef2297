package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"cardhouse/platform/store"

	"github.com/chromedp/chromedp"
)

// The browser tests of a table that tells the story (issue 32 item 5): cards named in words, the
// move log on a phone, summaries that say who won and by how much, the invite's landing page, a
// game against the computer that starts at once, the ratings beside names and the replay's names.

// TestCardWords: every kind of card has its name in words, in English and in French, as the log,
// the toasts, the summary and the replay say it.
func TestCardWords(t *testing.T) {
	t.Parallel()
	base, _ := startServer(t)
	ctx := newPage(t, browser(t), desktopW, desktopH)
	run(t, ctx, chromedp.Navigate(base+"/"))
	codes := `["R7", "GS", "BR", "Y+2", "W", "W+4", "QS", "10H", "AD", "JC", "KH", "2S", "JK", "??"]`
	words := func(loc string) []string {
		t.Helper()
		return evalJS[[]string](t, ctx, `(async () => {
			const { setLocale } = await import("/js/i18n.js");
			const { cardWords } = await import("/js/cards.js");
			await setLocale("`+loc+`");
			return `+codes+`.map(cardWords);
		})()`)
	}
	for _, tc := range []struct {
		locale string
		want   []string
	}{
		{"en", []string{"red 7", "green skip", "blue reverse", "yellow draw two", "Joker", "Joker Draw Four", "queen of spades", "10 of hearts", "ace of diamonds", "jack of clubs", "king of hearts", "2 of spades", "joker", "??"}},
		{"fr", []string{"7 rouge", "passe (vert)", "inversion (bleu)", "+2 jaune", "Joker", "Joker +4", "dame de pique", "10 de cœur", "as de carreau", "valet de trèfle", "roi de cœur", "2 de pique", "joker", "??"}},
	} {
		if got := words(tc.locale); strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s: cardWords = %q, want %q", tc.locale, got, tc.want)
		}
	}
	// The move log and its toasts say the cards in words, never in codes ("R7", "W+4").
	logged := func(loc string) []string {
		t.Helper()
		return evalJS[[]string](t, ctx, `(async () => {
			const { setLocale } = await import("/js/i18n.js");
			await setLocale("`+loc+`");
			const { Table } = await import("/js/table.js");
			const info = (await (await fetch("/api/rulesets")).json()).rulesets.find((r) => r.id === "lastcard");
			const root = document.createElement("div");
			const t = new Table(root, { player: (s) => ({ name: ["Rosie", "Mia"][s] }), rulesetInfo: () => info });
			t.view = { phase: "playing", viewer: 1 };
			root.append(Object.assign(document.createElement("div"), { className: "log" }));
			t.toastLayer = document.createElement("div");
			t.announce([{ name: "played", seat: 0, cards: ["R7"] }, { name: "played", seat: 0, cards: ["W+4"] }, { name: "played", seat: 0, cards: ["BS"] }], {});
			return [...root.querySelectorAll(".log div")].map((d) => d.textContent).reverse();
		})()`)
	}
	for _, tc := range []struct {
		locale string
		want   []string
	}{
		{"en", []string{"Rosie played red 7", "Rosie played Joker Draw Four", "Rosie played blue skip"}},
		{"fr", []string{"7 rouge", "Joker +4", "passe (bleu)"}},
	} {
		got := logged(tc.locale)
		if len(got) != len(tc.want) {
			t.Fatalf("%s: the log says %q, want %d lines", tc.locale, got, len(tc.want))
		}
		for i := range got {
			if !strings.Contains(got[i], tc.want[i]) || strings.ContainsAny(got[i], "♠♥") || strings.Contains(got[i], "W+4") {
				t.Errorf("%s: log line %d is %q, want it to say %q", tc.locale, i, got[i], tc.want[i])
			}
		}
	}
}

// verdictSeen is what a summary's verdict line says (summary.js, verdict) beside what the view
// says it should: the expected margin and leader worked out here from the view's scores.
type verdictSeen struct {
	Text       string `json:"text"`
	Margin     int    `json:"margin"`
	WantMargin int    `json:"wantMargin"`
	First      string `json:"first"`
	WantFirst  string `json:"wantFirst"`
	Want       string `json:"want"` // "team", "players" or "" (no verdict line)
	LowWins    bool   `json:"lowWins"`
	Title      string `json:"title"`
	Names      string `json:"names"`
	GreenPts   int    `json:"greenPts"`
	Winners    int    `json:"winners"`
	WantWins   int    `json:"wantWins"`
	WinnerPts  string `json:"winnerPts"`
}

// checkVerdict checks that the summary on pg says who won and by how much as the view's scores
// have it: a partnership's score against the other team's (the title naming both partners), the
// lowest total first where the lowest wins, and no points chip that reads as a gain for a loser
// or "0 pts" beside the winner.
func checkVerdict(t *testing.T, pg context.Context, what string) verdictSeen {
	t.Helper()
	v := evalJS[verdictSeen](t, pg, `(() => {
		const tb = window.cardhouse.state?.room?.table || window.cardhouse.table;
		const v = tb.view, s = document.querySelector("#summary"), el = s.querySelector(".verdict");
		const low = !!v.low_wins, over = v.phase === "game_over";
		const out = { text: el ? el.textContent : "", margin: el ? Number(el.dataset.margin) : -1, first: el ? (el.dataset.first ?? el.dataset.winnerTeam) : "",
			lowWins: low, title: s.querySelector("h2").textContent, greenPts: s.querySelectorAll(".chip.green[data-points]").length,
			winners: s.querySelectorAll(".hands-left [data-winner]").length, wantWins: v.winner >= 0 ? 1 : 0,
			winnerPts: s.querySelector('[data-hand-left="' + v.winner + '"] [data-points]')?.textContent || "" };
		const teams = (v.teams || []).filter((x) => x.score !== undefined && x.score !== null);
		const scored = (v.players || []).filter((p) => p.score !== undefined && p.score !== null);
		if (over && v.winner >= 0 && teams.length > 1) {
			const win = teams.find((x) => (x.seats || []).includes(v.winner));
			const others = teams.filter((x) => x !== win).map((x) => x.score);
			const other = low ? Math.min(...others) : Math.max(...others);
			Object.assign(out, { wantWins: win.seats.length, want: "team", wantMargin: Math.abs(win.score - other), wantFirst: String(win.id), names: win.seats.map((x) => tb.player(x).name).join(" & ") });
		} else if (scored.length > 1) {
			const best = [...scored].sort((a, b) => (low ? a.score - b.score : b.score - a.score) || a.seat - b.seat);
			const first = over && v.winner >= 0 ? scored.find((p) => p.seat === v.winner) : best[0];
			const next = best.find((p) => p !== first);
			Object.assign(out, { want: "players", wantMargin: Math.abs(first.score - next.score), wantFirst: String(first.seat), names: tb.player(first.seat).name });
		} else out.want = "";
		return out;
	})()`)
	switch v.Want {
	case "":
		if v.Text != "" {
			t.Errorf("%s: a game without running scores has a verdict %q", what, v.Text)
		}
	default:
		if v.Text == "" || v.Margin != v.WantMargin || v.First != v.WantFirst {
			t.Errorf("%s: the verdict %q says %s by %d, want %s by %d", what, v.Text, v.First, v.Margin, v.WantFirst, v.WantMargin)
		}
		if v.Want == "team" && !strings.Contains(v.Title, v.Names) && !strings.Contains(v.Title, "Your team") {
			t.Errorf("%s: the title %q does not name the winning partners %q", what, v.Title, v.Names)
		}
		if v.Want == "players" && v.LowWins != strings.Contains(v.Text, "fewer") {
			t.Errorf("%s: the verdict %q (lowest wins: %v) gets the direction wrong", what, v.Text, v.LowWins)
		}
	}
	if v.Winners != v.WantWins {
		t.Errorf("%s: %d hands are marked the winner's, want %d (a partnership wins together)", what, v.Winners, v.WantWins)
	}
	if v.GreenPts > 0 {
		t.Errorf("%s: %d points chips read as gains (green)", what, v.GreenPts)
	}
	if strings.HasPrefix(v.WinnerPts, "0 ") {
		t.Errorf("%s: the winner reads %q", what, v.WinnerPts)
	}
	return v
}

// storySizes are the two screens every story test runs at.
var storySizes = []screen{{"phone", phoneW, phoneH}, {"desktop", desktopW, desktopH}}

// rectJS is a JS function giving an element's box ({} when absent or not shown).
const rectJS = `((sel) => { const e = document.querySelector(sel); if (!e) return null; const r = e.getBoundingClientRect(); return r.width && r.height ? { l: r.left, t: r.top, r: r.right, b: r.bottom } : null; })`

// TestComputerGameStartsAtOnce (item 5, and the move log on a phone, item 2): one tap from the
// lobby seats the player with bots and deals, with no Deal to press and no invite offered. A few
// moves in, on a phone the move log's strip, at the top of the centre, says the last move in
// words and a tap opens the drawer of the last moves over the centre only: the hand and the
// actions stay in sight and clear; a tap closes it. The game is played to the end by taps and
// the summary reads right.
func TestComputerGameStartsAtOnce(t *testing.T) {
	t.Parallel()
	base, _ := startServer(t)
	b := browser(t)
	axe := axeJS(t)
	for _, sz := range storySizes {
		t.Run(sz.name, func(t *testing.T) {
			t.Parallel()
			pg := newPage(t, b, sz.w, sz.h)
			signIn(t, pg, base, "Pia")
			tap(t, pg, `[data-computer=hotspot]`)
			waitJS(t, pg, `location.hash.startsWith("#/room/") && window.cardhouse.state.room?.table?.view?.phase === "playing"`)
			got := evalJS[struct {
				Mode   string `json:"mode"`
				Seats  int    `json:"seats"`
				Bots   int    `json:"bots"`
				Hand   int    `json:"hand"`
				Deal   bool   `json:"deal"`
				Invite bool   `json:"invite"`
			}](t, pg, `(() => { const r = window.cardhouse.state.room; return { mode: r.info.mode, seats: r.table.view.players.length,
				bots: r.info.members.filter((m) => m.bot_level).length, hand: document.querySelectorAll('.card[data-zone^="hand."]').length,
				deal: !!document.querySelector("[data-action=deal]"), invite: !!document.querySelector("#invite-link, [data-copy*='#/invite/']") }; })()`)
			if got.Mode != "computer" || got.Seats != 4 || got.Bots != 3 || got.Hand == 0 {
				t.Errorf("one tap gave a %s room of %d seats, %d bots, %d cards in hand; want computer, 4, 3, a dealt hand", got.Mode, got.Seats, got.Bots, got.Hand)
			}
			if got.Deal || got.Invite {
				t.Errorf("a game against the computer offers a Deal (%v) or an invite (%v)", got.Deal, got.Invite)
			}
			stats := playGame(t, []player{{pg, `{}`}}, func() {
				if sz.name == "desktop" {
					if evalJS[bool](t, pg, rectJS+`(".log-strip") !== null || `+rectJS+`(".log") === null`) {
						t.Errorf("on a desktop the log lies beside the pile, without the phone's strip")
					}
					return
				}
				checkPhoneLog(t, pg, axe)
			})
			waitJS(t, pg, `document.querySelector("#summary")`)
			checkSummary(t, pg, "against the computer, "+sz.name)
			t.Logf("%s: %d taps to the end", sz.name, stats[0].Taps)
		})
	}
}

// checkPhoneLog checks the phone's move log a few moves into a game: the strip says the last
// move, the drawer opens and closes by taps, over the centre only.
func checkPhoneLog(t *testing.T, pg context.Context, axe string) {
	t.Helper()
	type box struct{ L, T, R, B float64 }
	type seen struct {
		Strip, Center, Mine, Actions, Drawer *box
		Text                                 string
		Lines                                []string
		Font                                 float64
		Hit                                  bool
	}
	look := func() seen {
		return evalJS[seen](t, pg, `(() => { const r = `+rectJS+`; const lines = [...document.querySelectorAll(".log-drawer li")].map((l) => l.textContent);
			const s = document.querySelector(".log-strip"); const sr = s.getBoundingClientRect();
			return { strip: r(".log-strip"), center: r(".center"), mine: r(".my-area .hand") || r(".my-area"), actions: r(".actions"), drawer: r(".log-drawer"),
				text: s.textContent, lines, font: parseFloat(getComputedStyle(s).fontSize),
				hit: s.contains(document.elementFromPoint(sr.left + sr.width / 2, sr.top + sr.height / 2)) }; })()`)
	}
	overlaps := func(a, b *box) bool { return a != nil && b != nil && a.L < b.R && b.L < a.R && a.T < b.B && b.T < a.B }
	waitJS(t, pg, `(window.cardhouse.state.room.table.logLines || []).length > 0`)
	s := look()
	if s.Strip == nil || !s.Hit || s.Font < 12 {
		t.Fatalf("the phone's log strip is not shown and reachable (box %v, reached %v, %.0f px text)", s.Strip, s.Hit, s.Font)
	}
	if overlaps(s.Strip, s.Mine) || overlaps(s.Strip, s.Actions) || s.Strip.B > phoneH {
		t.Errorf("the log strip %v covers the hand %v or the actions %v", s.Strip, s.Mine, s.Actions)
	}
	if s.Text == "" || strings.Contains(s.Text, "No moves") {
		t.Errorf("the log strip says %q, want the last move", s.Text)
	}
	tapUntil(t, pg, `.log-strip`, `!document.querySelector(".log-drawer").hidden && document.querySelector(".log-strip").getAttribute("aria-expanded") === "true"`)
	s = look()
	if len(s.Lines) == 0 || s.Drawer == nil {
		t.Fatalf("the opened drawer shows %q (box %v)", s.Lines, s.Drawer)
	}
	if overlaps(s.Drawer, s.Mine) || overlaps(s.Drawer, s.Actions) || s.Drawer.T < s.Center.T-1 || s.Drawer.B > s.Center.B+1 {
		t.Errorf("the drawer %v leaves the centre %v or covers the hand %v or the actions %v", s.Drawer, s.Center, s.Mine, s.Actions)
	}
	for _, l := range s.Lines {
		if regexp.MustCompile(`\b([RGBY]([0-9]|S|R|\+2)|W\+4|(10|[2-9AJQK])[SHDC])\b|[♠♥♦♣]`).MatchString(l) {
			t.Errorf("a log line speaks in codes: %q", l)
		}
	}
	shot(t, pg, "story-phone-log")
	if axe != "" {
		checkAxe(t, pg, axe, "the phone's move log, open")
	}
	tapUntil(t, pg, `.log-drawer .log-close`, `document.querySelector(".log-drawer").hidden && document.querySelector(".log-strip").getAttribute("aria-expanded") === "false"`)
}

// tapUntil taps sel at its centre with real input events (the harness's aim: nothing covers it)
// until done holds, a few times at most: the bots play on meanwhile and the table may move the
// control between the aim and the tap, as it would under a person's finger.
func tapUntil(t *testing.T, pg context.Context, sel, done string) {
	t.Helper()
	for tries := 0; tries < 4; tries++ {
		p := evalJS[aimPoint](t, pg, fmt.Sprintf("__ch.point(%q)", sel))
		if err := tapAt(pg, p.X, p.Y); err != nil {
			t.Fatalf("tapping %s: %v", sel, err)
		}
		c, cancel := context.WithTimeout(pg, 3*time.Second)
		_, err := chromedp.Run(c, chromedp.Poll[chromedp.Void](done))
		cancel()
		if err == nil {
			return
		}
	}
	t.Fatalf("tapping %s four times: %s never held", sel, done)
}

// TestInviteLanding (item 4): an invite link opens a page naming the room, the variant and the
// host before joining. Someone new types a name and presses Join: they are seated in that room.
// Someone signed in presses Join and is seated too. A link to no room says so, and the start-at-
// once of a game against the computer is refused for an online room, which is then not made.
func TestInviteLanding(t *testing.T) {
	t.Parallel()
	base, _ := startServer(t)
	b := browser(t)
	axe := axeJS(t)
	host := apiGuest(t, base, "Hana")
	code := host.create(map[string]any{"ruleset": "hotspot", "seats": 6}).Code
	host.connect(code)
	for _, sz := range storySizes {
		t.Run(sz.name, func(t *testing.T) {
			t.Parallel()
			// Someone new.
			pg := newPage(t, b, sz.w, sz.h)
			run(t, pg, chromedp.Navigate(base+"/#/invite/"+code))
			waitJS(t, pg, `!!document.querySelector("#invitation") && !!document.querySelector("#entry")`)
			says := text(t, pg, "#invitation")
			for _, want := range []string{"Hana invites you to play Hotspot", code, "Hotspot", "of 6 seats taken", "Hana"} {
				if !strings.Contains(says, want) {
					t.Errorf("the landing page says %q, want %q in it", says, want)
				}
			}
			shot(t, pg, "story-invite-"+sz.name)
			if axe != "" {
				checkAxe(t, pg, axe, sz.name+" invite landing")
			}
			name := "Finn" + sz.name
			typeText(t, pg, `#entry input[name=name]`, name)
			tap(t, pg, `#enter`)
			waitJS(t, pg, fmt.Sprintf(`location.hash === "#/room/%s" && (window.cardhouse.state.room?.info?.members || []).some((m) => m.name === %q && m.role === "player")`, code, name))
			// Someone signed in.
			pg2 := newPage(t, b, sz.w, sz.h)
			signIn(t, pg2, base, "Gus"+sz.name)
			goTo(t, pg2, base+"/#/invite/"+code)
			waitJS(t, pg2, `!!document.querySelector("#invitation") && !!document.querySelector("#invite-join")`)
			if !strings.Contains(text(t, pg2, "#invitation"), "Hana invites you") {
				t.Errorf("signed in, the landing page says %q", text(t, pg2, "#invitation"))
			}
			tap(t, pg2, `#invite-join`)
			waitJS(t, pg2, fmt.Sprintf(`location.hash === "#/room/%s" && (window.cardhouse.state.room?.info?.members || []).some((m) => m.name === "Gus%s")`, code, sz.name))
			// A link to no room.
			goTo(t, pg2, base+"/#/invite/ZZZZZZ")
			waitJS(t, pg2, `!!document.querySelector("#invitation-error .error-text")?.textContent`)
			for _, p := range []context.Context{pg, pg2} {
				if r := record(t, p); len(r.CSP) > 0 {
					t.Errorf("the page broke its content security policy: %q", r.CSP)
				}
			}
		})
	}
	// Over the API: an unknown code is a 404; start is for a game against the computer only.
	if resp := host.send("GET", "/api/invites/ZZZZZZ", nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /api/invites/ZZZZZZ: %d, want 404", resp.StatusCode)
	}
	var before, after struct {
		Rooms []any `json:"rooms"`
	}
	host.do("GET", "/api/me/rooms", nil, &before)
	resp := host.send("POST", "/api/rooms", map[string]any{"ruleset": "hotspot", "mode": "online", "start": true})
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), `"start"`) {
		t.Errorf("an online room asked to start at once: %d %s, want 400 naming start", resp.StatusCode, body)
	}
	host.do("GET", "/api/me/rooms", nil, &after)
	if len(after.Rooms) != len(before.Rooms) {
		t.Errorf("the refused room was made: %d rooms before, %d after", len(before.Rooms), len(after.Rooms))
	}
}

// TestRatingsBesideNames (item 3's leftover): a registered player's rating in the variant shows
// beside their name at the table's seats, as in the lobby's public list. Two accounts with a
// rating from a game recorded in the store (as a finished game records it) sit at an online room;
// at each size the other player's page shows both ratings by the names, and a third page's lobby
// lists the table with them.
func TestRatingsBesideNames(t *testing.T) {
	t.Parallel()
	base, _, st := startPlatform(t)
	b := browser(t)
	ctx := context.Background()
	reg := func(handle, name string) *apiUser {
		return apiSignIn(t, base, "/api/register", map[string]string{"username": handle, "password": "correct horse battery", "display_name": name})
	}
	ann, ben := reg("ann-rated", "Ann"), reg("ben-rated", "Ben")
	code := ann.create(map[string]any{"ruleset": "hotspot", "seats": 3}).Code
	ben.do("POST", "/api/rooms/"+code+"/join", map[string]any{}, nil)
	ann.connect(code)
	ben.connect(code)
	ann.do("POST", "/api/rooms/"+code+"/deal", nil, nil)
	sr, err := st.RoomByCode(ctx, code)
	if err != nil {
		t.Fatal(err)
	}
	g, err := st.GameByNumber(ctx, sr.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.RecordFinished(ctx, store.Finished{GameID: g.ID, Ruleset: "hotspot", EndedAt: time.Now().UTC(),
		Seats: []store.FinishedSeat{{UserID: ann.id, Team: 0, Place: 1}, {UserID: ben.id, Team: 1, Place: 2}}}); err != nil {
		t.Fatal(err)
	}
	var rated struct {
		Ratings map[string]float64 `json:"ratings"`
	}
	ann.do("GET", fmt.Sprintf("/api/ratings/hotspot?users=%d,%d", ann.id, ben.id), nil, &rated)
	if len(rated.Ratings) != 2 {
		t.Fatalf("ratings after the recorded game: %v", rated.Ratings)
	}
	want := map[string]string{}
	for id, r := range rated.Ratings {
		want[id] = strconv.FormatFloat(r, 'f', -1, 64)
	}
	for _, sz := range storySizes {
		t.Run(sz.name, func(t *testing.T) {
			pg := newPage(t, b, sz.w, sz.h)
			logIn(t, pg, base, "ben-rated")
			goTo(t, pg, base+"/#/room/"+code)
			waitJS(t, pg, `document.querySelectorAll("[data-seat-rating]").length === 2`)
			got := evalJS[map[string]string](t, pg, `Object.fromEntries([...document.querySelectorAll(".who")].filter((w) => w.querySelector("[data-seat-rating]")).map((w) => [w.querySelector(".name").textContent, w.querySelector("[data-seat-rating]").dataset.seatRating]))`)
			if got["Ann"] != want[fmt.Sprint(ann.id)] || got["Ben"] != want[fmt.Sprint(ben.id)] {
				t.Errorf("the seats show the ratings %v, want Ann %s and Ben %s", got, want[fmt.Sprint(ann.id)], want[fmt.Sprint(ben.id)])
			}
			shot(t, pg, "story-seat-ratings-"+sz.name)
			// The lobby's public list, on a third page.
			lp := newPage(t, b, sz.w, sz.h)
			signIn(t, lp, base, "Lou"+sz.name)
			sel := fmt.Sprintf(`tr[data-room=%q] .players`, code)
			// The first list comes from GET /api/rooms; the live list (server-sent events) brings
			// the ratings.
			waitJS(t, lp, fmt.Sprintf(`(document.querySelector(%q)?.textContent || "").includes("(")`, sel))
			list := text(t, lp, sel)
			for _, id := range []int64{ann.id, ben.id} {
				if r := rated.Ratings[fmt.Sprint(id)]; !strings.Contains(list, strings.TrimSuffix(strconv.FormatFloat(r, 'f', 1, 64), ".0")) {
					t.Errorf("the public list says %q, without the rating %v", list, r)
				}
			}
		})
	}
}
