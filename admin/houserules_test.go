package admin_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"cardhouse/admin"
	"cardhouse/platform/store"

	"github.com/google/go-cmp/cmp"
)

// TestHouseRuleReview reviews uploaded house-rule versions through the admin API: the queue, the
// source, approve, reject with a reason, disable, and the refusals that change nothing.
func TestHouseRuleReview(t *testing.T) { eachDialect(t, testHouseRuleReview) }

func testHouseRuleReview(t *testing.T, dialect string) {
	e := newEnv(t, dialect)
	ctx := context.Background()
	root, owner := e.admin("Root"), e.register("Olga")
	src1 := "-- v1\nreturn { name = \"bonus\" }\n"
	sc := &store.HouseRuleScript{OwnerID: owner.id, Name: "bonus", Description: "a bonus", Rulesets: `["hotspot"]`}
	v1 := &store.HouseRuleVersion{Source: src1, Checksum: "c1", Description: "first", Declared: "{}"}
	if err := e.st.CreateHouseRule(ctx, sc, v1); err != nil {
		t.Fatal(err)
	}
	v2 := &store.HouseRuleVersion{Source: "-- v2 <script>alert(1)</script>\nreturn {}\n", Checksum: "c2", Description: "second", Declared: "{}"}
	if err := e.st.AddHouseRuleVersion(ctx, sc.ID, v2, `["hotspot"]`); err != nil {
		t.Fatal(err)
	}

	var l admin.HouseRuleList
	root.must("GET", "/admin/api/houserules", nil, &l)
	var queue []string
	for _, q := range l.Queue {
		queue = append(queue, q.Name+" v"+itoa(int64(q.Version.Number)))
	}
	if diff := cmp.Diff([]string{"bonus v1", "bonus v2"}, queue); diff != "" {
		t.Errorf("review queue: -want +got\n%s", diff)
	}
	if len(l.Scripts) != 1 || l.Scripts[0].Owner != "olga" || l.Scripts[0].Pending != 2 || l.Scripts[0].Versions[0].Source != "" {
		t.Errorf("scripts: %+v", l.Scripts)
	}
	var si admin.ScriptInfo
	root.must("GET", "/admin/api/houserules/"+itoa(sc.ID), nil, &si)
	if len(si.Versions) != 2 || si.Versions[1].Source != src1 {
		t.Errorf("script with sources: %+v", si.Versions)
	}
	// The page shows the source escaped.
	st, page := root.raw("GET", "/admin/houserules/"+itoa(sc.ID), nil)
	if st != http.StatusOK || strings.Contains(string(page), "<script>alert") || !strings.Contains(string(page), "&lt;script&gt;alert(1)") {
		t.Errorf("house rule page: %d, source not escaped", st)
	}

	path := func(v *store.HouseRuleVersion, what string) string {
		return "/admin/api/houserules/versions/" + itoa(v.ID) + "/" + what
	}
	status := func(v *store.HouseRuleVersion) string {
		got, err := e.st.HouseRuleVersionByID(ctx, v.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got.Status
	}
	root.refused("POST", path(v1, "reject"), map[string]any{}, http.StatusBadRequest, "reason_required")
	root.must("POST", path(v1, "approve"), map[string]any{"reason": "looks fine"}, nil)
	root.refused("POST", path(v1, "reject"), map[string]any{"reason": "changed my mind"}, http.StatusConflict, "bad_transition")
	root.refused("POST", path(v1, "approve"), nil, http.StatusConflict, "bad_transition")
	if got := status(v1); got != store.HouseRuleApproved {
		t.Errorf("v1 is %s, want approved (refused decisions change nothing)", got)
	}
	root.must("POST", path(v2, "reject"), map[string]any{"reason": "it does nothing"}, nil)
	root.refused("POST", path(v1, "disable"), map[string]any{}, http.StatusBadRequest, "reason_required")
	root.must("POST", path(v1, "disable"), map[string]any{"reason": "breaks Hotspot scoring"}, nil)
	root.refused("POST", "/admin/api/houserules/versions/999999/approve", nil, http.StatusNotFound, "no_version")
	owner.refused("POST", path(v2, "approve"), nil, http.StatusForbidden, "admin_only")

	got, _ := e.st.HouseRuleVersionByID(ctx, v2.ID)
	if got.Status != store.HouseRuleRejected || got.StatusReason != "it does nothing" || got.StatusBy == nil || *got.StatusBy != root.id {
		t.Errorf("v2: %+v", got)
	}
	if got := status(v1); got != store.HouseRuleDisabled {
		t.Errorf("v1 is %s, want disabled", got)
	}
	want := []string{"root houserule.approve bonus v1", "root houserule.reject bonus v2", "root houserule.disable bonus v1"}
	if diff := cmp.Diff(want, auditActions(t, root)); diff != "" {
		t.Errorf("audit log: -want +got\n%s", diff)
	}
}
