package admin_test

import (
	"net/url"
	"testing"

	"cardhouse/admin"
)

// TestAuditFiltersByAdminName (issue 29, finding 9): the audit log keeps the actions of the admin
// named (their user name or display name, in any case), not only of an id; a name no admin has
// keeps nothing; the id filter still works. Both dialects.
func TestAuditFiltersByAdminName(t *testing.T) {
	eachDialect(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		root, sam := e.admin("Root"), e.admin("Sam")
		alice, bob := e.register("Alice"), e.register("Bob")
		root.must("POST", "/admin/api/users/"+itoa(alice.id)+"/ban", map[string]any{"reason": "spam"}, nil)
		sam.must("POST", "/admin/api/users/"+itoa(bob.id)+"/ban", map[string]any{"reason": "abuse"}, nil)
		sam.must("POST", "/admin/api/users/"+itoa(bob.id)+"/unban", map[string]any{"reason": "appeal"}, nil)
		actions := func(query string) []string {
			t.Helper()
			var l admin.AuditList
			root.must("GET", "/admin/api/audit?"+query, nil, &l)
			out := []string{}
			for _, en := range l.Entries {
				out = append(out, en.Actor+" "+en.Action)
			}
			return out
		}
		for query, want := range map[string]int{
			"admin=" + url.QueryEscape("sam"):    2,
			"admin=" + url.QueryEscape("SAM"):    2,
			"admin=" + url.QueryEscape(" Root "): 1,
			"admin=nobody":                       0,
			"actor=" + itoa(sam.id):              2,
		} {
			got := actions(query)
			if len(got) != want {
				t.Errorf("audit ?%s: %v, want %d entries", query, got, want)
			}
		}
		for _, a := range actions("admin=sam") {
			if a[:3] != "Sam" && a[:3] != "sam" {
				t.Errorf("audit ?admin=sam holds %q", a)
			}
		}
	})
}
