package web_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// englishLeftJS lists the English left on the page (docs: web/static/js/i18n.js): every visible
// text node and every visible element's aria-label, title and placeholder, read against the
// catalogs. A text is English when it is one of the catalogs' English texts (the client's
// i18n/fr.json and each variant's Info.Texts["fr"], a key with {placeholders} matching as a
// pattern) that French words otherwise, when it holds one of those texts of two words or more, or
// a word of four letters or more, as whole words, or when it holds an English function word
// ("the", "and", "you"...). ALLOWED is the small list of words that are the same in both:
// player and bot names, the brand, card codes and ranks.
const englishLeftJS = `(async (allowed, exempt) => {
	const fr = await (await fetch("i18n/fr.json")).json();
	const rs = (await (await fetch("/api/rulesets")).json()).rulesets || [];
	const pairs = Object.entries(fr).map(([k, v]) => [k, typeof v === "object" ? Object.values(v) : [v]]);
	for (const d of rs) for (const [k, v] of Object.entries((d.texts || {}).fr || {})) pairs.push([k, [v]]);
	const frenchWords = new Set(pairs.flatMap(([, vs]) => vs.join(" ").split(/[^\p{L}]+/u)).filter(Boolean));
	const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
	const hole = /\{\w+(?::\w+)?\}/g;
	const english = [];
	for (const [k, vs] of pairs) {
		if (vs.includes(k)) continue; // the same in French ("Code", "Total", "Joker")
		const parts = k.split(hole).map(esc);
		const fixed = k.replace(hole, " ").split(/[^\p{L}]+/u).filter(Boolean);
		// A key that is mostly placeholders ("{name}: {card}") says nothing of the language: it
		// counts only with an English word of its own.
		const whole = fixed.some((w) => w.length >= 2 && !frenchWords.has(w)) ? new RegExp("^" + parts.join(".+?") + "$") : null;
		// Containment: a fixed part of two words or more, or one word of four letters or more
		// that French does not use itself.
		let inside = null;
		if (fixed.length >= 2 && parts.length === 1) inside = new RegExp("(^|[^\\p{L}])" + esc(k) + "($|[^\\p{L}])", "u");
		else if (fixed.length === 1 && fixed[0].length >= 4 && parts.length === 1 && !frenchWords.has(fixed[0])) inside = new RegExp("(^|[^\\p{L}])" + esc(fixed[0]) + "($|[^\\p{L}])", "u");
		english.push({ k, whole, inside });
	}
	const FUNCTION = /(^|[^\p{L}])(the|and|you|your|is|are|of|with|this|that|has|was|not|from|will|can|when|into|their|there)($|[^\p{L}])/u;
	const found = new Map();
	const check = (s, where) => {
		s = s.replace(/\s+/g, " ").trim();
		if (!s || !/\p{L}{2}/u.test(s) || allowed.includes(s)) return;
		let rest = s;
		for (const a of allowed) rest = rest.split(a).join(" ");
		for (const e of english) {
			if ((e.whole && e.whole.test(s)) || (e.inside && e.inside.test(rest))) { found.set(s, where + " (English: " + JSON.stringify(e.k) + ")"); return; }
		}
		if (FUNCTION.test(rest)) found.set(s, where + " (an English word)");
	};
	const visible = (el) => el && el.checkVisibility({ visibilityProperty: true }) && !el.closest("[hidden]") && !el.closest(exempt);
	const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	for (let n = walker.nextNode(); n; n = walker.nextNode()) {
		const el = n.parentElement;
		if (!el || el.closest("script, style, noscript") || !visible(el)) continue;
		check(n.textContent, "text in <" + el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.className && typeof el.className === "string" ? "." + el.className.split(" ")[0] : "") + ">");
	}
	for (const el of document.querySelectorAll("[aria-label], [title], [placeholder]")) {
		if (!visible(el) && !el.closest("dialog[open]")) continue;
		for (const a of ["aria-label", "title", "placeholder"]) if (el.hasAttribute(a)) check(el.getAttribute(a), a + " of <" + el.tagName.toLowerCase() + ">");
	}
	check(document.title, "the title");
	return [...found].map(([s, w]) => JSON.stringify(s) + ": " + w);
})`

// houseRulesParts are parts of the pages left out of the check: none since houserules.js's room
// texts (the room form's chooser, the rules in force, the rule output) go through t() (issue 29).
// The selector matches nothing the pages draw.
const houseRulesParts = "[data-no-french-check]"

// frenchAllowed are the words a French page shows as they are: the players' and bots' names, the
// brand, and the cards' codes and ranks (the card faces are drawings; their names are French).
var frenchAllowed = []string{"Ada", "Rosie", "Otto", "Juno", "Pip", "Mabel", "Rex", "Tilly", "Hugo", "Nell", "Cyrus", "Ivy", "Bruno", "Cardhouse", "JK"}

