package web_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// keyboardJS is testdata/keyboard.js, the keyboard player injected beside the harness.
var keyboardJS = sync.OnceValues(func() (string, error) {
	b, err := os.ReadFile(filepath.Join("testdata", "keyboard.js"))
	return string(b), err
})

// keyPage is newPage with the keyboard player in it too.
func keyPage(t *testing.T, b context.Context, w, h int64) context.Context {
	t.Helper()
	pg := newPage(t, b, w, h)
	src, err := keyboardJS()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(pg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src}); err != nil {
		t.Fatal(err)
	}
	return pg
}

// keyNames are the keys the player names, as chromedp types them.
var keyNames = map[string]string{"Enter": kb.Enter, "Escape": kb.Escape, "ArrowRight": kb.ArrowRight, "ArrowLeft": kb.ArrowLeft, "Home": kb.Home, " ": " ", "?": "?"}

// kbStep is one answer of __kb.step: a key wanted, or the end of the game.
type kbStep struct {
	Key   string  `json:"key"`
	What  string  `json:"what"`
	Done  bool    `json:"done"`
	Stats kbStats `json:"stats"`
}

type kbStats struct {
	Keys       int      `json:"keys"`
	Moves      int      `json:"moves"`
	Checks     int      `json:"checks"`
	Idle       int      `json:"idle"`
	Arrows     int      `json:"arrows"`
	Dialogs    int      `json:"dialogs"`
	Spaces     int      `json:"spaces"`
	Help       int      `json:"help"`
	HelpText   string   `json:"helpText"`
	Rounds     int      `json:"rounds"`
	Phase      string   `json:"phase"`
	Winner     int      `json:"winner"`
	Error      string   `json:"error"`
	Actions    string   `json:"actions"`
	Trace      []string `json:"trace"`
	Unexpected []string `json:"unexpected"`
	Views      int      `json:"views"`
	Retries    int      `json:"retries"`
	Lost       []string `json:"lost"`
}

// playByKeys plays the page's seat to the end of the game with key events alone: the player in
// the page checks where the focus is after every move and names the next key; this presses it.
func playByKeys(ctx context.Context, opts string) (kbStats, error) {
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`__kb.start(`+opts+`)`)); err != nil {
		return kbStats{}, err
	}
	for {
		st, err := chromedp.Run(ctx, chromedp.Evaluate[kbStep](`__kb.step()`, chromedp.EvalAwaitPromise))
		if err != nil {
			return kbStats{}, fmt.Errorf("deciding the next key: %w", err)
		}
		if st.Done {
			return st.Stats, nil
		}
		k, ok := keyNames[st.Key]
		if !ok {
			return kbStats{}, fmt.Errorf("the player wants an unknown key %q", st.Key)
		}
		if err := chromedp.Do(ctx, chromedp.KeyEvent(k)); err != nil {
			return kbStats{}, fmt.Errorf("pressing %q on %s: %w", st.Key, st.What, err)
		}
	}
}

// computerRoom makes a room against bots from the lobby (setup by pointer, as in
// TestPlayAgainstBots) and returns once the host's Deal button is on the table.
func computerRoom(t *testing.T, pg context.Context, url, ruleset string, seats int, options string) {
	t.Helper()
	enter(t, pg, url, "Ada", "sun")
	click(t, pg, fmt.Sprintf(`[data-create=%q]`, ruleset))
	waitJS(t, pg, `document.querySelector("#create-room")`)
	evalJS[bool](t, pg, fmt.Sprintf(`(() => { const f = document.querySelector("#create-room");
		f.elements.mode.value = "computer"; f.elements.mode.dispatchEvent(new Event("change"));
		f.elements.seats.value = %d; f.elements.seats.dispatchEvent(new Event("input")); %s return true; })()`, seats, options))
	click(t, pg, `#create-room button[type=submit]`)
	waitJS(t, pg, `location.hash.startsWith("#/room/") && document.querySelector("#room-code")?.textContent`)
}

