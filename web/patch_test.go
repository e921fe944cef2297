package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"cardhouse/platform/viewpatch"
	"cardhouse/plugins/builtin"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest"
	"cardhouse/web"

	"github.com/chromedp/chromedp"
)

// patchCase is one viewer's views through a game: the first full view, then each next view's
// patch (as the server computes it) and the view it must give.
type patchCase struct {
	Name    string            `json:"name"`
	Start   json.RawMessage   `json:"start"`
	Patches []json.RawMessage `json:"patches"`
	want    [][]byte
}

// TestPatchJSMatchesGo: the web client's applyPatch (js/patch.js), run in Chromium, rebuilds
// from the server's patches every view of a random game of each built-in variant, for every seat
// and the spectators, as the server's views are (the same JSON value): the patches the room
// computes (viewpatch.Diff) and those a sticky plugin writes from the typed views
// (sdk.AppendViewPatch).
func TestPatchJSMatchesGo(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	b := browser(t)
	ctx := context.Background()
	var cases []patchCase
	for id, mk := range builtin.Engines() {
		var steps [][][]byte
		keep := func(st *engine.Step) {
			vs := [][]byte{}
			for _, v := range st.Views {
				vs = append(vs, bytes.Clone(v))
			}
			steps = append(steps, append(vs, bytes.Clone(st.Spectator)))
		}
		d, err := mk().Describe(ctx)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		pc := rulesettest.PlayoutConfig{Seats: min(max(3, d.MinSeats), d.MaxSeats), Seed: 7, Random: 0.3, Views: true, MaxSteps: 150,
			OnAct: func(_ context.Context, a rulesettest.Attempt) error {
				if len(steps) == 0 {
					keep(a.BeforeStep)
				}
				if a.Err == nil {
					keep(a.Step)
				}
				return nil
			}}
		if _, err := rulesettest.Playout(ctx, mk(), pc); err != nil && !errors.Is(err, rulesettest.ErrNotEnded) {
			t.Fatalf("%s: %v", id, err)
		}
		for s := range steps[0] {
			c := patchCase{Name: id + " viewer " + string(rune('0'+s)), Start: steps[0][s]}
			held := steps[0][s]
			for _, vs := range steps[1:] {
				p, ok := viewpatch.Diff(nil, held, vs[s])
				if !ok {
					break
				}
				c.Patches = append(c.Patches, p)
				c.want = append(c.want, vs[s])
				held = vs[s]
			}
			if len(c.Patches) < 20 {
				t.Fatalf("%s: only %d patches", c.Name, len(c.Patches))
			}
			cases = append(cases, c)
			// The same views patched as a sticky plugin writes them, from the typed views.
			tc := patchCase{Name: c.Name + " (typed)", Start: steps[0][s]}
			var held0 sdk.View
			if err := json.Unmarshal(steps[0][s], &held0); err != nil {
				t.Fatal(err)
			}
			for _, vs := range steps[1:] {
				var next sdk.View
				if err := json.Unmarshal(vs[s], &next); err != nil {
					t.Fatal(err)
				}
				p, ok := sdk.AppendViewPatch(nil, &held0, &next)
				if !ok {
					break
				}
				tc.Patches = append(tc.Patches, p)
				tc.want = append(tc.want, vs[s])
				held0 = next
			}
			if len(tc.Patches) < 20 {
				t.Fatalf("%s: only %d patches", tc.Name, len(tc.Patches))
			}
			cases = append(cases, tc)
		}
	}
	got := applyInChromium(t, b, cases)
	for i, c := range cases {
		if len(got[i]) != len(c.want) {
			t.Fatalf("%s: %d views for %d patches", c.Name, len(got[i]), len(c.want))
		}
		for j, w := range c.want {
			if g, w := canonical(t, got[i][j]), canonical(t, w); g != w {
				t.Fatalf("%s, patch %d (%s):\n got %s\nwant %s", c.Name, j, c.Patches[j], g, w)
			}
		}
	}
}