// englishLeft is englishLeftJS's list for the page.
func englishLeft(t *testing.T, pg context.Context) []string {
	t.Helper()
	allowed := `["` + strings.Join(frenchAllowed, `","`) + `"]`
	return evalJS[[]string](t, pg, englishLeftJS+"("+allowed+", "+strconv.Quote(houseRulesParts)+")")
}

// noEnglish fails naming every English text left on the page, and checks that the page says
// it is French.
func noEnglish(t *testing.T, pg context.Context, what string) {
	t.Helper()
	if lang := evalJS[string](t, pg, `document.documentElement.lang + "/" + document.documentElement.dir`); lang != "fr/ltr" {
		t.Errorf("%s: the page is lang/dir %q, want fr/ltr", what, lang)
	}
	left := englishLeft(t, pg)
	for _, s := range left {
		t.Errorf("%s: English left: %s", what, s)
	}
	t.Logf("%s: no English left? %v", what, len(left) == 0)
}

// frenchPage opens a page whose browser asks for French as a French player's does: its
// Accept-Language and navigator.languages say fr-FR, fr (the User-Agent override of the DevTools
// protocol sets both), and its Intl locale is fr-FR.
func frenchPage(t *testing.T, b context.Context, w, h int64) context.Context {
	t.Helper()
	pg := newPage(t, b, w, h)
	ua := evalJS[string](t, pg, `navigator.userAgent`)
	if _, err := chromedp.Call(pg, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua, AcceptLanguage: "fr-FR,fr"}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(pg, emulation.SetLocaleOverride, emulation.SetLocaleOverrideParams{Locale: "fr-FR"}); err != nil {
		t.Fatal(err)
	}
	return pg
}

// newGuest logs the page out (the top bar's button) and enters again as a new guest, Ada.
func newGuest(t *testing.T, pg context.Context) {
	t.Helper()
	click(t, pg, `.topbar .me button.btn`)
	waitJS(t, pg, `document.querySelector("#entry input[name=name]")`)
	fill(t, pg, `#entry input[name=name]`, "Ada")
	click(t, pg, `#entry [data-avatar=sun]`)
	click(t, pg, `#enter`)
	waitJS(t, pg, `document.querySelector(".variants [data-create]")`)
}

// waitLong is waitJS for what the bots may take a while to bring about.
func waitLong(t *testing.T, pg context.Context, js string) {
	t.Helper()
	c, cancel := context.WithTimeout(pg, 2*time.Minute)
	defer cancel()
	if _, err := chromedp.Run(c, chromedp.Poll[chromedp.Void](js)); err != nil {
		t.Fatalf("waiting for %s: %v", js, err)
	}
}

// playSome plays up to n taps of the page's seat (the harness decides each, as in playByHand).
func playSome(t *testing.T, pg context.Context, n int) {
	t.Helper()
	evalJS[bool](t, pg, `__ch.start({})`)
	for i := 0; i < n; i++ {
		// The bots may think a while before the page's seat has something to do.
		c, cancel := context.WithTimeout(pg, 2*time.Minute)
		st, err := chromedp.Run(c, chromedp.Evaluate[tapStep](`__ch.step()`, chromedp.EvalAwaitPromise))
		cancel()
		if err != nil {
			t.Fatalf("deciding tap %d: %v", i+1, err)
		}
		if st.Done {
			return
		}
		if err := tapAt(pg, st.X, st.Y); err != nil {
			t.Fatalf("tapping %s: %v", st.What, err)
		}
	}
}

