package web_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// tap presses the element sel as a person does: it waits until the element is shown, scrolls it
// into view (a page or a panel that scrolls), then taps it as click does: a real mouse press and
// release at its centre once document.elementFromPoint shows nothing covers it, waiting for the
// click to land there (and tapping again should the control be redrawn under the tap).
func tap(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	waitJS(t, ctx, fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e || e.disabled) return false; const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; })()`, sel))
	evalJS[bool](t, ctx, fmt.Sprintf(`(document.querySelector(%q).scrollIntoView({ block: "center", inline: "center" }), true)`, sel))
	click(t, ctx, sel)
}

// typeText taps the field sel, selects what it holds and types text over it, as a keyboard does.
func typeText(t *testing.T, ctx context.Context, sel, text string) {
	t.Helper()
	tap(t, ctx, sel)
	evalJS[bool](t, ctx, fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.select(); return true; })()`, sel))
	if _, err := chromedp.Call(ctx, input.InsertText, input.InsertTextParams{Text: text}); err != nil {
		t.Fatalf("typing into %s: %v", sel, err)
	}
}
