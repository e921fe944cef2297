package web_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// hitPoint is where a person would press an element: the centre of its box, and what
// document.elementFromPoint finds there.
type hitPoint struct {
	X, Y  float64
	Hit   bool
	Found string
}

// tap presses the element sel as a person does: it waits until the element is shown and enabled,
// scrolls it into view, checks that document.elementFromPoint at its centre is the element (or
// inside it: nothing covers it), then sends a real mouse press and release at that point.
func tap(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	waitJS(t, ctx, fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e || e.disabled) return false; const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; })()`, sel))
	p := evalJS[hitPoint](t, ctx, fmt.Sprintf(`(() => {
		const e = document.querySelector(%q);
		e.scrollIntoView({ block: "center", inline: "center" });
		const r = e.getBoundingClientRect();
		const x = r.left + r.width / 2, y = r.top + r.height / 2;
		const at = document.elementFromPoint(x, y);
		return { X: x, Y: y, Hit: !!at && (at === e || e.contains(at)), Found: at ? at.outerHTML.slice(0, 160) : "nothing" };
	})()`, sel))
	if !p.Hit {
		t.Fatalf("tapping %s: at its centre (%.0f, %.0f) a person would press %s", sel, p.X, p.Y, p.Found)
	}
	for _, ev := range []input.DispatchMouseEventParams{
		{Type: input.DispatchMouseEventTypeMouseMoved, X: p.X, Y: p.Y},
		{Type: input.DispatchMouseEventTypeMousePressed, X: p.X, Y: p.Y, Button: input.MouseButtonLeft, Buttons: 1, ClickCount: 1},
		{Type: input.DispatchMouseEventTypeMouseReleased, X: p.X, Y: p.Y, Button: input.MouseButtonLeft, ClickCount: 1},
	} {
		if _, err := chromedp.Call(ctx, input.DispatchMouseEvent, ev); err != nil {
			t.Fatalf("tapping %s: %v", sel, err)
		}
	}
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
