package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// refusal sends a request the server must refuse and returns the status and the error's code.
func (u *apiUser) refusal(method, path string) (int, string) {
	u.t.Helper()
	resp := u.send(method, path, struct{}{})
	defer resp.Body.Close()
	var e struct {
		Error struct{ Code string } `json:"error"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&e)
	return resp.StatusCode, e.Error.Code
}

// TestKickChoosesHowLong (issue 23): the host's Kick asks how long the player is kept out; a
// cancelled dialog removes nobody, a chosen one removes the player, who cannot join again: for
// the cooldown chosen, or banned from the room. The dialog says what the kick does: before a game,
// that the player's seat is freed; in a game being played, that a bot takes it.
func TestKickChoosesHowLong(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	eachSize(t, func(t *testing.T, base string, ctx context.Context, sz screen) {
		signIn(t, ctx, base, "Hana")
		tap(t, ctx, `[data-create=hotspot]`)
		tap(t, ctx, `#create-room button[type=submit]`)
		waitJS(t, ctx, `!!window.cardhouse?.state?.room?.info`)
		code := evalJS[string](t, ctx, `window.cardhouse.state.room.code`)
		openSide := func() {
			if evalJS[bool](t, ctx, `(() => { const b = document.querySelector(".side-toggle"); return !!b && b.getBoundingClientRect().height > 0 && !document.body.classList.contains("show-side"); })()`) {
				tap(t, ctx, `.side-toggle`)
			}
		}
		for _, tc := range []struct {
			name, choice, code string
		}{
			{"Lou", "60", "kicked"},
			{"Mo", "ban", "room_banned"},
		} {
			g := apiGuest(t, base, tc.name)
			g.do("POST", "/api/rooms/"+code+"/join", nil, nil)
			g.connect(code)
			id := g.member(code, tc.name)
			waitJS(t, ctx, fmt.Sprintf(`!!document.querySelector('[data-kick="%d"]')`, id))
			openSide()
			kick := fmt.Sprintf(`[data-kick="%d"]`, id)

			// Cancelled: nobody is removed. Before a game the dialog speaks of the seat, not a game.
			tap(t, ctx, kick)
			waitJS(t, ctx, `!!document.querySelector("#confirm-kick[open]")`)
			if got := text(t, ctx, `#confirm-kick .kick-what`); !strings.Contains(got, "their seat is free for someone else") || strings.Contains(got, "game") {
				t.Errorf("before a game, the kick dialog says %q", got)
			}
			tap(t, ctx, `#confirm-kick [data-answer=cancel]`)
			waitJS(t, ctx, `!document.querySelector("#confirm-kick")`)
			if g.member(code, tc.name) != id {
				t.Fatalf("a cancelled kick removed %s", tc.name)
			}

			openSide()
			tap(t, ctx, kick)
			waitJS(t, ctx, `!!document.querySelector("#confirm-kick[open]")`)
			tap(t, ctx, `#confirm-kick [data-keep-out="`+tc.choice+`"]`)
			shot(t, ctx, "kick-choice-"+tc.choice+"-"+sz.name)
			tap(t, ctx, `#confirm-kick [data-answer=kick]`)
			waitJS(t, ctx, fmt.Sprintf(`!(window.cardhouse.state.room.info.members || []).some((m) => m.name === %q)`, tc.name))
			if st, got := g.refusal("POST", "/api/rooms/"+code+"/join"); st != http.StatusForbidden || got != tc.code {
				t.Errorf("%s joining again after the kick: %d %s, want 403 %s", tc.name, st, got, tc.code)
			}
		}

		// In a game being played, the dialog says a bot takes the player's seat.
		g := apiGuest(t, base, "Pat")
		g.do("POST", "/api/rooms/"+code+"/join", nil, nil)
		g.connect(code)
		id := g.member(code, "Pat")
		waitJS(t, ctx, fmt.Sprintf(`!!document.querySelector('[data-kick="%d"]')`, id))
		openSide()
		tap(t, ctx, `.side .host [data-action=deal]`)
		waitJS(t, ctx, `window.cardhouse.state.room.info.game?.status === "live"`)
		openSide()
		tap(t, ctx, fmt.Sprintf(`[data-kick="%d"]`, id))
		waitJS(t, ctx, `!!document.querySelector("#confirm-kick[open]")`)
		if got := text(t, ctx, `#confirm-kick .kick-what`); !strings.Contains(got, "A bot takes their seat in the game being played") {
			t.Errorf("in a game, the kick dialog says %q", got)
		}
		shot(t, ctx, "kick-in-game-"+sz.name)
		tap(t, ctx, `#confirm-kick [data-answer=cancel]`)
		waitJS(t, ctx, `!document.querySelector("#confirm-kick")`)
	})
}
