package web_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"cardhouse/platform/room"
	"cardhouse/platform/server"
	"cardhouse/platform/store"
	"cardhouse/platform/store/storetest"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/plugin"
	"cardhouse/web"

	"golang.org/x/crypto/bcrypt"
)

// startGoFish starts the platform as startServer does, with one variant: Go Fish, the example of
// sdk/simple, as a real plugin process. Its game is written in that package's example_test.go,
// so the plugin is that package's test binary, which serves the game when
// CARDHOUSE_SIMPLE_SERVE_GOFISH=1 (see sdk/simple/gofish_test.go): a stranger's variant reaches
// the browser with no main of its own and no change to the server.
func startGoFish(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	exe := filepath.Join(t.TempDir(), "simple.test")
	if out, err := exec.Command("go", "test", "-c", "-o", exe, "../sdk/simple").CombinedOutput(); err != nil {
		t.Fatalf("building sdk/simple's test binary: %v\n%s", err, out)
	}
	p := plugin.NewProcess(plugin.Spec{Path: exe, Env: []string{"CARDHOUSE_SIMPLE_SERVE_GOFISH=1"}}, plugin.Config{})
	t.Cleanup(func() { _ = p.Close() })
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := store.Open(ctx, store.Config{DSN: storetest.DSN(t, "sqlite", t.TempDir())})
	if err != nil {
		t.Fatal(err)
	}
	rooms, err := room.NewManager(ctx, room.Config{Store: st, Engines: map[string]engine.Engine{"gofish": p}, Logger: quiet, Grace: 20 * time.Second, PauseLimit: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{Store: st, Rooms: rooms, Logger: quiet, BcryptCost: bcrypt.MinCost, LoginAttempts: 1000})
	srv.Echo().StaticFS("/", web.Static())
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		rooms.Close()
		srv.CloseConnections()
		hs.Close()
		st.Close()
	})
	return hs.URL
}

// TestGoFishAgainstTheBot: a person plays Go Fish, the shortest variant (sdk/simple's example),
// against the level-1 bot the package gives every game, to the end of a game by taps alone: on a
// phone against one bot (one player to ask: the Ask button asks them) and on a desktop against
// two (the table asks "to whom?" and the harness taps a name). The harness audits every offered
// action before each move; the move log shows the asks; the books made add up to 13.
func TestGoFishAgainstTheBot(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	url := startGoFish(t)
	b := browser(t)
	for _, c := range []struct {
		name  string
		seats int
		w, h  int64
	}{{"gofish-2-phone", 2, phoneW, phoneH}, {"gofish-3-desktop", 3, desktopW, desktopH}} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			pg := newPage(t, b, c.w, c.h)
			enter(t, pg, url, "Ada", "sun")
			click(t, pg, `[data-create="gofish"]`)
			waitJS(t, pg, `document.querySelector("#create-room")`)
			evalJS[bool](t, pg, fmt.Sprintf(`(() => { const f = document.querySelector("#create-room");
				f.elements.mode.value = "computer"; f.elements.mode.dispatchEvent(new Event("change"));
				f.elements.seats.value = %d; f.elements.seats.dispatchEvent(new Event("input")); return true; })()`, c.seats))
			click(t, pg, `#create-room button[type=submit]`)
			waitJS(t, pg, `location.hash.startsWith("#/room/") && document.querySelector("#room-code")?.textContent`)
			click(t, pg, `.felt [data-action=deal]`)
			waitJS(t, pg, `document.querySelector(".felt[data-phase]")`)
			if n := evalJS[int](t, pg, `window.cardhouse.state.room.table.view.players.length`); n != c.seats {
				t.Fatalf("the table has %d seats, want %d", n, c.seats)
			}
			var log []string
			stats := playGame(t, []player{{pg, `{}`}}, func() {
				shot(t, pg, "bots-"+c.name)
				log = evalJS[[]string](t, pg, `window.cardhouse.state.room.table.logLines || []`)
			})
			waitJS(t, pg, `document.querySelector(".overlay-center")`)
			shot(t, pg, "bots-"+c.name+"-over")
			books := evalJS[[]int](t, pg, `window.cardhouse.state.room.table.view.players.map((p) => p.score)`)
			total := 0
			for _, n := range books {
				total += n
			}
			if total != 13 {
				t.Errorf("the books at the end are %v, want 13 in all", books)
			}
			if c.seats > 2 && stats[0].Choices == 0 {
				t.Errorf("with %d seats no ask chose whom to ask (choices %d)", c.seats, stats[0].Choices)
			}
			// The log names the game's own events ("Otto asked"); Info.EventTexts' sentences ("Otto
			// asked Ada for 7s") are not read by the client yet.
			if !slices.ContainsFunc(log, func(l string) bool { return strings.Contains(l, " asked") }) {
				t.Errorf("the move log a few moves in shows no ask: %q", log)
			}
			t.Logf("%s: game over after %v (%d taps, %d asks, %d choices), books %v; the log a few moves in: %q",
				c.name, time.Since(start).Round(time.Millisecond), stats[0].Taps, stats[0].Plays, stats[0].Choices, books, log)
		})
	}
}
