package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// heardJS records what the page's live region (#announcer) says at each new view of the table:
// the messages added to the region while the table took the view (MutationObserver.takeRecords
// right after Table.update, which speaks synchronously), beside the view's events with their
// cards named in words, its turn and the LAST CARD windows it opens. Messages added at any other
// time are kept apart (stray).
const heardJS = `(async () => {
	const { cardName } = await import("/js/cards.js");
	const t = window.cardhouse.state.room.table;
	const region = document.getElementById("announcer");
	const rec = window.__heard = { updates: [], stray: [] };
	const obs = new MutationObserver((ms) => { for (const m of ms) for (const n of m.addedNodes) rec.stray.push(n.textContent); });
	obs.observe(region, { childList: true, subtree: true, characterData: true });
	const orig = t.update;
	t.update = function (view, info) {
		const prev = this.view;
		const r = orig.call(this, view, info);
		if (view !== prev) {
			const heard = obs.takeRecords().flatMap((m) => [...m.addedNodes].map((n) => n.textContent));
			rec.updates.push({ first: !prev, turn: view.turn, prevTurn: prev ? prev.turn : -2, phase: view.phase, prevPhase: prev ? prev.phase : "", me: view.viewer,
				turnName: view.turn >= 0 ? this.player(view.turn).name : "",
				events: (view.events || []).map((e) => ({ name: e.name, seat: e.seat, cards: (e.cards || []).map(cardName), who: e.seat >= 0 ? this.player(e.seat).name : "" })),
				windows: (view.deadlines || []).filter((d) => d.kind === "last_card" && !((prev && prev.deadlines) || []).some((p) => p.id === d.id)).map((d) => d.id),
				heard });
		}
		return r;
	};
	return true;
})()`

type heardEvent struct {
	Name  string   `json:"name"`
	Seat  int      `json:"seat"`
	Cards []string `json:"cards"`
	Who   string   `json:"who"`
}

type heardUpdate struct {
	First     bool         `json:"first"`
	Turn      int          `json:"turn"`
	PrevTurn  int          `json:"prevTurn"`
	Phase     string       `json:"phase"`
	PrevPhase string       `json:"prevPhase"`
	Me        int          `json:"me"`
	TurnName  string       `json:"turnName"`
	Events    []heardEvent `json:"events"`
	Windows   []string     `json:"windows"`
	Heard     []string     `json:"heard"`
}

type heardRecord struct {
	Updates []heardUpdate `json:"updates"`
	Stray   []string      `json:"stray"`
}

var (
	turnSentence = regexp.MustCompile(`Your turn\.|\S+'s turn\.`)
	windowPhrase = regexp.MustCompile(`LAST CARD: call it now|has one card left: LAST CARD\.`)
)

// TestAnnouncements: over a whole game of Hotspot (desktop) and of DRUGS (phone) against two bots (played by the harness's real pointer
// taps), the page's one live region (in the page from its load) says every move of every seat in
// words ("Otto played 7 of hearts."), each turn change and each LAST CARD window, each exactly
// once: one message per view that brings something, none at another time, every card of an
// event named in words as many times as events show it, no suit symbol; and the move log is no
// longer a live region, nor are the toasts that repeat what the region says.
func TestAnnouncements(t *testing.T) {
	url, _ := startServer(t)
	b := browser(t)
	cases := []struct {
		name, ruleset string
		w, h          int64
		options       string
	}{
		{"hotspot-desktop", "hotspot", desktopW, desktopH, ""},
		{"drugs-phone", "drugs", phoneW, phoneH, `f.elements.overdose.value = 3;`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			pg := newPage(t, b, c.w, c.h)
			computerRoom(t, pg, url, c.ruleset, 3, c.options)
			// The region is in the page as it loaded (index.html), not made by the table later.
			html := evalJS[string](t, pg, `fetch("/").then((r) => r.text())`)
			if !strings.Contains(html, `id="announcer"`) {
				t.Errorf("index.html has no live region #announcer")
			}
			if n := evalJS[int](t, pg, `document.querySelectorAll("#announcer[aria-live=polite]").length`); n != 1 {
				t.Fatalf("%d live regions #announcer, want 1", n)
			}
			evalJS[bool](t, pg, heardJS)
			click(t, pg, `.felt [data-action=deal]`)
			waitJS(t, pg, `document.querySelector(".felt[data-phase]")`)
			playGame(t, []player{{pg, `{}`}}, func() {
				// Mid-game: the move log and the toasts are not live regions.
				if got := evalJS[string](t, pg, `document.querySelectorAll(".felt .log div").length + "/" + [...document.querySelectorAll(".felt .log, .felt .log *")].filter((e) => e.closest("[aria-live], [role=log], [role=status], [role=alert]")).length + "/" + document.querySelector(".toast-layer")?.getAttribute("aria-hidden")`); !strings.HasSuffix(got, "/0/true") || strings.HasPrefix(got, "0/") {
					t.Errorf("log lines / of them in a live region / the toasts hidden: %s, want N/0/true", got)
				}
				shot(t, pg, "announce-"+c.name)
			})
			waitJS(t, pg, `document.querySelector(".overlay-center")`)
			rec := evalJS[heardRecord](t, pg, `window.__heard`)
			checkHeard(t, rec)
		})
	}
}

