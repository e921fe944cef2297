package server

import (
	"encoding/json"
	"hash/fnv"
	"sync"
	"time"

	"cardhouse/platform/cluster"
	"cardhouse/platform/room"
)

// The relay's heartbeat is one per pair of nodes and direction, whatever the number of sockets
// relayed between them: every relayBeat a node sends each node it relays sockets with (either
// way) a pairBeat on cardhouse.node.PEER.beat. A peer heard from for relayDead ends every
// socket relayed with it: the edge closes its sockets with 1001 "going away" (the clients
// reconnect and land on the room's next owner), the owner detaches its clients (the players count
// as dropped: grace, cover and pause apply).
//
// A beat also says which sockets its sender believes open with the receiver, as a count and a
// sum of their hashes for each side. When the sums disagree, the receiver asks (Want) and the
// next beat carries the lists; a socket that the other side does not list and that is older than
// relayDead (so not one whose attach or detach is still on its way) is ended as above. So a
// relayed socket whose state one side lost (the owner restarted, a close or a detach lost on the
// bus, which delivers at most once) is found within a few beats.

// pairBeat is what a node says to another every relayBeat.
type pairBeat struct {
	Node  string  `json:"node"`  // the sender
	Edge  setSum  `json:"edge"`  // the sockets the sender relays to the receiver
	Owner setSum  `json:"owner"` // the sockets the receiver relays to the sender
	Want  bool    `json:"want,omitempty"`
	Lists *idList `json:"lists,omitempty"` // the sender's ids, asked for by the receiver's Want
}

// setSum is a set of relayed sockets' ids told in a few bytes: how many, and the sum of their
// hashes (the same whatever the order).
type setSum struct {
	N   int    `json:"n"`
	Sum uint64 `json:"sum"`
}

type idList struct {
	Edge  []string `json:"edge"`
	Owner []string `json:"owner"`
}

// relayEnd is one relayed socket in the node's registry: since when, and how to end it; an
// edge's socket also names its room and the owner's lease epoch it was attached under.
type relayEnd struct {
	since time.Time
	end   func()
	room  string
	epoch int64
}

// peer is what this node relays with another node.
type peer struct {
	heard time.Time            // the peer's last beat, or the last attach with it
	edge  map[string]*relayEnd // sockets this node relays to the peer (their room runs there)
	owner map[string]*relayEnd // sockets the peer relays to this node (their room runs here)
	want  bool                 // the peer's last beat disagreed with this node: ask for its lists
	lists bool                 // the peer asked for this node's lists
	// theirs is whether the peer's last beat listed sockets: a node that has none with it still
	// answers, so that the peer finds the ones it forgot; two nodes with none stop beating.
	theirs bool
}

// peers is the node's registry of relayed sockets, by the other node of each.
type peers struct {
	mu   sync.Mutex
	by   map[string]*peer
	stop chan struct{}
	done chan struct{}
}

func (ps *peers) peer(node string, now time.Time) *peer {
	if ps.by == nil {
		ps.by = map[string]*peer{}
	}
	p := ps.by[node]
	if p == nil {
		p = &peer{heard: now, edge: map[string]*relayEnd{}, owner: map[string]*relayEnd{}}
		ps.by[node] = p
	}
	return p
}

// addRelay registers a relayed socket with node (the owner when edge is true, else the edge);
// end closes or detaches it. An attach is news from the node: it counts as heard. The returned
// func unregisters the socket.
func (s *Server) addRelay(node, conn string, edge bool, end func()) func() {
	return s.registerRelay(node, conn, edge, &relayEnd{end: end})
}

// addEdgeRelay registers a socket this node relays to the room's owner, node, attached under
// the owner's lease epoch (0: not told): roomMoved ends it once another lease is taken.
func (s *Server) addEdgeRelay(node, conn, room string, epoch int64, end func()) func() {
	return s.registerRelay(node, conn, true, &relayEnd{end: end, room: room, epoch: epoch})
}

