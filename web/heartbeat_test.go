package web_test

import (
	"bytes"
	"io"
	"net"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"
)

// freezer is a TCP proxy in front of a server that can freeze: the connections open when Freeze
// is called stop carrying bytes either way but stay open (a node stopped by SIGSTOP, or a network
// that dropped without a close), while connections made after it pass as before (a load balancer
// sending them to a live node).
type freezer struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	frozen chan struct{} // closed by Freeze: the pairs made before it stall
	made   int           // WebSocket connections made so far
}

func newFreezer(t *testing.T, base string) (*freezer, string) {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &freezer{ln: ln, target: u.Host, frozen: make(chan struct{})}
	t.Cleanup(func() { ln.Close() })
	go f.serve()
	return f, "http://" + ln.Addr().String()
}

func (f *freezer) serve() {
	for {
		c, err := f.ln.Accept()
		if err != nil {
			return
		}
		go f.carry(c)
	}
}

// carry joins a browser's connection to the server. Only WebSockets freeze: a load balancer in
// front of a frozen node sends the page's next HTTP requests elsewhere, while a socket tunnelled
// to that node stays with it.
func (f *freezer) carry(c net.Conn) {
	first := make([]byte, 4096)
	n, err := c.Read(first)
	if err != nil {
		c.Close()
		return
	}
	s, err := net.Dial("tcp", f.target)
	if err != nil {
		c.Close()
		return
	}
	if _, err := s.Write(first[:n]); err != nil {
		c.Close()
		s.Close()
		return
	}
	var frozen chan struct{} // never closed: HTTP requests pass
	if bytes.Contains(first[:n], []byte("/ws?")) || bytes.Contains(first[:n], []byte("/ws ")) {
		f.mu.Lock()
		f.made++
		frozen = f.frozen
		f.mu.Unlock()
	}
	go pipe(c, s, frozen)
	go pipe(s, c, frozen)
}

// pipe copies from src to dst until frozen is closed; then it holds what it read and waits, the
// connection left open.
func pipe(dst, src net.Conn, frozen <-chan struct{}) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		select {
		case <-frozen:
			<-make(chan struct{}) // stalled for good: the test's end closes the listener, not these
		default:
		}
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			if err != io.EOF {
				dst.Close()
			}
			return
		}
	}
}

// Freeze stalls every connection open now; later ones pass.
func (f *freezer) Freeze() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	close(f.frozen)
	f.frozen = make(chan struct{})
	return f.made
}

func (f *freezer) connections() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.made
}

// TestSilentSocketIsAbandoned: the table's socket goes silent without closing (the connection
// frozen at a proxy, as a node stopped by SIGSTOP would leave it). The page's heartbeat pings it,
// hears nothing, abandons it and opens another, which reaches the server: the player is back at
// the table with their hand, and no "reconnecting" is left on screen. It logs how long that took
// from the freeze (the page abandons a socket after 5 s of silence: api.js DEAD_MS).
func TestSilentSocketIsAbandoned(t *testing.T) {
	t.Parallel() // one browser context and one server of its own (browser_test.go)
	base, _ := startServer(t)
	b := browser(t)
	for _, sz := range []screen{{"phone", phoneW, phoneH}, {"desktop", desktopW, desktopH}} {
		t.Run(sz.name, func(t *testing.T) {
			fr, via := newFreezer(t, base)
			ctx := newPage(t, b, sz.w, sz.h)
			countSockets(t, ctx)
			signIn(t, ctx, via, "Kit")
			host := apiGuest(t, base, "Hugo")
			r := host.create(map[string]any{"ruleset": "hotspot", "seats": 2})
			goTo(t, ctx, via+"/#/room/"+r.Code)
			waitJS(t, ctx, `!!document.querySelector("#invite-link")`)
			host.do("POST", "/api/rooms/"+r.Code+"/deal", nil, nil)
			waitJS(t, ctx, `document.querySelectorAll('.card[data-zone="hand.1"]').length > 0`)
			cards, sockets := myCards(t, ctx), evalJS[int](t, ctx, `window.__sockets`)

			frozeAt, before := time.Now(), fr.Freeze()
			waitJS(t, ctx, `window.__sockets > `+strconv.Itoa(sockets))
			abandoned := time.Since(frozeAt)
			waitJS(t, ctx, `document.querySelectorAll('.card[data-zone^="hand."]').length === `+strconv.Itoa(cards))
			waitJS(t, ctx, `!document.body.textContent.includes("reconnecting")`)
			if fr.connections() <= before {
				t.Errorf("no new connection reached the server after the freeze (%d before, %d after)", before, fr.connections())
			}
			if h := evalJS[string](t, ctx, `location.hash`); h != "#/room/"+r.Code {
				t.Errorf("after the silent socket the page is at %q, want the table", h)
			}
			t.Logf("the page opened a new socket %s after its socket went silent, and was back at the table %s after it", abandoned.Round(time.Millisecond), time.Since(frozeAt).Round(time.Millisecond))
			shot(t, ctx, "after-silent-socket-"+sz.name)
		})
	}
}