func checkHeard(t *testing.T, rec heardRecord) {
	t.Helper()
	if len(rec.Stray) > 0 {
		t.Errorf("the region said %q outside any view", rec.Stray)
	}
	actors := map[int]int{}
	seats := map[int]bool{}
	cardsShown, cardsHeard := map[string]int{}, map[string]int{}
	moves, turns, windows := 0, 0, 0
	var all []string
	for k, u := range rec.Updates {
		if len(u.Heard) > 1 {
			t.Errorf("view %d: %d messages %q, want one", k, len(u.Heard), u.Heard)
		}
		said := strings.Join(u.Heard, " ")
		all = append(all, said)
		if strings.ContainsAny(said, "♠♥♦♣") {
			t.Errorf("view %d: %q names a card by its symbol, not in words", k, said)
		}
		if u.Turn >= 0 {
			seats[u.Turn] = true
		}
		if !u.First {
			for _, e := range u.Events {
				for _, c := range e.Cards {
					cardsShown[c]++
				}
				if e.Seat < 0 || e.Name == "turn" {
					continue
				}
				moves++
				actors[e.Seat]++
				if !strings.Contains(said, e.Who) && !(e.Seat == u.Me && strings.Contains(strings.ToLower(said), "you")) {
					t.Errorf("view %d: %s's %s is not said: %q", k, e.Who, e.Name, said)
				}
				for _, c := range e.Cards {
					if !strings.Contains(said, c) {
						t.Errorf("view %d: %s's %s of %s is not said in words: %q", k, e.Who, e.Name, c, said)
					}
				}
			}
		}
		turned := u.First || u.PrevPhase != "playing" || u.Turn != u.PrevTurn
		for _, e := range u.Events {
			turned = turned || e.Name == "turn"
		}
		got := turnSentence.FindAllString(said, -1)
		switch {
		case u.Phase == "playing" && u.Turn >= 0 && turned:
			turns++
			want := u.TurnName + "'s turn."
			if u.Turn == u.Me {
				want = "Your turn."
			}
			if len(got) != 1 || got[0] != want && !strings.HasSuffix(want, got[0]) {
				t.Errorf("view %d: the turn (seat %d, %s) said %q in %q, want %q once", k, u.Turn, u.TurnName, got, said, want)
			}
		case len(got) > 0:
			t.Errorf("view %d: the turn did not change (seat %d), but %q says %q", k, u.Turn, said, got)
		}
		if n := len(windowPhrase.FindAllString(said, -1)); n != len(u.Windows) {
			t.Errorf("view %d: %d LAST CARD windows opened, %d said: %q", k, len(u.Windows), n, said)
		}
		windows += len(u.Windows)
	}
	joined := strings.Join(all, "\n")
	for c, n := range cardsShown {
		cardsHeard[c] = strings.Count(joined, c)
		if cardsHeard[c] < n {
			t.Errorf("%s: shown in %d events, said %d times", c, n, cardsHeard[c])
		}
	}
	for s := range seats {
		if actors[s] == 0 {
			t.Errorf("seat %d had turns but no move of theirs was announced", s)
		}
	}
	t.Logf("%d views: %d moves by %d seats, %d turn changes, %d LAST CARD windows, each said once; e.g. %q", len(rec.Updates), moves, len(actors), turns, windows, sample(all))
	if moves == 0 || turns == 0 {
		t.Errorf("no move (%d) or no turn (%d) heard in a whole game", moves, turns)
	}
}

