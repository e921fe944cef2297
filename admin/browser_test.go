package admin_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardhouse/platform/store"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

const chromiumPath = "/usr/bin/chromium"

// shotDir is where screenshots go: $CARDHOUSE_CI_OUT/admin, or a temporary folder.
func shotDir(t *testing.T) string {
	t.Helper()
	base := os.Getenv("CARDHOUSE_CI_OUT")
	if base == "" {
		base = filepath.Join(os.TempDir(), "cardhouse-ci-out")
	}
	dir := filepath.Join(base, "admin")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// cspWatch records Content-Security-Policy violations of every page into window.__csp.
const cspWatch = `window.__csp = []; document.addEventListener("securitypolicyviolation", e => window.__csp.push(e.violatedDirective + " " + e.blockedURI));`

func newBrowser(t *testing.T) context.Context {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skipf("browser tests need Debian's chromium at %s (apt-get install -y chromium): %v", chromiumPath, err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: cspWatch}); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// browse is one page of the admin area in Chromium.
type browse struct {
	t   *testing.T
	ctx context.Context
	e   *env
}

func (b *browse) open(path string) {
	b.t.Helper()
	c, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(c, chromedp.Navigate(b.e.http.URL+path)); err != nil {
		b.t.Fatalf("opening %s: %v", path, err)
	}
	b.wait(`document.body && document.body.dataset.ready === "1"`)
}

func eval[T any](b *browse, js string) T {
	b.t.Helper()
	c, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(c, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("evaluating %.120q: %v", js, err)
	}
	return v
}

// wait polls (on every animation frame) until the expression is true. A page that reloads under
// the poll ends that poll with an error; polling goes on in the new page until the deadline.
func (b *browse) wait(js string) {
	b.t.Helper()
	c, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	var err error
	for c.Err() == nil {
		if _, err = chromedp.Run(c, chromedp.Poll[chromedp.Void](js)); err == nil {
			return
		}
	}
	b.t.Fatalf("waiting for %s: %v", js, err)
}

// fill types text into the field sel of the form form and submits the form.
func (b *browse) submit(form string, fields map[string]string) {
	b.t.Helper()
	js := fmt.Sprintf(`(() => { const f = document.querySelector(%q); if (!f) return false;`, form)
	for name, v := range fields {
		js += fmt.Sprintf(` f.elements[%q].value = %q;`, name, v)
	}
	js += ` f.requestSubmit(); return true; })()`
	if !eval[bool](b, js) {
		b.t.Fatalf("no form %s on %s", form, eval[string](b, "location.pathname"))
	}
}

func (b *browse) text(sel string) string {
	b.t.Helper()
	return eval[string](b, fmt.Sprintf(`(document.querySelector(%q) || {}).textContent || ""`, sel))
}

// shot saves a screenshot and checks the page broke no CSP rule.
func (b *browse) shot(name string) {
	b.t.Helper()
	c, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	buf, err := chromedp.Run(c, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Fatalf("screenshot %s: %v", name, err)
	}
	path := filepath.Join(shotDir(b.t), name+".png")
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot %s", path)
	if v := eval[[]string](b, "window.__csp || []"); len(v) > 0 {
		b.t.Errorf("page %s broke the CSP: %v", name, v)
	}
}

// TestAdminPagesInChromium signs in through the login page and drives the admin pages: the
// dashboard, finding and banning a user (whose live socket closes), a room's page, restarting a
// plugin, approving a house rule and the audit log; a screenshot of each goes to
// $CARDHOUSE_CI_OUT/admin.
func TestAdminPagesInChromium(t *testing.T) {
	ctx := newBrowser(t)
	e := newEnv(t, "sqlite")
	e.admin("Root")
	alice, bob := e.register("Alice"), e.register("Bob")
	info := alice.createRoom(map[string]any{"ruleset": "hotspot", "seats": 2})
	bob.must("POST", "/api/rooms/"+info.Code+"/join", nil, nil)
	alice.must("POST", "/api/rooms/"+info.Code+"/chat", map[string]any{"text": "good luck <all>"}, nil)
	alice.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)
	playDraws(t, info.Code, seats(alice.roomInfo(info.Code), alice, bob), 2)
	ca := alice.connect(info.Code)
	bob.connect(info.Code)
	sc := &store.HouseRuleScript{OwnerID: bob.id, Name: "pick-up-five", Description: "a five makes the next player pick up", Rulesets: `["hotspot"]`}
	if err := e.st.CreateHouseRule(context.Background(), sc, &store.HouseRuleVersion{Source: "-- pick up five\nreturn {}\n", Checksum: "x", Description: "first", Declared: "{}"}); err != nil {
		t.Fatal(err)
	}
	b := &browse{t: t, ctx: ctx, e: e}

	// Not signed in: the dashboard sends us to the login page, which brings us back.
	b.open("/admin")
	if got := eval[string](b, "location.pathname + location.search"); got != "/admin/login?next=%2Fadmin" {
		t.Fatalf("not signed in, /admin went to %s", got)
	}
	b.shot("admin-login")
	b.submit("#login", map[string]string{"username": "root", "password": "wrong password"})
	b.wait(`document.querySelector("#login output").textContent.includes("wrong username or password")`)
	b.submit("#login", map[string]string{"username": "root", "password": password})
	b.wait(`location.pathname === "/admin" && document.body.dataset.ready === "1"`)
	if got := b.text("#players-online"); got != "2" {
		t.Errorf("dashboard: %q players online, want 2", got)
	}
	if got := b.text("#live-games"); got != "1" {
		t.Errorf("dashboard: %q games in progress, want 1", got)
	}
	b.shot("admin-dashboard")

	// Find alice and ban her from her page.
	b.open("/admin/users?q=ali")
	if rows := eval[int](b, `document.querySelectorAll("#users tbody tr").length`); rows != 1 {
		t.Errorf("search ali: %d rows", rows)
	}
	b.shot("admin-users")
	eval[bool](b, `(() => { document.querySelector("#users tbody a").click(); return true })()`)
	b.wait(`location.pathname === "/admin/users/` + itoa(alice.id) + `" && document.body.dataset.ready === "1"`)
	b.submit("#ban", map[string]string{"reason": ""})
	b.wait(`document.querySelector("#ban output").textContent.includes("give a reason") || document.querySelector("#ban input:invalid") !== null`)
	b.submit("#ban", map[string]string{"reason": "cheating with a second account"})
	b.tap("#confirm [data-answer=confirm]")
	b.wait(`document.querySelector("#state") && document.querySelector("#state").textContent.includes("banned: cheating with a second account")`)
	if bye := ca.expect("bye"); str(bye["code"]) != "banned" {
		t.Errorf("alice's socket got bye %s, want banned", bye["code"])
	}
	if !strings.Contains(b.text("#deletion-policy"), "games it played stay") {
		t.Error("the user page does not say what deleting does to the games")
	}
	b.shot("admin-user-banned")

	// The room: members, chat (escaped), the game's log.
	b.open("/admin/rooms?status=open")
	b.shot("admin-rooms")
	b.open("/admin/rooms/" + info.Code)
	if got := b.text("#chat"); !strings.Contains(got, "good luck <all>") {
		t.Errorf("chat on the room page: %q", got)
	}
	if rows := eval[int](b, `document.querySelectorAll("#game-log tbody tr").length`); rows != 2 {
		t.Errorf("game log: %d rows, want 2", rows)
	}
	b.shot("admin-room")

	// Restart the plugin from its page: a new pid.
	b.open("/admin/plugins")
	before := b.text("#plugin-hotspot .pid")
	b.submit("#plugin-hotspot form.restart", nil)
	b.tap("#confirm [data-answer=confirm]")
	b.wait(`document.querySelector("#plugin-hotspot .pid") && document.querySelector("#plugin-hotspot .pid").textContent !== ` + fmt.Sprintf("%q", before))
	b.shot("admin-plugins")

	// Approve the house rule after reading its source.
	b.open("/admin/houserules")
	b.shot("admin-houserules")
	b.open("/admin/houserules/" + itoa(sc.ID))
	if !strings.Contains(b.text("#v1 pre"), "pick up five") {
		t.Error("the house rule's source is not shown")
	}
	b.submit("#v1 form.approve", map[string]string{"reason": "reviewed"})
	b.wait(`!!document.querySelector("dialog#confirm[open]")`) // approving asks first (review_browser_test.go)
	b.tap("#confirm [data-answer=confirm]")
	b.wait(`!!document.querySelector("#v1 .status-approved")`)
	b.shot("admin-houserule-approved")

	b.open("/admin/audit")
	got := b.text("#audit tbody")
	for _, want := range []string{"user.ban", "cheating with a second account", "plugin.restart", "houserule.approve"} {
		if !strings.Contains(got, want) {
			t.Errorf("the audit page lacks %q", want)
		}
	}
	b.shot("admin-audit")
}

