package admin_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardhouse/platform/store"
)

// axeClean runs axe-core ($CARDHOUSE_AXE_JS) on the page and fails on any violation, with the
// rules the web client's tests turn off too (web/families_test.go: page structure rules).
func axeClean(b *browse, what string) {
	b.t.Helper()
	path := os.Getenv("CARDHOUSE_AXE_JS")
	if path == "" {
		b.t.Skip("CARDHOUSE_AXE_JS is not set: the accessibility checks need axe-core")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		b.t.Fatal(err)
	}
	eval[bool](b, string(src)+";true")
	got := eval[string](b, `axe.run(document, {resultTypes: ["violations"], rules: {"landmark-one-main": {enabled: false}, "page-has-heading-one": {enabled: false}, region: {enabled: false}, "label-content-name-mismatch": {enabled: false}}}).then((r) => r.violations.map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", ")).join("; "))`)
	if got != "" {
		b.t.Errorf("%s: axe violations: %s", what, got)
	}
}

// TestReviewAndProblemsInChromium (issue 29, finding 9): at a laptop's size and a phone's, with
// real pointer taps, an admin reviews a house rule with two versions: the changes from version 1
// show as a diff; "Run the dry run" runs the check in the check processes and shows its games and
// hook counts; Approve asks first (Cancel changes nothing; confirmed, the version is approved).
// In the problems view the failing rule's name links to its review page, and its version is
// disabled in one click there (after the confirmation). Axe-clean; screenshots looked at.
func TestReviewAndProblemsInChromium(t *testing.T) {
	shaky, err := os.ReadFile(filepath.Join("..", "plugins", "houserules", "testdata", "shaky.lua"))
	if err != nil {
		t.Fatal(err)
	}
	for _, sz := range []struct {
		name string
		w, h int64
	}{{"desktop", 1280, 800}, {"phone", 390, 844}} {
		t.Run(sz.name, func(t *testing.T) {
			ctx := newBrowser(t)
			e := newEnv(t, "sqlite")
			e.admin("Root")
			alice := e.register("Alice")
			bg := context.Background()
			v1 := string(shaky)
			v2 := strings.Replace(v1, `return "seat 1 may not play"`, `return "seat 1 may not play (v2)"`, 1)
			alice.must("POST", "/api/house-rules", map[string]any{"source": v1, "rulesets": []string{"hotspot"}}, nil)
			alice.must("POST", "/api/house-rules/shaky/versions", map[string]any{"source": v2}, nil)
			sc, err := e.st.HouseRuleByName(bg, "shaky")
			if err != nil {
				t.Fatal(err)
			}
			ver := func(n int) *store.HouseRuleVersion {
				v, err := e.st.HouseRuleVersionByNumber(bg, sc.ID, n)
				if err != nil {
					t.Fatal(err)
				}
				return v
			}
			// A live failure of version 1 (as a room stores it), for the problems view.
			room := alice.createRoom(map[string]any{"ruleset": "hotspot", "seats": 2})
			r, err := e.st.RoomByCode(bg, room.Code)
			if err != nil {
				t.Fatal(err)
			}
			if err := e.st.AddHouseRuleFailure(bg, &store.HouseRuleFailure{RoomID: r.ID, RoomCode: room.Code, GameNumber: 1, Seq: 2,
				Rule: "shaky", Version: 1, Hook: "before_action", Line: 9, Seat: 1, Action: "draw", Message: `house rule "shaky" v1: line 9: boom`}); err != nil {
				t.Fatal(err)
			}

			b := &browse{t: t, ctx: ctx, e: e}
			b.viewport(sz.w, sz.h, sz.w < 600)
			b.signIn()
			b.open(fmt.Sprintf("/admin/houserules/%d", sc.ID))

			// The diff from version 1.
			if w := eval[[]int](b, `[document.documentElement.scrollWidth, innerWidth]`); w[0] > w[1] {
				t.Errorf("the review page is %d px wide on a screen of %d", w[0], w[1])
			}
			b.tap("#diff-v2 summary")
			diff := b.text("#diff-v2 pre")
			if !strings.Contains(diff, `-  if action.type == "play" then return "seat 1 may not play" end`) ||
				!strings.Contains(diff, `+  if action.type == "play" then return "seat 1 may not play (v2)" end`) {
				t.Errorf("the diff of version 2 reads:\n%s", diff)
			}

			// The dry run, for the reviewer.
			b.tap("#v2 form.dryrun button")
			b.wait(`(document.querySelector("#v2 form.dryrun output")?.textContent || "").includes("checks out")`)
			out := b.text("#v2 form.dryrun output")
			for _, w := range []string{"shaky v2 checks out", "dry-run games", "before_action ran"} {
				if !strings.Contains(out, w) {
					t.Errorf("the dry run reads %q, want %q in it", out, w)
				}
			}
			axeClean(b, "the review page")
			b.shot("review-dryrun-" + sz.name)

			// Approve asks first; Cancel changes nothing.
			b.tap("#v2 form.approve button[type=submit]")
			b.wait(`!!document.querySelector("dialog#confirm[open]")`)
			if got := b.text("dialog#confirm p"); !strings.Contains(got, "Approve shaky version 2?") {
				t.Errorf("the confirmation says %q", got)
			}
			b.shot("review-confirm-" + sz.name)
			b.tap("#confirm [data-answer=cancel]")
			b.wait(`!document.querySelector("dialog#confirm") && document.querySelector("#v2 form.approve output").textContent === "cancelled"`)
			if got := ver(2).Status; got != store.HouseRulePending {
				t.Fatalf("after a cancelled approval version 2 is %s", got)
			}
			b.tap("#v2 form.approve button[type=submit]")
			b.wait(`!!document.querySelector("dialog#confirm[open]")`)
			if w := eval[[]int](b, `[document.documentElement.scrollWidth, innerWidth]`); w[0] > w[1] {
				t.Errorf("with the approval's answer shown the page is %d px wide on a screen of %d", w[0], w[1])
			}
			b.tap("#confirm [data-answer=confirm]")
			b.wait(`!!document.querySelector("#v2 .status-approved")`)
			if got := ver(2).Status; got != store.HouseRuleApproved {
				t.Fatalf("after a confirmed approval version 2 is %s", got)
			}

			// The problems view: the rule's name is a link; version 1 is disabled in one click.
			b.open("/admin/problems")
			row := `#houserule-failures tr[data-rule="shaky"][data-version="1"]`
			axeClean(b, "the problems view")
			b.shot("problems-failing-rule-" + sz.name)
			b.tap(row + " form.disable-failing button")
			b.tap("#confirm [data-answer=confirm]")
			b.wait(`!!document.querySelector('#houserule-failures tr[data-rule="shaky"][data-version="1"] .status-disabled')`)
			v := ver(1)
			if v.Status != store.HouseRuleDisabled || !strings.Contains(v.StatusReason, "Failing in live games: 1 failures so far") {
				t.Errorf("version 1 after the one-click disable: %s (%q)", v.Status, v.StatusReason)
			}
			b.tap(row + " a.rule-link")
			b.wait(fmt.Sprintf(`location.pathname === "/admin/houserules/%d" && !!document.querySelector("#v1 .status-disabled")`, sc.ID))
		})
	}
}