// sample is a few of the messages said, for the log.
func sample(all []string) string {
	var out []string
	for _, s := range all {
		if s != "" && len(out) < 4 {
			out = append(out, s)
		}
	}
	return strings.Join(out, " | ")
}

// axNode is a node of Chromium's accessibility tree (Accessibility.getFullAXTree), what a screen
// reader is given: its role, name and properties (disabled, live, level, ...).
type axNode struct {
	ID, Parent string
	Role, Name string
	Props      map[string]string
	Ignored    bool
}

// axTree reads the page's full accessibility tree.
func axTree(t *testing.T, pg context.Context) (map[string]*axNode, []*axNode) {
	t.Helper()
	c, cancel := context.WithTimeout(pg, 30*time.Second)
	defer cancel()
	res, err := chromedp.Call(c, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	if err != nil {
		t.Fatalf("Accessibility.getFullAXTree: %v", err)
	}
	str := func(v *accessibility.Value) string {
		if v == nil || len(v.Value) == 0 {
			return ""
		}
		var s any
		if err := json.Unmarshal(v.Value, &s); err != nil {
			return string(v.Value)
		}
		return fmt.Sprint(s)
	}
	byID := map[string]*axNode{}
	var all []*axNode
	for _, n := range res.Nodes {
		a := &axNode{ID: string(n.NodeID), Parent: string(n.ParentID), Role: str(n.Role), Name: str(n.Name), Ignored: n.Ignored, Props: map[string]string{}}
		for _, p := range n.Properties {
			a.Props[string(p.Name)] = str(p.Value)
		}
		byID[a.ID] = a
		all = append(all, a)
	}
	return byID, all
}

// within says whether n lies under a node of role role named name.
func within(byID map[string]*axNode, n *axNode, role, name string) bool {
	for p := byID[n.Parent]; p != nil; p = byID[p.Parent] {
		if p.Role == role && p.Name == name {
			return true
		}
	}
	return false
}

// axeAll runs axe-core on the whole page, every rule on (the landmarks and the headings too) but
// label-content-name-mismatch (a card's face has letters drawn in it that its name says in words;
// see checkAxe).
func axeAll(t *testing.T, pg context.Context, axe, what string) {
	t.Helper()
	if !evalJS[bool](t, pg, `typeof window.axe === "object"`) {
		evalJS[bool](t, pg, axe+"\n;true")
	}
	got := evalJS[[]string](t, pg, `(async () => {
		const r = await axe.run(document, { resultTypes: ["violations"], rules: { "label-content-name-mismatch": { enabled: false } } });
		return r.violations.map((v) => v.id + ": " + v.help + " [" + v.nodes.slice(0, 3).map((n) => n.target.join(" ") + " " + n.failureSummary + " " + n.html.slice(0, 200)).join(" | ") + "]");
	})()`)
	for _, v := range got {
		t.Errorf("%s: axe-core: %s", what, v)
	}
}

// TestTableAccessibilityTree: a table against two bots mid-game, at both sizes, read through
// Chromium's accessibility tree (what a screen reader gets), not the DOM: a main landmark and a
// level-1 heading, the table's headings; the one live region (a polite log); each opponent's
// hidden hand one image named "NAME, N cards" and no face-down card read one by one; every card
// of the player's hand a button named in words, the unplayable ones disabled and the playable ones
// not; the room's connection dots named in words. Then `?` opens the keys' dialog (a modal dialog
// in the tree, the focus in it). axe-core, every rule on, finds nothing with the dialog shut or
// open.
func TestTableAccessibilityTree(t *testing.T) {
	url, _ := startServer(t)
	b := browser(t)
	axe := axeJS(t)
	for _, sz := range []struct {
		name string
		w, h int64
	}{{"desktop", desktopW, desktopH}, {"phone", phoneW, phoneH}} {
		t.Run(sz.name, func(t *testing.T) {
			t.Parallel()
			pg := keyPage(t, b, sz.w, sz.h)
			computerRoom(t, pg, url, "hotspot", 3, "")
			click(t, pg, `.felt [data-action=deal]`)
			waitJS(t, pg, `(() => { const v = window.cardhouse.state.room?.table.view; return v && v.phase === "playing" && v.turn === v.viewer && document.querySelector(".my-area .card.legal"); })()`)
			// A hand with cards that cannot be played, if the deal gave none: the table is the same.
			byID, all := axTree(t, pg)
			count := func(pred func(*axNode) bool) (n int) {
				for _, a := range all {
					if !a.Ignored && pred(a) {
						n++
					}
				}
				return n
			}
			if n := count(func(a *axNode) bool { return a.Role == "main" }); n != 1 {
				t.Errorf("%d main landmarks, want 1", n)
			}
			if n := count(func(a *axNode) bool {
				return a.Role == "heading" && a.Props["level"] == "1" && strings.Contains(a.Name, "Hotspot")
			}); n != 1 {
				t.Errorf("%d level-1 headings naming the game, want 1", n)
			}
			for _, h := range []string{"Other players", "The table"} {
				if count(func(a *axNode) bool { return a.Role == "heading" && a.Name == h }) != 1 {
					t.Errorf("no heading %q", h)
				}
			}
			if count(func(a *axNode) bool { return a.Role == "heading" && strings.HasPrefix(a.Name, "Your hand") }) != 1 {
				t.Errorf("no heading of the player's hand")
			}
			if n := count(func(a *axNode) bool { return a.Role == "log" && a.Props["live"] == "polite" }); n != 1 {
				t.Errorf("%d polite log regions, want the one #announcer", n)
			}
			view := evalJS[struct {
				Players []struct {
					Seat      int `json:"seat"`
					HandCount int `json:"hand_count"`
				} `json:"players"`
				Viewer int `json:"viewer"`
			}](t, pg, `window.cardhouse.state.room.table.view`)
			names := evalJS[map[string]string](t, pg, `Object.fromEntries(window.cardhouse.state.room.table.view.players.map((p) => [p.seat, window.cardhouse.state.room.table.player(p.seat).name]))`)
			for _, p := range view.Players {
				if p.Seat == view.Viewer {
					continue
				}
				want := fmt.Sprintf("%s, %d cards", names[fmt.Sprint(p.Seat)], p.HandCount)
				if count(func(a *axNode) bool { return a.Role == "image" && a.Name == want }) != 1 {
					t.Errorf("seat %d's hand is not one image %q", p.Seat, want)
				}
			}
			if n := count(func(a *axNode) bool { return a.Name == "face-down card" && within(byID, a, "group", "other players") }); n != 0 {
				t.Errorf("%d face-down cards read one by one among the other players", n)
			}
			legal := evalJS[map[string]bool](t, pg, `Object.fromEntries([...document.querySelectorAll(".my-area .hand .card")].map((c) => [c.getAttribute("aria-label"), c.classList.contains("legal")]))`)
			seen := 0
			for _, a := range all {
				if a.Ignored || !within(byID, a, "group", "your hand") {
					continue
				}
				lit, ok := legal[a.Name]
				if !ok || a.Role != "button" {
					continue
				}
				seen++
				if disabled := a.Props["disabled"] == "true"; disabled == lit {
					t.Errorf("card %q: disabled %v in the tree, playable %v", a.Name, disabled, lit)
				}
			}
			if seen != len(legal) {
				t.Errorf("%d of the hand's %d cards are buttons named in words in the tree", seen, len(legal))
			}
			// (On a phone the room panel is folded away: its dots are read once it is opened.)
			if n := count(func(a *axNode) bool { return a.Role == "image" && (a.Name == "connected" || a.Name == "away") }); n < 3 && sz.w > 500 {
				t.Errorf("%d connection dots named in words, want one per member (3)", n)
			}
			axeAll(t, pg, axe, "table "+sz.name)
			shot(t, pg, "a11y-table-"+sz.name)

			// The keys' dialog by its key.
			run(t, pg, chromedp.KeyEvent("?"))
			waitJS(t, pg, `document.querySelector("dialog.keys-dialog[open]")?.contains(document.activeElement)`)
			_, all = axTree(t, pg)
			if count(func(a *axNode) bool {
				return a.Role == "dialog" && a.Name == "Keyboard shortcuts" && a.Props["modal"] == "true"
			}) != 1 {
				t.Errorf("no modal dialog named Keyboard shortcuts in the tree")
			}
			axeAll(t, pg, axe, "keys dialog "+sz.name)
			shot(t, pg, "a11y-keys-"+sz.name)
			run(t, pg, chromedp.KeyEvent(kb.Escape))
			waitJS(t, pg, `!document.querySelector("dialog.keys-dialog") && document.activeElement.matches(".my-area .card.legal")`)
			// The focus ring (the key's focus is back on the card): white on blue, apart from the gold.
			shot(t, pg, "a11y-focus-"+sz.name)
		})
	}
}