// TestLoginNextInChromium: signing in from a login page whose next is off-site (as the server
// would no longer render it, forced here onto the form) lands on /admin of this origin; the
// page's own check refuses every next a browser would read as another host, and keeps admin paths.
func TestLoginNextInChromium(t *testing.T) {
	ctx := newBrowser(t)
	e := newEnv(t, "sqlite")
	e.admin("Root")
	b := &browse{t: t, ctx: ctx, e: e}
	b.open("/admin/login?next=%2Fadmin%2Fusers")
	if got := eval[string](b, `document.querySelector("#login").dataset.next`); got != "/admin/users" {
		t.Fatalf("data-next %q, want /admin/users", got)
	}
	for _, next := range append(evilNexts, "/\t/evil.example/", "/\n/evil.example/", "\\\\evil.example", "/\\evil.example") {
		decoded, err := url.PathUnescape(next)
		if err != nil {
			decoded = next
		}
		for _, n := range []string{next, decoded} {
			if got := eval[string](b, fmt.Sprintf("cardhouseAdmin.sameOriginAdminPath(%q)", n)); got != "/admin" {
				t.Errorf("the page keeps next %q as %q, want /admin", n, got)
			}
		}
	}
	if got := eval[string](b, `cardhouseAdmin.sameOriginAdminPath("/admin/rooms?page=2#top")`); got != "/admin/rooms?page=2#top" {
		t.Errorf("the page turns an admin path into %q", got)
	}
	// The whole flow with the worst value on the form: the admin stays on this site.
	eval[bool](b, `(() => { document.querySelector("#login").dataset.next = "/\t/evil.example/"; return true })()`)
	b.submit("#login", map[string]string{"username": "root", "password": password})
	b.wait(`location.pathname === "/admin" && document.body.dataset.ready === "1"`)
	if got := eval[string](b, "location.origin"); got != e.http.URL {
		t.Fatalf("signed in at %s, want %s", got, e.http.URL)
	}
}
