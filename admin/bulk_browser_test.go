package admin_test

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
)

// TestBulkBanInChromium (issue 29, finding 9): on the users list, at a laptop's size and a
// phone's, an admin ticks two accounts by taps and disables them at once: the confirmation names
// the action and the count, Cancel changes nothing; a selection with the admin's own account is
// refused whole (nothing changes, the answer says why); the two alone are banned (two audit
// entries), then enabled again the same way. Axe-clean.
func TestBulkBanInChromium(t *testing.T) {
	for _, sz := range []struct {
		name string
		w, h int64
	}{{"desktop", 1280, 800}, {"phone", 390, 844}} {
		t.Run(sz.name, func(t *testing.T) {
			ctx := newBrowser(t)
			e := newEnv(t, "sqlite")
			root := e.admin("Root")
			alice, bob, carol := e.register("Alice"), e.register("Bob"), e.register("Carol")
			b := &browse{t: t, ctx: ctx, e: e}
			b.viewport(sz.w, sz.h, sz.w < 600)
			b.signIn()
			banned := func(u *user) bool {
				got, err := e.st.UserByID(context.Background(), u.id)
				if err != nil {
					t.Fatal(err)
				}
				return got.Banned
			}
			box := func(u *user) string { return `#users input[data-user-id="` + itoa(u.id) + `"]` }

			b.open("/admin/users")
			b.tap(box(alice))
			b.tap(box(bob))
			b.wait(`document.querySelector("#bulk-count").textContent === "2 selected"`)
			b.typeInto("#bulk input[name=reason]", "a spam ring")
			b.tap("#bulk button[type=submit]")
			b.wait(`!!document.querySelector("dialog#confirm[open]")`)
			if got := b.text("dialog#confirm p"); !strings.Contains(got, "Disable (ban) 2 selected accounts?") {
				t.Errorf("the confirmation says %q, want the action and the count", got)
			}
			axeClean(b, "the users list's confirmation")
			b.shot("bulk-confirm-" + sz.name)
			b.tap("#confirm [data-answer=cancel]")
			b.wait(`!document.querySelector("dialog#confirm") && document.querySelector("#bulk output").textContent === "cancelled"`)
			if banned(alice) || banned(bob) || audits(t, e, "user.ban") != 0 {
				t.Fatal("a cancelled bulk ban changed something")
			}

			// With the admin's own account ticked too: refused whole, nothing changes.
			b.tap(box(root))
			b.tap("#bulk button[type=submit]")
			b.wait(`!!document.querySelector("dialog#confirm[open]")`)
			b.tap("#confirm [data-answer=confirm]")
			b.wait(`document.querySelector("#bulk output").className === "error"`)
			if got := b.text("#bulk output"); !strings.Contains(got, "nothing was changed") || !strings.Contains(got, "cannot ban themselves") {
				t.Errorf("the refusal reads %q", got)
			}
			if banned(alice) || banned(bob) || audits(t, e, "user.ban") != 0 {
				t.Fatal("a refused bulk ban changed something")
			}
			b.shot("bulk-refused-" + sz.name)

			// The two alone: banned, the list says so.
			b.tap(box(root))
			b.tap("#bulk button[type=submit]")
			b.wait(`!!document.querySelector("dialog#confirm[open]")`)
			b.tap("#confirm [data-answer=confirm]")
			b.wait(`[...document.querySelectorAll("#users tbody tr")].filter((r) => r.textContent.includes("banned")).length === 2`)
			if !banned(alice) || !banned(bob) || banned(carol) || audits(t, e, "user.ban") != 2 {
				t.Fatalf("after the bulk ban: alice %v, bob %v, carol %v, %d audit entries", banned(alice), banned(bob), banned(carol), audits(t, e, "user.ban"))
			}
			b.shot("bulk-banned-" + sz.name)

			// Enabled again, the same way.
			b.tap(box(alice))
			b.tap(box(bob))
			eval[bool](b, `(() => { const s = document.querySelector("#bulk select[name=action]"); s.value = "unban"; return true; })()`)
			b.tap("#bulk button[type=submit]")
			b.wait(`!!document.querySelector("dialog#confirm[open]")`)
			if got := b.text("dialog#confirm p"); !strings.Contains(got, "Enable (lift the ban) 2 selected accounts?") {
				t.Errorf("the confirmation says %q", got)
			}
			b.tap("#confirm [data-answer=confirm]")
			b.wait(`document.body.dataset.ready === "1" && ![...document.querySelectorAll("#users tbody tr")].some((r) => r.textContent.includes("banned"))`)
			if banned(alice) || banned(bob) {
				t.Error("the bulk unban left a ban")
			}
		})
	}
}

// TestResetPasswordCopy (issue 29, finding 9): a reset password comes with a Copy button that puts
// it on the clipboard; the user signs in with what was copied.
func TestResetPasswordCopy(t *testing.T) {
	ctx := newBrowser(t)
	e := newEnv(t, "sqlite")
	e.admin("Root")
	alice := e.register("Alice")
	b := &browse{t: t, ctx: ctx, e: e}
	b.viewport(390, 844, true)
	b.signIn()
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		if _, err := chromedp.Call(ctx, browser.SetPermission, browser.SetPermissionParams{Permission: &browser.PermissionDescriptor{Name: name}, Setting: browser.PermissionSettingGranted}); err != nil {
			t.Fatalf("granting %s: %v", name, err)
		}
	}
	b.open("/admin/users/" + itoa(alice.id))
	b.tap("#reset-password button[type=submit]")
	b.wait(`!!document.querySelector("dialog#confirm[open]")`)
	b.tap("#confirm [data-answer=confirm]")
	b.wait(`document.querySelector("#reset-password output").className.includes("secret")`)
	pw := b.text("#reset-password output")
	b.tap("#reset-password button.copy")
	b.wait(`document.querySelector("#reset-password button.copy").textContent === "Copied"`)
	if got := eval[string](b, `navigator.clipboard.readText()`); got != pw || pw == "" {
		t.Errorf("the clipboard holds %q, want the new password %q", got, pw)
	}
	axeClean(b, "the reset password")
	b.shot("reset-password-copy-phone")
	if st := e.anonymous().call("POST", "/api/login", map[string]string{"username": "alice", "password": pw}, nil); st != 200 {
		t.Errorf("signing in with the copied password: %d", st)
	}
}
