package web_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"cardhouse/web"
)

// TestVendoredModules: every third-party module under static/vendor is the file MANIFEST.tsv
// recorded (its sha256, taken from the package's npm tarball by vendor/update.sh) with its
// package's licence beside it, and index.html's import map names exactly those files, each
// once: the editor's code is the authors' release, not our build output, and nothing vendored
// is left unused or unchecked.
func TestVendoredModules(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	st := web.Static()
	f, err := st.Open("vendor/MANIFEST.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Scan() // the header
	for sc.Scan() {
		col := strings.Split(sc.Text(), "\t")
		if len(col) != 5 || !strings.HasPrefix(col[4], "sha512-") {
			t.Fatalf("MANIFEST.tsv line %q: want package, version, file, sha256, tarball integrity", sc.Text())
		}
		file := path.Join("vendor", col[0], col[2])
		b, err := fs.ReadFile(st, file)
		if err != nil {
			t.Errorf("%s@%s: %v", col[0], col[1], err)
			continue
		}
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != col[3] {
			t.Errorf("%s is not %s@%s's file as vendored (sha256 %x, the manifest says %s): run vendor/update.sh, never edit it", file, col[0], col[1], sum, col[3])
		}
		if lic, err := fs.ReadFile(st, path.Join("vendor", col[0], "LICENSE")); err != nil || !strings.Contains(string(lic), "MIT") {
			t.Errorf("%s: no MIT licence beside it (%v)", col[0], err)
		}
		want["/"+file] = true
	}
	if len(want) == 0 {
		t.Fatal("MANIFEST.tsv lists nothing")
	}
	page, err := fs.ReadFile(st, "index.html")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)<script type="importmap">(.*?)</script>`).FindSubmatch(page)
	if m == nil {
		t.Fatal("index.html has no import map")
	}
	var imap struct{ Imports map[string]string }
	if err := json.Unmarshal(m[1], &imap); err != nil {
		t.Fatalf("index.html's import map: %v", err)
	}
	var mapped []string
	for name, file := range imap.Imports {
		if !want[file] {
			t.Errorf("the import map's %q is %s, not a file of MANIFEST.tsv", name, file)
		}
		mapped = append(mapped, file)
	}
	for file := range want {
		if !slices.Contains(mapped, file) {
			t.Errorf("%s is vendored but the import map does not name it", file)
		}
	}
	// Nothing else lies in vendor/ but the manifest, its script and the licences.
	fs.WalkDir(st, "vendor", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || want["/"+p] || path.Base(p) == "LICENSE" || p == "vendor/MANIFEST.tsv" || p == "vendor/update.sh" {
			return err
		}
		t.Errorf("%s is in vendor/ but not in MANIFEST.tsv", p)
		return nil
	})
}

// TestImportMapAllowed: the server's Content-Security-Policy allows index.html's import map by its
// hash (and no inline script else), so the page can load the editor's modules.
func TestImportMapAllowed(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	base, _ := startServer(t)
	res, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	csp := res.Header.Get("Content-Security-Policy")
	hashes := web.ScriptHashes()
	if len(hashes) != 1 {
		t.Fatalf("index.html has %d inline scripts, want its import map alone", len(hashes))
	}
	if !strings.Contains(csp, "script-src 'self' "+hashes[0]+";") || strings.Contains(csp, "unsafe-inline") {
		t.Errorf("the CSP %q does not allow the import map (%s) alone", csp, hashes[0])
	}
}

const editorBug = `name = "ed-bug"
description = "A rule with a slip."
function after_action(game, action)
  print("seat " .. action.seat .. " played")
  local x = = 1
end
`

// TestRuleEditor: the house-rule editor (CodeMirror, vendored) shows line numbers and
// highlights Lua; a check of a script with a slip marks the error's line in the editor, and the
// problem's "Go to line" button, tapped, puts the cursor on it. At a phone's and a desktop's
// size, axe-clean.
func TestRuleEditor(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	base, _, _ := startPlatform(t)
	b := browser(t)
	axe := axeJS(t)
	const bad = 5
	for _, sz := range []screen{{"phone", phoneW, phoneH}, {"desktop", desktopW, desktopH}} {
		t.Run(sz.name, func(t *testing.T) {
			apiModder(t, base, "mo-ed-"+sz.name)
			pg := newPage(t, b, sz.w, sz.h)
			logIn(t, pg, base, "mo-ed-"+sz.name)
			tap(t, pg, `#house-rules-link`)
			waitJS(t, pg, `document.querySelector("#rule-upload") && document.querySelector("#my-rules")`)
			typeText(t, pg, `#rule-source`, editorBug)
			if got := evalJS[string](t, pg, `document.querySelector("#rule-source").value`); got != editorBug {
				t.Fatalf("the editor holds %q, want what was typed", got)
			}
			t.Logf("csp after typing: %q", record(t, pg).CSP)
			const shadow = `document.querySelector("#rule-source").shadowRoot`
			if got := evalJS[[]string](t, pg, `[...`+shadow+`.querySelectorAll(".cm-lineNumbers .cm-gutterElement")].map((e) => e.textContent).filter((s) => s)`); !slices.Contains(got, "6") {
				t.Errorf("line numbers %v: want 1 to 7", got)
			}
			// "function" and "local" are keywords, "seat " a string: each in its own colour.
			colour := func(word string) string {
				return evalJS[string](t, pg, fmt.Sprintf(`(() => { const s = [...%s.querySelectorAll(".cm-line span")].find((e) => e.textContent === %q); return s ? getComputedStyle(s).color : ""; })()`, shadow, word))
			}
			kw, str, plain := colour("function"), colour(`"seat "`), evalJS[string](t, pg, `getComputedStyle(`+shadow+`.querySelector(".cm-content")).color`)
			if kw == "" || str == "" || kw == plain || str == plain || kw == str {
				t.Errorf("no highlighting: keyword %q, string %q, text %q", kw, str, plain)
			}
			if evalJS[bool](t, pg, shadow+`.querySelector(".cm-error-line") !== null`) {
				t.Fatal("an error line is marked before any check")
			}
			tap(t, pg, `#rule-upload input[data-ruleset=hotspot]`)
			tap(t, pg, `#rule-check`)
			waitCheck(t, pg, `document.querySelector(".rule-problem[data-line]")`)
			if got := evalJS[int](t, pg, `Number(document.querySelector(".rule-problem").dataset.line)`); got != bad {
				t.Fatalf("the problem is on line %d, want %d: %s", got, bad, text(t, pg, ".rule-problem"))
			}
			// The editor marks the line: its text and its number in the gutter.
			waitJS(t, pg, shadow+`.querySelector(".cm-error-line") !== null`)
			if got := evalJS[string](t, pg, shadow+`.querySelector(".cm-error-line").textContent`); got != "  local x = = 1" {
				t.Errorf("the marked line reads %q, want line %d", got, bad)
			}
			if got := evalJS[string](t, pg, shadow+`.querySelector(".cm-error-gutter")?.textContent || ""`); got != fmt.Sprint(bad) {
				t.Errorf("the gutter marks line %q, want %d", got, bad)
			}
			// The buttons, back from their busy look (a .15 s fade), before axe reads their contrast.
			waitJS(t, pg, `getComputedStyle(document.querySelector("#rule-check")).opacity === "1"`)
			checkAxe(t, pg, axe, "the editor with an error")
			shot(t, pg, "rule-editor-error-"+sz.name)
			// Go to line: the cursor lands on the line, the editor has the focus.
			evalJS[bool](t, pg, `(document.querySelector("#rule-source").view.dispatch({ selection: { anchor: 0 } }), true)`)
			tap(t, pg, `[data-go-to-line="5"]`)
			waitJS(t, pg, `document.activeElement?.id === "rule-source"`)
			if got := evalJS[int](t, pg, `(() => { const v = document.querySelector("#rule-source").view; return v.state.doc.lineAt(v.state.selection.main.head).number; })()`); got != bad {
				t.Errorf("Go to line put the cursor on line %d, want %d", got, bad)
			}
			fits(t, pg, "the editor")
			if rec := record(t, pg); len(rec.CSP) > 0 {
				t.Errorf("content security policy violations: %q", rec.CSP)
			}
		})
	}
}

