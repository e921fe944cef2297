package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"cardhouse/platform/room"
)

// Quick play and the live lobby (issue 32).
//
// POST /api/quickplay seats the caller at a public quick-play table of the variant that waits for
// players (one they already sit at first), or opens one (room/quick.go: it deals when full or after
// a short wait, bots in the empty seats). The search reads the lobby of the whole cluster; on this
// node it runs one request at a time, so two people pressing at once land at one table. Two
// nodes searching at the same instant may each open a table: the next players fill the first.
//
// GET /api/lobby/events is a server-sent event stream of the public tables (the lobby, each
// table with its players' ratings in its variant): the list at once, then again whenever it
// changes. One poller per node reads the cluster's lobby every lobbyPoll while anyone watches and
// sends it to every watcher when it differs from the last, so a change anywhere shows within
// lobbyPoll plus one lobby read (lobbyTimeout at worst for a node that does not answer).

const lobbyPoll = 700 * time.Millisecond

func (s *Server) quickRoutes(api *echo.Group) {
	api.POST("/quickplay", s.quickPlay, s.needUser)
	api.GET("/lobby/events", s.lobbyEvents)
}

type quickResp struct {
	Code string `json:"code"`
	// Join says the table runs on another node: the client joins it (POST .../join), as for any
	// room; otherwise the caller is seated already.
	Join bool `json:"join,omitempty"`
	// Opened says quick play opened a new table for the caller.
	Opened bool `json:"opened,omitempty"`
}

func (s *Server) quickPlay(c echo.Context) error {
	var req struct {
		Ruleset string `json:"ruleset"`
	}
	if err := bind(c, &req); err != nil {
		return err
	}
	if req.Ruleset == "" {
		return fieldError("ruleset", "name the variant to play")
	}
	u := userOf(c)
	ctx := c.Request().Context()
	s.quick.Lock()
	defer s.quick.Unlock()
	rooms := s.lobbyRooms(ctx)
	pick := ""
	for _, lr := range rooms {
		if !lr.Quick || lr.Ruleset != req.Ruleset || lr.Game != nil {
			continue
		}
		for _, m := range lr.Members {
			if m.UserID == u.ID {
				return c.JSON(http.StatusOK, quickResp{Code: lr.Code}) // already waiting there
			}
		}
		if pick == "" {
			pick = lr.Code
		}
	}
	if pick != "" {
		r := s.cfg.Rooms.Running(pick)
		if r == nil {
			return c.JSON(http.StatusOK, quickResp{Code: pick, Join: true})
		}
		m, err := r.Join(ctx, u, false)
		if err == nil && m.Seat >= 0 {
			s.lobbyFeed.poke()
			return c.JSON(http.StatusOK, quickResp{Code: pick})
		}
		if err == nil {
			_ = r.Leave(ctx, u) // the table filled up meanwhile: no seat, open another
		}
	}
	r, err := s.cfg.Rooms.Create(ctx, u, room.CreateRequest{Ruleset: req.Ruleset, Quick: true})
	if err != nil {
		return err
	}
	s.lobbyFeed.poke()
	return c.JSON(http.StatusCreated, quickResp{Code: r.Code(), Opened: true})
}

// lobbyTable is a public table as the live lobby lists it: the room and its players' ratings in
// its variant (by user id; an unrated player has none).
type lobbyTable struct {
	room.LobbyRoom
	Ratings map[string]float64 `json:"ratings"`
}

func (s *Server) lobbyTables(ctx context.Context) []lobbyTable {
	rooms := s.lobbyRooms(ctx)
	out := make([]lobbyTable, 0, len(rooms))
	for _, lr := range rooms {
		t := lobbyTable{LobbyRoom: lr, Ratings: map[string]float64{}}
		var ids []int64
		for _, m := range lr.Members {
			if m.UserID != 0 {
				ids = append(ids, m.UserID)
			}
		}
		rs, err := s.cfg.Store.RatingsIn(ctx, lr.Ruleset, ids)
		if err != nil {
			s.log.Warn("reading the lobby's ratings", "err", err)
		}
		for id, r := range rs {
			t.Ratings[strconv.FormatInt(id, 10)] = round1(r.Ordinal)
		}
		out = append(out, t)
	}
	return out
}

// lobbyFeed is the node's one lobby poller and its watchers.
type lobbyFeed struct {
	mu      sync.Mutex
	subs    map[chan []byte]struct{}
	last    []byte
	running bool
	closed  bool
	kick    chan struct{}
}

// closeAll ends every watcher's stream (the server shuts down) and takes no new ones.
func (f *lobbyFeed) closeAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	for ch := range f.subs {
		close(ch)
		delete(f.subs, ch)
	}
}

// poke asks the poller to read the lobby now (a table this node just changed).
func (f *lobbyFeed) poke() {
	f.mu.Lock()
	k := f.kick
	f.mu.Unlock()
	if k != nil {
		select {
		case k <- struct{}{}:
		default:
		}
	}
}

func (s *Server) lobbySubscribe() (chan []byte, func(), bool) {
	f := &s.lobbyFeed
	ch := make(chan []byte, 1)
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return nil, nil, false
	}
	if f.subs == nil {
		f.subs = map[chan []byte]struct{}{}
	}
	f.subs[ch] = struct{}{}
	if !f.running {
		f.running, f.last, f.kick = true, nil, make(chan struct{}, 1)
		go s.pollLobby(f.kick)
	}
	f.mu.Unlock()
	return ch, func() {
		f.mu.Lock()
		delete(f.subs, ch)
		f.mu.Unlock()
	}, true
}

// pollLobby reads the lobby every lobbyPoll (or when poked) while anyone watches, and hands
// each watcher the list when it changed.
func (s *Server) pollLobby(kick chan struct{}) {
	t := time.NewTicker(lobbyPoll)
	defer t.Stop()
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*lobbyTimeout)
		b, err := json.Marshal(map[string]any{"rooms": s.lobbyTables(ctx)})
		cancel()
		f := &s.lobbyFeed
		f.mu.Lock()
		if len(f.subs) == 0 {
			f.running, f.kick = false, nil
			f.mu.Unlock()
			return
		}
		if err == nil && !bytes.Equal(b, f.last) {
			f.last = b
			for ch := range f.subs {
				select { // a watcher that has not read the last list gets this one instead
				case <-ch:
				default:
				}
				ch <- b
			}
		}
		f.mu.Unlock()
		select {
		case <-t.C:
		case <-kick:
		}
	}
}

// lobbyEvents streams the lobby as server-sent events ("lobby" events, each the whole list).
func (s *Server) lobbyEvents(c echo.Context) error {
	ch, done, ok := s.lobbySubscribe()
	if !ok {
		return apiError(http.StatusServiceUnavailable, "shutting_down", "the server is shutting down")
	}
	defer done()
	w := c.Response()
	w.Header().Set(echo.HeaderContentType, "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	first, err := json.Marshal(map[string]any{"rooms": s.lobbyTables(c.Request().Context())})
	if err != nil {
		return err
	}
	send := func(b []byte) error {
		if _, err := fmt.Fprintf(w, "event: lobby\ndata: %s\n\n", b); err != nil {
			return err
		}
		w.Flush()
		return nil
	}
	if err := send(first); err != nil {
		return nil
	}
	keep := time.NewTicker(25 * time.Second)
	defer keep.Stop()
	for {
		select {
		case <-c.Request().Context().Done():
			return nil
		case b, ok := <-ch:
			if !ok {
				return nil
			}
			if err := send(b); err != nil {
				return nil
			}
		case <-keep.C:
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return nil
			}
			w.Flush()
		}
	}
}
