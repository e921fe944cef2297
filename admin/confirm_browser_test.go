package admin_test

import (
	"context"
	"strings"
	"testing"

	"cardhouse/platform/store"
)

// TestConfirmBanInChromium (issue 23): at a laptop's size and a phone's, an admin signs in,
// opens a user's page and presses Ban with real pointer taps; the confirmation dialog comes
// first: Cancel changes nothing (the account is not banned, its socket stays open, the audit log
// has nothing), Ban in the dialog bans it (its socket gets bye "banned"); the header's Log out
// ends the admin's session. Screenshots go to $CARDHOUSE_CI_OUT/admin.
func TestConfirmBanInChromium(t *testing.T) {
	for _, sz := range []struct {
		name string
		w, h int64
	}{{"desktop", 1280, 800}, {"phone", 390, 844}} {
		t.Run(sz.name, func(t *testing.T) {
			ctx := newBrowser(t)
			e := newEnv(t, "sqlite")
			e.admin("Root")
			alice, bob := e.register("Alice"), e.register("Bob")
			info := alice.createRoom(map[string]any{"ruleset": "hotspot", "seats": 2})
			bob.must("POST", "/api/rooms/"+info.Code+"/join", nil, nil)
			alice.must("POST", "/api/rooms/"+info.Code+"/chat", map[string]any{"text": "buy gold at example dot com"}, nil)
			ca := alice.connect(info.Code)
			b := &browse{t: t, ctx: ctx, e: e}
			b.viewport(sz.w, sz.h, sz.w < 600)

			b.signIn()

			b.open("/admin/users/" + itoa(alice.id))
			b.typeInto("#ban input[name=reason]", "spamming the chat")
			b.tap("#ban button[type=submit]")
			b.wait(`!!document.querySelector("dialog#confirm[open]")`)
			if got := b.text("dialog#confirm p"); got == "" || !strings.Contains(got, "Ban Alice?") {
				t.Errorf("the confirmation says %q, want it to name Alice", got)
			}
			b.shot("confirm-ban-" + sz.name)

			// Cancelled: nothing happens.
			b.tap("#confirm [data-answer=cancel]")
			b.wait(`!document.querySelector("dialog#confirm") && document.querySelector("#ban output").textContent === "cancelled"`)
			if u, err := e.st.UserByID(context.Background(), alice.id); err != nil || u.Banned {
				t.Fatalf("after a cancelled confirmation alice is %+v (%v), want not banned", u, err)
			}
			if got := b.text("#state"); strings.Contains(got, "banned") {
				t.Errorf("after a cancelled confirmation the page says %q", got)
			}
			if n := audits(t, e, "user.ban"); n != 0 {
				t.Errorf("a cancelled ban wrote %d audit entries", n)
			}
			select {
			case m := <-ca.msgs:
				if str(m["type"]) == "bye" {
					t.Fatalf("a cancelled ban closed alice's socket: %v", m)
				}
			default:
			}
			b.shot("confirm-ban-cancelled-" + sz.name)

			// Confirmed: banned, her socket closes.
			b.tap("#ban button[type=submit]")
			b.wait(`!!document.querySelector("dialog#confirm[open]")`)
			b.tap("#confirm [data-answer=confirm]")
			b.wait(`document.querySelector("#state") && document.querySelector("#state").textContent.includes("banned: spamming the chat")`)
			if bye := ca.expect("bye"); str(bye["code"]) != "banned" {
				t.Errorf("alice's socket got bye %s, want banned", bye["code"])
			}
			if n := audits(t, e, "user.ban"); n != 1 {
				t.Errorf("the ban wrote %d audit entries, want 1", n)
			}
			b.shot("confirm-ban-done-" + sz.name)
			eval[bool](b, `(document.querySelector("#sessions").scrollIntoView({block: "start"}), true)`)
			b.shot("user-sessions-chat-" + sz.name)

			// Log out from the header: back at the login page, and the session is over.
			b.tap("#logout button")
			b.wait(`location.pathname === "/admin/login" && document.body.dataset.ready === "1"`)
			b.shot("logged-out-" + sz.name)
			b.open("/admin/users")
			if got := eval[string](b, "location.pathname"); got != "/admin/login" {
				t.Errorf("after logging out /admin/users opened %s, want the login page", got)
			}
		})
	}
}

// audits counts the audit log's entries of action.
func audits(t *testing.T, e *env, action string) int64 {
	t.Helper()
	_, n, err := e.st.Audit(context.Background(), store.AuditQuery{Action: action, Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	return n
}