const tableRule = `name = "table-talk"
description = "Says what was played."
function after_action(game, action)
  print("played " .. action.type)
end
`

// tableBroken fails at its line 5 in the first action's hook.
const tableBroken = `name = "table-talk"
description = "Says what was played."
function after_action(game, action)
  print("played " .. action.type)
  local n = game.nothing.here
end
`

// TestRuleTestTable: beside the editor, the test table plays a game of Hotspot against bots with
// the script as edited (nothing uploaded): the console shows the deal, the actions and what the
// rule printed, as the game runs, and its end. An edit plays it again by itself: a slip fails the
// game, the console names line 5 and the editor marks it; fixed, the game plays to its end again
// and the mark is gone. Nothing was uploaded. Real taps, at a phone's and a desktop's size,
// axe-clean, no CSP violation.
func TestRuleTestTable(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	base, _, _ := startPlatform(t)
	b := browser(t)
	axe := axeJS(t)
	for _, sz := range []screen{{"phone", phoneW, phoneH}, {"desktop", desktopW, desktopH}} {
		t.Run(sz.name, func(t *testing.T) {
			apiModder(t, base, "mo-table-"+sz.name)
			pg := newPage(t, b, sz.w, sz.h)
			logIn(t, pg, base, "mo-table-"+sz.name)
			tap(t, pg, `#house-rules-link`)
			waitJS(t, pg, `document.querySelector("#rule-test") && document.querySelector("#my-rules")`)
			typeText(t, pg, `#rule-source`, tableRule)
			evalJS[bool](t, pg, `(() => { const s = document.querySelector("#try-ruleset"); s.value = "hotspot"; s.dispatchEvent(new Event("change")); return true; })()`)
			tap(t, pg, `#rule-try`)
			waitCheck(t, pg, `document.querySelector("#rule-console").dataset.done === "ended"`)
			lines := evalJS[[]string](t, pg, `[...document.querySelectorAll("#rule-console .console-line")].map((l) => l.className.split(" ")[1] + "|" + l.textContent)`)
			if len(lines) < 4 || !strings.HasPrefix(lines[0], "start|table-talk") || !strings.HasPrefix(lines[len(lines)-1], "end|") {
				t.Fatalf("the console: %q", lines)
			}
			outputs := 0
			for i, l := range lines {
				if strings.HasPrefix(l, "output|") {
					outputs++
					if !strings.HasPrefix(lines[i-1], "action|") || l != "output|[after_action] played "+lines[i-1][strings.LastIndex(lines[i-1], ": ")+2:] {
						t.Errorf("console line %q does not follow its action (%q)", l, lines[i-1])
					}
				}
			}
			if outputs == 0 {
				t.Errorf("the console shows nothing the rule printed: %q", lines)
			}
			waitJS(t, pg, `getComputedStyle(document.querySelector("#rule-try")).opacity === "1"`)
			checkAxe(t, pg, axe, "the test table after a game")
			shot(t, pg, "rule-test-table-"+sz.name)

			// An edit plays again by itself: the slip fails, its line is marked in the editor.
			run1 := evalJS[string](t, pg, `document.querySelector("#rule-console").dataset.run`)
			typeText(t, pg, `#rule-source`, tableBroken)
			waitCheck(t, pg, fmt.Sprintf(`document.querySelector("#rule-console").dataset.run !== %q && document.querySelector("#rule-console").dataset.done === "failed"`, run1))
			if got := evalJS[string](t, pg, `document.querySelector("#rule-console .failure")?.dataset.line || ""`); got != "5" {
				t.Errorf("the failure names line %q, want 5: %s", got, text(t, pg, "#rule-console"))
			}
			const shadow = `document.querySelector("#rule-source").shadowRoot`
			waitJS(t, pg, shadow+`.querySelector(".cm-error-line")?.textContent === "  local n = game.nothing.here"`)
			checkAxe(t, pg, axe, "the test table after a failure")
			shot(t, pg, "rule-test-table-failed-"+sz.name)

			// Fixed by an edit, it plays to its end again and the mark is gone.
			run2 := evalJS[string](t, pg, `document.querySelector("#rule-console").dataset.run`)
			typeText(t, pg, `#rule-source`, tableRule)
			waitCheck(t, pg, fmt.Sprintf(`document.querySelector("#rule-console").dataset.run !== %q && document.querySelector("#rule-console").dataset.done === "ended"`, run2))
			if evalJS[bool](t, pg, shadow+`.querySelector(".cm-error-line") !== null`) {
				t.Error("the error line is still marked after the fixed game")
			}
			if got := text(t, pg, "#my-rules"); !strings.Contains(got, "None yet") {
				t.Errorf("My rules reads %q after test games: something was uploaded", got)
			}
			fits(t, pg, "the test table")
			if rec := record(t, pg); len(rec.CSP) > 0 {
				t.Errorf("content security policy violations: %q", rec.CSP)
			}
		})
	}
}