// TestPatchJSRefusesBadPatches: a patch that does not fit the view held throws (the socket then
// resyncs) rather than giving a wrong view.
func TestPatchJSRefusesBadPatches(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	b := browser(t)
	srv := httptest.NewServer(http.FileServerFS(web.Static()))
	t.Cleanup(srv.Close)
	pg := newPage(t, b, desktopW, desktopH)
	run(t, pg, chromedp.Navigate(srv.URL+"/gallery.html"))
	got := evalJS[[]string](t, pg, `(async () => {
		const { applyPatch } = await import("/js/patch.js");
		const view = { zones: [{ id: "pile", cards: ["H2"], count: 1 }], turn: 0 };
		const bad = [
			{ zones: { deck: { count: 2 } } },
			{ zones: { $order: ["pile", "deck"] } },
			{ zones: { pile: { cards: { $splice: [3, 1] } } } },
			{ zones: { deck: null } },
			{ actions: { draw: { type: "draw" } } },
			[1],
		];
		return bad.map((p) => { try { applyPatch(view, p); return "no error"; } catch (e) { return e.message; } });
	})()`)
	want := []string{"not an object keyed", "neither held nor sent", "does not fit", "does not hold", "list the view does not hold", "are objects"}
	if len(got) != len(want) {
		t.Fatalf("%d answers: %v", len(got), got)
	}
	for i, w := range want {
		if !strings.Contains(got[i], w) {
			t.Errorf("bad patch %d: %q, want an error saying %q", i, got[i], w)
		}
	}
}

func canonical(t *testing.T, v []byte) string {
	t.Helper()
	var x any
	if err := json.Unmarshal(v, &x); err != nil {
		t.Fatalf("not JSON: %v: %s", err, v)
	}
	b, _ := json.Marshal(x)
	return string(b)
}

// TestPatchJSFamilyParts: patch.js rebuilds views holding the families' parts (the fixtures of
// testdata/families: tricks, teams, a score sheet, melds, exactly-N and labelled choices), each
// patched into every other and into itself with one more card played to the trick and one more
// hand on the sheet, from the room's patches (viewpatch.Diff) and a sticky plugin's alike.
func TestPatchJSFamilyParts(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	b := browser(t)
	var views []sdk.View
	for _, name := range familyFixtures {
		v, _ := readFixture(t, name)
		views = append(views, v)
		next, _ := readFixture(t, name)
		if next.Trick != nil {
			next.Trick.Plays = append(next.Trick.Plays, sdk.TrickPlay{Seat: 0, Card: sdk.MustParseCards("QH")[0]})
		}
		if next.Sheet != nil {
			next.Sheet.Rows = append(next.Sheet.Rows, sdk.ScoreRow{Label: "Hand 9", Cells: make([]int, len(next.Sheet.Columns))})
		}
		if len(next.Teams) > 0 {
			next.Teams[0].Bags = nil
		}
		views = append(views, next)
	}
	var cases []patchCase
	for i := range views {
		for j := range views {
			if i == j {
				continue
			}
			old, want := views[i].AppendJSON(nil), views[j].AppendJSON(nil)
			d, ok := viewpatch.Diff(nil, old, want)
			if !ok {
				t.Fatalf("views %d to %d: no patch", i, j)
			}
			typed, ok := sdk.AppendViewPatch(nil, &views[i], &views[j])
			if !ok {
				t.Fatalf("views %d to %d: no typed patch", i, j)
			}
			for _, p := range [][]byte{d, typed} {
				cases = append(cases, patchCase{Name: fmt.Sprintf("view %d to %d", i, j), Start: old, Patches: []json.RawMessage{p}, want: [][]byte{want}})
			}
		}
	}
	got := applyInChromium(t, b, cases)
	for i, c := range cases {
		if g, w := canonical(t, got[i][0]), canonical(t, c.want[0]); g != w {
			t.Fatalf("%s (%s):\n got %s\nwant %s", c.Name, c.Patches[0], g, w)
		}
	}
	t.Logf("%d patches rebuilt", len(cases))
}

// applyInChromium applies each case's patches in turn to its start view with the client's
// applyPatch (js/patch.js) in Chromium, and returns the views each case went through.
func applyInChromium(t *testing.T, b context.Context, cases []patchCase) [][]json.RawMessage {
	t.Helper()
	srv := httptest.NewServer(http.FileServerFS(web.Static()))
	t.Cleanup(srv.Close)
	pg := newPage(t, b, desktopW, desktopH)
	run(t, pg, chromedp.Navigate(srv.URL+"/gallery.html"))
	in, _ := json.Marshal(cases)
	got := evalJS[[][]json.RawMessage](t, pg, `(async () => {
		const { applyPatch } = await import("/js/patch.js");
		return `+string(in)+`.map((c) => { let v = c.start; return c.patches.map((p) => (v = applyPatch(v, p))); });
	})()`)
	if len(got) != len(cases) {
		t.Fatalf("%d results for %d cases", len(got), len(cases))
	}
	return got
}
