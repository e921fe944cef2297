package admin_test

import (
	"strings"
	"testing"

	"cardhouse/web"

	"github.com/chromedp/chromedp"
)

// TestDisabledVariantNotOfferedInChromium (issue 29, finding 9): at a laptop's size and a phone's,
// an admin disables Hotspot for new rooms on the plugins page (real taps, the confirmation); the
// lobby then offers no "New room" of it and says why, while "How to play" stays; enabled again,
// the lobby offers it again. Axe-clean lobby.
func TestDisabledVariantNotOfferedInChromium(t *testing.T) {
	for _, sz := range []struct {
		name string
		w, h int64
	}{{"desktop", 1280, 800}, {"phone", 390, 844}} {
		t.Run(sz.name, func(t *testing.T) {
			ctx := newBrowser(t)
			e := newEnv(t, "sqlite")
			e.admin("Root")
			e.srv.Echo().StaticFS("/", web.Static()) // the player's site, as cardhouse serve mounts it
			b := &browse{t: t, ctx: ctx, e: e}
			b.viewport(sz.w, sz.h, sz.w < 600)
			b.signIn()
			b.open("/admin/plugins")
			b.typeInto(`form.disable[data-api="/admin/api/plugins/hotspot/disable"] input[name=reason]`, "a bug in the deal, fixed tomorrow")
			b.tap(`form.disable[data-api="/admin/api/plugins/hotspot/disable"] button[type=submit]`)
			b.tap("#confirm [data-answer=confirm]")
			b.wait(`!document.querySelector('form.disable[data-api="/admin/api/plugins/hotspot/disable"]')`)

			lobby := func() {
				b.t.Helper()
				if err := chromedp.Do(b.ctx, chromedp.Navigate(b.e.http.URL+"/")); err != nil {
					b.t.Fatal(err)
				}
				b.wait(`!!document.querySelector('.variants [data-ruleset="hotspot"] a[href="#/rules/hotspot"]')`)
			}
			lobby()
			if eval[bool](b, `!!document.querySelector('.variants [data-create="hotspot"]')`) {
				t.Error("the lobby still offers a new Hotspot room")
			}
			if got := b.text(`.variants [data-disabled="hotspot"]`); !strings.Contains(got, "a bug in the deal, fixed tomorrow") {
				t.Errorf("the lobby says %q of Hotspot, want the reason", got)
			}
			axeClean(b, "the lobby with a variant disabled")
			b.shot("lobby-disabled-" + sz.name)

			b.open("/admin/plugins")
			b.tap(`form[data-api="/admin/api/plugins/hotspot/enable"] button[type=submit]`)
			b.wait(`!!document.querySelector('form.disable[data-api="/admin/api/plugins/hotspot/disable"]')`)
			lobby()
			b.wait(`!!document.querySelector('.variants [data-create="hotspot"]')`)
		})
	}
}
