package store_test

import (
	"context"
	"errors"
	"testing"

	"cardhouse/platform/store"
	"cardhouse/platform/store/storetest"

	"github.com/google/go-cmp/cmp"
)

// TestHouseRuleLifecycle walks a script through upload, a second version, review decisions,
// enabling in a room and pinning a game, on each database.
func TestHouseRuleLifecycle(t *testing.T) {
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			testHouseRuleLifecycle(t, storetest.Open(t, dialect))
		})
	}
}

func testHouseRuleLifecycle(t *testing.T, st *store.Store) {
	ctx := context.Background()
	owner, admin, other := newUser(t, st, "owner"), newUser(t, st, "admin"), newUser(t, st, "other")

	sc := &store.HouseRuleScript{OwnerID: owner.ID, Name: "bonus", Description: "d1", Rulesets: `["lastcard"]`}
	v1 := &store.HouseRuleVersion{Source: "name = 'bonus'", Checksum: "c1", Description: "d1", Declared: "{}"}
	if err := st.CreateHouseRule(ctx, sc, v1); err != nil {
		t.Fatal(err)
	}
	if v1.Number != 1 || v1.Status != store.HouseRulePending || v1.ScriptID != sc.ID {
		t.Fatalf("first version: %+v", v1)
	}
	dup := &store.HouseRuleScript{OwnerID: other.ID, Name: "bonus", Rulesets: `["hotspot"]`}
	if err := st.CreateHouseRule(ctx, dup, &store.HouseRuleVersion{Source: "x", Checksum: "x", Declared: "{}"}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a second script named bonus: err = %v, want ErrConflict", err)
	}
	if n, _ := st.ListHouseRules(ctx, store.HouseRuleFilter{}); len(n) != 1 {
		t.Fatalf("after the refused duplicate: %d scripts, want 1 (nothing changed)", len(n))
	}

	// A second version: numbered 2, the script takes its description and rulesets.
	v2 := &store.HouseRuleVersion{Source: "name = 'bonus' -- v2", Checksum: "c2", Description: "d2", Declared: "{}"}
	if err := st.AddHouseRuleVersion(ctx, sc.ID, v2, `["lastcard","hotspot"]`); err != nil {
		t.Fatal(err)
	}
	same := &store.HouseRuleVersion{Source: "name = 'bonus'", Checksum: "c1", Declared: "{}"}
	if err := st.AddHouseRuleVersion(ctx, sc.ID, same, `["lastcard"]`); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("re-uploading version 1's source: err = %v, want ErrConflict", err)
	}
	got, err := st.HouseRuleByName(ctx, "bonus")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"lastcard", "hotspot"}, got.RulesetList()); diff != "" || got.Description != "d2" {
		t.Fatalf("script after v2 (description %q), rulesets -want +got:\n%s", got.Description, diff)
	}

	// Listing by owner, ruleset and status.
	for _, tc := range []struct {
		name string
		f    store.HouseRuleFilter
		want int
	}{
		{"owner", store.HouseRuleFilter{OwnerID: owner.ID}, 1},
		{"other owner", store.HouseRuleFilter{OwnerID: other.ID}, 0},
		{"ruleset", store.HouseRuleFilter{Ruleset: "hotspot"}, 1},
		{"ruleset prefix is no match", store.HouseRuleFilter{Ruleset: "last"}, 0},
		{"approved before review", store.HouseRuleFilter{Status: store.HouseRuleApproved}, 0},
		{"pending", store.HouseRuleFilter{Status: store.HouseRulePending}, 1},
	} {
		l, err := st.ListHouseRules(ctx, tc.f)
		if err != nil || len(l) != tc.want {
			t.Errorf("%s: %d scripts (%v), want %d", tc.name, len(l), err, tc.want)
		}
	}
	queue, err := st.HouseRuleVersionsByStatus(ctx, store.HouseRulePending)
	if err != nil || len(queue) != 2 || queue[0].Script.Name != "bonus" || queue[1].Version.Number != 2 {
		t.Fatalf("review queue: %+v, %v", queue, err)
	}

	// Review decisions: who, when, why; transitions that do not apply change nothing.
	if err := st.RejectHouseRuleVersion(ctx, v1.ID, admin.ID, ""); err == nil {
		t.Fatal("rejecting without a reason was accepted")
	}
	if err := st.RejectHouseRuleVersion(ctx, v1.ID, admin.ID, "prints too much"); err != nil {
		t.Fatal(err)
	}
	if err := st.ApproveHouseRuleVersion(ctx, v2.ID, admin.ID, "looks fine"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		do   func() error
	}{
		{"approve an approved version", func() error { return st.ApproveHouseRuleVersion(ctx, v2.ID, admin.ID, "") }},
		{"reject an approved version", func() error { return st.RejectHouseRuleVersion(ctx, v2.ID, admin.ID, "no") }},
		{"disable a rejected version", func() error { return st.DisableHouseRuleVersion(ctx, v1.ID, admin.ID, "no") }},
	} {
		if err := tc.do(); !errors.Is(err, store.ErrBadTransition) {
			t.Errorf("%s: err = %v, want ErrBadTransition", tc.name, err)
		}
	}
	if _, err := st.HouseRuleVersionByID(ctx, 999999); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("missing version: err = %v, want ErrNotFound", err)
	}
	vs, err := st.HouseRuleVersions(ctx, sc.ID)
	if err != nil {
		t.Fatal(err)
	}
	type review struct {
		Number int
		Status string
		By     int64
		Reason string
		At     bool
	}
	var reviews []review
	for _, v := range vs {
		r := review{Number: v.Number, Status: v.Status, Reason: v.StatusReason, At: v.StatusAt != nil}
		if v.StatusBy != nil {
			r.By = *v.StatusBy
		}
		reviews = append(reviews, r)
	}
	want := []review{{1, store.HouseRuleRejected, admin.ID, "prints too much", true}, {2, store.HouseRuleApproved, admin.ID, "looks fine", true}}
	if diff := cmp.Diff(want, reviews); diff != "" {
		t.Fatalf("reviews -want +got:\n%s", diff)
	}
	if !vs[1].Usable(got, other.ID) || vs[0].Usable(got, owner.ID) {
		t.Fatal("Usable: an approved version must be usable by anyone, a rejected one by nobody")
	}

	// A room enables it, replaces its options, and a game pins the version.
	rm := &store.Room{Code: "HRTEST", HostID: owner.ID, Ruleset: "lastcard", Mode: store.ModeOnline, Capacity: 2, Status: store.RoomOpen, Options: "{}"}
	if err := st.CreateRoom(ctx, rm, nil); err != nil {
		t.Fatal(err)
	}
	rr := &store.RoomHouseRule{RoomID: rm.ID, ScriptID: sc.ID, VersionID: v2.ID, Options: `{"points":10}`, EnabledBy: &owner.ID}
	if err := st.EnableRoomHouseRule(ctx, rr); err != nil {
		t.Fatal(err)
	}
	again := &store.RoomHouseRule{RoomID: rm.ID, ScriptID: sc.ID, VersionID: v2.ID, Options: `{"points":20}`, EnabledBy: &owner.ID}
	if err := st.EnableRoomHouseRule(ctx, again); err != nil {
		t.Fatal(err)
	}
	enabled, err := st.RoomHouseRules(ctx, rm.ID)
	if err != nil || len(enabled) != 1 || enabled[0].Options != `{"points":20}` || again.ID != rr.ID || enabled[0].Version.Number != 2 || enabled[0].Script.Name != "bonus" {
		t.Fatalf("enabled after a replace: %+v, %v", enabled, err)
	}
	g := &store.Game{RoomID: rm.ID, Number: 1, Ruleset: "lastcard", Seats: 2, State: []byte("s"), Phase: "playing", Status: store.GameLive, Options: "{}", SeatMembers: "[]"}
	if err := st.StartGameWithHouseRules(ctx, g, rm, nil, []store.GameHouseRule{{Position: 0, VersionID: v2.ID, Options: `{"points":20}`}}); err != nil {
		t.Fatal(err)
	}
	// Disabling the version and the room's rule afterwards leaves the game's pin as it was.
	if err := st.DisableHouseRuleVersion(ctx, v2.ID, admin.ID, "abuse"); err != nil {
		t.Fatal(err)
	}
	if err := st.DisableRoomHouseRule(ctx, rm.ID, sc.ID); err != nil {
		t.Fatal(err)
	}
	if err := st.DisableRoomHouseRule(ctx, rm.ID, sc.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("disabling twice: err = %v, want ErrNotFound", err)
	}
	pins, err := st.GameHouseRules(ctx, g.ID)
	if err != nil || len(pins) != 1 || pins[0].Version.Number != 2 || pins[0].Version.Source != v2.Source || pins[0].Options != `{"points":20}` || pins[0].Script.Name != "bonus" {
		t.Fatalf("the game's pins: %+v, %v", pins, err)
	}
	if r, _ := st.RoomByCode(ctx, "HRTEST"); r.GameID == nil || *r.GameID != g.ID {
		t.Fatalf("the room does not point at its game: %+v", r)
	}
}

func newUser(t *testing.T, st *store.Store, name string) *store.User {
	t.Helper()
	u := &store.User{Username: &name, DisplayName: name, PasswordHash: "x"}
	if err := st.CreateUser(context.Background(), u); err != nil {
		t.Fatal(err)
	}
	return u
}