// TestFrenchEverywhere visits every page in French, the browser asking for it as a French
// player's does: the entry, the lobby, a rules page, the create-room form of each variant, a
// room waiting for its deal, a table of each of the six variants some moves into a game, and the
// summary at the end of a game of Last Card; each lists its English left (englishLeftJS) and
// none may have any, at 1280x800 and 390x844, axe-core clean. The checker itself is shown to find
// the English of the entry page in an English browser first: a check that cannot fail proves
// nothing.
func TestFrenchEverywhere(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	b := browser(t)
	axe := axeJS(t)
	url, _, _, _ := startVariants(t, "lastcard", "hotspot", "drugs", "hearts", "spades", "ginrummy")

	en := newPage(t, b, desktopW, desktopH)
	run(t, en, chromedp.Navigate(url+"/"), chromedp.WaitVisible(`#entry input[name=name]`))
	if left := englishLeft(t, en); len(left) < 5 {
		t.Fatalf("the checker finds only %d English texts on the English entry page: %v", len(left), left)
	}

	for _, size := range []struct {
		name string
		w, h int64
	}{{"desktop", desktopW, desktopH}, {"phone", phoneW, phoneH}} {
		t.Run(size.name, func(t *testing.T) {
			pg := frenchPage(t, b, size.w, size.h)
			run(t, pg, chromedp.Navigate(url+"/"), chromedp.WaitVisible(`#entry input[name=name]`))
			noEnglish(t, pg, "entry")
			checkAxe(t, pg, axe, "entry (fr)")
			shot(t, pg, "fr-entry-"+size.name)
			run(t, pg, chromedp.SendKeys(`#entry input[name=name]`, "Ada"))
			click(t, pg, `#entry [data-avatar=sun]`)
			click(t, pg, `#enter`)
			waitJS(t, pg, `document.querySelector(".variants [data-create]")`)
			noEnglish(t, pg, "lobby")
			checkAxe(t, pg, axe, "lobby (fr)")
			shot(t, pg, "fr-lobby-"+size.name)

			run(t, pg, chromedp.Navigate(url+"/#/rules/lastcard"))
			waitJS(t, pg, `document.querySelector("#rules h1")`)
			noEnglish(t, pg, "rules of Last Card")

			for i, id := range []string{"lastcard", "hotspot", "drugs", "hearts", "spades", "ginrummy"} {
				// A page loaded afresh for each variant (the query differs), as a player opening
				// the site again.
				run(t, pg, chromedp.Navigate(url+"/?"+id+"#/"))
				waitJS(t, pg, `document.querySelector(".variants [data-create]")`)
				if i == 4 {
					// One player hosts at most five open rooms: another guest opens the rest.
					newGuest(t, pg)
				}
				tap(t, pg, fmt.Sprintf(`[data-create=%q]`, id))
				waitJS(t, pg, `document.querySelector("#create-room")`)
				// Every option shown: the computer's levels too.
				evalJS[bool](t, pg, `(() => { const f = document.querySelector("#create-room");
					f.elements.mode.value = "computer"; f.elements.mode.dispatchEvent(new Event("change")); return true; })()`)
				noEnglish(t, pg, "create-room "+id)
				if id == "lastcard" {
					checkAxe(t, pg, axe, "create-room (fr)")
				}
				tap(t, pg, `#create-room button[type=submit]`)
				waitLong(t, pg, `(location.hash.startsWith("#/room/") && document.querySelector("#room-code")?.textContent) || [...document.querySelectorAll("#create-room .error-text")].some((e) => e.textContent)`)
				if msg := evalJS[string](t, pg, `[...document.querySelectorAll("#create-room .error-text")].map((e) => e.textContent).join(" | ")`); strings.Trim(msg, " |") != "" {
					shot(t, pg, "fr-create-refused-"+id+"-"+size.name)
					t.Fatalf("creating a %s room: %s", id, msg)
				}
				if id == "lastcard" {
					noEnglish(t, pg, "room waiting for its deal")
				}
				click(t, pg, `.felt [data-action=deal]`)
				waitJS(t, pg, `document.querySelector(".felt[data-phase]")`)
				if id == "spades" {
					// The harness bids no contract: the player bids by hand, once the bots before
					// them have, and the bid's dialog is read too.
					waitLong(t, pg, `document.querySelector(".actions [data-action=bid]:not([disabled])")`)
					click(t, pg, `.actions [data-action=bid]`)
					waitJS(t, pg, `document.querySelector(".picker-dialog [data-choice]")`)
					noEnglish(t, pg, "the bid's dialog")
					click(t, pg, `.picker-dialog [data-choice]`)
				} else {
					playSome(t, pg, 4)
				}
				waitJS(t, pg, `!document.querySelector(".table-wrap.busy")`)
				noEnglish(t, pg, "table of "+id)
				checkAxe(t, pg, axe, "table of "+id+" (fr)")
				shot(t, pg, "fr-table-"+id+"-"+size.name)
			}

			// A whole game of Last Card, a single round against one bot, to its summary.
			run(t, pg, chromedp.Navigate(url+"/?summary#/"))
			waitJS(t, pg, `document.querySelector(".variants [data-create]")`)
			newGuest(t, pg)
			noEnglish(t, pg, "lobby with open rooms")
			shot(t, pg, "fr-lobby-rooms-"+size.name)
			tap(t, pg, `[data-create="lastcard"]`)
			waitJS(t, pg, `document.querySelector("#create-room")`)
			evalJS[bool](t, pg, `(() => { const f = document.querySelector("#create-room");
				f.elements.mode.value = "computer"; f.elements.mode.dispatchEvent(new Event("change"));
				f.elements.seats.value = 2; f.elements.seats.dispatchEvent(new Event("input")); f.elements.target.value = "single"; return true; })()`)
			tap(t, pg, `#create-room button[type=submit]`)
			waitJS(t, pg, `location.hash.startsWith("#/room/") && document.querySelector("#room-code")?.textContent`)
			click(t, pg, `.felt [data-action=deal]`)
			waitJS(t, pg, `document.querySelector(".felt[data-phase]")`)
			playGame(t, []player{{pg, `{}`}}, func() {})
			waitJS(t, pg, `document.querySelector("#summary")`)
			noEnglish(t, pg, "summary")
			checkAxe(t, pg, axe, "summary (fr)")
			shot(t, pg, "fr-summary-"+size.name)
		})
	}
}
