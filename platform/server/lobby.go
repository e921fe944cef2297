package server

import (
	"context"
	"encoding/json"
	"sort"
	"sync"
	"time"

	"cardhouse/platform/cluster"
	"cardhouse/platform/room"
)

// The lobby of a cluster: each node lists the rooms it runs (room.Manager.Lobby), so the node
// asked gathers the lists of every node holding a live lease (store.Leases names them) over the
// bus, each within lobbyTimeout: a node that does not answer in time is left out of this answer.

const lobbyTimeout = 2 * time.Second

func (s *Server) lobbyRooms(ctx context.Context) []room.LobbyRoom {
	rooms := s.cfg.Rooms.Lobby(ctx)
	if s.cfg.Bus == nil {
		return rooms
	}
	leases, now, err := s.cfg.Store.Leases(ctx)
	if err != nil {
		s.log.Warn("listing the nodes for the lobby", "err", err)
		return rooms
	}
	nodes := map[string]bool{}
	for _, l := range leases {
		if l.ExpiresMs > now && l.Node != s.cfg.Node && validNode(l.Node) {
			nodes[l.Node] = true
		}
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for n := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rctx, cancel := context.WithTimeout(ctx, lobbyTimeout)
			defer cancel()
			answer, err := s.request(rctx, "lobby", nodeSubject(n, "lobby"), nil)
			var theirs []room.LobbyRoom
			if err == nil {
				err = json.Unmarshal(answer, &theirs)
			}
			if err != nil {
				s.log.Info("a node's lobby is left out", "node", n, "err", err)
				return
			}
			mu.Lock()
			rooms = append(rooms, theirs...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	// A room moving between nodes may be in two lists: once is enough.
	seen := map[string]bool{}
	out := rooms[:0]
	for _, r := range rooms {
		if !seen[r.Code] {
			seen[r.Code] = true
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

// serveLobby answers another node's lobby with this node's rooms.
func (s *Server) serveLobby(m cluster.Msg) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), lobbyTimeout)
		defer cancel()
		rooms := s.cfg.Rooms.Lobby(ctx)
		if rooms == nil {
			rooms = []room.LobbyRoom{}
		}
		_ = m.Respond(mustJSON(rooms))
	}()
}
