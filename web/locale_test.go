package web_test

import (
	"context"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// langDir is the page's <html lang> and dir.
func langDir(t *testing.T, pg context.Context) string {
	t.Helper()
	return evalJS[string](t, pg, `document.documentElement.lang + "/" + document.documentElement.dir`)
}

// pressKey sends a key press (down and up) to the focused element, as a keyboard does.
func pressKey(t *testing.T, pg context.Context, key, code string, vk int64) {
	t.Helper()
	for _, typ := range []input.DispatchKeyEventType{input.DispatchKeyEventTypeRawKeyDown, input.DispatchKeyEventTypeKeyUp} {
		if _, err := chromedp.Call(pg, input.DispatchKeyEvent, input.DispatchKeyEventParams{Type: typ, Key: key, Code: code, WindowsVirtualKeyCode: vk, NativeVirtualKeyCode: vk}); err != nil {
			t.Fatalf("pressing %s: %v", key, err)
		}
	}
}

// TestLanguageSwitch: a player on an English page reaches the top bar's language switch with the
// keyboard (Tab, by its name "Language"), picks Français with the arrow keys: the page is French
// at once (lang="fr"), after a reload too (this browser remembers), and the account remembers it:
// signing in from a fresh browser whose languages say English gives the French page.
func TestLanguageSwitch(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	b := browser(t)
	url, _, _, _ := startVariants(t, "lastcard")
	pg := newPage(t, b, desktopW, desktopH)
	run(t, pg, chromedp.Navigate(url+"/"), chromedp.WaitVisible(`#entry input[name=name]`))
	if got := langDir(t, pg); got != "en/ltr" {
		t.Fatalf("an English browser's page is %s", got)
	}
	click(t, pg, `#entry [data-mode=register]`)
	fill(t, pg, `#entry input[name=username]`, "ada")
	fill(t, pg, `#entry input[name=password]`, "correct horse")
	fill(t, pg, `#entry input[name=name]`, "Ada")
	click(t, pg, `#enter`)
	waitJS(t, pg, `document.querySelector(".variants [data-create]")`)

	// Tab from the top of the page until the focus is on the switch: its accessible name says what
	// it is.
	evalJS[bool](t, pg, `(document.activeElement && document.activeElement.blur(), window.focus(), true)`)
	found := false
	for i := 0; i < 8 && !found; i++ {
		pressKey(t, pg, "Tab", "Tab", 9)
		found = evalJS[bool](t, pg, `document.activeElement?.id === "locale-switch" && document.activeElement.getAttribute("aria-label") === "Language"`)
	}
	if !found {
		t.Fatalf("Tab never reached the language switch named Language (focus on %s)", evalJS[string](t, pg, `document.activeElement?.outerHTML.slice(0, 120) || ""`))
	}
	// English, Français, العربية: one arrow down picks French.
	pressKey(t, pg, "ArrowDown", "ArrowDown", 40)
	waitJS(t, pg, `document.documentElement.lang === "fr" && document.querySelector("#house-rules-link")?.textContent === "Règles maison"`)
	shot(t, pg, "switch-fr-lobby")
	run(t, pg, chromedp.Reload())
	waitJS(t, pg, `document.querySelector(".variants [data-create]")`)
	if got := langDir(t, pg); got != "fr/ltr" {
		t.Fatalf("after a reload the page is %s, want fr/ltr", got)
	}

	// A fresh browser, English by its languages, signing in to the account: French.
	other := newPage(t, b, phoneW, phoneH)
	run(t, other, chromedp.Navigate(url+"/"), chromedp.WaitVisible(`#entry input[name=name]`))
	if got := langDir(t, other); got != "en/ltr" {
		t.Fatalf("the fresh browser's page is %s before signing in", got)
	}
	click(t, other, `#entry [data-mode=login]`)
	fill(t, other, `#entry input[name=username]`, "ada")
	fill(t, other, `#entry input[name=password]`, "correct horse")
	click(t, other, `#enter`)
	waitJS(t, other, `document.querySelector(".variants [data-create]") && document.documentElement.lang === "fr"`)
	if got := evalJS[string](t, other, `document.querySelector("#locale-switch").value`); got != "fr" {
		t.Fatalf("signed in, the switch says %q", got)
	}
}

// TestArabicRightToLeft: a browser asking for Arabic gets the site in Arabic (partly translated:
// English where ar.json has no text yet), laid out right to left: <html dir="rtl">, the brand at
// the right of the top bar and the player at its left, the player's hand and the seats flowing
// from the right; the lobby and a table of Last Card against bots at 390x844 and 1280x800, axe-core
// clean, in screenshots (looked at).
func TestArabicRightToLeft(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	b := browser(t)
	axe := axeJS(t)
	url, _, _, _ := startVariants(t, "lastcard", "hearts")
	for _, size := range []struct {
		name string
		w, h int64
	}{{"desktop", desktopW, desktopH}, {"phone", phoneW, phoneH}} {
		t.Run(size.name, func(t *testing.T) {
			pg := newPage(t, b, size.w, size.h)
			ua := evalJS[string](t, pg, `navigator.userAgent`)
			if _, err := chromedp.Call(pg, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua, AcceptLanguage: "ar-EG,ar"}); err != nil {
				t.Fatal(err)
			}
			run(t, pg, chromedp.Navigate(url+"/"), chromedp.WaitVisible(`#entry input[name=name]`))
			if got := langDir(t, pg); got != "ar/rtl" {
				t.Fatalf("an Arabic browser's page is %s, want ar/rtl", got)
			}
			if got := evalJS[string](t, pg, `document.querySelector("#enter").textContent`); got != "العب كضيف" {
				t.Errorf("the entry's button says %q, want it in Arabic", got)
			}
			checkAxe(t, pg, axe, "entry (ar)")
			run(t, pg, chromedp.SendKeys(`#entry input[name=name]`, "Ada"))
			click(t, pg, `#entry [data-avatar=sun]`)
			click(t, pg, `#enter`)
			waitJS(t, pg, `document.querySelector(".variants [data-create]")`)
			// Right to left: the brand sits right of the player's name in the top bar.
			if !evalJS[bool](t, pg, `document.querySelector(".topbar .brand").getBoundingClientRect().left > document.querySelector(".topbar .me").getBoundingClientRect().right`) {
				t.Errorf("the top bar is not laid out right to left")
			}
			checkAxe(t, pg, axe, "lobby (ar)")
			shot(t, pg, "ar-lobby-"+size.name)

			tap(t, pg, `[data-create="lastcard"]`)
			waitJS(t, pg, `document.querySelector("#create-room")`)
			evalJS[bool](t, pg, `(() => { const f = document.querySelector("#create-room");
				f.elements.mode.value = "computer"; f.elements.mode.dispatchEvent(new Event("change"));
				f.elements.seats.value = 4; f.elements.seats.dispatchEvent(new Event("input")); return true; })()`)
			shot(t, pg, "ar-create-"+size.name)
			tap(t, pg, `#create-room button[type=submit]`)
			waitJS(t, pg, `location.hash.startsWith("#/room/") && document.querySelector("#room-code")?.textContent`)
			click(t, pg, `.felt [data-action=deal]`)
			waitJS(t, pg, `document.querySelector(".hand .card")`)
			playSome(t, pg, 3)
			waitJS(t, pg, `!document.querySelector(".table-wrap.busy")`)
			// The hand flows from the right: its first card lies right of its last.
			if !evalJS[bool](t, pg, `(() => { const c = document.querySelectorAll(".hand .card"); return c.length < 2 || c[0].getBoundingClientRect().left > c[c.length - 1].getBoundingClientRect().left; })()`) {
				t.Errorf("the hand is not laid out right to left")
			}
			checkAxe(t, pg, axe, "table (ar)")
			shot(t, pg, "ar-table-"+size.name)
		})
	}
}