// TestKeyboardOnly: a whole game of Hotspot, DRUGS and Last Card against two bots, played with
// key events alone (no pointer event reaches the page from the deal to the end), on a desktop,
// and Last Card on a phone. After every move the focus is where the player acts next (a playable
// card, the LAST CARD call, the action that follows, a choice), never on <body>; the hand is one
// tab stop, never an unplayable card while a playable one is there, and the unplayable ones are
// aria-disabled; the arrows move within the hand and within a choice; `?` opens the help dialog,
// Esc closes it and the focus comes back.
func TestKeyboardOnly(t *testing.T) {
	url, _ := startServer(t)
	b := browser(t)
	cases := []struct {
		name, ruleset string
		w, h          int64
		options       string
	}{
		{"hotspot-desktop", "hotspot", desktopW, desktopH, ""},
		{"drugs-desktop", "drugs", desktopW, desktopH, `f.elements.overdose.value = 3;`},
		{"lastcard-desktop", "lastcard", desktopW, desktopH, `f.elements.target.value = "single";`},
		{"lastcard-phone", "lastcard", phoneW, phoneH, `f.elements.target.value = "single";`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			pg := keyPage(t, b, c.w, c.h)
			computerRoom(t, pg, url, c.ruleset, 3, c.options)
			click(t, pg, `.felt [data-action=deal]`)
			waitJS(t, pg, `document.querySelector(".felt[data-phase]")`)
			ctx, cancel := context.WithTimeout(pg, 4*time.Minute)
			defer cancel()
			st, err := playByKeys(ctx, `{help: true}`)
			if err != nil {
				shot(t, pg, "keyboard-failure-"+c.name)
				t.Fatal(err)
			}
			if st.Error != "" {
				shot(t, pg, "keyboard-failure-"+c.name)
				t.Fatalf("%s (after %v; open actions %s)", st.Error, strings.Join(st.Trace, " | "), st.Actions)
			}
			if len(st.Lost) > 0 {
				t.Errorf("the focus fell to <body> after %d of %d views: %q", len(st.Lost), st.Views, st.Lost)
			}
			if n := evalJS[int](t, pg, `__kb.pointers.n`); n != 0 {
				t.Errorf("%d pointer events reached the page during the game", n)
			}
			if st.Phase != "game_over" || st.Moves == 0 {
				t.Errorf("the game ended in phase %q after %d moves", st.Phase, st.Moves)
			}
			if st.Arrows == 0 || st.Help != 2 {
				t.Errorf("arrows tried %d times, the help dialog opened and closed %d/2", st.Arrows, st.Help)
			}
			if !strings.Contains(st.HelpText, "Draw a card") || !strings.Contains(st.HelpText, "Call LAST CARD") {
				t.Errorf("the help dialog's keys %q do not list the shortcuts", st.HelpText)
			}
			// At the end the focus is on the summary's first button.
			if got := evalJS[string](t, pg, `document.activeElement?.closest(".overlay-center") ? "summary" : document.activeElement?.tagName`); got != "summary" {
				t.Errorf("at the end of the game the focus is on %s, not the summary", got)
			}
			shot(t, pg, "keyboard-"+c.name+"-over")
			t.Logf("%s: %d keys, %d moves, %d views, %d focus checks (%d off turn), %d choices, %d moves pressed again after a lost connection; winner %d; %v",
				c.name, st.Keys, st.Moves, st.Views, st.Checks, st.Idle, st.Dialogs, st.Retries, st.Winner, time.Since(start).Round(time.Millisecond))
		})
	}
}

// TestKeyboardFamilies: the parts of the trick and rummy games played by keys alone on their
// fixtures, at both sizes: Hearts' pass of three (Space chooses, the arrows go on, the focus
// moves to Pass 3 cards once three are chosen, Enter sends them), Spades' bid (the focus on Bid,
// Enter opens the picker with the focus on its first choice, the arrows move in it, Enter bids),
// Gin's draw (the focus on the first draw, the arrows move along the bar, Enter draws) and a
// layoff (Enter on the card).
func TestKeyboardFamilies(t *testing.T) {
	b := browser(t)
	base := previewServer(t)
	for _, sz := range []struct {
		name string
		w, h int64
	}{{"desktop", desktopW, desktopH}, {"phone", phoneW, phoneH}} {
		t.Run(sz.name, func(t *testing.T) {
			t.Parallel()
			pg := newPage(t, b, sz.w, sz.h)
			press := func(keys ...string) {
				t.Helper()
				for _, k := range keys {
					run(t, pg, chromedp.KeyEvent(k))
				}
			}
			focus := func(want string) {
				t.Helper()
				waitJS(t, pg, fmt.Sprintf(`document.activeElement?.matches(%q)`, want))
			}

			// Hearts: the first card takes the focus; three chosen by Space and the arrows.
			showFixture(t, pg, base, "hearts-pass", `{}`)
			focus(`.my-area .hand .card.legal[data-index="0"]`)
			press(" ", kb.ArrowRight)
			focus(`.my-area .hand .card[data-index="1"]`)
			press(" ", kb.ArrowRight, kb.ArrowRight)
			focus(`.my-area .hand .card[data-index="3"]`)
			if got := evalJS[string](t, pg, `document.querySelector(".count-status").textContent`); got != "2 of 3 chosen" {
				t.Errorf("after two Spaces: %q", got)
			}
			press(" ")
			focus(`.actions [data-action="pass_cards"]:not([disabled])`)
			press(kb.Enter)
			if got := sentJSON(t, pg); got != `{"cards":["2C","8C","KC"],"type":"pass_cards"}` {
				t.Errorf("sent %s, want the three cards chosen by keys", got)
			}

			// Spades: Bid, then the third choice of the picker.
			showFixture(t, pg, base, "spades-bid", `{}`)
			focus(`.actions [data-action="bid"]`)
			press(kb.Enter)
			focus(`dialog[open] [data-choice="nil"]`)
			press(kb.ArrowRight, kb.ArrowRight)
			focus(`dialog[open] [data-choice="2"]`)
			press(kb.Enter)
			if got := sentJSON(t, pg); got != `{"args":{"choice":"2"},"type":"bid"}` {
				t.Errorf("sent %s, want a bid of 2 chosen by keys", got)
			}

			// Gin: the draw from the stock has the focus; the arrow goes on to the discard.
			showFixture(t, pg, base, "gin-draw", `{}`)
			focus(`.actions [data-action="draw"][data-from="stock"]`)
			press(kb.ArrowRight)
			focus(`.actions [data-action="draw"][data-from="discard"]`)
			press(kb.Enter)
			if got := sentJSON(t, pg); got != `{"from":"discard","type":"draw"}` {
				t.Errorf("sent %s, want a draw from the discard by keys", got)
			}
			// A layoff: Enter on the first card that lays off sends it onto the meld it fits (the
			// sevens), as a second tap on a picked card does.
			showFixture(t, pg, base, "gin-knock", `{}`)
			focus(`.my-area .hand .card.legal[data-code="7C"]`)
			press(kb.Enter)
			if got := sentJSON(t, pg); got != `{"cards":["7C"],"index":0,"target":1,"type":"layoff"}` {
				t.Errorf("sent %s, want a layoff of 7C onto seat 1's sevens", got)
			}
			if rec := record(t, pg); len(rec.CSP) > 0 {
				t.Errorf("content security policy violations: %v", rec.CSP)
			}
		})
	}
}
