package admin_test

import (
	"context"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// Page sizes of the pointer tests: a laptop, and a phone (iPhone 12-15 CSS size) tapped by touch.
const (
	desktopW, desktopH = 1280, 800
	phoneW, phoneH     = 390, 844
)

// size sets the page's viewport; a phone-sized one (narrower than 500) is a touch phone, tapped by
// touch from then on.
func (b *browse) size(w, h int64) {
	b.t.Helper()
	b.touch = w < 500
	var opts []chromedp.EmulateViewportOption
	if b.touch {
		// Touch without the mobile flag: with it Chromium scrolls a long document's visual
		// viewport, and touch points land that far below where the page says the element is.
		opts = append(opts, chromedp.EmulateTouch, chromedp.EmulatePortrait)
	}
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(w, h, opts...)); err != nil {
		b.t.Fatalf("setting the viewport to %dx%d: %v", w, h, err)
	}
}

// aim is where a tap on an element lands: its centre, and what document.elementFromPoint finds
// there.
type aim struct {
	X, Y float64
	Hit  bool
	What string
}

// tap presses the element sel as a person does: it waits until the element is shown and enabled,
// scrolls it to the middle of the page, checks that document.elementFromPoint at its centre is the
// element (or inside it: nothing covers it), then presses and releases there with real input
// events: a touch on a phone, the mouse elsewhere.
func (b *browse) tap(sel string) {
	b.t.Helper()
	b.wait(fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e || e.disabled) return false; const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; })()`, sel))
	p := eval[aim](b, fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.scrollIntoView({ block: "center", inline: "center" });
		const r = e.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2, at = document.elementFromPoint(x, y);
		return { x, y, hit: !!at && (at === e || e.contains(at)), what: at ? at.tagName + (at.id ? "#" + at.id : "") + (at.className ? "." + at.className : "") : "nothing" }; })()`, sel))
	if !p.Hit {
		b.t.Fatalf("tapping %s at (%.0f, %.0f): %s is there, covering it", sel, p.X, p.Y, p.What)
	}
	c, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	var err error
	if b.touch {
		err = chromedp.Do(c, chromedp.TapXY(p.X, p.Y))
	} else {
		err = chromedp.Do(c, chromedp.MouseEvent(chromedp.MouseMoved, p.X, p.Y), chromedp.MouseClickXY(p.X, p.Y))
	}
	if err != nil {
		b.t.Fatalf("tapping %s: %v", sel, err)
	}
}

// typeInto taps the field sel, selects what it holds and types text over it, as a keyboard does.
func (b *browse) typeInto(sel, text string) {
	b.t.Helper()
	b.tap(sel)
	eval[bool](b, fmt.Sprintf(`(document.querySelector(%q).select(), true)`, sel))
	if _, err := chromedp.Call(b.ctx, input.InsertText, input.InsertTextParams{Text: text}); err != nil {
		b.t.Fatalf("typing into %s: %v", sel, err)
	}
}