func (s *Server) registerRelay(node, conn string, edge bool, r *relayEnd) func() {
	now := time.Now()
	s.peers.mu.Lock()
	defer s.peers.mu.Unlock()
	p := s.peers.peer(node, now)
	p.heard = now
	side := p.owner
	if edge {
		side = p.edge
	}
	r.since = now
	side[conn] = r
	return func() {
		s.peers.mu.Lock()
		defer s.peers.mu.Unlock()
		if side[conn] == r {
			delete(side, conn)
		}
	}
}

// roomMoved ends the sockets this node relays for a room that a node has now taken under a later
// lease epoch than theirs (room.RoomMoved): their owner is gone (dead, frozen past its lease, or
// restarted under its name) and the frames sent there go nowhere. Their clients reconnect at once
// and land on the new owner, rather than when the old owner's heartbeats are found missing
// (relayDead) or its restart found to have forgotten them.
func (s *Server) roomMoved(rm room.RoomMoved) {
	s.peers.mu.Lock()
	defer s.peers.mu.Unlock()
	n := 0.0
	for _, p := range s.peers.by {
		for id, r := range p.edge {
			if r.room == rm.Code && r.epoch < rm.Epoch {
				r.end()
				delete(p.edge, id)
				n++
			}
		}
	}
	if n > 0 {
		s.cfg.Cluster.RelaysEnded.WithLabelValues("edge", "moved").Add(n)
		s.log.Info("a room moved: ended the sockets relayed to its previous owner", "room", rm.Code, "node", rm.Node, "epoch", rm.Epoch, "closed", n)
	}
}

func sumOf(set map[string]*relayEnd) setSum {
	ss := setSum{N: len(set)}
	for id := range set {
		h := fnv.New64a()
		_, _ = h.Write([]byte(id))
		ss.Sum += h.Sum64()
	}
	return ss
}

func idsOf(set map[string]*relayEnd) []string {
	ids := make([]string, 0, len(set))
	for id := range set {
		ids = append(ids, id)
	}
	return ids
}

// endMissing ends the sockets of set older than relayDead that the peer does not list.
func endMissing(set map[string]*relayEnd, listed []string, now time.Time) float64 {
	have := make(map[string]bool, len(listed))
	for _, id := range listed {
		have[id] = true
	}
	n := 0.0
	for id, r := range set {
		if !have[id] && now.Sub(r.since) > relayDead {
			r.end()
			delete(set, id)
			n++
		}
	}
	return n
}

// serveBeat hears another node's beat.
func (s *Server) serveBeat(m cluster.Msg) {
	var b pairBeat
	if err := json.Unmarshal(m.Data, &b); err != nil || !validNode(b.Node) || b.Node == s.cfg.Node {
		return
	}
	now := time.Now()
	s.peers.mu.Lock()
	defer s.peers.mu.Unlock()
	p := s.peers.peer(b.Node, now)
	p.heard = now
	// The peer's edge sockets are this node's owner ones, and the other way round.
	p.want = b.Edge != sumOf(p.owner) || b.Owner != sumOf(p.edge)
	p.lists = p.lists || b.Want
	p.theirs = b.Edge.N+b.Owner.N > 0
	if b.Lists == nil {
		return
	}
	detached := endMissing(p.owner, b.Lists.Edge, now)
	closed := endMissing(p.edge, b.Lists.Owner, now)
	if detached+closed > 0 {
		s.cfg.Cluster.RelaysEnded.WithLabelValues("owner", "forgotten").Add(detached)
		s.cfg.Cluster.RelaysEnded.WithLabelValues("edge", "forgotten").Add(closed)
		s.log.Warn("relayed sockets another node no longer knows: ended", "node", b.Node, "closed", closed, "detached", detached)
	}
}

// beat sends every peer this node relays with (or that lists sockets with it) its beat, and ends the
// sockets relayed with a peer not heard from for relayDead.
func (s *Server) beat(now time.Time) {
	type out struct {
		node string
		data []byte
	}
	var beats []out
	s.peers.mu.Lock()
	for node, p := range s.peers.by {
		relayed := len(p.edge) + len(p.owner)
		silent := now.Sub(p.heard) > relayDead
		if relayed == 0 && silent {
			delete(s.peers.by, node)
			continue
		}
		if relayed == 0 && !p.theirs && !p.lists {
			continue // nothing relayed either way: nothing to say
		}
		if silent {
			s.log.Warn("a node relaying sockets with this one stopped answering: ending them", "node", node, "closed", len(p.edge), "detached", len(p.owner))
			s.cfg.Cluster.RelaysEnded.WithLabelValues("edge", "silent").Add(float64(len(p.edge)))
			s.cfg.Cluster.RelaysEnded.WithLabelValues("owner", "silent").Add(float64(len(p.owner)))
			for id, r := range p.edge {
				r.end()
				delete(p.edge, id)
			}
			for id, r := range p.owner {
				r.end()
				delete(p.owner, id)
			}
			continue
		}
		b := pairBeat{Node: s.cfg.Node, Edge: sumOf(p.edge), Owner: sumOf(p.owner), Want: p.want}
		if p.lists {
			b.Lists = &idList{Edge: idsOf(p.edge), Owner: idsOf(p.owner)}
			p.lists = false
		}
		beats = append(beats, out{node, mustJSON(b)})
	}
	s.peers.mu.Unlock()
	for _, b := range beats {
		_ = s.cfg.Bus.Publish(nodeSubject(b.node, "beat"), b.data)
	}
}

// startBeating beats every relayBeat until stopBeating.
func (s *Server) startBeating() {
	stop, done := make(chan struct{}), make(chan struct{})
	s.peers.mu.Lock()
	s.peers.stop, s.peers.done = stop, done
	s.peers.mu.Unlock()
	go func() {
		defer close(done)
		t := time.NewTicker(relayBeat)
		defer t.Stop()
		up, reconnects := true, cluster.Reconnects(s.cfg.Bus)
		for {
			select {
			case <-stop:
				return
			case now := <-t.C:
				// Back after an outage: seen down at the last beat, or reconnected since (an
				// outage shorter than a beat).
				connected, n := cluster.Connected(s.cfg.Bus), cluster.Reconnects(s.cfg.Bus)
				if connected && (!up || n != reconnects) {
					s.endAllRelays()
				}
				up = connected
				if connected {
					reconnects = n
				}
				s.beat(now)
			}
		}
	}()
}

// endAllRelays ends every socket relayed with another node, both ways, once the broker link comes
// back after an outage: the frames published while it was down are lost, and a relayed socket
// has no sequence to notice it (a client would play on with a view behind the room's, waiting for
// a turn that came and went). Their clients reconnect and start from a whole view.
func (s *Server) endAllRelays() {
	s.peers.mu.Lock()
	defer s.peers.mu.Unlock()
	closed, detached := 0, 0
	for _, p := range s.peers.by {
		for id, r := range p.edge {
			r.end()
			delete(p.edge, id)
			closed++
		}
		for id, r := range p.owner {
			r.end()
			delete(p.owner, id)
			detached++
		}
	}
	if closed+detached > 0 {
		s.cfg.Cluster.RelaysEnded.WithLabelValues("edge", "bus").Add(float64(closed))
		s.cfg.Cluster.RelaysEnded.WithLabelValues("owner", "bus").Add(float64(detached))
		s.log.Warn("the broker link came back: ended the relayed sockets, whose frames may have been lost meanwhile", "closed", closed, "detached", detached)
	}
}

func (s *Server) stopBeating() {
	s.peers.mu.Lock()
	stop, done := s.peers.stop, s.peers.done
	s.peers.stop, s.peers.done = nil, nil
	s.peers.mu.Unlock()
	if stop != nil {
		close(stop)
		<-done
	}
}

// goingAway is the close the edge gives a relayed socket whose owner is gone or forgot it.
func goingAway(client *room.Client) func() {
	return func() {
		client.Close(room.CloseGoingAway, "the server running the room stopped answering; reconnect")
	}
}
